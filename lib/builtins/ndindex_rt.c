/* builtins/ndindex_rt.c — numpy.nditer's order='K' at run time
 * (rt_nditer_index), for operands whose layouts leave it open; see
 * ndindex.c for the typers and lowerers.
 */
#include <stdlib.h>

#include "ruchey.h"

/* Whether axis a goes inside axis b, as NumPy's nditer sorts its axes
 * (npyiter_find_best_axis_ordering): operands with a stride on both vote,
 * any that keeps b inside wins (C order wins a conflict); -1 where none
 * votes (a broadcast axis), so the sort looks further out. */
static int goes_inside(int nop, int ndim, const int64_t *strides, int a, int b) {
  int vote = -1;
  for (int i = 0; i < nop; i++) {
    int64_t sa = llabs(strides[i * ndim + a]), sb = llabs(strides[i * ndim + b]);
    if (!sa || !sb) continue;
    if (sb <= sa) return 0;
    vote = 1;
  }
  return vote;
}

/* Whether axis a is walked backwards: some operand's stride is negative
 * there and none positive (NumPy's npyiter_flip_negative_strides). */
static bool walked_back(int nop, int ndim, const int64_t *strides, int a) {
  bool negative = false;
  for (int i = 0; i < nop; i++) {
    if (strides[i * ndim + a] > 0) return false;
    negative |= strides[i * ndim + a] < 0;
  }
  return negative;
}

void rt_nditer_index(int32_t ndim, int32_t nop, const int64_t *dims, const int64_t *strides, int64_t k,
                     int64_t *idx) {
  int order[RC_MAX_NDIM];  /* the axes from the innermost out */
  for (int j = 0; j < ndim; j++) {
    int axis = ndim - 1 - j, at = j;
    for (int i = j - 1; i >= 0; i--) {
      int inside = goes_inside(nop, ndim, strides, axis, order[i]);
      if (inside == 0) break;
      if (inside == 1) at = i;
    }
    for (int i = j; i > at; i--) order[i] = order[i - 1];
    order[at] = axis;
  }
  for (int j = 0; j < ndim; j++) {
    int axis = order[j];
    int64_t i = k % dims[axis];
    k /= dims[axis];
    idx[axis] = walked_back(nop, ndim, strides, axis) ? dims[axis] - 1 - i : i;
  }
}
