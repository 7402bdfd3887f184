"""make compat: real Numba-based packages from PyPI run with ruchey
registered as numba, their results compared with Numba's.

    python3 bench/compat.py [--only PACKAGE ...] [--fresh] [--venv DIR]

Makes a virtual environment (build/compat-venv by default, seeing the
system's site packages), pip-installs numba and the packages into it
(the newest of each, or the version PINNED names), then runs each
package's computations (bench/compat_workloads.py) in fresh processes:
once under Numba, once after ``ruchey.install_as_numba()``. The results
must agree (numpy.allclose, rtol 1e-6, NaNs equal). Numba's results are
kept in build/compat/, keyed by the package's and Numba's versions,
since compiling them takes minutes (--fresh runs them again). Prints a
table (markdown): per computation the time of each (the first call,
compiles included) and whether ruchey's result agrees, or the first line
of its error; then per package the Numba names it asked for that ruchey
lacks (placeholders of ruchey.numba_shim).

Packages with numba.cuda kernels (KERNELS) run them under ruchey on its
CPU backend (RUCHEY_CUDA_BACKEND=cpu). Under Numba, on a machine without
a GPU, their computations take the package's own CPU path where it has
one (stumpy's stump for gpu_stump, sgkit's device="cpu", pylops'
engine="numba", clifford.tools.g3c's functions of multivectors,
aquagrid's backend="cpu", numta's functions of one series for its
*_batch, geofast's primitives), which is then the reference; where it has none (SIMULATED),
the kernels run in numba.cuda's simulator (NUMBA_ENABLE_CUDASIM=1: Python
threads, about a thousand times slower, hence their small sizes). frbb
compiles its kernels' signatures as it is imported, which Numba cannot
without a GPU, and its simulator lacks the device attributes frbb's fit
reads: its row has no reference.
"""
import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PACKAGES = ("stumpy", "pynndescent", "quantecon", "numbagg", "numba-stats", "fastdist", "resampy", "tslearn", "pvlib", "librosa", "sparse", "hapsira",
            "umap-learn", "pandas", "antropy", "aeon", "fluids", "datashader", "shap", "pymatting", "pyod", "pyts", "scanpy",
            "decoupler", "chemicals", "fast_hdbscan", "trackpy", "stingray", "mne", "arch", "numpy-groupies", "ssqueezepy",
            "quimb", "lenstronomy", "galois", "vectorbt", "py-pde", "thermo", "interpolation", "sktime", "statsforecast",
            "window-ops", "clifford", "dcor", "hyppo", "sgkit", "esda", "porespy", "pysheds",
            "scoringrules", "properscoring", "yasa", "trimap", "pacmap", "numba-kdtree", "numba_celltree",
            "numbalsoda", "numbakit-ode", "cooltools", "scvelo", "xarray-einstats", "arviz", "spectrum_utils", "matchms",
            "choclo", "harmonica", "wotan", "pylops", "sigpy", "thewalrus", "py_vollib_vectorized", "pecanpy",
            "mne-features", "tensorpac", "pynapple", "systole",
            "csrgraph", "verde", "opensimplex", "pyfixest",
            "transitleastsquares", "PyMPDATA", "PySDM", "pandapower", "pybispectra", "financepy", "pandas-ta-classic",
            "hendrics", "pytransit", "xugrid", "pyproximal", "sarkas", "orix", "kikuchipy",
            "alphatims", "quaternionic", "skan", "squidpy", "xarray-spatial", "fast-array-utils", "libpysal", "mgwr",
            "pyxem", "diffsims", "skforecast", "pymoo", "ffpiv", "strax", "iminuit",
            "spatialpandas", "pastas", "sleepecg", "hotspotsc", "sequence-jacobian",
            "econ-ark", "pyflwdir", "numpy-quaternion", "xclim", "pointpats", "mapclassify", "disba", "fastjmd95", "csr",
            "consav", "spherical", "sxs", "vector", "ht", "rocket-fft", "numba-scipy", "abtem", "rosettasciio", "simpeg",
            "alphabase", "pegasuspy", "spikeinterface", "frites", "stardist", "pop-tools", "directlfq",
            "fteikpy", "empymod", "emg3d", "pythermalcomfort", "pynucastro", "pyro-hydro", "EMD-signal",
            "spherical_functions", "scri", "xgcm", "openpnm", "pysm3", "hyperspy",
            "frbb", "locate-pixelcolor-numbacuda", "aquagrid", "numta", "geofast",
            "skglm", "bm25s", "ranx", "claspy", "fastnode2vec", "hftbacktest",
            "py-fatigue", "pyelastica", "swiftsimio", "xsdba", "segregation", "geoana", "sectionproperties",
            "pydsge", "aotools", "einsteinpy",
            "kalepy", "pymc-bart", "scirpy", "cellrank", "tacco", "liana", "tsdate", "pybaselines", "ctxcore",
            "tsinfer", "alphapept",
            "pytreegrav", "meshoid", "sarracen", "dynasor",
            "qibojit", "pyqmc", "taurex", "radis", "autoarray", "piquasso", "miepython", "quspin",
            "pyqula", "bztetra",
            "baseflow", "acoular", "uxarray", "replay_trajectory_classification", "muon",
            "hausdorff", "dtwalign", "haversine", "sknw", "ta-numba", "hyper-corr", "sketchnu",
            "vanilla-option-pricers", "foostrap", "numba-mwu", "hmmkay",
            "glasbey", "timml", "ttim", "covasim", "starsim", "ctapipe", "momepy",
            "superflexpy", "scikit-gstat",
            "tcpyPI", "laser-core", "wildboottest", "libfmp", "synctoolbox", "codex-africanus", "openpmd-viewer",
            "wake-t", "pynamical", "hydrostats", "vectorizers", "pyntcloud", "evoc",
            "fast-cindex", "lumafit", "louvain-numba", "nbmorph",
            "shapley-numba", "ndfilters", "regridding",
            "numba-extinction", "hampel-filter",
            "numbasom", "kearsley-numba", "pyakima", "fast-twed", "yennefer", "threej", "ir-eval-numba",
            "rapid-roots", "graspologic", "numba-integrators", "fast-mine",
            "numbatalib", "robust-fourier", "mrg32k3a-numba",
            "spectres", "lppls", "ElMD", "cyrk", "flexsolve", "gsply", "z7py", "enstop", "napari-graph",
            "chemcoord", "baderkit", "nucs", "tigramite", "lsdnumbatools", "fast-ivf",
            "numba-quaternion", "noblegasmd", "modifiedotsu", "otsu2d", "cubic-spline", "zsom", "nufftcf",
            "numba-morph", "chimeraboost", "plonk", "exo_k", "fastpose", "pixerise", "lanun", "scijit")
TIMEOUT = 1200
# packages whose numba.cuda kernels their computations launch, and those of
# them whose kernels Numba runs in its simulator (no CPU path to compare with)
KERNELS = {"stumpy", "sgkit", "clifford", "pylops", "frbb", "locate-pixelcolor-numbacuda", "aquagrid", "numta",
           "geofast"}
SIMULATED = {"locate-pixelcolor-numbacuda"}
# packages whose computations compile longer than that under Numba on a
# loaded machine: PyMPDATA's 1-, 2- and 3-d steppers take about 23 minutes,
# pyqmc's Gaussian orbitals (calls through first-class functions) 13,
# qibojit's kernels and quantum-information routines 9, nbmorph's kernels
# of 27 inlined arguments and regridding's hundred functions over 20 on a
# heavily loaded machine
TIMEOUTS = {"PyMPDATA": 2400, "pyqmc": 2400, "qibojit": 2400, "nbmorph": 2400, "regridding": 2400}


# ---------------------------------------------------------------- the worker (in the compat venv)

def summary(exc):
    """An error in one line: its class and the line saying what failed (a
    TypingError's, past "in the function called here:" and its places)."""
    lines = [line.strip() for line in str(exc).splitlines()]
    said = [line for line in lines if line and line != "in the function called here:" and
            not line.startswith("File ") and set(line) != {"^"}]
    return f"{type(exc).__name__}: {said[0] if said else ''}"[:200]


def work(package, mode, outdir):
    """Runs package's computations, writing each result and report.json to outdir."""
    import numpy as np
    if mode == "ruchey":
        import ruchey
        ruchey.install_as_numba()
    sys.path.insert(0, HERE)
    import compat_workloads
    rows = []
    for name, fn in compat_workloads.WORKLOADS[package].items():
        start = time.perf_counter()
        try:
            result = fn()
            np.savez(os.path.join(outdir, name + ".npz"), **{k: np.asarray(v) for k, v in result.items()})
            rows.append({"name": name, "ok": True, "seconds": time.perf_counter() - start})
        except BaseException as exc:  # noqa: BLE001 - every failure is a row of the table
            rows.append({"name": name, "ok": False, "seconds": time.perf_counter() - start,
                         "error": summary(exc)})
    missing = []
    if mode == "ruchey":
        from ruchey import numba_shim
        missing = numba_shim.missing()
    with open(os.path.join(outdir, "report.json"), "w") as f:
        json.dump({"rows": rows, "missing": missing}, f)


# ---------------------------------------------------------------- the driver

def venv_python(venv):
    python = os.path.join(venv, "bin", "python")
    if not os.path.exists(python):
        base = getattr(sys, "_base_executable", sys.executable)
        subprocess.run([base, "-m", "venv", "--system-site-packages", venv], check=True)
    return python


# packages installed without their dependencies, and the ones their compiled
# code needs: hapsira pins matplotlib<3.8, which would take NumPy back to 1.x
# in the venv every package shares (its orbital mechanics never plots); aeon
# pins an older Numba than the table's
WITHOUT_DEPS = {"hapsira": ["astropy", "jplephem", "pandas", "pyerfa", "scipy"],
                # aeon pins numba<0.64, which would take the venv's Numba back
                "aeon": ["deprecated", "joblib", "packaging", "pandas", "scikit-learn", "scipy", "threadpoolctl",
                         "typing-extensions"],
                # systole 0.3 pins numpy<=2.2; its detectors and HRV need only these (not its plots)
                "systole": ["pandas", "requests", "scipy", "sleepecg", "tqdm"],
                # sarkas 1.0 requires pickle5 (a backport that does not build on Python 3.8+) and
                # jupyter; its simulations import these
                "sarkas": ["ipython", "matplotlib", "pandas", "pyfftw", "pyfiglet==0.8.post1", "pyyaml", "scipy",
                           "seaborn", "tqdm"],
                # strax 2.2 pins zarr<3 (squidpy needs zarr>=3) for its zarr storage, which its
                # processing never imports; these are what importing it takes
                "strax": ["blosc", "click", "deepdiff", "dill", "fsspec", "immutabledict", "lz4", "numexpr", "packaging",
                          "pandas", "psutil", "pymongo", "pytz", "scipy", "tqdm", "zstandard", "zstd"],
                # pyxem 0.21 pins zarr<3; squidpy 1.8 needs zarr>=3: with both, pip takes pyxem
                # 0.19.1, whose azimuthal integration Numba refuses; 0.21's runs with zarr 3
                # numba-scipy 0.4 pins scipy<=1.11, which would take the venv's NumPy back to 1.x; its
                # kernels are SciPy's Cython ones by address, which SciPy 1.17 still exports
                "numba-scipy": ["scipy"],
                # claspy 0.2.8 pins numba<0.62 and NumPy<2.3; it needs aeon (installed so too, see
                # aeon's) and these; hftbacktest 1.8 (the last compiled by Numba alone) pins
                # numba~=0.59 and NumPy<1.27
                "claspy": ["aeon", "daproli", "networkx", "statsmodels"],
                # pymc-bart samples with PyMC, whose PyTensor 2.38 pins numba<=0.65.1 (for its numba
                # backend, which PyMC's default C backend leaves unimported): both installed so too
                "pymc-bart": ["pymc", "pytensor", "arviz-stats[xarray]", "matplotlib"],
                "pymc": ["arviz<1.0", "cachetools<7", "cloudpickle", "pandas", "rich", "scipy", "threadpoolctl",
                         "typing-extensions"],
                "pytensor": ["setuptools", "scipy", "filelock", "etuples", "logical-unification", "miniKanren", "cons"],
                "hftbacktest": ["pandas"],
                # py-fatigue 2.1 pins numba<0.66; its counting, damage and crack growth need only these
                "py-fatigue": ["matplotlib", "pandas", "plotly", "pydantic<3"],
                # qibojit 0.1.17 pins numba<0.62; its simulation needs qibo (0.3.6) and these
                "qibojit": ["psutil", "qibo", "scipy"],
                # libfmp 1.3 pins pandas<3 (synctoolbox 1.4 too, and numba<0.66): their compiled
                # code and the functions calling it need only these
                "libfmp": ["ipython<9", "librosa", "matplotlib", "music21", "pandas", "pretty_midi", "scipy",
                           "soundfile"],
                "synctoolbox": ["libfmp", "librosa", "matplotlib", "music21", "pandas", "pretty_midi", "scipy",
                                "soundfile"],
                # pynamical 0.3.3 pins numba<0.62, NumPy<2.3 and pandas<2.3; hydrostats 1.0 numba~=0.63:
                # their compiled maps and scores need only these
                "pynamical": ["matplotlib", "pandas"],
                "hydrostats": ["hydroerr", "matplotlib", "pandas", "scipy"],
                "pyxem": ["dask", "diffsims", "h5py", "hyperspy", "lmfit", "matplotlib", "orix", "pooch", "psutil",
                          "scikit-image", "scikit-learn", "scipy", "shapely", "tqdm", "traits", "transforms3d", "zarr"],
                # louvain-numba 0.0.2 pins Numba below 0.59 and NumPy below 2; numba-extinction 0.1 requires
                # its documentation's tools (sphinx and its themes)
                "louvain-numba": ["networkx", "scipy"], "numba-extinction": ["astropy"],
                # baderkit 0.10 pins numba<=0.65.1, NuCS 14 numba==0.66.0 (and NumPy 2.4.6 exactly):
                # what importing them and their computations take
                "baderkit": ["numpy", "pandas", "pymatgen", "rich", "scipy", "typer"], "nucs": ["rich"]}


# what a package's computations need beside its own dependencies:
# datashader's edge bundling takes dask and scikit-image; vectorbt 0.28
# imports plotly's heatmapgl, which plotly 6 removed; statsforecast's MFLES
# needs scikit-learn; window-ops is run through mlforecast's lag transforms too;
# harmonica imports numba_progress (its progress bars) where it is installed;
# xugrid's regridders locate cells with numba_celltree, an optional dependency
# alpharaw's reader (alphatims') empties the zeroth frame by chained assignment,
# which pandas 3's copy-on-write ignores; libpysal's raster contiguity reads
# xarray DataArrays; skforecast's statistical models import statsmodels;
# pyflwdir passes its affine transforms to compiled code as tuples, which
# affine 3's Affine no longer is; consav imports EconModel (its model classes)
# without requiring it; RosettaSciIO's FEI stream reader makes sparse
# arrays; SimPEG's numba engine is choclo's kernels; alphabase's LCP digestion
# imports pydivsufsort, an optional dependency; HyperSpy's statistical peak
# finder needs scikit-learn; sectionproperties compiles its elements with
# Numba where it is installed (its numba extra); sarracen imports
# scikit-learn (its dust Stokes numbers) without requiring it; TauREx
# interpolates cross sections and Planck functions with Numba where it is
# installed (its numba extra), PyAutoArray its inversions' CPU path (its
# optional extra); momepy's Theil index needs inequality without requiring it;
# pyntcloud 0.3.1 calls ndarray.ptp, which NumPy 2 removed: it runs in a venv
# of its own (--venv) with NumPy 1.26 and the pandas and SciPy built for it;
# graspologic 3.4 requires NumPy below 2: it runs in a venv of its own too;
# numba-integrators 0.3 imports limedev.CLI, which limedev 0.7 renamed;
# lsdnumbatools keeps its graphs in xarray Datasets without requiring it
ALSO = {"datashader": ["dask[dataframe]", "scikit-image"], "vectorbt": ["plotly<6"], "statsforecast": ["scikit-learn"],
        "window-ops": ["mlforecast"], "harmonica": ["numba-progress"], "financepy": ["pandas<3"],
        "pandas-ta-classic": ["pandas<3"], "xugrid": ["numba_celltree"], "alphatims": ["pandas<3"],
        "libpysal": ["xarray"], "skforecast": ["statsmodels<0.16"],
        "pyflwdir": ["affine<3"], "consav": ["EconModel"], "rosettasciio": ["sparse"], "simpeg": ["choclo"],
        "alphabase": ["pydivsufsort"], "hyperspy": ["scikit-learn"],
        "sectionproperties": ["numba"], "sarracen": ["scikit-learn"],
        "taurex": ["numba"], "autoarray": ["numba"], "momepy": ["inequality"],
        "pyntcloud": ["numpy<2", "pandas<2.3", "scipy<1.14"], "graspologic": ["numpy<2"],
        "numba-integrators": ["limedev<0.7"], "lsdnumbatools": ["xarray"]}

# the version installed where the newest does not fit the venv: vectorbt
# 1.x needs pandas 3, the other packages (and pandas' own row) pandas 2;
# statsforecast 2.0 moved its Theta models, 2.1 all the others Numba
# compiled, to C++; sgkit 0.10 pins NumPy below 2.2 (0.8.0 takes NumPy 2.4);
# hftbacktest 2 runs its backtests in Rust; PyMC 5.28 (pymc-bart's) takes PyTensor 2.38;
# PyAutoArray's releases after 2026.7.29.1 need Python 3.12
PINNED = {"vectorbt": "0.28.5", "statsforecast": "1.7.8", "sgkit": "0.8.0", "hftbacktest": "1.8.4",
          "pymc": "5.28.5", "pytensor": "2.38.3", "autoarray": "2026.7.29.1"}


def requirement(package):
    return f"{package}=={PINNED[package]}" if package in PINNED else package


def install(python, packages):
    pip = [python, "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    # one installed without its dependencies that needs another such one (claspy: aeon) brings it along
    packages = list(packages) + [d for p in packages for d in WITHOUT_DEPS.get(p, ())
                                 if d in WITHOUT_DEPS and d not in packages]
    plain = [requirement(p) for p in packages if p not in WITHOUT_DEPS] + [d for p in packages for d in ALSO.get(p, ())]
    needed = [d for p in packages for d in WITHOUT_DEPS.get(p, ()) if d not in WITHOUT_DEPS]
    subprocess.run(pip + ["numba", *plain, *needed], check=True)
    if any(p in WITHOUT_DEPS for p in packages):
        subprocess.run(pip + ["--no-deps", *(requirement(p) for p in packages if p in WITHOUT_DEPS)], check=True)


def version(python, package):
    out = subprocess.run([python, "-c", f"import importlib.metadata as m; print(m.version({package!r}))"],
                         capture_output=True, text=True)
    return out.stdout.strip() or "?"


def ruchey_path(workdir):
    """A folder holding only this interpreter's ruchey, for the venv's PYTHONPATH."""
    import ruchey
    path = os.path.join(workdir, "path")
    os.makedirs(path, exist_ok=True)
    link = os.path.join(path, "ruchey")
    if os.path.islink(link):
        os.unlink(link)
    os.symlink(os.path.dirname(os.path.abspath(ruchey.__file__)), link)
    return path


def run(python, package, mode, outdir, env):
    """Runs the worker; caches go to an empty folder of the run's own, so
    that a package compiling with cache=True (librosa) is timed compiling."""
    import shutil
    import tempfile
    os.makedirs(outdir, exist_ok=True)
    cache = tempfile.mkdtemp(prefix="compat-cache-")
    env = dict(env, NUMBA_CACHE_DIR=cache, RUCHEY_CACHE_DIR=cache)
    report = os.path.join(outdir, "report.json")
    if os.path.exists(report):
        os.unlink(report)
    cmd = [python, os.path.abspath(__file__), "--worker", package, mode, outdir]
    try:
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=TIMEOUTS.get(package, TIMEOUT))
    except subprocess.TimeoutExpired:
        return {"rows": [], "missing": [], "failed": f"timed out after {TIMEOUTS.get(package, TIMEOUT)} s"}
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    if not os.path.exists(report):
        last = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        return {"rows": [], "missing": [], "failed": f"the process died (rc {proc.returncode}): {last[:160]}"}
    with open(report) as f:
        return json.load(f)


def kernel_backend(package, mode):
    """The variables that choose where package's kernels run in mode's process."""
    if package not in KERNELS:
        return {}
    if mode == "ruchey":
        return {"RUCHEY_CUDA_BACKEND": "cpu"}
    return {"NUMBA_ENABLE_CUDASIM": "1"} if package in SIMULATED else {}


def agree(a_dir, b_dir, name):
    import numpy as np
    with np.load(os.path.join(a_dir, name + ".npz")) as a, np.load(os.path.join(b_dir, name + ".npz")) as b:
        if set(a.files) != set(b.files):
            return "different results"
        for key in a.files:
            x, y = a[key], b[key]
            if x.shape != y.shape:
                return f"{key}: shape {y.shape}, Numba's {x.shape}"
            if not np.allclose(x, y, rtol=1e-6, atol=1e-12, equal_nan=True):
                gap = np.abs(x.astype(np.float64) - y.astype(np.float64))  # (unsigned ints would wrap)
                return f"{key}: differs from Numba's (max abs diff {np.nanmax(gap):.3g})"
    return None


def table(results):
    lines = ["| package | computation | Numba | ruchey | same result as Numba |", "|---|---|---|---|---|"]
    for package, ver, numba_dir, numba_rep, ruchey_dir, ruchey_rep in results:
        numba_rows = {r["name"]: r for r in numba_rep["rows"]}
        for row in ruchey_rep["rows"] or [{"name": "(all)", "ok": False, "seconds": 0,
                                           "error": ruchey_rep.get("failed", "?")}]:
            ref = numba_rows.get(row["name"])
            numba_time = f"{ref['seconds']:.1f} s" if ref and ref["ok"] else "fails"
            if not row["ok"]:
                verdict, ruchey_time = "no: " + row["error"].replace("|", "\\|"), "—"
            elif not (ref and ref["ok"]):
                verdict, ruchey_time = "runs (Numba fails)", f"{row['seconds']:.1f} s"
            else:
                diff = agree(numba_dir, ruchey_dir, row["name"])
                verdict, ruchey_time = ("yes" if diff is None else "no: " + diff), f"{row['seconds']:.1f} s"
            lines.append(f"| {package} {ver} | {row['name']} | {numba_time} | {ruchey_time} | {verdict} |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=PACKAGES, choices=PACKAGES)
    parser.add_argument("--fresh", action="store_true", help="run Numba's side again")
    parser.add_argument("--venv", default=os.path.join(ROOT, "build", "compat-venv"))
    parser.add_argument("--worker", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        work(*args.worker)
        return
    workdir = os.path.join(ROOT, "build", "compat")
    python = venv_python(args.venv)
    install(python, args.only)
    numba_version = version(python, "numba")
    plain = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    with_ruchey = dict(plain, PYTHONPATH=ruchey_path(workdir))
    results = []
    for package in args.only:
        ver = version(python, package)
        numba_dir = os.path.join(workdir, f"numba-{numba_version}-{package}-{ver}")
        report = os.path.join(numba_dir, "report.json")
        if args.fresh or not os.path.exists(report):
            print(f"{package} {ver} under Numba {numba_version} ...", file=sys.stderr, flush=True)
            numba_rep = run(python, package, "numba", numba_dir, dict(plain, **kernel_backend(package, "numba")))
        else:
            with open(report) as f:
                numba_rep = json.load(f)
        print(f"{package} {ver} under ruchey ...", file=sys.stderr, flush=True)
        ruchey_dir = os.path.join(workdir, f"ruchey-{package}")
        ruchey_rep = run(python, package, "ruchey", ruchey_dir, dict(with_ruchey, **kernel_backend(package, "ruchey")))
        results.append((package, ver, numba_dir, numba_rep, ruchey_dir, ruchey_rep))
    print(f"Numba {numba_version}; each time is the computation's first run (compiles included).\n")
    print(table(results))
    print()
    for package, *_, ruchey_rep in results:
        if ruchey_rep.get("missing"):
            print(f"{package} asked for what ruchey lacks: {', '.join(ruchey_rep['missing'])}")


if __name__ == "__main__":
    main()
