/* builtins/searching_rt.c — digitize's check of its bins at run time;
 * see searching.c for the typers and lowerers.
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
