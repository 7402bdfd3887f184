"""numba-cuda's ``cuda.cudadrv.nvrtc.find_closest_arch``: the compute
capability that ruchey's PTX for a device targets."""

# What LLVM 19's NVPTX backend emits and CUDA 13's ptxas takes (as lib/ptx.c clamps it)
OLDEST, NEWEST = (7, 5), (9, 0)


def find_closest_arch(mycc):
    """The compute capability ruchey compiles for on a device of compute
    capability mycc ((major, minor)): mycc itself from 7.5 to 9.0; 7.5
    below (the oldest current ptxas takes); 9.0 above (the newest LLVM
    emits, which newer devices run through the driver's JIT)."""
    if not (isinstance(mycc, tuple) and len(mycc) == 2 and all(isinstance(v, int) for v in mycc)):
        raise TypeError(f"a compute capability is (major, minor), got {mycc!r}")
    return min(max(mycc, OLDEST), NEWEST)
