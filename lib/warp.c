/* warp.c — what CUDA's collectives give each thread on the CPU backend.
 *
 * A warp is 32 consecutive threads of a block (by linear index); a
 * collective combines the arguments its lanes gave. Kernels split by
 * fission gather every thread's arguments, then call rt_collective for the
 * whole block; fibers (fiber.c) gather the lanes that wait at the same
 * call and use rt_warp_results. Both follow PTX's definitions (shfl.sync,
 * vote.sync, match.sync, bar.red), so that a kernel gives the GPU's
 * results. A lane that does not take part (it returned, or waits
 * elsewhere) contributes nothing: a shuffle from it gives the caller's
 * own value, as a shuffle from outside the warp does.
 */
#include "ruchey.h"

/* PTX shfl.sync with numba-cuda's clamps (c = 0 for up, 0x1f otherwise,
 * the whole warp as one segment): only the low five bits of the lane or
 * delta count; out of range, the lane reads its own value. */
static int shfl_source(int op, int lane, uint64_t b) {
  int d = (int)(b & 31);
  switch (op) {
  case COLL_SHFL_IDX: return d;
  case COLL_SHFL_UP: return lane - d >= 0 ? lane - d : lane;
  case COLL_SHFL_DOWN: return lane + d <= 31 ? lane + d : lane;
  default: return lane ^ d;
  }
}

static uint32_t ballot(uint32_t part, int nlanes, const uint64_t *pred) {
  uint32_t b = 0;
  for (int i = 0; i < nlanes; i++)
    if ((part >> i & 1) && pred[i]) b |= 1u << i;
  return b;
}

void rt_warp_results(int op, uint32_t part, int nlanes, const uint64_t *a0, const uint64_t *a1,
                     const uint64_t *a2, uint64_t *out) {
  uint32_t votes = ballot(part, nlanes, a1);
  for (int i = 0; i < nlanes; i++) {
    if (!(part >> i & 1)) continue;
    uint32_t m = (uint32_t)a0[i] & part;  /* the members named that take part */
    uint32_t yes = votes & m;
    switch (op) {
    case COLL_SHFL_IDX: case COLL_SHFL_UP: case COLL_SHFL_DOWN: case COLL_SHFL_XOR: {
      int j = shfl_source(op, i, a2[i]);
      out[i] = j < nlanes && (part >> j & 1) ? a1[j] : a1[i];
      break;
    }
    case COLL_ALL: out[i] = yes == m; break;
    case COLL_ANY: out[i] = yes != 0; break;
    case COLL_EQ: out[i] = yes == 0 || yes == m; break;
    case COLL_BALLOT: out[i] = yes; break;
    case COLL_MATCH_ANY: case COLL_MATCH_ALL: {
      uint32_t same = 0;
      for (int j = 0; j < nlanes; j++)
        if ((m >> j & 1) && a1[j] == a1[i]) same |= 1u << j;
      if (op == COLL_MATCH_ANY) out[i] = same;
      else out[i] = same == m ? (uint64_t)m | (uint64_t)1 << 32 : 0;
      break;
    }
    case COLL_ACTIVEMASK: out[i] = part; break;
    default: out[i] = 0; break;
    }
  }
}

uint64_t rt_block_result(int op, int64_t n, const uint8_t *done, const uint64_t *pred) {
  int64_t count = 0, live = 0;
  for (int64_t t = 0; t < n; t++) {
    if (done[t]) continue;
    live++;
    count += pred[t] != 0;
  }
  switch (op) {
  case COLL_BLOCK_COUNT: return (uint64_t)count;
  case COLL_BLOCK_AND: return count == live;
  case COLL_BLOCK_OR: return count != 0;
  default: return 0;
  }
}

void rt_collective(int op, int64_t n, const uint8_t *done, const uint64_t *a0, const uint64_t *a1,
                   const uint64_t *a2, uint64_t *out) {
  if (COLL_IS_BLOCK(op)) {
    uint64_t r = rt_block_result(op, n, done, a1);
    for (int64_t t = 0; t < n; t++) out[t] = r;
    return;
  }
  for (int64_t w = 0; w < n; w += RC_WARP) {
    int nlanes = n - w < RC_WARP ? (int)(n - w) : RC_WARP;
    uint32_t part = 0;
    for (int i = 0; i < nlanes; i++)
      if (!done[w + i]) part |= 1u << i;
    rt_warp_results(op, part, nlanes, a0 + w, a1 + w, a2 + w, out + w);
  }
}
