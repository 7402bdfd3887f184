/* builtins/searching_rt.c — digitize's check of its bins and interp's
 * search of its points at run time; see searching.c for the typers and
 * lowerers.
 */
#include "ruchey.h"

/* NumPy's check of digitize's bins, on their values as doubles: 1
 * increasing (or all equal), -1 decreasing, 0 neither. */
int32_t rt_monotonic(const char *data, int64_t n, int64_t stride, int32_t kind) {
  if (n == 0) return 1;
  double last = rt_item_double(kind, data), next = last;
  int64_t i = 1;
  while (i < n && (next = rt_item_double(kind, data + i * stride)) == last) i++;
  if (i == n) return 1;
  int32_t way = last < next ? 1 : -1;
  for (i++; i < n; i++) {
    last = next;
    next = rt_item_double(kind, data + i * stride);
    if (way > 0 ? last > next : last < next) return 0;
  }
  return way;
}

/* NumPy's search of interp's points xp (n >= 2, as doubles) for key: j
 * with xp[j] <= key < xp[j+1], -1 below xp[0], n above xp[n-1], looked
 * for first around the last x's j (guess) and then by bisection, as
 * NumPy's binary_search_with_guess: on points that are not sorted it is
 * that search's answer NumPy's interp gives, so it is followed step by step. */
int64_t rt_interp_search(double key, const char *xp, int64_t n, int64_t stride, int32_t kind, int64_t guess) {
  enum { IN_CACHE = 8 };  /* NumPy's LIKELY_IN_CACHE_SIZE */
#define XP(i) rt_item_double(kind, xp + (i) * stride)
  int64_t lo = 0, hi = n;
  if (key > XP(n - 1)) return n;
  if (key < XP(0)) return -1;
  if (n <= 4) {
    int64_t i = 1;
    while (i < n && key >= XP(i)) i++;
    return i - 1;
  }
  if (guess > n - 3) guess = n - 3;
  if (guess < 1) guess = 1;
  if (key < XP(guess)) {
    if (!(key < XP(guess - 1))) return guess - 1;  /* (not key >= ...: a NaN point answers false to both) */
    hi = guess - 1;
    if (guess > IN_CACHE && key >= XP(guess - IN_CACHE)) lo = guess - IN_CACHE;
  } else {
    if (key < XP(guess + 1)) return guess;
    if (key < XP(guess + 2)) return guess + 1;
    lo = guess + 2;
    if (guess < n - IN_CACHE - 1 && key < XP(guess + IN_CACHE)) hi = guess + IN_CACHE;
  }
  while (lo < hi) {
    int64_t mid = lo + ((hi - lo) >> 1);
    if (key >= XP(mid)) lo = mid + 1;
    else hi = mid;
  }
#undef XP
  return lo - 1;
}
