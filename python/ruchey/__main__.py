"""python -m ruchey -s: what ruchey runs on."""
import os
import platform
import sys


def _cache_location():
    from ruchey import caching, config
    root = config.CACHE_DIR or os.environ.get("RUCHEY_CACHE_DIR") or os.environ.get("NUMBA_CACHE_DIR")
    if root:
        return f"{root} (RUCHEY_CACHE_DIR or NUMBA_CACHE_DIR)"
    return f"__pycache__ beside each source file, else {caching._user_cache_root()}"


def system_report():
    from ruchey import _core
    from ruchey.cuda import runtime as cuda_runtime
    import numpy
    lines = [
        ("ruchey", __import__("ruchey").__version__),
        ("Python", sys.version.split()[0]),
        ("NumPy", numpy.__version__),
        ("LLVM", _core.llvm_version()),
        ("CPU", f"{_core.host_cpu()} ({platform.machine()})"),
        ("CPU cores", str(os.cpu_count())),
        ("Cache", _cache_location()),
        ("CUDA devices", f"{len(cuda_runtime.list_devices()) or 'none'} found"),
    ] + [("CUDA", line) for line in cuda_runtime.summary()]
    width = max(len(k) for k, _ in lines)
    return "\n".join(f"{k:<{width}} : {v}" for k, v in lines)


def main(argv):
    if argv[1:] in (["-s"], ["--sysinfo"]):
        print(system_report())
        return 0
    print("usage: python -m ruchey -s   (print the system ruchey runs on)")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
