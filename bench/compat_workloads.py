"""The computations bench/compat.py runs with each Numba-based package, once
under Numba and once with ruchey registered as numba. Each returns a dict
of NumPy arrays (or numbers) that the two runs must agree on; inputs come
from fixed seeds. One package has several computations, each reported on
its own, so that one missing feature does not hide what else works."""
import numpy as np


def _walk(n, seed):
    return np.cumsum(np.random.default_rng(seed).standard_normal(n))


def stumpy_stump():
    import stumpy
    mp = stumpy.stump(_walk(2000, 0), m=50)
    return {"profile": mp[:, 0].astype(float), "index": mp[:, 1].astype(np.int64)}


def stumpy_aamp():
    import stumpy
    return {"profile": stumpy.aamp(_walk(600, 1), m=30)[:, 0].astype(float)}


def stumpy_more():
    """The rest of stumpy's CPU API on short series: multidimensional
    profiles (mstump, maamp, subspace, mmotifs), AB-joins, MPdist, motifs,
    pattern matching, snippets, incremental updates (stumpi), FLUSS,
    SCRIMP++, consensus motifs (ostinato) and the pan matrix profile."""
    import stumpy
    t, u = _walk(600, 2), _walk(500, 3)
    multi = np.cumsum(np.random.default_rng(4).standard_normal((3, 300)), axis=1)
    profile = stumpy.stump(t, 30)
    incremental = stumpy.stumpi(t[:300], m=20, egress=False)
    incremental.update(1.5)
    np.random.seed(1)
    return {"mstump": stumpy.mstump(multi, m=20)[0], "maamp": stumpy.maamp(multi, m=20)[0],
            "subspace": stumpy.subspace(multi, 20, 10, 15, 1).astype(float),
            "mmotifs": stumpy.mmotifs(multi, *stumpy.mstump(multi, m=20), max_motifs=1)[0][0],
            "ab_join": stumpy.stump(t, 30, u, ignore_trivial=False)[:, 0].astype(float),
            "mpdist": stumpy.mpdist(t[:200], u[:200], m=20), "aampdist": stumpy.aampdist(t[:200], u[:200], m=20),
            "motifs": stumpy.motifs(t, profile[:, 0].astype(float), max_motifs=2)[0],
            "match": stumpy.match(t[:30], t)[:, 0].astype(float), "snippets": stumpy.snippets(t[:300], m=20, k=2)[0],
            "stumpi": incremental.P_, "fluss": stumpy.fluss(profile[:, 1].astype(np.int64), L=30, n_regimes=2)[0],
            "scrump": stumpy.scrump(t, 30, percentage=1.0, pre_scrump=False).P_,
            "ostinato": np.asarray(stumpy.ostinato([t[:200], u[:200], t[100:300]], m=20)[:2], dtype=float),
            "stimp": stumpy.stimp(t[:200], min_m=10, max_m=20).PAN_}


def pynndescent_graph():
    import pynndescent
    data = np.random.default_rng(1).standard_normal((600, 8)).astype(np.float32)
    index = pynndescent.NNDescent(data, n_neighbors=10, random_state=42, n_jobs=1)
    found, _ = index.neighbor_graph
    exact = np.argsort(((data[:, None, :] - data[None, :, :]) ** 2).sum(-1), axis=1)[:, :10]
    recall = np.mean([len(set(a) & set(b)) / 10 for a, b in zip(found, exact)])
    return {"recall_at_least_0.99": float(recall >= 0.99)}


def quantecon_markov():
    import quantecon as qe
    mc = qe.markov.tauchen(25, 0.9, 0.1)
    path = mc.simulate(ts_length=2000, init=0, random_state=1234)
    return {"stationary": mc.stationary_distributions[0], "path": np.asarray(path, dtype=np.int64)}


def quantecon_brent_max():
    import quantecon as qe
    from numba import njit

    @njit
    def bumpy(x):
        return -(x - 0.3) ** 2 + np.sin(3 * x)
    xmax, fmax, _ = qe.optimize.brent_max(bumpy, -1.0, 1.0)
    return {"argmax_max": np.array([xmax, fmax])}


def quantecon_nelder_mead():
    import quantecon as qe
    from numba import njit

    @njit
    def rosen(x):
        return -((1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2)
    return {"x": qe.optimize.nelder_mead(rosen, np.array([-1.2, 1.0])).x}


def _panel():
    rng = np.random.default_rng(2)
    a = rng.standard_normal((50, 400))
    a[rng.random(a.shape) < 0.1] = np.nan
    return a


def numbagg_nanmean():
    import numbagg
    return {"nanmean": numbagg.nanmean(_panel(), axis=-1)}


def numbagg_move_mean():
    import numbagg
    return {"move_mean": numbagg.move_mean(_panel(), window=10)}


def numbagg_move_exp_nanmean():
    import numbagg
    return {"move_exp_nanmean": numbagg.move_exp_nanmean(_panel(), alpha=0.3)}


def numbagg_group_nanmean():
    import numbagg
    labels = np.random.default_rng(3).integers(0, 7, size=400)
    return {"group_nanmean": numbagg.group_nanmean(_panel(), labels, axis=-1)}


def numbagg_nanquantile():
    import numbagg
    return {"nanquantile": numbagg.nanquantile(_panel(), 0.3, axis=-1)}


def numba_stats_densities():
    from numba_stats import chi2, crystalball, expon, gamma, lognorm, norm, truncnorm, voigt
    x = np.linspace(0.05, 6.0, 200)
    p = np.linspace(0.01, 0.99, 99)
    return {"norm": np.concatenate([norm.pdf(x, 1.0, 1.5), norm.cdf(x, 1.0, 1.5), norm.ppf(p, 1.0, 1.5)]),
            "expon": np.concatenate([expon.pdf(x, 0.2, 1.1), expon.cdf(x, 0.2, 1.1), expon.ppf(p, 0.2, 1.1)]),
            "gamma": np.concatenate([gamma.pdf(x, 2.5, 0.0, 1.2), gamma.cdf(x, 2.5, 0.0, 1.2),
                                     gamma.ppf(p, 2.5, 0.0, 1.2)]),
            "chi2": np.concatenate([chi2.pdf(x, 3.0, 0.0, 1.0), chi2.cdf(x, 3.0, 0.0, 1.0)]),
            "lognorm": np.concatenate([lognorm.pdf(x, 0.7, 0.0, 1.5), lognorm.cdf(x, 0.7, 0.0, 1.5)]),
            "crystalball": crystalball.pdf(x - 3.0, 1.5, 3.0, 0.0, 1.0),
            "truncnorm": truncnorm.cdf(x, 0.5, 5.0, 2.0, 1.0),
            "voigt": voigt.pdf(x - 3.0, 0.5, 0.0, 1.0)}


def fastdist_distances():
    from fastdist import fastdist
    rng = np.random.default_rng(4)
    u, v, a, b = rng.random(50), rng.random(50), rng.random((40, 5)), rng.random((30, 5))
    names = ("euclidean", "cosine", "braycurtis", "canberra", "chebyshev", "cityblock", "correlation", "sqeuclidean")
    return {"vectors": np.array([getattr(fastdist, n)(u, v) for n in names]),
            "matrix_to_matrix": fastdist.matrix_to_matrix_distance(a, b, fastdist.euclidean, "euclidean"),
            "pairwise": fastdist.matrix_pairwise_distance(a, fastdist.cityblock, "cityblock", return_matrix=True),
            "cosine_pairwise": fastdist.matrix_pairwise_distance(a, fastdist.cosine, "cosine", return_matrix=True)}


def resampy_resample():
    import resampy
    x = np.sin(np.linspace(0, 100, 8000))
    return {"kaiser_best": resampy.resample(x, 8000, 5513), "kaiser_fast": resampy.resample(x, 8000, 5513, filter="kaiser_fast")}


def tslearn_dtw():
    from tslearn import metrics
    x = np.cumsum(np.random.default_rng(6).standard_normal((6, 40)), axis=1)
    return {"dtw": np.array([metrics.dtw(x[0], x[1]),
                             metrics.dtw(x[2], x[3], global_constraint="sakoe_chiba", sakoe_chiba_radius=3)]),
            "cdist_dtw": metrics.cdist_dtw(x[:3, :, None], x[3:, :, None]),
            "soft_dtw": np.array([metrics.soft_dtw(x[0], x[1], gamma=0.5)]),
            "lcss": np.array([metrics.lcss(x[0], x[1], eps=0.5)])}


def pvlib_spa():
    import os
    os.environ["PVLIB_USE_NUMBA"] = "1"  # read when pvlib.spa is first imported
    import pandas as pd
    from pvlib import spa
    times = pd.date_range("2020-01-01", periods=2000, freq="37min", tz="UTC")
    unixtime = np.asarray(times.view(np.int64) / 1e9, dtype=np.float64)
    site = (37.8, -122.4, 10.0, 1013.25, 12.0, 67.0, 0.5667)
    return {"position": spa.solar_position_numba(unixtime, *site, 4),  # four Python threads
            "sunrise_transit_sunset": spa.solar_position_numba(unixtime[::40], *site, 1, sst=True),
            "earth_sun_distance": spa.solar_position_numba(unixtime, *site, 1, esd=True)}


def _audio(seconds, seed):
    return np.random.default_rng(seed).standard_normal(22050 * seconds).astype(np.float32)


def librosa_sequence():
    import librosa
    rng = np.random.default_rng(7)
    cost = np.abs(rng.standard_normal((40, 60)))
    probs = np.abs(rng.standard_normal((4, 200)))
    return {"dtw": librosa.sequence.dtw(C=cost)[0],
            "viterbi": librosa.sequence.viterbi(probs / probs.sum(axis=0), librosa.sequence.transition_loop(4, 0.9)),
            "rqa": librosa.sequence.rqa(np.abs(rng.standard_normal((50, 50))) > 1.0)[0],
            "match_intervals": librosa.util.match_intervals(np.array([[0.0, 1.0], [1.0, 2.0], [2.0, 3.5]]),
                                                            np.array([[0.0, 1.5], [1.5, 3.0]]))}


def librosa_onsets_beats():
    import librosa
    y = _audio(3, 8)
    return {"onsets": librosa.onset.onset_detect(y=y, sr=22050),
            "beats": librosa.beat.beat_track(y=y, sr=22050)[1],
            "zero_crossings": librosa.zero_crossings(y[:20000]).astype(np.int64),
            "peaks": librosa.util.peak_pick(np.abs(y[:20000]), pre_max=3, post_max=3, pre_avg=3, post_avg=5,
                                            delta=0.5, wait=10)}


def librosa_pitch():
    import librosa
    t = np.arange(22050) / 22050
    y = (np.sin(2 * np.pi * 220 * t) + 0.1 * _audio(1, 9)).astype(np.float32)
    return {"yin": librosa.yin(y, fmin=80, fmax=800), "pyin": librosa.pyin(y[:8000], fmin=80, fmax=800)[0]}


def librosa_more():
    """More of librosa's compiled code on one second of a noisy tone at
    8 kHz: inverse STFT (overlap-add), Griffin-Lim, time stretching and
    pitch shifting, nearest-neighbour filtering, recurrence and lag
    matrices (shear), local extrema, NNLS, PCEN, PLP, CQT chroma, VQT,
    reassigned spectrogram, tempogram, memory stacking, event matching."""
    import librosa
    sr = 8000
    y = np.sin(2 * np.pi * 440 * np.arange(sr) / sr) + 0.1 * np.random.default_rng(0).standard_normal(sr)
    spec = np.abs(librosa.stft(y, n_fft=512))
    basis = np.abs(np.random.default_rng(1).standard_normal((20, 8)))
    return {"istft": librosa.istft(librosa.stft(y, n_fft=512), n_fft=512),
            "griffinlim": librosa.griffinlim(spec, n_iter=3, random_state=0, n_fft=512),
            "time_stretch": librosa.effects.time_stretch(y, rate=1.3),
            "pitch_shift": librosa.effects.pitch_shift(y, sr=sr, n_steps=2),
            "nn_filter": librosa.decompose.nn_filter(spec[:, :40]),
            "lag": librosa.segment.recurrence_to_lag(librosa.segment.recurrence_matrix(spec[:, :60], sparse=False)),
            "localmax": librosa.util.localmax(spec[:, :30], axis=0).astype(float),
            "localmin": librosa.util.localmin(spec[:, :30], axis=0).astype(float),
            "nnls": librosa.util.nnls(basis, spec[:20, :5]), "pcen": librosa.pcen(spec, sr=sr),
            "plp": librosa.beat.plp(y=y, sr=sr),
            "chroma_cqt": librosa.feature.chroma_cqt(y=y, sr=sr, hop_length=256, fmin=100, n_octaves=3),
            "vqt": np.abs(librosa.vqt(y, sr=sr, fmin=100, n_bins=24, hop_length=256)),
            "reassigned": librosa.reassigned_spectrogram(y=y, sr=sr, n_fft=512)[2],
            "tempogram": librosa.feature.tempogram(y=y, sr=sr),
            "stack_memory": librosa.feature.stack_memory(spec[:5, :30], n_steps=3),
            "match_events": librosa.util.match_events(np.array([0.1, 0.5, 0.9]), np.array([0.2, 0.45, 1.0, 1.3]))}


def _sparse_pair():
    import sparse
    return sparse.random((80, 60), density=0.1, random_state=1), sparse.random((60, 50), density=0.1, random_state=2)


def sparse_products():
    import sparse
    a, b = _sparse_pair()
    dense = np.random.default_rng(10).standard_normal((60, 7))
    return {"coo_coo": (a @ b).todense(), "coo_dense": a @ dense, "gcxs_dense": sparse.GCXS(a) @ dense,
            "gcxs_gcxs": (sparse.GCXS(a) @ sparse.GCXS(b)).todense(), "einsum": sparse.einsum("ij,jk->ik", a, b).todense()}


def sparse_reductions():
    import sparse
    a, _ = _sparse_pair()
    return {"sum0": a.sum(axis=0).todense(), "max1": a.max(axis=1).todense(), "diagonal": sparse.diagonal(a).todense()}


def sparse_elementwise_indexing():
    import sparse
    a, _ = _sparse_pair()
    return {"elementwise": (a * 2 + a).todense(), "where": sparse.where(a > 0.5, a, 0).todense(),
            "slice": a[5:40, ::2].todense(), "rows": a[[1, 5, 7]].todense()}


def _orbit():
    return 398600.4418, np.array([1131.340, -2282.343, 6672.423]), np.array([-5.64305, 4.30333, 2.42879])


def hapsira_elements_lambert():
    from hapsira.core import angles, elements, iod
    k, r0, v0 = _orbit()
    r1 = np.array([-5000.0, 3000.0, 3000.0])
    return {"rv2coe": np.array(elements.rv2coe(k, r0, v0)),
            "coe2rv": np.concatenate(elements.coe2rv(k, 11067.79, 0.83285, 1.5336, 3.9774, 0.9316, 1.5097)),
            "angles": np.array([angles.M_to_E(1.2, 0.3), angles.E_to_nu(0.7, 0.3), angles.M_to_F(2.0, 1.5),
                                angles.F_to_nu(0.5, 1.5), angles.M_to_D(0.3), angles.fp_angle(0.3, 0.2)]),
            "izzo": np.concatenate(iod.izzo(k, r0, r1, 3000.0, 0, True, True, 35, 1e-8)),
            "vallado": np.concatenate(iod.vallado(k, r0, r1, 3000.0, 0, True, True, 35, 1e-8))}


def hapsira_propagators():
    import importlib
    k, r0, v0 = _orbit()
    out = {}
    for name, fn in (("farnocchia", "farnocchia_rv"), ("vallado", "vallado"), ("mikkola", "mikkola"),
                     ("danby", "danby"), ("pimienta", "pimienta"), ("gooding", "gooding"),
                     ("markley", "markley"), ("recseries", "recseries")):
        module = importlib.import_module("hapsira.core.propagation." + name)
        args = (k, r0, v0, 3000.0, 350) if name == "vallado" else (k, r0, v0, 3000.0)
        result = getattr(module, fn)(*args)
        out[name] = np.concatenate([np.ravel(x) for x in (result if isinstance(result, tuple) else (result,))])
    return out


def hapsira_perturbations_frames():
    from hapsira.core import fixed, perturbations, spheroid_location, util
    k, r0, v0 = _orbit()
    state = np.concatenate([r0, v0])
    return {"J2": perturbations.J2_perturbation(0.0, state, k, 1.08263e-3, 6378.137),
            "drag": perturbations.atmospheric_drag_exponential(0.0, state, k, 6378.137, 2.2, 0.01, 8.0, 1.2),
            "rotation": np.array([util.rotation_matrix(a, axis) for a in (0.3, -1.2) for axis in range(3)]),
            "mars": np.array(fixed.mars_rot_elements_at_epoch(0.1, 30.0)),
            "moon": np.array(fixed.moon_rot_elements_at_epoch(0.1, 30.0)),
            "spheroid": np.array(spheroid_location.cartesian_cords(6378.0, 6356.0, 0.3, 0.4, 0.1))}


# package -> its computations, by name
def umap_embedding():
    """UMAP of 500 digits: its fuzzy graph (weights to 3 decimals: the
    float32 exp of vectorised loops may differ from libm's in the last bits)
    and the embedding's trustworthiness; the embedding itself is a
    stochastic gradient descent whose last bits (fastmath) differ."""
    import umap
    from sklearn.datasets import load_digits
    from sklearn.manifold import trustworthiness
    data = load_digits().data[:500]
    fitted = umap.UMAP(n_neighbors=10, n_epochs=100, random_state=42).fit(data)
    graph = fitted.graph_.tocoo()
    new = fitted.transform(load_digits().data[500:600])
    return {"graph_rows": graph.row, "graph_cols": graph.col, "graph_weights_3_decimals": np.round(graph.data, 3),
            "trustworthiness_at_least_0.97": float(trustworthiness(data, fitted.embedding_, n_neighbors=10) >= 0.97),
            "transformed_finite": float(np.isfinite(new).all() and new.shape == (100, 2))}


def pandas_numba_engine():
    """pandas' engine="numba": rolling apply and mean, groupby agg,
    transform and sum, exponentially weighted means (its kernels close over
    a tuple as long as the data) over 3 columns of 2000 rows
    (DataFrame.apply takes pandas' own numba types: not here)."""
    import pandas as pd
    rng = np.random.default_rng(0)
    df = pd.DataFrame(rng.standard_normal((2000, 3)), columns=list("abc"))
    df["g"] = rng.integers(0, 5, 2000)

    def centred(x):
        return np.mean(x) * 2 - x[0]

    def doubled_sum(values, index):
        return values.sum() * 2

    def doubled(values, index):
        return values * 2

    cols = df[["a", "b"]]
    return {"rolling_apply": cols.rolling(10).apply(centred, raw=True, engine="numba").to_numpy(),
            "rolling_mean": cols.rolling(10).mean(engine="numba").to_numpy(),
            "groupby_agg": df.groupby("g")[["a", "b"]].agg(doubled_sum, engine="numba").to_numpy(),
            "groupby_transform": df.groupby("g")[["a"]].transform(doubled, engine="numba").to_numpy(),
            "groupby_sum": df.groupby("g")[["a", "b"]].sum(engine="numba").to_numpy(),
            "ewm_mean": cols.ewm(com=0.5).mean(engine="numba").to_numpy(),
            "ewm_times": cols.ewm(halflife="2h", times=pd.date_range("2020", periods=2000, freq="h")
                                  + pd.to_timedelta(np.arange(2000) % 7, unit="min")).mean(engine="numba").to_numpy(),
            "groupby_ewm": df.groupby("g")[["a"]].ewm(com=1.0).mean(engine="numba").to_numpy()}


def antropy_entropies():
    """antropy's entropies and fractal dimensions of 3000 samples (sample
    and approximate entropy, DFA, Higuchi, Katz, Petrosian, Lempel-Ziv...)."""
    import antropy as ant
    x = np.random.default_rng(0).standard_normal(3000)
    return {"perm": ant.perm_entropy(x, normalize=True), "spectral": ant.spectral_entropy(x, sf=100, method="welch"),
            "svd": ant.svd_entropy(x), "app": ant.app_entropy(x), "sample": ant.sample_entropy(x),
            "lziv": ant.lziv_complexity((x > 0).astype(int), normalize=True), "petrosian": ant.petrosian_fd(x),
            "katz": ant.katz_fd(x), "higuchi": ant.higuchi_fd(x), "dfa": ant.detrended_fluctuation(x),
            "hjorth": np.asarray(ant.hjorth_params(x)), "zero_crossings": ant.num_zerocross(x)}


def aeon_distances():
    """aeon's pairwise distances between two collections of series (20 and
    15, length 60): the elastic ones (DTW and its kin, LCSS, ERP, EDR, TWE,
    MSM, ADTW, shape DTW), SBD (an objmode FFT) and the lock-step ones."""
    from aeon import distances
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal((20, 1, 60)), rng.standard_normal((15, 1, 60))
    methods = ["euclidean", "squared", "manhattan", "minkowski", "dtw", "ddtw", "wdtw", "wddtw", "lcss", "erp", "edr",
               "twe", "msm", "adtw", "shape_dtw", "sbd"]
    return {m: distances.pairwise_distance(x, y, method=m) for m in methods}


def fluids_numba():
    """fluids.numba (the whole library compiled, as its users import it):
    Reynolds number, friction factors, fittings, packed beds, drag and
    terminal velocity, gas pipelines, packings, the 1976 atmosphere and
    tables looked up by name."""
    import fluids.numba as fn
    return {"reynolds": fn.Reynolds(V=2.5, D=0.25, rho=1.1613, mu=1.9E-5),
            "friction": fn.friction_factor(Re=1E5, eD=1E-4), "colebrook": fn.Colebrook(1E5, 1E-4),
            "gate_valve": fn.K_gate_valve_Crane(D1=.1, D2=.146, angle=13.115),
            "packed_bed": fn.dP_packed_bed(dp=8E-4, voidage=0.4, vs=1E-3, rho=1E3, mu=1E-3),
            "drag_sphere": fn.drag_sphere(200), "v_terminal": fn.v_terminal(D=70E-6, rhop=2600., rho=1000., mu=1E-3),
            "isothermal_gas": fn.isothermal_gas(rho=11.3, fd=0.00185, P1=1E6, P2=9E5, L=1000, D=0.5),
            "stichlmair": np.asarray(fn.Stichlmair_wet(Vg=0.4, Vl=5E-3, rhog=5., rhol=1200., mug=5E-5, voidage=0.68,
                                                      specific_area=260., C1=32., C2=7., C3=1.)),
            "atmosphere": fn.ATMOSPHERE_1976(5000.0).rho, "roughness": fn.roughness_Farshad("Cr13, bare", 0.05),
            "darby3k": fn.Darby3K(NPS=2., Re=10000., name="Valve, Angle valve, 45°, full line size, β = 1")}


def _datashader_frame(n=20000):
    import pandas as pd
    rng = np.random.default_rng(0)
    return pd.DataFrame({"x": rng.standard_normal(n), "y": rng.standard_normal(n), "v": rng.random(n),
                         "c": pd.Categorical(rng.choice(list("abc"), n)), "i": rng.integers(0, 100, n)})


def _datashader_canvas():
    import datashader as ds
    return ds.Canvas(plot_width=60, plot_height=40, x_range=(-3, 3), y_range=(-3, 3))


def datashader_points():
    """datashader's points onto a 60x40 canvas (20000 rows): its kernels
    are generated (syntax trees compiled), one per reduction."""
    import datashader as ds
    df, cvs = _datashader_frame(), _datashader_canvas()
    reductions = {"count": ds.count(), "sum": ds.sum("v"), "mean": ds.mean("v"), "max": ds.max("v"),
                  "std": ds.std("v"), "var": ds.var("v"), "first": ds.first("v"), "count_cat": ds.count_cat("c"),
                  "max_n": ds.max_n("v", n=3), "where_max": ds.where(ds.max("v")),
                  "where_min_i": ds.where(ds.min("v"), "i"), "by_sum": ds.by("c", ds.sum("v")), "any": ds.any()}
    return {name: cvs.points(df, "x", "y", agg=r).values.astype(float) for name, r in reductions.items()}


def datashader_lines():
    """datashader's lines (rows, and one line per row of 20 columns), areas."""
    import pandas as pd
    df, cvs = _datashader_frame(), _datashader_canvas()
    walk = np.random.default_rng(1).standard_normal((50, 20)).cumsum(1) / 5
    wide = pd.DataFrame({**{f"x{j}": np.full(50, j / 7 - 1.4) for j in range(20)},
                         **{f"y{j}": walk[:, j] for j in range(20)}})
    return {"line": cvs.line(df.iloc[:2000], "x", "y").values.astype(float),
            "lines_axis1": cvs.line(wide, x=[f"x{j}" for j in range(20)], y=[f"y{j}" for j in range(20)],
                                    axis=1).values.astype(float),
            "area": cvs.area(df.sort_values("x").iloc[:500], "x", "y").values.astype(float)}


def datashader_antialiased_lines():
    """datashader's antialiased lines (line_width > 0: its kernels take Enum
    members in named tuples)."""
    import datashader as ds
    df, cvs = _datashader_frame(), _datashader_canvas()
    return {"count": cvs.line(df.iloc[:500], "x", "y", line_width=1.5).values.astype(float),
            "sum": cvs.line(df.iloc[:500], "x", "y", agg=ds.sum("v"), line_width=1).values}


def datashader_meshes_and_shading():
    """datashader's triangle and quad meshes, rasters, and its shading:
    eq_hist, categorical colours, spread and dynspread."""
    import datashader as ds
    import datashader.transfer_functions as tf
    import pandas as pd
    import xarray as xr
    rng = np.random.default_rng(2)
    verts = pd.DataFrame({"x": [0., 1, 0, 1], "y": [0., 0, 1, 1], "z": [1., 2, 3, 4]})
    tris = pd.DataFrame({"v0": [0, 1], "v1": [1, 3], "v2": [2, 2]})
    quad = xr.DataArray(rng.random((10, 12)), name="z", dims=("y", "x"),
                        coords={"y": np.linspace(0, 1, 10) ** 2, "x": np.linspace(0, 1, 12) ** 2})
    df, cvs = _datashader_frame(), _datashader_canvas()
    counts = cvs.points(df, "x", "y")
    return {"trimesh": ds.Canvas(plot_width=20, plot_height=20).trimesh(verts, tris).values,
            "quadmesh": ds.Canvas(plot_width=30, plot_height=20).quadmesh(quad).values,
            "raster": ds.Canvas(plot_width=30, plot_height=20).raster(quad).values,
            "eq_hist": tf.shade(cvs.points(df, "x", "y", agg=ds.mean("v")), how="eq_hist").values,
            "categories": tf.shade(cvs.points(df, "x", "y", agg=ds.count_cat("c"))).values,
            "spread": tf.spread(tf.shade(counts), px=2).values, "dynspread": tf.dynspread(tf.shade(counts)).values}


def datashader_dask():
    """datashader's points and lines over a dask DataFrame of 4 partitions
    (its kernels run per partition on dask's threads, then combine)."""
    import dask.dataframe as dd
    import datashader as ds
    ddf, cvs = dd.from_pandas(_datashader_frame(), npartitions=4), _datashader_canvas()
    reductions = {"count": ds.count(), "mean": ds.mean("v"), "std": ds.std("v"), "count_cat": ds.count_cat("c"),
                  "max_n": ds.max_n("v", n=2), "where_max": ds.where(ds.max("v"))}
    out = {name: cvs.points(ddf, "x", "y", agg=r).values.astype(float) for name, r in reductions.items()}
    out["line"] = cvs.line(ddf, "x", "y").values.astype(float)
    return out


def datashader_bundling():
    """datashader's edge bundling of a random graph (30 nodes, 60 edges)."""
    import pandas as pd
    from datashader.bundling import connect_edges, hammer_bundle
    rng = np.random.default_rng(3)
    nodes = pd.DataFrame({"x": rng.random(30), "y": rng.random(30)})
    edges = pd.DataFrame({"source": rng.integers(0, 30, 60), "target": rng.integers(0, 30, 60)})
    return {"connect_edges": connect_edges(nodes, edges).values,
            "hammer_bundle": hammer_bundle(nodes, edges, iterations=2).values}


def shap_explainers():
    """shap's model-agnostic explainers of a logistic regression on 6
    features: exact, permutation and partition (its masks built by a
    compiled tree walk), with the identity and logit links."""
    import shap
    from sklearn.linear_model import LogisticRegression
    rng = np.random.default_rng(0)
    x = rng.standard_normal((200, 6))
    model = LogisticRegression().fit(x, (x[:, 0] + x[:, 1] * x[:, 2] > 0).astype(int))

    def predict(v):
        return model.predict_proba(v)[:, 1]
    background = shap.maskers.Independent(x[:50])
    return {"exact": shap.explainers.Exact(predict, background)(x[:10]).values,
            "permutation": shap.explainers.Permutation(predict, background, seed=0)(x[:5]).values,
            "partition": shap.explainers.Partition(predict, shap.maskers.Partition(x[:50]))(x[:5]).values,
            "exact_logit": shap.explainers.Exact(predict, background, link=shap.links.logit)(x[:5]).values}


def _matting_inputs():
    rng = np.random.default_rng(0)
    h, w = 40, 50
    image = rng.random((h, w, 3))
    trimap = np.full((h, w), 0.5)
    trimap[:, :10], trimap[:, -10:] = 0, 1
    return image, trimap, np.linspace(0, 1, w)[None, :].repeat(h, 0)


def pymatting_alpha():
    """pymatting's alpha mattes of a 40x50 image: closed-form, KNN, random
    walk and learning-based Laplacians (sparse systems built by compiled
    loops), and shared sampling (parallel pndindex loops, float32)."""
    import pymatting as pm
    image, trimap, _ = _matting_inputs()
    return {"cf": pm.estimate_alpha_cf(image, trimap), "knn": pm.estimate_alpha_knn(image, trimap),
            "rw": pm.estimate_alpha_rw(image, trimap), "lbdm": pm.estimate_alpha_lbdm(image, trimap),
            "sm": pm.estimate_alpha_sm(image, trimap)}


def pymatting_foreground():
    """pymatting's foreground estimation (multi-level, float32, parallel)
    and closed-form, and its box filter."""
    import pymatting as pm
    image, _, alpha = _matting_inputs()
    return {"ml": pm.estimate_foreground_ml(image, alpha)[0], "cf": pm.estimate_foreground_cf(image, alpha)[0],
            "boxfilter": pm.boxfilter(image[:, :, 0], 3)}


def _pyod_fit(model):
    rng = np.random.default_rng(0)
    x = np.vstack([rng.standard_normal((150, 4)), rng.uniform(-6, 6, (10, 4))])
    return model.fit(x).decision_scores_


def pyod_detectors():
    """pyod's outlier detectors with compiled kernels, fitted on 160 points
    in 4 dimensions: QMCD, ROD, SOS, LMDD, HBOS (static and automatic bins),
    ABOD (fast and default), LOCI; and its weighted Pearson correlation."""
    from pyod.models import abod, hbos, lmdd, loci, qmcd, rod, sos
    from pyod.utils import stat_models
    x = np.random.default_rng(1).standard_normal((3, 100))
    return {"qmcd": _pyod_fit(qmcd.QMCD()), "rod": _pyod_fit(rod.ROD()), "sos": _pyod_fit(sos.SOS()),
            "lmdd": _pyod_fit(lmdd.LMDD(random_state=0)), "hbos": _pyod_fit(hbos.HBOS()),
            "hbos_auto": _pyod_fit(hbos.HBOS(n_bins="auto")), "abod": _pyod_fit(abod.ABOD()),
            "abod_default": _pyod_fit(abod.ABOD(method="default")), "loci": _pyod_fit(loci.LOCI()),
            "wpearson": stat_models.wpearsonr(x[0], x[1], np.abs(x[2]))}


def pyod_sod():
    """pyod's SOD: its shared neighbours ranked by an unstable argsort of
    small counts, so the order of ties is each sort's own."""
    from pyod.models import sod
    return {"sod": _pyod_fit(sod.SOD())}


def _series(n, length, seed):
    return np.cumsum(np.random.default_rng(seed).standard_normal((n, length)), axis=1)


def _letters(words):
    """SAX's and SFA's letters as numbers, for comparing."""
    return np.asarray(words).astype("U1").view(np.int32)


def pyts_dtw():
    """pyts' dynamic time warping: the classic, Sakoe-Chiba, Itakura,
    multiscale and fast variants, and a user's @njit distance passed as its
    first-class function (types.FunctionType) parameter."""
    from numba import njit
    from pyts import metrics

    @njit
    def cubed(a, b):
        return abs(a - b) ** 3

    X = _series(6, 128, 1)
    return {"classic": metrics.dtw(X[0], X[1]),
            "sakoechiba": metrics.dtw(X[0], X[2], method="sakoechiba", options={"window_size": 5}),
            "itakura": metrics.dtw(X[0], X[3], method="itakura"),
            "multiscale": metrics.dtw(X[0], X[4], method="multiscale"),
            "fast": metrics.dtw(X[0], X[5], method="fast"),
            "user_dist": metrics.dtw(X[1], X[2], dist=cubed),
            "cost_matrix": metrics.dtw(X[0], X[1], dist="absolute", return_cost=True)[1]}


def pyts_transforms():
    """pyts' approximations and transformations of 20 series of 64 points:
    PAA, SAX, SFA, the Gramian angular, Markov transition and recurrence
    images, BOSS, WEASEL, ROCKET and singular spectrum analysis."""
    from pyts import approximation, decomposition, image, transformation
    X = _series(20, 64, 0)
    y = np.arange(20) % 2
    return {"paa": approximation.PiecewiseAggregateApproximation(window_size=4).transform(X),
            "sax": _letters(approximation.SymbolicAggregateApproximation(n_bins=4, strategy="normal").transform(X)),
            "sfa": _letters(approximation.SymbolicFourierApproximation(n_coefs=4, n_bins=4).fit_transform(X, y)),
            "gaf": image.GramianAngularField().transform(X[:3]),
            "mtf": image.MarkovTransitionField(n_bins=4).transform(X[:3]),
            "rp": image.RecurrencePlot().transform(X[:3]),
            "boss": transformation.BOSS(word_size=2, n_bins=2, window_size=12).fit_transform(X, y).toarray(),
            "weasel": transformation.WEASEL(word_size=2, window_sizes=[12, 24]).fit_transform(X, y).toarray(),
            "rocket": transformation.ROCKET(n_kernels=50, random_state=0).fit_transform(X),
            "ssa": decomposition.SingularSpectrumAnalysis(window_size=8).transform(X[:3])}


def pyts_classifiers():
    """pyts' classifiers on 20 series: k-nearest neighbours under DTW,
    BOSSVS, SAXVSM, time series forest, and the shapelet transform (typed
    Lists of reflected lists passed between its compiled functions)."""
    from pyts import classification, transformation
    X = _series(20, 64, 0)
    y = np.arange(20) % 2
    return {"knn_dtw": classification.KNeighborsClassifier(metric="dtw").fit(X, y).predict(X),
            "bossvs": classification.BOSSVS(window_size=16).fit(X, y).predict(X),
            "saxvsm": classification.SAXVSM(window_size=16, word_size=4, n_bins=4).fit(X, y).predict(X),
            "forest": classification.TimeSeriesForest(random_state=0, n_estimators=10).fit(X, y).predict(X),
            "shapelets": transformation.ShapeletTransform(window_sizes=[12], random_state=0,
                                                          n_shapelets=3).fit_transform(X, y)}


def _vbt_prices(seed=0, n=300):
    """Three columns of daily closes with highs, lows, opens and volumes."""
    import pandas as pd
    rng = np.random.default_rng(seed)
    index = pd.date_range("2021-01-01", periods=n, freq="D")
    close = pd.DataFrame(np.cumprod(1 + rng.normal(0, 0.02, (n, 3)), axis=0) * 100, index=index,
                         columns=["a", "b", "c"])
    high, low = close * (1 + rng.uniform(0, 0.02, (n, 3))), close * (1 - rng.uniform(0, 0.02, (n, 3)))
    volume = pd.DataFrame(rng.integers(100, 1000, (n, 3)).astype(float), index=index, columns=close.columns)
    return close, high, low, (high + low) / 2, volume


def _vbt_records(name, records):
    """A record array (orders, trades, drawdowns...) field by field, for comparing."""
    return {f"{name}.{field}": records[field] for field in records.dtype.names}


def vectorbt_indicators():
    """vectorbt's indicators on 300 rows of 3 columns: MA and MSTD (plain
    and exponential windows), BBANDS, RSI, STOCH, MACD, ATR, OBV."""
    import vectorbt as vbt
    close, high, low, _, volume = _vbt_prices()
    bbands, stoch, macd = vbt.BBANDS.run(close, 20), vbt.STOCH.run(high, low, close), vbt.MACD.run(close)
    return {"ma": vbt.MA.run(close, [5, 10], ewm=[False, True]).ma, "mstd": vbt.MSTD.run(close, [5, 10], ewm=[False, True]).mstd,
            "bb_upper": bbands.upper, "bb_percent_b": bbands.percent_b, "rsi": vbt.RSI.run(close, [7, 14]).rsi,
            "stoch_k": stoch.percent_k, "stoch_d": stoch.percent_d, "macd": macd.macd, "macd_hist": macd.hist,
            "atr": vbt.ATR.run(high, low, close, 14).atr, "obv": vbt.OBV.run(close, volume).obv}


def vectorbt_generic():
    """vectorbt's rolling, expanding and exponential windows, user @njit
    functions applied over rolling windows and groups, and drawdown records."""
    import vectorbt as vbt
    from numba import njit
    close = _vbt_prices()[0]
    return {"rolling_mean": close.vbt.rolling_mean(10), "rolling_std": close.vbt.rolling_std(10),
            "expanding_max": close.vbt.expanding_max(), "ewm_std": close.vbt.ewm_std(10),
            "rolling_apply": close.vbt.rolling_apply(5, njit(lambda i, col, a: np.nanmean(a))),
            "groupby_apply": close.vbt.groupby_apply(np.arange(300) // 30, njit(lambda i, col, a: np.max(a))),
            "fshift": close.vbt.fshift(2), "drawdown": close.vbt.drawdown(),
            **_vbt_records("drawdowns", vbt.Drawdowns.from_ts(close, freq="D").values)}


def vectorbt_signals():
    """vectorbt's signals: random entries (by count and by probability),
    random exits, stop and OHLC stop exits (trailing, take profit), ranks."""
    import pandas as pd
    import vectorbt as vbt
    close, high, low, open_, _ = _vbt_prices()
    entries = close.vbt.crossed_above(close.vbt.rolling_mean(10))
    ohlc = vbt.OHLCSTX.run(entries, open_, high, low, close, sl_stop=[0.05], sl_trail=True, tp_stop=[0.1])
    return {"random": pd.DataFrame.vbt.signals.generate_random((300, 3), n=[5, 10, 15], seed=42),
            "random_prob": pd.DataFrame.vbt.signals.generate_random((300, 3), prob=0.1, seed=42),
            "random_exits": (close > close.shift(1)).vbt.signals.generate_random_exits(seed=42),
            "stop_exits": entries.vbt.signals.generate_stop_exits(close, 0.05, trailing=True),
            "ohlc_exits": ohlc.exits, "ohlc_stop_price": ohlc.stop_price, "ohlc_stop_type": ohlc.stop_type,
            "pos_rank": entries.vbt.signals.pos_rank(), "partition_rank": entries.vbt.signals.partition_pos_rank()}


def vectorbt_from_signals():
    """vectorbt's portfolio from signals (fees, slippage, stops, long and
    short, grouped with shared cash): its order, trade, position and
    drawdown records and statistics."""
    import vectorbt as vbt
    close, high, low, open_, _ = _vbt_prices()
    entries = close.vbt.crossed_above(close.vbt.rolling_mean(10))
    exits = close.vbt.crossed_below(close.vbt.rolling_mean(10))
    pf = vbt.Portfolio.from_signals(close, entries, exits, init_cash=1000, fees=0.001, slippage=0.001, freq="D")
    stops = vbt.Portfolio.from_signals(close, entries, exits, sl_stop=0.05, sl_trail=True, tp_stop=0.1,
                                       open=open_, high=high, low=low)
    both = vbt.Portfolio.from_signals(close, entries, exits, direction="both", size=10, size_type="value",
                                      group_by=True, cash_sharing=True)
    return {**_vbt_records("orders", pf.orders.values), **_vbt_records("trades", pf.trades.values),
            **_vbt_records("positions", pf.positions.values), **_vbt_records("drawdowns", pf.drawdowns.values),
            **_vbt_records("stops", stops.orders.values), **_vbt_records("both", both.orders.values),
            "value": pf.value(), "sharpe": pf.sharpe_ratio(), "max_drawdown": pf.max_drawdown(),
            "win_rate": pf.trades.win_rate(), "both_value": both.value()}


def vectorbt_returns():
    """vectorbt's returns statistics of 3 columns against a benchmark:
    Sharpe, Sortino, Calmar and Omega ratios, annualized return and
    volatility, value at risk, alpha and beta, capture ratios."""
    import vectorbt  # noqa: F401 - registers pandas' .vbt accessor
    close = _vbt_prices()[0]
    rets = close.pct_change().vbt.returns(freq="D")
    bench = close.mean(axis=1).pct_change().to_numpy()
    return {"sharpe": rets.sharpe_ratio(), "sortino": rets.sortino_ratio(), "calmar": rets.calmar_ratio(),
            "omega": rets.omega_ratio(), "annualized": rets.annualized(), "volatility": rets.annualized_volatility(),
            "var": rets.value_at_risk(), "cvar": rets.cond_value_at_risk(), "alpha": rets.alpha(bench),
            "beta": rets.beta(bench), "up_capture": rets.up_capture(bench), "down_capture": rets.down_capture(bench),
            "tail": rets.tail_ratio(), "rolling_sharpe": rets.rolling_sharpe_ratio(20)}


def vectorbt_from_order_func():
    """vectorbt's portfolio simulated with a user's @njit order function
    (its context a named tuple of arrays), a segment preparation
    callback, row by row, and a flexible one placing several orders a bar;
    and from orders of random sizes."""
    import pandas as pd
    import vectorbt as vbt
    from numba import njit
    from vectorbt.portfolio.nb import order_nb, order_nothing_nb
    close = _vbt_prices()[0]

    @njit
    def order_func(c, size):
        return order_nb(size if c.i % 10 == 0 else -size, c.close[c.i, c.col])

    @njit
    def pre_segment(c):
        for col in range(c.from_col, c.to_col):
            c.last_val_price[col] = c.close[c.i, col]
        return ()

    @njit
    def flex_order_func(c, size):
        if c.call_idx < c.group_len:
            col = c.from_col + c.call_idx
            return col, order_nb(size, c.close[c.i, col])
        return -1, order_nothing_nb()

    sizes = pd.DataFrame(np.random.default_rng(1).normal(0, 1, close.shape).round(1), index=close.index,
                         columns=close.columns)
    return {**_vbt_records("orders", vbt.Portfolio.from_order_func(close, order_func, 1.0).orders.values),
            "segment_value": vbt.Portfolio.from_order_func(close, order_func, 2.0, pre_segment_func_nb=pre_segment,
                                                           group_by=[0, 0, 1], cash_sharing=True).value(),
            **_vbt_records("row_wise", vbt.Portfolio.from_order_func(close, order_func, 1.0, row_wise=True).orders.values),
            **_vbt_records("flexible", vbt.Portfolio.from_order_func(close, flex_order_func, 1.0, flexible=True,
                                                                     group_by=True, cash_sharing=True).orders.values),
            **_vbt_records("from_orders", vbt.Portfolio.from_orders(close, sizes, fees=0.001).orders.values)}


def _anndata(sparse=True, dtype=np.float32):
    """A small single-cell count matrix: 300 cells, 200 genes, 60% zeros,
    three batches and four groups of cells, ten mitochondrial genes."""
    import anndata
    import scipy.sparse
    rng = np.random.default_rng(0)
    x = rng.negative_binomial(2, 0.3, size=(300, 200)).astype(dtype)
    x[rng.random(x.shape) < 0.6] = 0
    adata = anndata.AnnData(scipy.sparse.csr_matrix(x) if sparse else x)
    adata.obs["batch"] = rng.integers(0, 3, 300).astype(str)
    adata.obs["group"] = rng.integers(0, 4, 300).astype(str)
    adata.var_names = [f"g{i}" for i in range(200)]
    adata.var["mt"] = np.arange(200) < 10
    return adata


def _dense(x):
    return x.toarray() if hasattr(x, "toarray") else np.asarray(x)


def scanpy_preprocessing():
    """scanpy's preprocessing with compiled kernels: QC metrics (sparse and
    dense), normalize_total and log1p of a sparse matrix, highly variable
    genes (seurat, cell_ranger, Pearson residuals), scale (sparse, and dense
    clipped), Pearson residuals, ComBat."""
    import scanpy as sc
    out = {}
    for sparse in (True, False):
        obs, var = sc.pp.calculate_qc_metrics(_anndata(sparse), qc_vars=["mt"], percent_top=[10, 50])
        out[f"qc_obs_{sparse}"], out[f"qc_var_{sparse}"] = obs.to_numpy(float), var.to_numpy(float)
    adata = _anndata()
    sc.pp.normalize_total(adata, target_sum=1e4)
    sc.pp.log1p(adata)
    out["normalized"] = _dense(adata.X)
    for flavor in ("seurat", "cell_ranger"):
        adata = _anndata()
        sc.pp.normalize_total(adata)
        sc.pp.log1p(adata)
        hvg = sc.pp.highly_variable_genes(adata, flavor=flavor, n_top_genes=50, batch_key="batch", inplace=False)
        out["hvg_" + flavor] = hvg.select_dtypes("number").to_numpy(float)
    hvg = sc.experimental.pp.highly_variable_genes(_anndata(), flavor="pearson_residuals", n_top_genes=50,
                                                   inplace=False)
    out["hvg_pearson"] = hvg.select_dtypes("number").to_numpy(float)
    for sparse in (True, False):
        adata = _anndata(sparse)
        sc.pp.log1p(adata)
        sc.pp.scale(adata, max_value=2, zero_center=not sparse)
        out[f"scaled_{sparse}"] = _dense(adata.X)
    adata = _anndata()
    sc.experimental.pp.normalize_pearson_residuals(adata)
    out["pearson"] = _dense(adata.X)
    adata = _anndata(False)
    sc.pp.log1p(adata)
    sc.pp.combat(adata, key="batch")
    out["combat"] = adata.X
    return out


def scanpy_metrics_ranking():
    """scanpy's Moran's I and Geary's C of every gene over a k-nearest
    neighbour graph (float64 counts, sparse and dense), and its marker
    genes by t-test and Wilcoxon rank sums."""
    import scanpy as sc
    out = {}
    for sparse in (True, False):
        adata = _anndata(sparse, np.float64)
        sc.pp.log1p(adata)
        sc.pp.pca(adata, n_comps=10)
        sc.pp.neighbors(adata, n_neighbors=10)
        out[f"morans_{sparse}"], out[f"gearys_{sparse}"] = sc.metrics.morans_i(adata), sc.metrics.gearys_c(adata)
    for method in ("t-test", "wilcoxon"):
        adata = _anndata()
        sc.pp.log1p(adata)
        sc.tl.rank_genes_groups(adata, "group", method=method)
        out[method] = np.array(adata.uns["rank_genes_groups"]["scores"].tolist(), dtype=float)
    return out


def _decoupler_inputs():
    """20 samples of 300 genes, and a network of 12 sources with 25
    signed, weighted targets each."""
    import pandas as pd
    rng = np.random.default_rng(0)
    genes = [f"g{i}" for i in range(300)]
    mat = pd.DataFrame(rng.normal(size=(20, 300)), index=[f"s{i}" for i in range(20)], columns=genes)
    rows = [(f"src{s}", genes[g], float(rng.choice([-1.0, 1.0]) * rng.uniform(0.5, 2)))
            for s in range(12) for g in rng.choice(300, 25, replace=False)]
    return mat, pd.DataFrame(rows, columns=["source", "target", "weight"])


def decoupler_methods():
    """decoupler's enrichment methods with compiled kernels (parallel and
    cached): ULM, MLM, weighted aggregate with permutations, z-score,
    VIPER, AUCell, GSEA, GSVA, ORA, and decouple() running several."""
    import decoupler as dc
    mat, net = _decoupler_inputs()
    out = {}
    for name in ("ulm", "mlm", "waggr", "zscore", "viper", "aucell", "gsea", "gsva", "ora"):
        result = getattr(dc.mt, name)(data=mat, net=net, tmin=3, verbose=False)
        for k, part in enumerate(result if isinstance(result, tuple) else (result,)):
            if part is not None:  # (no p-values: None)
                out[f"{name}_{k}"] = part.to_numpy(float)
    for key, frame in dc.mt.decouple(data=mat, net=net, tmin=3, methods=["ulm", "mlm", "zscore", "waggr"]).items():
        out["decouple_" + key] = frame.to_numpy(float)
    return out


def chemicals_numba():
    """`import chemicals.numba` (chemicals' functions compiled by Numba):
    vapour pressure, liquid density, heat capacity, heat of vaporisation,
    surface tension, the IAPWS-95 and IAPWS-97 steam tables, dry air,
    mixing rules, gas mixture viscosity and conductivity, flash residuals."""
    import chemicals.numba as cn
    zs, ks = np.array([0.5, 0.3, 0.2]), np.array([1.685, 0.742, 0.532])
    return {"antoine": cn.Antoine(100.0, 8.7, 1631.0, -41.0),
            "trc_antoine": cn.TRC_Antoine_extended(180.0, 227.51, -120., 8.95894, 510.595, -15.95, 2.41377, -93.74,
                                                   7425.9),
            "wagner": cn.Wagner(70.0, 150.8, 4.87e6, -6.0, 1.3, -0.5, -1.7),
            "yaws_psat": cn.Yaws_Psat(T=400.0, A=-36.8, B=-2.0, C=20.7, D=-0.021, E=1e-5),
            "lee_kesler": cn.Lee_Kesler(400.0, 500.0, 3.5e6, 0.3),
            "rackett": cn.Rackett(272.03889, 369.83333, 4248000.0, 0.2763),
            "costald": cn.COSTALD(298, 647.13, 55.95E-6, 0.3449),
            "lastovka_shaw": cn.Lastovka_Shaw(1000.0, 0.1333),
            "zabransky": cn.Zabransky_quasi_polynomial(330, 591.79, -3.12743, 0.0857315, 13.7282, 1.28971, 6.42297,
                                                       4.10989),
            "watson": cn.Watson(T=320.0, Hvap_ref=43908, T_ref=300.0, Tc=647.14),
            "brock_bird": cn.Brock_Bird(298.15, 391.35, 543.15, 3.6e6),
            "letsou_stiel": cn.Letsou_Stiel(300., 500., 100., 3.6e6, 0.3),
            "sheffy_johnson": cn.Sheffy_Johnson(300, 47, 280),
            "iapws95_rho": cn.iapws95_rho(330.0, 8e5),
            "iapws97_rho": cn.iapws97_rho(330.0, 8e5),
            "air_rho": cn.lemmon2000_rho(300.0, 1e5),
            "mu_iapws": cn.mu_IAPWS(T=647.35, rho=122.0),
            "mixing_simple": cn.mixing_simple(np.array([0.1, 0.9]), np.array([1.0, 2.0])),
            "brokaw": cn.Brokaw(308.15, np.array([0.05, 0.95]), np.array([1.34E-5, 9.5029E-6]),
                                np.array([64.06, 46.07]), np.array([0.42, 0.19]), np.array([347., 432.])),
            "herning_zipperer": cn.Herning_Zipperer(np.array([0.5, 0.25, 0.25]),
                                                    np.array([1.78e-05, 1.12e-05, 9.35e-06]),
                                                    np.array([28.0134, 16.043, 30.07])),
            "lindsay_bromley": cn.Lindsay_Bromley(323.15, np.array([0.23, 0.77]), np.array([1.939E-2, 1.231E-2]),
                                                  np.array([1.002E-5, 1.015E-5]), np.array([248.31, 248.93]),
                                                  np.array([46.07, 50.49])),
            "rachford_rice_ln2": np.concatenate([np.ravel(part) for part in cn.Rachford_Rice_solution_LN2(zs, ks)]),
            "rachford_rice_error": cn.Rachford_Rice_flash_error(0.5, zs, ks)}


def fast_hdbscan_clusters():
    """fast_hdbscan (HDBSCAN* in Numba): labels and membership strengths of
    300 points in three blobs, by excess of mass and by leaves."""
    import fast_hdbscan
    rng = np.random.default_rng(0)
    x = np.vstack([rng.normal(c, 0.5, (100, 3)) for c in (0, 4, 8)])
    eom = fast_hdbscan.HDBSCAN(min_cluster_size=10).fit(x)
    leaf = fast_hdbscan.HDBSCAN(min_cluster_size=10, cluster_selection_method="leaf").fit(x)
    return {"labels": eom.labels_, "probabilities": eom.probabilities_, "leaf_labels": leaf.labels_}


def trackpy_numba():
    """trackpy's numba engines: locating three Gaussian spots in a 64x64
    image, and linking 30 particles over 10 frames."""
    import pandas as pd
    import trackpy
    trackpy.quiet()
    yy, xx = np.mgrid[:64, :64]
    image = sum(100 * np.exp(-((yy - y) ** 2 + (xx - x) ** 2) / 4.0) for y, x in [(10, 10), (30, 40), (50, 20)])
    rng = np.random.default_rng(0)
    frames = pd.DataFrame([(f, p * 10.0 + f * 0.5 + rng.normal(0, 0.1), p * 7.0 + rng.normal(0, 0.1))
                           for f in range(10) for p in range(30)], columns=["frame", "x", "y"])
    return {"located": trackpy.locate(image, 7, engine="numba")[["x", "y", "mass"]].to_numpy(),
            "linked": trackpy.link(frames, 3.0, link_strategy="numba")["particle"].to_numpy()}


def stingray_timing():
    """stingray's X-ray timing on 10,000 photons of a 1.2345 Hz pulsar:
    light curves, histograms, power and cross spectra (averaged), epoch
    folding and Z^2 searches, folding, GTI arithmetic, rebinning and the
    dead-time-modified power spectrum."""
    from stingray import AveragedCrossspectrum, AveragedPowerspectrum, EventList, Powerspectrum, gti, utils
    from stingray.deadtime import model
    from stingray.pulse import pulsar, search
    rng = np.random.default_rng(0)
    times = np.sort(rng.uniform(0, 200.0, 20000))
    events = times[rng.uniform(size=times.size) < 0.5 * (1 + 0.6 * np.sin(2 * np.pi * 1.2345 * times))]
    ev = EventList(events, gti=[[0, 200.0]], mjdref=0)
    lc = ev.to_lc(0.01)
    freqs = np.linspace(1.2, 1.27, 50)
    gtis = np.array([[0., 50.], [60., 200.]])
    return {"lc": lc.counts, "hist1d": utils.histogram(events, bins=100, range=[0, 200.0]),
            "hist2d": utils.histogram2d(events, events % 1.0, bins=(20, 10), range=[[0, 200.0], [0, 1]]),
            "pds": Powerspectrum.from_events(ev, dt=0.01, norm="leahy").power,
            "avg_pds": AveragedPowerspectrum.from_events(ev, segment_size=20, dt=0.01, norm="frac",
                                                         silent=True).power,
            "avg_cross": AveragedCrossspectrum.from_events(ev, ev, segment_size=20, dt=0.01, norm="frac",
                                                           silent=True).power.real,
            "ef": search.epoch_folding_search(events, freqs, nbin=16)[1],
            "z2": search.z_n_search(events, freqs, nbin=32, nharm=2)[1],
            "folded": pulsar.fold_events(events, 1.2345, nbin=16)[1],
            "gti_cross": gti.cross_two_gtis(gtis, np.array([[10., 70.], [80., 150.]])),
            "gti_bins": gti.bin_intervals_from_gtis(gtis, 10.0, lc.time)[0],
            "rebinned": lc.rebin(1.0).counts,
            "deadtime": model.pds_model_zhang(100, 100.0, 0.0025, 1e-4, limit_k=60)[1]}


def mne_numba():
    """MNE's compiled kernels: cluster-level permutation tests (with a
    threshold and with TFCE), the time-delaying ridge's Toeplitz products,
    and fitting matched points (quaternions to rotations)."""
    import mne
    from mne.decoding import TimeDelayingRidge
    from mne.transforms import _fit_matched_points, _quat_to_rot, rotation
    mne.set_log_level("ERROR")
    rng = np.random.default_rng(0)
    x = rng.normal(size=(12, 40, 6))
    x[:, 10:20, 2:4] += 1.0
    t, _, p, h0 = mne.stats.permutation_cluster_1samp_test(x, n_permutations=64, seed=0, out_type="mask")
    t_tfce, _, p_tfce, _ = mne.stats.permutation_cluster_1samp_test(x[:, :, 0], n_permutations=32, seed=0,
                                                                      threshold=dict(start=0, step=0.5))
    signal = rng.normal(size=(500, 3))
    response = np.convolve(signal[:, 0], [1.0, 0.5, 0.25], mode="same")[:, None]
    points = rng.normal(size=(10, 3))
    moved = points @ rotation(0.1, 0.2, 0.3)[:3, :3].T + [0.01, 0.02, 0.03]
    return {"t": t, "p": p, "h0": h0, "t_tfce": t_tfce, "p_tfce": p_tfce,
            "ridge": TimeDelayingRidge(-2, 2, 100.0, alpha=1.0).fit(signal, response).coef_,
            "fit": _fit_matched_points(points, moved)[0], "rot": _quat_to_rot(np.array([[0.1, 0.2, 0.3]]))}


def arch_recursions():
    """arch's Numba kernels (used where its Cython ones are not built):
    the GARCH, HARCH, EGARCH, APARCH and MIDAS variance recursions, FIGARCH
    weights, long-run covariance kernels and the stationary bootstrap."""
    from arch.bootstrap import _samplers_python as samplers
    from arch.covariance.kernel import Bartlett, Parzen, QuadraticSpectral
    from arch.univariate import recursions_python as rec
    rng = np.random.default_rng(0)
    resids = rng.standard_normal(500)
    nobs, backcast = resids.shape[0], float(np.mean(resids ** 2))
    bounds = np.ones((nobs, 2)) * np.array([1e-6, 1e6])
    out = {name: np.empty(nobs) for name in ("garch", "harch", "egarch", "aparch", "midas")}
    rec.garch_recursion(np.array([0.1, 0.1, 0.05, 0.8]), resids ** 2, np.sign(resids), out["garch"], 1, 1, 1, nobs,
                        backcast, bounds)
    rec.harch_recursion(np.array([0.1, 0.4, 0.3]), resids, out["harch"], np.array([1, 5], dtype=np.int32), nobs,
                        backcast, bounds)
    rec.egarch_recursion(np.array([0.0, 0.1, -0.05, 0.95]), resids, out["egarch"], 1, 1, 1, nobs, backcast, bounds,
                         np.empty(nobs), np.empty(nobs), np.empty(nobs))
    rec.aparch_recursion(np.array([0.1, 0.1, 0.1, 0.8, 1.5]), resids, np.abs(resids), out["aparch"], np.empty(nobs),
                         1, 1, 1, nobs, backcast, bounds)
    rec.midas_recursion(np.array([0.1, 0.8, 0.1]), np.ones(22) / 22, resids, out["midas"], nobs, backcast, bounds)
    out["figarch"] = rec.figarch_weights(np.array([0.2, 0.4, 0.2]), 1, 1, 100)
    x = rng.standard_normal((300, 2))
    out["kernels"] = np.array([k(x).cov.long_run for k in (Bartlett, Parzen, QuadraticSpectral)])
    out["stationary"] = samplers.stationary_bootstrap_sample(rng.integers(0, 100, 100), rng.random(100), 0.1)
    return out


def _groups(n, k, seed):
    rng = np.random.default_rng(seed)
    return rng.integers(0, k, n), rng.standard_normal(n)


def numpy_groupies_reductions():
    """aggregate_nb's reductions of floats (with NaNs for the nan-variants),
    ints and bools, each group's one number."""
    import numpy_groupies as npg
    g, a = _groups(1000, 20, 0)
    with_nan, ints = a.copy(), np.random.default_rng(1).integers(-50, 50, 1000)
    with_nan[::17] = np.nan
    out = {}
    for func in ("sum", "mean", "min", "max", "var", "std", "prod", "first", "last", "argmax", "argmin", "len",
                 "sumofsquares"):
        out[func] = npg.aggregate_nb(g, a, func=func)
        out["nan" + func] = npg.aggregate_nb(g, with_nan, func="nan" + func)
    for func in ("all", "any", "allnan", "anynan"):
        out[func] = npg.aggregate_nb(g, with_nan, func=func)
    for func in ("sum", "mean", "max", "prod", "var", "first"):
        out[func + "_int"] = npg.aggregate_nb(g, ints, func=func)
    out["any_bool"], out["sum_bool"] = npg.aggregate_nb(g, a > 0.3, func="any"), npg.aggregate_nb(g, a > 0.3)
    return out


def numpy_groupies_options():
    """fill_value, size, dtype, axis, ddof, 2-D group indices and a scalar
    value."""
    import numpy_groupies as npg
    g, a = _groups(1000, 20, 2)
    rng = np.random.default_rng(3)
    g2, a2, m = rng.integers(0, 5, (2, 500)), rng.standard_normal(500), rng.standard_normal((3, 1000))
    return {"fill": npg.aggregate_nb(g, a, size=25, fill_value=-1.5),
            "fill_nan": npg.aggregate_nb(g, a, func="mean", size=25, fill_value=np.nan),
            "float32": npg.aggregate_nb(g, a, func="max", dtype=np.float32),
            "int32": npg.aggregate_nb(g, (a * 10).astype(np.int64), dtype=np.int32),
            "scalar": npg.aggregate_nb(g, 1.0), "ddof": npg.aggregate_nb(g, a, func="var", ddof=1),
            "2d_sum": npg.aggregate_nb(g2, a2), "2d_mean": npg.aggregate_nb(g2, a2, func="mean", size=(5, 6)),
            "axis_sum": npg.aggregate_nb(g, m, axis=1), "axis_max": npg.aggregate_nb(g, m, func="max", axis=1)}


def numpy_groupies_cumulative_collect():
    """cumsum and sort within groups, and the values of every group
    (func="array", an object array: its groups concatenated)."""
    import numpy_groupies as npg
    g, a = _groups(1000, 20, 4)
    return {"cumsum": npg.aggregate_nb(g, a, func="cumsum"), "sort": npg.aggregate_nb(g, a, func="sort"),
            "array": np.concatenate(list(npg.aggregate_nb(g, a, func="array")))}


def _chirp(n=1024):
    t = np.linspace(0, 60, n)
    return np.cos(t ** 1.3) + 0.3 * np.sin(np.linspace(0, 200, n))


def ssqueezepy_ssq_cwt():
    """Synchrosqueezed CWTs: generalized Morse, Morlet and bump wavelets,
    log-piecewise (the default), linear and log scales, parallel kernels."""
    import os
    os.environ["SSQ_PARALLEL"] = "1"
    import ssqueezepy as ssq
    x = _chirp()
    return {"gmw": np.abs(ssq.ssq_cwt(x)[0]), "morlet": np.abs(ssq.ssq_cwt(x, "morlet")[0]),
            "bump": np.abs(ssq.ssq_cwt(x, "bump")[0]), "linear": np.abs(ssq.ssq_cwt(x, scales="linear")[0]),
            "log": np.abs(ssq.ssq_cwt(x, scales="log")[0]),
            "abs_squeezing": ssq.ssq_cwt(x, squeezing="abs")[0]}


def ssqueezepy_stft():
    """STFT and its synchrosqueezing (with the phase transform returned),
    inverted; serial kernels."""
    import os
    os.environ["SSQ_PARALLEL"] = "0"
    import ssqueezepy as ssq
    x = _chirp()
    tx, sx, _, _, w = ssq.ssq_stft(x, get_w=True)
    return {"ssq_stft": np.abs(tx), "stft": np.abs(sx), "w": w, "stft_direct": np.abs(ssq.stft(x)),
            "issq_stft": ssq.issq_stft(tx)}


def ssqueezepy_cwt_ridges():
    """The CWT, ridges extracted from it, and the inverse synchrosqueezing."""
    import ssqueezepy as ssq
    x = _chirp(512)
    wx, scales = ssq.cwt(x)
    return {"cwt": np.abs(wx), "ridges": ssq.extract_ridges(np.abs(wx), scales, penalty=2.0, n_ridges=2, bw=4),
            "issq_cwt": ssq.issq_cwt(ssq.ssq_cwt(x)[0], "gmw")}


def quimb_core():
    """quimb.core's kernels: products, updates, Kronecker products, partial
    traces and expectations of dense operators."""
    import quimb as qu
    import quimb.core as qc
    rng = np.random.default_rng(5)
    x, y, d = rng.standard_normal(300), rng.standard_normal(300), rng.standard_normal(16)
    a = rng.standard_normal((16, 16)) + 1j * rng.standard_normal((16, 16))
    h, v = a + a.conj().T, rng.standard_normal((16, 1)) + 1j * rng.standard_normal((16, 1))
    sub, div = a.copy(), a.copy()
    qc.subtract_update_(sub, 2.0, h)
    qc.divide_update_(div, 3.0, h)
    return {"complex_array": qc.complex_array(x, y), "phase_to_complex": qc.phase_to_complex(x),
            "mul_dense": qc.mul_dense(a, h), "dot": qc.dot(a, h), "vdot": qc.vdot(v, v),
            "rdot": qc.rdot(v.conj().T, v), "ldmul": qc.ldmul(d, a), "rdmul": qc.rdmul(a, d),
            "outer": qc.outer(d, d), "explt": qc.explt(d, 0.3), "kron": qc.kron(rng.standard_normal((8, 8)), a),
            "ikron": qc.ikron(qu.pauli("Z"), [2, 2, 2, 2], 1), "ptr": qc.ptr(qu.rand_ket(16, seed=1), [2, 2, 4], [0, 2]),
            "expec": qc.expec(h, v), "subtract_update": sub, "divide_update": div}


def quimb_calc_evo():
    """Entropies, entanglement measures and time evolution of states."""
    import quimb as qu
    evo = qu.Evolution(qu.rand_ket(16, seed=2), qu.ham_heis(4), method="solve")
    evo.update_to(0.7)
    integrated = qu.Evolution(qu.rand_ket(16, seed=2), qu.ham_heis(4), method="integrate")
    integrated.update_to(0.3)
    return {"entropy": qu.entropy(qu.rand_rho(8, seed=3)), "mutinf": qu.mutinf(qu.rand_rho(16, seed=4), [4, 4]),
            "logneg": qu.logneg(qu.rand_rho(16, seed=5), [4, 4]), "concurrence": qu.concurrence(qu.bell_state("psi-")),
            "page_entropy": qu.calc.page_entropy(4, 64), "evolved": evo.pt, "integrated": integrated.pt}


def quimb_linalg_operators():
    """Eigenproblems blocked by symmetry (autoblock: lists of sets in
    compiled code), sparse operators built from terms, and a stochastic
    spectral estimate."""
    import quimb as qu
    import quimb.operator
    builder = qu.operator.SparseOperatorBuilder(hilbert_space=qu.operator.HilbertSpace(5))
    for i in range(4):
        builder += 0.5, ("x", i), ("x", i + 1)
        builder += -1.0, ("z", i), ("z", i + 1)
    builder += 0.3, ("z", 0)
    qu.seed_rand(7)
    spectral = qu.approx_spectral_function(qu.rand_herm(32, seed=1), lambda z: z ** 2, R=4, tol=1e-3)
    return {"eigvalsh_autoblock": qu.eigvalsh(qu.ham_heis(6), autoblock=True),
            "eigh_autoblock": qu.eigh(qu.ham_heis(5), autoblock=True)[0],
            "built": builder.build_dense(), "matvec": builder.matvec(np.linspace(-1, 1, 32)),
            "spectral": spectral}


def lenstronomy_numba():
    """lenstronomy's Numba kernels: the elliptical power-law lens (EPL_NUMBA)
    with shear deflecting, its Hessian and potential on a 40x40 grid, the
    EPL+shear lens equation solver (Brent's root finder inlined), and the
    Numba convolution of an image."""
    from lenstronomy.ImSim.Numerics.numba_convolution import NumbaConvolution
    from lenstronomy.LensModel.lens_model import LensModel
    from lenstronomy.LensModel.Solver.epl_shear_solver import solve_lenseq_pemd
    from lenstronomy.Util import util
    x, y = util.make_grid(40, 0.05)
    kwargs = [{"theta_E": 1.0, "gamma": 2.1, "e1": 0.1, "e2": -0.05, "center_x": 0.0, "center_y": 0.0},
              {"gamma1": 0.03, "gamma2": 0.01}]
    model = LensModel(["EPL_NUMBA", "SHEAR"])
    kernel = np.outer(np.hanning(5), np.hanning(5))
    conv = NumbaConvolution(kernel / kernel.sum(), np.ones((20, 20), dtype=bool))
    return {"deflected": np.ravel(model.ray_shooting(x, y, kwargs)), "hessian": np.ravel(model.hessian(x, y, kwargs)),
            "potential": model.potential(x, y, kwargs),
            "images": np.ravel(solve_lenseq_pemd((0.05, 0.02), kwargs)),
            "convolved": conv.convolve2d(np.random.default_rng(0).random((20, 20)))}


def galois_fields():
    """galois' finite fields (its arithmetic compiled as ufuncs and
    functions taking its ndarray subclass): GF(2^8) and GF(31) arithmetic,
    matrix products and inverses, polynomial products, Reed-Solomon and
    BCH encoding, primality and factoring."""
    import galois
    gf = galois.GF(2**8)
    a, b = gf(np.arange(1, 17)), gf(np.arange(17, 33))
    gp = galois.GF(31)
    square = gf(np.arange(16).reshape(4, 4) + 1)
    return {"arith": np.asarray(np.concatenate([a + b, a * b, a / b, a ** 3, -a, np.reciprocal(a)])),
            "matmul": np.asarray(square @ gf(np.arange(16).reshape(4, 4)[::-1] + 1)),
            "inverse": np.asarray(np.linalg.inv(gf(np.array([[1, 2], [3, 4]])))),
            "prime_field": np.asarray(gp(np.arange(1, 11)) ** 5 * gp(3)),
            "poly": np.asarray((galois.Poly([1, 2, 3], field=gp) * galois.Poly([4, 5], field=gp)).coeffs),
            "poly_roots": np.asarray(galois.Poly([1, 0, 30], field=gp).roots()),
            "reed_solomon": np.asarray(galois.ReedSolomon(15, 9).encode(galois.GF(2**4)(np.arange(9) % 16))),
            "bch": np.asarray(galois.BCH(15, 7).encode(galois.GF(2)(np.array([1, 0, 1, 1, 0, 0, 1])))),
            "primes": np.array([galois.is_prime(n) for n in range(2, 60)]),
            "factors": np.array(galois.factors(2 ** 20 - 1)[0])}


def py_pde_solvers():
    """py-pde's compiled operators and solvers on a 32x32 periodic grid:
    Laplacian and gradient, the diffusion, Cahn-Hilliard and KPZ equations,
    a PDE given as an expression (its right-hand side compiled from text) on
    a 1-d grid, and a spherically symmetric Laplacian."""
    import pde
    grid = pde.UnitGrid([32, 32], periodic=True)
    state = pde.ScalarField.from_expression(grid, "sin(x/5) * cos(y/7)")
    line = pde.ScalarField.from_expression(pde.CartesianGrid([[0, 10]], 64), "exp(-(x-5)**2)")
    sphere = pde.ScalarField.from_expression(pde.SphericalSymGrid(radius=5, shape=32), "exp(-r**2)")
    return {"laplace": state.laplace("auto_periodic_neumann").data,
            "gradient": state.gradient("auto_periodic_neumann").data,
            "diffusion": pde.DiffusionPDE(diffusivity=0.5).solve(state, t_range=2, dt=0.01, tracker=None).data,
            "cahn_hilliard": pde.CahnHilliardPDE().solve(state, t_range=0.5, dt=0.001, tracker=None).data,
            "kpz": pde.KPZInterfacePDE().solve(state, t_range=0.5, dt=0.01, tracker=None).data,
            "expression": pde.PDE({"c": "laplace(c) - c**3 + c"}).solve(line, t_range=1, dt=0.001, tracker=None).data,
            "spherical": sphere.laplace({"derivative": 0}).data}


def thermo_numba():
    """`import thermo.numba` (thermo's equations of state compiled by Numba,
    through fluids' Newton solver transformed for Numba): Peng-Robinson
    and SRK volumes of n-hexane, departures and derivatives."""
    import thermo.numba as tn
    pr = tn.PR(Tc=507.6, Pc=3025000.0, omega=0.2975, T=400., P=1E6)
    liquid = tn.PR(Tc=507.6, Pc=3025000.0, omega=0.2975, T=299., P=1E6)
    srk = tn.SRK(Tc=507.6, Pc=3025000.0, omega=0.2975, T=400., P=1E6)
    return {"pr": np.array([pr.V_l, pr.V_g]), "srk": np.array([srk.V_l, srk.V_g]),
            "liquid": np.array([liquid.dP_dT_l, liquid.H_dep_l, liquid.S_dep_l, liquid.Cp_dep_l])}


def interpolation_splines():
    """EconForge's interpolation: multilinear and cubic splines on uniform
    and non-uniform grids with each extrapolation mode (overloads whose
    code is generated per argument types), eval_spline and prefilter taking
    literally() of the order, the derivatives and the extrapolation mode
    (Numba's literal dispatch), interp and mlinterp."""
    from interpolation import interp, mlinterp
    from interpolation.splines import CGrid, UCGrid, eval_cubic, eval_linear, eval_spline, filter_cubic, nodes, prefilter
    from interpolation.splines import extrap_options as xto
    rng = np.random.default_rng(11)
    grid = UCGrid((-1.0, 1.0, 12), (0.0, 2.0, 9))
    at = nodes(grid)
    values = (np.sin(3 * at[:, 0]) * np.cos(at[:, 1])).reshape((12, 9))
    points = rng.uniform(-1.2, 2.2, (500, 2))
    nonuniform = CGrid(np.linspace(-1, 1, 12) ** 3, (0.0, 2.0, 9))
    x = np.linspace(0, 1, 60)
    return {"linear": eval_linear(grid, values, points), "point": eval_linear(grid, values, points[3]),
            "constant": eval_linear(grid, values, points, xto.CONSTANT),
            "nearest": eval_linear(grid, values, points, xto.NEAREST),
            "nonuniform": eval_linear(nonuniform, values, points),
            "cubic": eval_cubic(grid, filter_cubic(grid, values), points),
            "spline_linear": eval_spline(grid, values, points, None, 1, "None", "linear"),
            "spline_cubic": eval_spline(grid, prefilter(grid, values, k=3), points, None, 3, "None", "linear"),
            "interp": interp(x, np.cos(5 * x), rng.random(40)),
            "mlinterp": mlinterp((x, x), np.outer(np.cos(x), np.sin(x)), rng.random((40, 2)))}


def _panel(n, channels, length, seed):
    return np.cumsum(np.random.default_rng(seed).standard_normal((n, channels, length)), axis=2)


def sktime_rockets():
    """sktime's ROCKET, MiniRocket and MultiRocket transforms, univariate and
    multivariate (parallel kernels, fastmath, a 252-index table written in
    the source)."""
    from sktime.transformations.panel.rocket import (MiniRocket, MiniRocketMultivariate, MultiRocket,
                                                     MultiRocketMultivariate, Rocket)
    x, xm = _panel(12, 1, 80, 0), _panel(12, 3, 60, 1)
    return {"rocket": Rocket(num_kernels=200, random_state=1).fit_transform(x).to_numpy(),
            "minirocket": MiniRocket(num_kernels=200, random_state=1).fit_transform(x).to_numpy(),
            "multirocket": MultiRocket(num_kernels=200, random_state=1).fit_transform(x).to_numpy(),
            "minirocket_mv": MiniRocketMultivariate(num_kernels=200, random_state=1).fit_transform(xm).to_numpy(),
            "multirocket_mv": MultiRocketMultivariate(num_kernels=200, random_state=1).fit_transform(xm).to_numpy(),
            "rocket_mv": Rocket(num_kernels=100, random_state=1).fit_transform(xm).to_numpy()}


def sktime_features():
    """Catch22 features, SFA words (SFAFast: typed dicts of uint32 keys,
    sets of words), ClaSP segmentation (np.trapezoid chosen by a global
    NumPy-version flag), random shapelets and supervised intervals."""
    import pandas as pd
    from sktime.detection.clasp import ClaSPSegmentation
    from sktime.transformations.panel.catch22 import Catch22
    from sktime.transformations.panel.dictionary_based import SFAFast
    from sktime.transformations.panel.shapelet_transform import RandomShapeletTransform
    from sktime.transformations.panel.supervised_intervals import SupervisedIntervals
    x, y = _panel(12, 1, 80, 0), np.array([0, 1] * 6)
    t = np.arange(300)
    series = np.concatenate([np.sin(t / 5), 2 * np.sin(t / 2)]) + np.random.default_rng(2).standard_normal(600) / 10
    sfa = SFAFast(word_length=4, alphabet_size=4, window_size=12, random_state=1).fit_transform(x, y)
    return {"catch22": Catch22().fit_transform(x).to_numpy(dtype=float),
            "sfa": sfa.toarray() if hasattr(sfa, "toarray") else np.asarray(sfa, dtype=float),
            "clasp": np.asarray(ClaSPSegmentation(period_length=10, n_cps=1).fit_predict(pd.Series(series)), dtype=float),
            "shapelets": np.asarray(RandomShapeletTransform(n_shapelet_samples=50, max_shapelets=5, random_state=1)
                                    .fit_transform(x, y), dtype=float),
            "intervals": np.asarray(SupervisedIntervals(n_intervals=2, random_state=1).fit_transform(x, y), dtype=float)}


def sktime_distances():
    """sktime's Numba distances (Euclidean, DTW and its derivative and
    weighted kin, LCSS, EDR, ERP, MSM, TWE), pairwise matrices, an alignment
    path, DtwDist and EditDist, the Numba DTW aligner, k-NN under DTW."""
    import pandas as pd
    from sktime.alignment.dtw_numba import AlignerDtwNumba
    from sktime.classification.distance_based import KNeighborsTimeSeriesClassifier
    from sktime.dists_kernels import DtwDist, EditDist
    from sktime.dists_kernels._numba_distances import distance, dtw_alignment_path, pairwise_distance
    x, y = _panel(12, 1, 80, 0), np.array([0, 1] * 6)
    a, b = x[0, 0], x[1, 0]
    out = {m: np.array([distance(a, b, metric=m)]) for m in ("euclidean", "squared", "dtw", "ddtw", "wdtw",
                                                             "wddtw", "lcss", "edr", "erp", "msm", "twe")}
    out.update(pairwise_dtw=pairwise_distance(x[:5, 0], x[5:9, 0], metric="dtw"),
               pairwise_msm=pairwise_distance(x[:4, 0], x[4:7, 0], metric="msm"),
               path=np.array(dtw_alignment_path(a, b)[0], dtype=float),
               dtwdist=DtwDist(weighted=True).transform(x[:4], x[4:8]),
               editdist=EditDist(distance="edr").transform(x[:4], x[4:8]),
               aligner=np.array([AlignerDtwNumba().fit([pd.DataFrame(a), pd.DataFrame(b)]).get_distance()]),
               knn=KNeighborsTimeSeriesClassifier(distance="dtw").fit(x, y).predict_proba(x))
    return out


def _seasonal_series(n, seed, season=12):
    t = np.arange(n)
    return 10 + 0.05 * t + 2 * np.sin(2 * np.pi * t / season) + np.random.default_rng(seed).standard_normal(n)


def _demand(n, seed):
    rng = np.random.default_rng(seed)
    return (rng.poisson(0.6, n) * rng.integers(1, 5, n)).astype(float)


def _forecast(model, y, h=8):
    model = model.fit(y)
    out = {"mean": model.predict(h=h)["mean"]}
    if hasattr(model, "predict_in_sample"):
        out["fitted"] = model.predict_in_sample()["fitted"]
    return out


def _prefixed(**parts):
    return {f"{name}.{key}": value for name, part in parts.items() for key, value in part.items()}


def statsforecast_models():
    """statsforecast's models whose fitting Numba compiles (1.7.8, the last
    release with its Theta family in Numba; 2.1 moved all of them to C++),
    fitted and predicting 8 steps with their in-sample values: AutoCES (its
    four models and the Nelder-Mead search), the Theta models (standard,
    optimised, dynamic, multiplicative and additive), simple and seasonal
    exponential smoothing (fixed and optimised), GARCH and ARCH, MFLES and
    AutoMFLES, TBATS and AutoTBATS, MSTL over AutoCES."""
    from statsforecast import models as m
    y = _seasonal_series(120, 0)
    return _prefixed(
        ces=_forecast(m.AutoCES(season_length=12), y), ces_full=_forecast(m.AutoCES(season_length=12, model="F"), y),
        ces_partial=_forecast(m.AutoCES(season_length=12, model="P"), y),
        ces_simple=_forecast(m.AutoCES(season_length=12, model="S"), y),
        theta=_forecast(m.AutoTheta(season_length=12), y),
        theta_additive=_forecast(m.AutoTheta(season_length=12, decomposition_type="additive"), y),
        stm=_forecast(m.Theta(season_length=12), y), otm=_forecast(m.OptimizedTheta(season_length=12), y),
        dstm=_forecast(m.DynamicTheta(season_length=12), y),
        dotm=_forecast(m.DynamicOptimizedTheta(season_length=12), y),
        ses=_forecast(m.SimpleExponentialSmoothing(alpha=0.3), y),
        ses_opt=_forecast(m.SimpleExponentialSmoothingOptimized(), y),
        seas_es=_forecast(m.SeasonalExponentialSmoothing(season_length=12, alpha=0.2), y),
        seas_es_opt=_forecast(m.SeasonalExponentialSmoothingOptimized(season_length=12), y),
        garch={"mean": m.GARCH(1, 1).fit(np.diff(y)).predict(h=8)["mean"]},
        arch={"mean": m.ARCH(2).fit(np.diff(y)).predict(h=8)["mean"]},
        mfles=_forecast(m.MFLES(season_length=12), y),
        automfles=_forecast(m.AutoMFLES(test_size=8, season_length=12, n_windows=2), y),
        tbats=_forecast(m.TBATS(season_length=12), y), autotbats=_forecast(m.AutoTBATS(season_length=12), y[:60]),
        mstl=_forecast(m.MSTL(season_length=[12], trend_forecaster=m.AutoCES()), y))


def statsforecast_intermittent():
    """statsforecast's models of intermittent demand (ADIDA, Croston's
    classic, optimised and SBA, IMAPA, TSB) with their in-sample values, and
    StatsForecast(...).forecast over three series of a data frame with
    AutoCES, those, seasonal naive and the historic average."""
    import pandas as pd
    from statsforecast import StatsForecast
    from statsforecast import models as m
    import warnings
    y = _demand(80, 1)
    frame = pd.concat([pd.DataFrame({"unique_id": f"s{i}", "ds": np.arange(60 + 10 * i),
                                     "y": _seasonal_series(60 + 10 * i, 10 + i)}) for i in range(3)])
    with warnings.catch_warnings():  # "Computing fitted values for ADIDA is very expensive"
        warnings.simplefilter("ignore")
        out = _prefixed(adida=_forecast(m.ADIDA(), y), croston=_forecast(m.CrostonClassic(), y),
                        croston_opt=_forecast(m.CrostonOptimized(), y), croston_sba=_forecast(m.CrostonSBA(), y),
                        imapa=_forecast(m.IMAPA(), y), tsb=_forecast(m.TSB(alpha_d=0.2, alpha_p=0.2), y))
    sf = StatsForecast(models=[m.AutoCES(season_length=12), m.CrostonOptimized(), m.TSB(0.1, 0.3), m.IMAPA(),
                               m.ADIDA(), m.SimpleExponentialSmoothingOptimized(), m.SeasonalNaive(12),
                               m.HistoricAverage()], freq=1)
    forecast = sf.forecast(df=frame, h=6)
    out.update({f"frame.{c}": forecast[c].to_numpy() for c in forecast.columns if c not in ("unique_id", "ds")})
    return out


def window_ops_windows():
    """window-ops (mlforecast's lag transforms): rolling, seasonal rolling,
    expanding and seasonal expanding means, standard deviations, minima and
    maxima with and without min_samples, rolling correlation, CV, kurtosis,
    positive-only mean and days with sales, the exponentially weighted mean,
    shifts; over float64 series with NaNs and a float32 one."""
    from window_ops import ewm, expanding, rolling, shift
    rng = np.random.default_rng(0)
    x = rng.standard_normal(500).cumsum()
    x[:5] = np.nan
    x[100] = np.nan
    sales = np.maximum(rng.standard_normal(300), 0)
    out = {}
    for tag, a in (("f64", x), ("f32", x.astype(np.float32)), ("sales", sales)):
        for op in ("mean", "std", "max", "min"):
            out[f"{tag}.rolling_{op}"] = getattr(rolling, f"rolling_{op}")(a, 7)
            out[f"{tag}.rolling_{op}_min3"] = getattr(rolling, f"rolling_{op}")(a, 14, 3)
            out[f"{tag}.seasonal_rolling_{op}"] = getattr(rolling, f"seasonal_rolling_{op}")(a, 7, 4, 2)
            out[f"{tag}.expanding_{op}"] = getattr(expanding, f"expanding_{op}")(a)
            out[f"{tag}.seasonal_expanding_{op}"] = getattr(expanding, f"seasonal_expanding_{op}")(a, 7)
        for op in ("correlation", "cv", "kurtosis", "mean_positive_only", "average_days_with_sales"):
            out[f"{tag}.rolling_{op}"] = getattr(rolling, f"rolling_{op}")(a, 10)
        out[f"{tag}.ewm_mean"] = ewm.ewm_mean(a, 0.3)
        out[f"{tag}.shift"] = shift.shift_array(a, 3)
    return out


def window_ops_mlforecast():
    """window-ops as mlforecast uses it: lag transforms given as (function,
    *args) that mlforecast's own compiled driver calls on every series of a
    frame (the shift and the transform passed to it as compiled functions,
    two Python threads), the features they make and a linear model's
    10-step forecast from them."""
    import pandas as pd
    from mlforecast import MLForecast
    from sklearn.linear_model import LinearRegression
    from window_ops.ewm import ewm_mean
    from window_ops.expanding import expanding_mean
    from window_ops.rolling import rolling_max, rolling_mean, rolling_std, seasonal_rolling_mean
    frame = pd.concat([pd.DataFrame({"unique_id": f"s{i}", "ds": np.arange(80 + 5 * i),
                                     "y": _seasonal_series(80 + 5 * i, i, season=7)}) for i in range(4)])
    forecast = MLForecast(models=[LinearRegression()], freq=1, lags=[1, 7], num_threads=2,
                          lag_transforms={1: [(rolling_mean, 7), (expanding_mean,), (ewm_mean, 0.3)],
                                          7: [(rolling_std, 7, 2), (seasonal_rolling_mean, 7, 2), (rolling_max, 14)]})
    features = forecast.preprocess(frame)
    out = {c: features[c].to_numpy() for c in features.columns if c not in ("unique_id", "ds")}
    out["forecast"] = forecast.fit(frame).predict(h=10)["LinearRegression"].to_numpy()
    return out


def clifford_products():
    """clifford's algebras whose product tables Numba compiles at run time
    (each layout's gmt/omt/imt/lcmt functions): geometric, outer, inner and
    left-contraction products, the regressive product (vee), commutators,
    reverse, dual, adjoint, norms, the left-multiplication inverse and
    powers in Cl(3), Cl(4) and Cl(1,3)."""
    import clifford
    out = {}
    for name, (p, q) in (("Cl3", (3, 0)), ("Cl4", (4, 0)), ("Cl13", (1, 3))):
        layout, _ = clifford.Cl(p, q)
        a, b = (layout.MultiVector(np.random.default_rng(seed).standard_normal(layout.gaDims)) for seed in (1, 2))
        for op, value in (("gp", a * b), ("op", a ^ b), ("ip", a | b), ("lc", a << b), ("vee", a.vee(b)),
                          ("comm", a.commutator(b)), ("acomm", a.anticommutator(b)), ("rev", ~a),
                          ("dual", a.dual()), ("adjoint", a.adjoint()), ("inv", a.leftLaInv()),
                          ("normal", a.normal()), ("pow", a ** 3), ("mixed", (2 * a - b / 3) * a(2))):
            out[f"{name}.{op}"] = value.value
        out[f"{name}.mag2"] = a.mag2()
    return out


def clifford_multivector_functions():
    """clifford's compiled functions that take MultiVector objects (Numba
    extension types): exponentials and the Taylor series, grade involution,
    the Hitzer and Shirokov inverses, rotors rotating a vector."""
    import clifford
    layout, blades = clifford.Cl(3)
    a = layout.MultiVector(np.random.default_rng(1).standard_normal(layout.gaDims))
    rotor = (blades["e12"] * 0.4).exp()
    return {"exp": a(2).exp().value, "sin": a.sin().value, "cosh": a.cosh().value, "conjugate": a.conjugate().value,
            "hitzer": a.hitzer_inverse().value, "shirokov": a.shirokov_inverse().value,
            "rotated": (rotor * (blades["e1"] + 2 * blades["e3"]) * ~rotor).value}


def clifford_g3c_tools():
    """clifford.tools.g3c's compiled functions of conformal objects (their
    MultiVector globals such as einf read through lower_constant, grade
    selection by calling a MultiVector): meets, normalised points,
    translation rotors, intersections and midpoints of lines, spheres,
    rotors and motors between lines, point pairs' end points."""
    from clifford.g3c import e1, e2, e3, einf, up
    from clifford.tools import g3c
    rng = np.random.default_rng(5)

    def point():
        return up(sum(float(c) * b for c, b in zip(rng.standard_normal(3), (e1, e2, e3))))

    p = [point() for _ in range(8)]
    line1, line2 = (p[0] ^ p[1] ^ einf).normal(), (p[2] ^ p[3] ^ einf).normal()
    plane, sphere = (p[4] ^ p[5] ^ p[6] ^ einf).normal(), (p[0] ^ p[2] ^ p[4] ^ p[6]).normal()
    ends = g3c.point_pair_to_end_points(g3c.meet(sphere, line1))
    return {"meet": g3c.meet(line1, plane).value, "normalised_point": g3c.normalise_n_minus_1(p[0] * 3.0).value,
            "translation": g3c.generate_translation_rotor(e1 - 2 * e3).value,
            "midpoint": g3c.midpoint_between_lines(line1, line2).value,
            "line_plane": g3c.intersect_line_and_plane_to_point(line1, plane).value,
            "unsigned_sphere": g3c.unsign_sphere(sphere).value,
            "sphere_meets_line": [g3c.sphere_line_intersect(sphere, line1)],
            "rotor_lines": g3c.rotor_between_lines(line1, line2).value,
            "motor_objects": g3c.motor_between_objects(line1, line2).value,
            "norm": [g3c.norm(line1 * 2.0)], "end_points": np.concatenate([e.value for e in ends])}


def _dependent_pair(n, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(n)
    return x, x ** 2 + rng.standard_normal(n) * 0.3


def dcor_statistics():
    """dcor's distance covariance and correlation by the naive, AVL and
    mergesort methods (functions compiled from closures over a `compiled`
    flag, explicit signatures returning tuples with Optional items),
    multivariate, energy distance, partial correlation, a permutation test."""
    import dcor
    x, y = _dependent_pair(300, 0)
    rng = np.random.default_rng(1)
    xm = rng.standard_normal((100, 3))
    ym = xm @ rng.standard_normal((3, 2)) + rng.standard_normal((100, 2))
    out = {}
    for method in ("naive", "avl", "mergesort"):
        out["dcor_" + method] = [dcor.distance_correlation(x, y, method=method)]
        out["u_dcov_" + method] = [dcor.u_distance_covariance_sqr(x, y, method=method)]
    out.update(multivariate=[dcor.distance_correlation(xm, ym)], energy=[dcor.energy_distance(xm, ym[:, :1] * 2)],
               partial=[dcor.partial_distance_correlation(x, y, x ** 3)],
               test=[dcor.independence.distance_covariance_test(x, y, num_resamples=50, random_state=1).pvalue])
    return out


def hyppo_tests():
    """hyppo's independence and k-sample statistics (Dcorr, Hsic, HHG, CCA,
    MGC, energy, MMD), a permutation test and a time-series DcorrX."""
    from hyppo.independence import CCA, HHG, MGC, Dcorr, Hsic
    from hyppo.ksample import MMD, Energy
    from hyppo.time_series import DcorrX
    x, y = _dependent_pair(300, 2)
    rng = np.random.default_rng(3)
    xm = rng.standard_normal((100, 3))
    ym = xm[:, :1] * 2 + rng.standard_normal((100, 1))
    out = {name: [test().statistic(xm, ym)] for name, test in (("dcorr", Dcorr), ("hsic", Hsic), ("hhg", HHG),
                                                              ("cca", CCA))}
    out.update(mgc=[MGC().statistic(x[:80, None], y[:80, None])],
               dcorr_test=list(Dcorr().test(x[:, None], y[:, None], reps=50, random_state=1)),
               energy=[Energy().statistic(xm, xm + 0.5)], mmd=[MMD().statistic(xm, xm + 0.5)],
               dcorrx=[DcorrX(max_lag=2).statistic(x[:100, None], y[:100, None])[0]])
    return out
def _sgkit_calls(n_variant, n_sample, cohorts=0, **kw):
    """A simulated call dataset of sgkit's (fixed seed), cohorts assigned in turn."""
    import sgkit as sg
    import xarray as xr
    ds = sg.simulate_genotype_call_dataset(n_variant=n_variant, n_sample=n_sample, seed=0, **kw)
    if cohorts:
        ds["sample_cohort"] = xr.DataArray(np.arange(n_sample) % cohorts, dims="samples")
    return ds


def sgkit_counts_hwe():
    """sgkit's guvectorized genotype kernels: allele and genotype counts
    (diploid and tetraploid, 3 alleles, missing calls), variant and sample
    statistics, heterozygosity, cohort counts, genotype indices, calls from
    probabilities, Hardy-Weinberg exact tests (also on dask chunks)."""
    import sgkit as sg
    out = {}
    for ploidy in (2, 4):
        ds = _sgkit_calls(40, 12, cohorts=3, n_ploidy=ploidy, n_allele=3, missing_pct=0.1)
        out[f"call_alleles{ploidy}"] = sg.count_call_alleles(ds)["call_allele_count"].values
        out[f"variant_alleles{ploidy}"] = sg.count_variant_alleles(ds)["variant_allele_count"].values
        out[f"genotypes{ploidy}"] = sg.count_variant_genotypes(ds)["variant_genotype_count"].values
        out[f"cohort_alleles{ploidy}"] = sg.count_cohort_alleles(ds)["cohort_allele_count"].values
        out[f"index{ploidy}"] = sg.convert_call_to_index(ds)["call_genotype_index"].values
        stats = sg.variant_stats(ds)
        for key in ("variant_call_rate", "variant_allele_frequency", "variant_n_het"):
            out[f"{key}{ploidy}"] = stats[key].values
        out[f"sample_n_het{ploidy}"] = sg.sample_stats(ds)["sample_n_het"].values
        out[f"heterozygosity{ploidy}"] = sg.individual_heterozygosity(ds)["call_heterozygosity"].values
    ds = _sgkit_calls(30, 10)
    p = np.random.default_rng(4).random((30, 10, 3))
    ds["call_genotype_probability"] = (("variants", "samples", "genotypes"), p / p.sum(-1, keepdims=True))
    out["from_probability"] = sg.convert_probability_to_call(ds)["call_genotype"].values
    out["hwe"] = sg.hardy_weinberg_test(_sgkit_calls(60, 40, missing_pct=0.1))["variant_hwe_p_value"].values
    chunked = _sgkit_calls(50, 20, phased=True, missing_pct=0.1).chunk({"variants": 16, "samples": 7})
    out["hwe_chunks"] = sg.hardy_weinberg_test(chunked)["variant_hwe_p_value"].values
    return out


def sgkit_distance_ld():
    """sgkit's pairwise distances (euclidean, correlation), identity by
    state and Weir-Goudet beta, the LD matrix by windows of variants and of
    positions (with scores), maximal independent sets and LD pruning."""
    import sgkit as sg
    import xarray as xr
    out = {}
    x = _sgkit_calls(100, 30)["call_genotype"].sum(dim="ploidy").values.T.astype(float)
    for metric in ("euclidean", "correlation"):
        out[metric] = np.asarray(sg.pairwise_distance(x, metric=metric))
    ds = _sgkit_calls(80, 20, missing_pct=0.05)
    out["ibs"] = sg.identity_by_state(ds)["stat_identity_by_state"].values
    out["beta"] = sg.Weir_Goudet_beta(ds)["stat_Weir_Goudet_beta"].values
    ds = sg.window_by_variant(_sgkit_calls(200, 50), size=20)
    ds["call_dosage"] = ds["call_genotype"].sum(dim="ploidy")
    ld = sg.ld_matrix(ds)
    out.update(ld_i=ld["i"].values, ld_j=ld["j"].values, ld_r2=ld["value"].values)
    out["pruned"] = sg.ld_prune(ds, threshold=0.2)["variant_position"].values
    rng = np.random.default_rng(5)
    ds = _sgkit_calls(150, 30)
    ds["variant_position"] = xr.DataArray(np.sort(rng.choice(5000, 150, replace=False)).astype(np.int32), dims="variants")
    ds = sg.window_by_position(ds, size=500)
    ds["call_dosage"] = ds["call_genotype"].sum(dim="ploidy")
    ds["variant_score"] = xr.DataArray(rng.random(150), dims="variants")
    ld = sg.ld_matrix(ds, threshold=0.05, variant_score="variant_score")
    out.update(scored_r2=ld["value"].values, scored_cmp=ld["cmp"].values)
    out["to_drop"] = sg.maximal_independent_set(ld)["ld_prune_index_to_drop"].values
    return out


def sgkit_popgen():
    """sgkit's windowed population statistics over cohorts: diversity,
    divergence, Fst (Hudson, Nei), PBS, observed heterozygosity (also in
    overlapping windows with missing calls), Garud's H on phased calls."""
    import sgkit as sg
    out = {}
    ds = sg.window_by_variant(_sgkit_calls(120, 60, cohorts=3), size=20)
    out["diversity"] = sg.diversity(ds)["stat_diversity"].values
    out["divergence"] = sg.divergence(ds)["stat_divergence"].values
    for estimator in ("Hudson", "Nei"):
        out["fst_" + estimator] = sg.Fst(ds, estimator=estimator)["stat_Fst"].values
    out["pbs"] = sg.pbs(ds)["stat_pbs"].values
    out["observed_heterozygosity"] = sg.observed_heterozygosity(ds)["stat_observed_heterozygosity"].values
    ds = sg.window_by_variant(_sgkit_calls(90, 30, cohorts=3, missing_pct=0.05), size=30, step=15)
    out["diversity_overlapping"] = sg.diversity(ds)["stat_diversity"].values
    out["fst_overlapping"] = sg.Fst(ds)["stat_Fst"].values
    ds = sg.window_by_variant(_sgkit_calls(100, 40, cohorts=2, phased=True), size=25)
    garud = sg.Garud_H(ds)
    for key in ("stat_Garud_h1", "stat_Garud_h12", "stat_Garud_h123", "stat_Garud_h2_h1"):
        out[key] = garud[key].values
    return out


def sgkit_pedigree():
    """sgkit's pedigree kernels on a random pedigree: kinship, inbreeding
    and inverse kinship (diploid, and Hamilton-Kerr with tetraploid
    gametes and double reduction), contributions, and a selection by
    ancestors."""
    import sgkit as sg
    import xarray as xr
    out = {}
    for seed, tau, lam in ((1, 1, 0.0), (7, 2, 0.1)):
        rng = np.random.default_rng(seed)
        n = 30
        ds = _sgkit_calls(20, n)
        parent = np.full((n, 2), -1)
        for i in range(8, n):
            parent[i] = rng.choice(i, 2, replace=False)
        ids = ds["sample_id"].values
        ds["parent"] = (("samples", "parents"), parent)
        ds["parent_id"] = (("samples", "parents"), np.where(parent < 0, ".", ids[parent]))
        ds["stat_Hamilton_Kerr_tau"] = (("samples", "parents"), np.full((n, 2), tau, np.uint64))
        ds["stat_Hamilton_Kerr_lambda"] = (("samples", "parents"), np.full((n, 2), lam))
        methods = ("diploid", "Hamilton-Kerr") if tau == 1 else ("Hamilton-Kerr",)
        for method in methods:
            out[f"kinship_{method}{seed}"] = sg.pedigree_kinship(ds, method=method)["stat_pedigree_kinship"].values
            out[f"inbreeding_{method}{seed}"] = sg.pedigree_inbreeding(ds, method=method)["stat_pedigree_inbreeding"].values
            out[f"inverse_{method}{seed}"] = sg.pedigree_inverse_kinship(ds, method=method)[
                "stat_pedigree_inverse_kinship"].values
        if tau == 1:
            out["contribution"] = sg.pedigree_contribution(ds)["stat_pedigree_contribution"].values
            ds["trait"] = xr.DataArray(np.zeros(n), dims="samples")
            selected = sg.pedigree_sel(ds, samples=[20, 25], ancestor_depth=2)["sample_id"].values
            out["selected"] = np.array([list(ids).index(i) for i in selected])  # as sample numbers
    return out


def _esda_lattice(seed, side=10):
    """A rook lattice (row-standardised) and two variables on it."""
    from libpysal.weights import lat2W
    rng = np.random.default_rng(seed)
    w = lat2W(side, side)
    w.transform = "r"
    return w, rng.normal(size=side * side).cumsum() % 7 + rng.random(side * side), rng.normal(size=side * side)


def esda_local():
    """esda's local statistics by conditional randomisation (its compiled
    permutation kernels, one process): local Moran (plain, bivariate,
    rates), local Geary, Getis-Ord G and G*, local join counts (uni-, bi-
    and multivariate), local spatial Pearson, Gamma."""
    import esda
    out = {}
    w, y, x = _esda_lattice(0)
    m = esda.Moran_Local(y, w, permutations=199, seed=12345, n_jobs=1)
    out.update(moran=m.Is, moran_p=m.p_sim, moran_ei=m.EI_sim, moran_q=m.q, moran_z=m.z_sim)
    m = esda.Moran_Local_BV(x, y, w, permutations=99, seed=7, n_jobs=1)
    out.update(moran_bv=m.Is, moran_bv_p=m.p_sim)
    events = np.arange(1, 101) * 10.0
    m = esda.Moran_Local_Rate(events, events * 50 + np.arange(100), w, permutations=99, seed=8, n_jobs=1)
    out.update(moran_rate=m.Is, moran_rate_p=m.p_sim)
    w, y, x = _esda_lattice(2)
    np.random.seed(3)  # Geary_Local does not pass its seed on: its permutations' seed is drawn from NumPy's
    g = esda.Geary_Local(connectivity=w, permutations=99, seed=3, n_jobs=1).fit(y)
    out.update(geary=g.localG, geary_p=g.p_sim)
    for star in (False, True):
        g = esda.G_Local(y, w, permutations=99, seed=4, star=star, n_jobs=1)
        out.update({f"g_{star}": g.Gs, f"g_p_{star}": g.p_sim, f"g_z_{star}": g.z_sim})
    w, y, x = _esda_lattice(3)
    w.transform = "b"
    a, b = (y > np.median(y)).astype(int), (x > 0).astype(int)
    j = esda.Join_Counts_Local(connectivity=w, permutations=99, seed=5, n_jobs=1).fit(a)
    out.update(ljc=j.LJC, ljc_p=j.p_sim)
    j = esda.Join_Counts_Local_BV(connectivity=w, permutations=99, seed=5, n_jobs=1).fit(a, b)
    out.update(ljc_bv=j.LJC, ljc_bv_p=j.p_sim)
    j = esda.Join_Counts_Local_MV(connectivity=w, permutations=99, seed=5, n_jobs=1).fit([a, b])
    out.update(ljc_mv=j.LJC, ljc_mv_p=j.p_sim)
    w, y, x = _esda_lattice(4)
    np.random.seed(6)
    sp = esda.Spatial_Pearson_Local(connectivity=w.sparse, permutations=99).fit(x.reshape(-1, 1), y.reshape(-1, 1))
    out.update(pearson=sp.associations_, pearson_p=sp.significance_)
    w.transform = "b"
    np.random.seed(9)
    g = esda.Gamma(y, w, operation="c", permutations=99)
    out.update(gamma=g.g, gamma_p=g.p_sim)
    return out


def esda_significance_shape():
    """esda's permutation significance (two-sided, directed, lesser,
    greater, folded; of an array and of a number) and its compiled shape
    measures of polygons (angles, reflexive angle ratio, moments of
    inertia and area, minimum bounding circle ratio)."""
    import shapely
    from esda import shape
    from esda.significance import calculate_significance
    rng = np.random.default_rng(10)
    ref, stat = rng.normal(size=(30, 99)), rng.normal(size=30) * 1.5
    out = {alt: calculate_significance(stat, ref, alternative=alt)
           for alt in ("two-sided", "directed", "lesser", "greater", "folded")}
    out["scalar"] = calculate_significance(0.3, ref[:1], alternative="greater")
    polygons = []
    for k in range(12):
        n = 5 + k % 6
        angle, radius = np.sort(rng.uniform(0, 2 * np.pi, n)), rng.uniform(0.5, 2.0, n)
        polygons.append(shapely.Polygon(np.c_[k * 5 + radius * np.cos(angle), radius * np.sin(angle)]))
    polygons = np.array(polygons, dtype=object)
    out["angles"] = np.asarray(shape.get_angles(polygons), dtype=float)
    for name in ("reflexive_angle_ratio", "moment_of_inertia", "second_areal_moment", "nmi", "moa_ratio",
                 "isoperimetric_quotient", "minimum_bounding_circle_ratio"):
        out[name] = getattr(shape, name)(polygons)
    return out


def _porespy_blobs(seed, shape=(80, 80)):
    import porespy as ps
    ps.settings.tqdm["disable"] = True
    return ps.generators.blobs(shape=list(shape), porosity=0.65, blobiness=1.5, seed=seed)


def porespy_images():
    """porespy's compiled image kernels: random sphere packings (2-d and
    3-d), pseudo-gravity and pseudo-electrostatic packings, local thickness
    (by distance transform, brute force, convolution), porosimetry, SNOW
    partitioning, invasion percolation (ibip, qbip), drainage, radial
    density and two-point correlation."""
    import porespy as ps
    from scipy import ndimage
    out = {"spheres": ps.generators.random_spheres([60, 60], r=5, clearance=1, seed=1, maxiter=50),
           "spheres3": ps.generators.random_spheres([30, 30, 30], r=4, seed=2, maxiter=30),
           "gravity": ps.generators.pseudo_gravity_packing(im=np.ones([60, 60], bool), r=5, seed=3),
           "electrostatic": ps.generators.pseudo_electrostatic_packing(im=np.ones([60, 60], bool), r=4, seed=4)}
    im = _porespy_blobs(0)
    for method in ("dt", "bf", "conv"):
        out["thickness_" + method] = ps.filters.local_thickness(im, method=method)
    out["porosimetry"] = ps.filters.porosimetry(im)
    out["snow"] = ps.filters.snow_partitioning(im, r_max=4, sigma=0.4).regions
    im = _porespy_blobs(1)
    inlets = ps.generators.faces(im.shape, inlet=0)
    ibip = ps.simulations.ibip(im=im, inlets=inlets)
    out.update(ibip_seq=ibip.im_seq, ibip_size=ibip.im_size)
    out["qbip_seq"] = ps.simulations.qbip(im=im, inlets=inlets).im_seq
    out["drainage_seq"] = ps.simulations.drainage(im=im, inlets=inlets).im_seq
    im = _porespy_blobs(3, (60, 60))
    out["radial_density"] = ps.metrics.radial_density_distribution(ndimage.distance_transform_edt(im)).pdf
    out["two_point"] = ps.metrics.two_point_correlation(im).probability
    return out


def porespy_network():
    """porespy's SNOW2 pore network extraction (its compiled region-to-
    network kernels): every numeric property of the network."""
    import porespy as ps
    net = ps.networks.snow2(_porespy_blobs(2, (60, 60)), boundary_width=0).network
    return {k: np.asarray(v) for k, v in sorted(net.items()) if np.asarray(v).dtype.kind in "fiub"}


def _pysheds_dem(n=60):
    """A tilted, rippled, noisy 60x60 elevation model (fixed seed) and its grid."""
    from affine import Affine
    from pysheds.sgrid import sGrid
    from pysheds.sview import Raster, ViewFinder
    y, x = np.mgrid[0:n, 0:n]
    z = 100 + 0.5 * x + 0.3 * y + 3 * np.sin(x / 6.0) * np.cos(y / 7.0) + np.random.default_rng(0).random((n, n))
    dem = Raster(z, viewfinder=ViewFinder(affine=Affine(1.0, 0, 0, 0, -1.0, n), shape=z.shape, nodata=np.float64(-9999)))
    return sGrid.from_raster(dem), dem


def pysheds_flow():
    """pysheds' compiled hydrology (its D8 routines that call numpy.in1d,
    which NumPy 2.4 removed, left out): pits filled, flats resolved, flow
    directions (D8, D-infinity, MFD), accumulation, catchments, distances
    to the outlet and to ridges, heights above the drainage, cell drops,
    distances and slopes."""
    grid, dem = _pysheds_dem()
    out = {"pits": grid.detect_pits(dem), "filled": grid.fill_pits(dem)}
    out["flats"] = grid.detect_flats(out["filled"])
    dem = out["inflated"] = grid.resolve_flats(out["filled"])
    fdir = out["d8"] = grid.flowdir(dem)
    dinf = out["dinf"] = grid.flowdir(dem, routing="dinf")
    mfd = out["mfd"] = grid.flowdir(dem, routing="mfd")
    acc = out["acc_dinf"] = grid.accumulation(dinf, routing="dinf")
    out["acc_mfd"] = grid.accumulation(mfd, routing="mfd")
    x, y = grid.snap_to_mask(acc > 50, [[1.5, 30.5]])[0]
    out["catchment_d8"] = grid.catchment(x=x, y=y, fdir=fdir, xytype="coordinate")
    streams = acc > 20
    for name, f in (("dinf", dinf), ("mfd", mfd)):
        out["catchment_" + name] = grid.catchment(x=x, y=y, fdir=f, routing=name, xytype="coordinate")
        out["outlet_" + name] = grid.distance_to_outlet(x=x, y=y, fdir=f, routing=name, xytype="coordinate")
        out["hand_" + name] = grid.compute_hand(f, dem, streams, routing=name)
        out["ridge_" + name] = grid.distance_to_ridge(f, streams, routing=name)
        out["drop_" + name] = grid.cell_dh(dem, f, routing=name)
    out["distances_dinf"] = grid.cell_distances(dinf, routing="dinf")
    out["slopes_dinf"] = grid.cell_slopes(dem, dinf, routing="dinf")
    return {k: np.asarray(v) for k, v in out.items()}


def pysheds_priority_flood():
    """pysheds' depressions filled by its compiled priority flood (a heap of
    tuples in a typed list whose item type is passed in)."""
    grid, dem = _pysheds_dem()
    filled = grid.fill_pits(dem)
    return {"depressions": np.asarray(grid.detect_depressions(filled)), "flooded": np.asarray(grid.fill_depressions(filled))}


def _sr_ensembles(seed=0):
    rng = np.random.default_rng(seed)
    return (rng.normal(size=30), rng.normal(size=(30, 15)), rng.random((30, 15)),
            rng.normal(size=(20, 3)), rng.normal(size=(20, 12, 3)), rng.random((20, 12)))


def scoringrules_crps():
    """scoringrules' CRPS of univariate ensembles (its gufuncs, lazily made
    for each dtype): every estimator plain and weighted, threshold-, outcome-
    and vertically re-scaled weighted, from quantiles; float32 and NaNs too."""
    import scoringrules as sr
    obs, fct, w, *_ = _sr_ensembles()
    out = {}
    for est in ("akr_circperm", "akr", "fair", "int", "nrg", "pwm", "qd"):
        out[est] = sr.crps_ensemble(obs, fct, estimator=est, backend="numba")
        out[est + "_w"] = sr.crps_ensemble(obs, fct, ens_w=w, estimator=est, backend="numba")
    for name, fn in (("tw", sr.twcrps_ensemble), ("ow", sr.owcrps_ensemble), ("vr", sr.vrcrps_ensemble)):
        out[name] = fn(obs, fct, a=-0.5, b=1.0, backend="numba")
        if name != "tw":
            out[name + "_w"] = fn(obs, fct, a=-0.5, b=1.0, ens_w=w, backend="numba")
    out["quantile"] = sr.crps_quantile(obs, np.sort(fct, -1), np.linspace(0.05, 0.95, 15), backend="numba")
    obs32, fct32 = obs.astype(np.float32).reshape(5, 6), fct.astype(np.float32).reshape(5, 6, 15)
    obs32[0, 0] = np.nan
    for est in ("qd", "int", "nrg"):
        out[est + "_f32"] = sr.crps_ensemble(obs32, fct32, estimator=est, backend="numba")
    return out


def scoringrules_multivariate():
    """scoringrules' energy, variogram and Gaussian kernel scores of
    multivariate ensembles, plain, weighted and with weight functions."""
    import scoringrules as sr
    _, _, _, obs, fct, w = _sr_ensembles()

    def chain(x):
        return np.minimum(x, 0.5)

    def weight(x):
        return float(np.all(x > -1.0))

    out = {}
    for est in ("akr_circperm", "akr", "fair", "nrg"):
        out["es_" + est] = sr.es_ensemble(obs, fct, estimator=est, backend="numba")
        out["es_w_" + est] = sr.es_ensemble(obs, fct, ens_w=w, estimator=est, backend="numba")
        out["gks_" + est] = sr.gksmv_ensemble(obs, fct, estimator=est, backend="numba")
        out["gks_w_" + est] = sr.gksmv_ensemble(obs, fct, ens_w=w, estimator=est, backend="numba")
    for est in ("fair", "nrg"):
        out["vs_" + est] = sr.vs_ensemble(obs, fct, estimator=est, backend="numba")
        out["vs_w_" + est] = sr.vs_ensemble(obs, fct, ens_w=w, estimator=est, backend="numba")
    out["twes"] = sr.twes_ensemble(obs, fct, v_func=chain, backend="numba")
    out["owes"] = sr.owes_ensemble(obs, fct, w_func=weight, backend="numba")
    out["vres"] = sr.vres_ensemble(obs, fct, w_func=weight, backend="numba")
    out["twgks"] = sr.twgksmv_ensemble(obs, fct, v_func=chain, backend="numba")
    out["owgks"] = sr.owgksmv_ensemble(obs, fct, w_func=weight, backend="numba")
    out["vrgks"] = sr.vrgksmv_ensemble(obs, fct, w_func=weight, backend="numba")
    for name, fn in (("owvs", sr.owvs_ensemble), ("vrvs", sr.vrvs_ensemble)):
        out[name] = fn(obs, fct, w_func=weight, backend="numba")
        out[name + "_w"] = fn(obs, fct, w_func=weight, ens_w=w, backend="numba")
    out["dssmv"] = sr.dssmv_ensemble(obs, fct, backend="numba")
    return out


def scoringrules_more():
    """scoringrules' univariate kernel scores, Dawid-Sebastiani, interval and
    weighted interval scores, the error-spread score."""
    import scoringrules as sr
    obs, fct, w, *_ = _sr_ensembles()
    rng = np.random.default_rng(1)
    lo, hi = obs - rng.random(30), obs + rng.random(30)
    out = {}
    for est in ("akr", "akr_circperm", "fair", "nrg"):
        out["gks_" + est] = sr.gksuv_ensemble(obs, fct, estimator=est, backend="numba")
        out["gks_w_" + est] = sr.gksuv_ensemble(obs, fct, ens_w=w, estimator=est, backend="numba")
    for name, fn in (("tw", sr.twgksuv_ensemble), ("ow", sr.owgksuv_ensemble), ("vr", sr.vrgksuv_ensemble)):
        out[name + "gks"] = fn(obs, fct, a=-0.5, b=1.0, backend="numba")
    out["dssuv"] = sr.dssuv_ensemble(obs, fct, backend="numba")
    out["interval"] = sr.interval_score(obs, lo, hi, 0.2, backend="numba")
    out["wis"] = sr.weighted_interval_score(obs, (lo + hi) / 2, np.stack([lo - 0.5, lo], -1),
                                            np.stack([hi + 0.5, hi], -1), np.array([0.1, 0.2]), backend="numba")
    out["error_spread"] = sr.error_spread_score(obs, fct, backend="numba")
    return out


def properscoring_scores():
    """properscoring's CRPS of ensembles (its gufunc, with weights, NaN
    members and observations, another axis) and threshold Brier scores."""
    import properscoring as ps
    rng = np.random.default_rng(2)
    obs, fct, w = rng.normal(size=(6, 7)), rng.normal(size=(6, 7, 11)), rng.random((6, 7, 11))
    fct[0, 0, 3] = np.nan
    obs[1, 1] = np.nan
    return {"crps": ps.crps_ensemble(obs, fct), "crps_w": ps.crps_ensemble(obs, fct, weights=w),
            "crps_axis0": ps.crps_ensemble(obs[:, 0], np.ascontiguousarray(fct[:, 0, :].T), axis=0),
            "brier": ps.threshold_brier_score(obs, fct, np.linspace(-1, 1, 5)),
            "brier_one": ps.threshold_brier_score(obs, fct, 0.3)}


def yasa_staging_features():
    """yasa's sleep-staging features of six minutes of EEG, EOG and EMG (its
    one Numba path: antropy's compiled Higuchi fractal dimension per epoch)."""
    import mne
    import yasa
    rng = np.random.default_rng(3)
    sf, n = 100.0, 36000
    eeg = 20 * np.sin(2 * np.pi * 10 * np.arange(n) / sf) + 30 * rng.standard_normal(n)
    data = np.vstack([eeg, 50 * rng.standard_normal(n), 5 * rng.standard_normal(n)]) * 1e-6
    raw = mne.io.RawArray(data, mne.create_info(["C4", "EOG", "EMG"], sf, ["eeg", "eog", "emg"]), verbose=False)
    features = yasa.SleepStaging(raw, eeg_name="C4", eog_name="EOG", emg_name="EMG").get_features()
    return {column: features[column].to_numpy() for column in features.columns}


def _trimap_inputs():
    """300 points in 10 dimensions, their 30 nearest neighbours (annoy,
    which seeds itself) and fixed triplets whose first similar point is
    each point's second neighbour."""
    from annoy import AnnoyIndex
    rng = np.random.default_rng(0)
    X = rng.standard_normal((300, 10)).astype(np.float32)
    n = X.shape[0]
    tree = AnnoyIndex(10, metric="euclidean")
    for i in range(n):
        tree.add_item(i, X[i])
    tree.build(10)
    nbrs = np.array([tree.get_nns_by_item(i, 30) for i in range(n)], dtype=np.int32)
    dists = np.array([[tree.get_distance(i, j) for j in nbrs[i]] for i in range(n)], dtype=np.float32)
    sig = np.maximum(np.mean(dists[:, 3:6], axis=1), 1e-10).astype(np.float32)
    triplets = np.stack([np.repeat(np.arange(n), 6), np.repeat(nbrs[:, 1], 6), rng.integers(0, n, n * 6)],
                        1).astype(np.int32)
    Y = (rng.standard_normal((n, 2)) * 0.01).astype(np.float32)
    return X, nbrs, dists, sig, triplets, Y


def trimap_kernels():
    """TriMap's compiled kernels: similarities, triplet sampling (its
    neighbour columns; the outliers are random, checked for validity),
    distances, triplet weights, the gradient and both embedding updates."""
    from trimap import trimap_ as T
    X, nbrs, dists, sig, triplets, Y = _trimap_inputs()
    n = X.shape[0]
    P = T.find_p(dists, sig, nbrs)
    sampled = T.sample_knn_triplets(P, nbrs, 5, 3)
    valid = all(sampled[t, 2] not in nbrs[sampled[t, 0]][np.argsort(-P[sampled[t, 0]])[: (t // 3) % 5 + 2]]
                for t in range(sampled.shape[0]))
    rand = T.sample_random_triplets(X, 3, sig, 0)
    valid = valid and bool((rand[:, 3] >= 0).all() and (rand[:, 1] != rand[:, 0]).all())
    out_dist = np.array([T.calculate_dist(X[a], X[c], 0) for a, _, c in triplets], dtype=np.float32)
    weights = T.find_weights(triplets, P, nbrs, out_dist, sig)
    grad = T.trimap_grad(Y, 2, 3, triplets, np.abs(weights) + np.float32(0.1))
    Y1, vel = Y.copy(), np.zeros_like(Y)
    T.update_embedding(Y1, grad, vel, np.float32(0.1), 3, 1)
    Y2, gain = Y.copy(), np.ones_like(Y)
    T.update_embedding_dbd(Y2, grad, np.random.default_rng(1).standard_normal(Y.shape).astype(np.float32), gain,
                           np.float32(0.1), 300)
    return {"P": P, "knn_triplets": sampled[:, :2], "sampled_valid": float(valid),
            "distances": np.array([[T.calculate_dist(X[a], X[a + 1], d) for a in range(20)] for d in range(4)]),
            "weights": weights, "grad": grad, "momentum": Y1, "dbd": Y2, "gain": gain}


def _trimap_fit(opt_method):
    import trimap
    X, nbrs, dists, sig, triplets, Y = _trimap_inputs()
    weights = (np.random.default_rng(2).random(triplets.shape[0]) + 0.1).astype(np.float32)
    model = trimap.TRIMAP(n_iters=60, triplets=triplets, weights=weights, n_inliers=2, n_outliers=3,
                          opt_method=opt_method)
    return model.fit_transform(X, init=Y)


def trimap_fit_sd_momentum():
    """TRIMAP.fit_transform on fixed triplets, by gradient descent and with momentum."""
    return {"sd": _trimap_fit("sd"), "momentum": _trimap_fit("momentum")}


def trimap_fit_dbd():
    """TRIMAP.fit_transform on fixed triplets with its default delta-bar-delta steps."""
    return {"dbd": _trimap_fit("dbd")}


def _pacmap_data():
    rng = np.random.default_rng(0)
    return np.vstack([rng.standard_normal((100, 8)) + c for c in (0, 4, 8)]).astype(np.float32)


def pacmap_pairs():
    """PaCMAP's neighbour, mid-near and further pairs (seeded in compiled
    code by random_state) and its four distances."""
    import pacmap
    from pacmap import pacmap as P
    X = _pacmap_data()
    model = pacmap.PaCMAP(n_components=2, n_neighbors=10, random_state=0, num_iters=(2, 2, 2))
    model.fit(X, init="pca")
    return {"neighbors": model.pair_neighbors, "mid_near": model.pair_MN, "further": model.pair_FP,
            "distances": np.array([[P.calculate_dist(X[a], X[a + 1], d) for a in range(20)] for d in range(4)])}


def pacmap_embedding():
    """PaCMAP.fit_transform (140 Adam steps) and transform of new points."""
    import pacmap
    X = _pacmap_data()
    model = pacmap.PaCMAP(n_components=2, n_neighbors=10, random_state=0, num_iters=(40, 40, 60))
    embedding = model.fit_transform(X, init="pca")
    new = (np.random.default_rng(1).standard_normal((20, 8)) + 4).astype(np.float32)
    return {"embedding": embedding, "transform": model.transform(new, basis=X)}


def pacmap_localmap():
    """LocalMAP.fit_transform (PaCMAP with local further pairs resampled)."""
    import pacmap
    model = pacmap.LocalMAP(n_components=2, n_neighbors=10, random_state=0, num_iters=(40, 40, 60))
    return {"embedding": model.fit_transform(_pacmap_data(), init="pca")}


def numba_kdtree_queries():
    """numba-kdtree's KDTree: k nearest and radius queries (and their parallel
    variants), float32, a pickled tree, a tree built in a compiled function."""
    import pickle
    import numba
    from numba_kdtree import KDTree
    rng = np.random.default_rng(0)
    data, q = rng.random((500, 3)), rng.random((50, 3))
    tree = KDTree(data, leafsize=10)
    d, i, _ = tree.query(q, k=5)
    d1, i1, _ = tree.query(q, k=4, p=1)
    radius = tree.query_radius(q, 0.15, return_sorted=True)
    dp, ip, _ = tree.query_parallel(q, k=5)
    radius_p = tree.query_radius_parallel(q, 0.15, return_sorted=True)
    dk, ik, _ = pickle.loads(pickle.dumps(tree)).query(q, k=5)
    t32 = KDTree(data.astype(np.float32), leafsize=5, balanced=True, compact=True)
    d32, i32, _ = t32.query(q.astype(np.float32), k=3)

    @numba.njit
    def built_inside(data, q):
        return KDTree(data, leafsize=8).query(q, k=3)[1]
    return {"d": d, "i": i, "d_p1": d1, "i_p1": i1, "radius_counts": np.array([len(r) for r in radius]),
            "radius": np.concatenate([np.asarray(r) for r in radius]), "d32": d32, "i32": i32,
            "inside": built_inside(data, q), "d_parallel": dp, "i_parallel": ip,
            "radius_parallel": np.concatenate([np.asarray(r) for r in radius_p]), "d_pickled": dk, "i_pickled": ik}


def _celltree_mesh(nx, ny, x0=0.0, y0=0.0, dx=1.0, seed=0):
    """A jittered grid of quads, every third split into two triangles (fill value -1)."""
    rng = np.random.default_rng(seed)
    x, y = np.meshgrid(np.arange(nx + 1) * dx + x0, np.arange(ny + 1) * dx + y0)
    vertices = np.column_stack([x.ravel(), y.ravel()]) + rng.uniform(-0.15, 0.15, ((nx + 1) * (ny + 1), 2)) * dx
    i = np.arange(ny)[:, None] * (nx + 1) + np.arange(nx)[None, :]
    faces = []
    for k, q in enumerate(np.stack([i, i + 1, i + nx + 2, i + nx + 1], -1).reshape(-1, 4)):
        faces += [[q[0], q[1], q[2], -1], [q[0], q[2], q[3], -1]] if k % 3 == 0 else [list(q)]
    return vertices, np.array(faces, dtype=np.int64)


def numba_celltree_queries():
    """numba_celltree's CellTree2d on a mixed mesh: building, locating
    points, boxes and faces, intersecting boxes, faces and edges,
    barycentric weights; EdgeCellTree2d's point location and intersections."""
    from numba_celltree import CellTree2d, EdgeCellTree2d
    rng = np.random.default_rng(1)
    tree = CellTree2d(*_celltree_mesh(20, 15), -1)
    points = rng.uniform(-1, 21, (400, 2))
    boxes = np.sort(rng.uniform(0, 20, (40, 2, 2)), axis=1).transpose(0, 2, 1).reshape(-1, 4)
    other = _celltree_mesh(7, 5, x0=0.3, y0=0.2, dx=2.3, seed=2)
    out = {"nodes": np.asarray(tree.nodes.tolist(), dtype=float), "bb_indices": tree.bb_indices,
           "locate_points": tree.locate_points(points), "locate_boxes": np.stack(tree.locate_boxes(boxes)),
           "locate_faces": np.stack(tree.locate_faces(*other))}
    for name, found in (("boxes", tree.intersect_boxes(boxes)), ("faces", tree.intersect_faces(*other, -1)),
                        ("edges", tree.intersect_edges(rng.uniform(-1, 21, (60, 2, 2)))),
                        ("barycentric", tree.compute_barycentric_weights(points))):
        for k, v in enumerate(found):
            out[f"{name}_{k}"] = v
    ev = rng.uniform(0, 10, (80, 2))
    edges = np.stack([np.arange(79), np.arange(1, 80)], 1)
    edge_tree = EdgeCellTree2d(ev, edges)
    on_edges = (ev[edges[::3, 0]] + ev[edges[::3, 1]]) * 0.5
    out["edge_locate_points"] = edge_tree.locate_points(np.vstack([on_edges, rng.uniform(0, 10, (30, 2))]))
    for k, v in enumerate(edge_tree.intersect_edges(rng.uniform(0, 10, (30, 2, 2)))):
        out[f"edge_edges_{k}"] = v
    return out


def numbalsoda_solvers():
    """numbalsoda's LSODA and DOP853 on a @cfunc right-hand side (a
    predator-prey system, the Lorenz system through carray, a decay whose
    rates are read through an address its address_as_void_pointer casts),
    called from Python and from a compiled loop with the function's
    address, and solve_ivp returning its jitclass result."""
    import numba
    from numbalsoda import address_as_void_pointer, dop853, lsoda, lsoda_sig, solve_ivp

    @numba.cfunc(lsoda_sig)
    def predator_prey(t, u, du, p):
        du[0] = u[0] - u[0] * u[1]
        du[1] = u[0] * u[1] - u[1] * p[0]

    @numba.cfunc(lsoda_sig)
    def lorenz(t, u, du, p):
        x, y, z = numba.carray(u, (3,))
        sigma, rho, beta = numba.carray(p, (3,))
        du[0] = sigma * (y - x)
        du[1] = x * (rho - z) - y
        du[2] = x * y - beta * z

    @numba.cfunc(lsoda_sig)
    def decay(t, u, du, p):
        rates = numba.carray(address_as_void_pointer(numba.int64(p[0])), (2,), dtype=np.float64)
        du[0] = -rates[0] * u[0]
        du[1] = -rates[1] * u[1]

    u0, data, t_eval = np.array([5.0, 0.8]), np.array([1.0]), np.linspace(0.0, 50.0, 1000)
    rates = np.array([0.5, 2.0])
    decayed, _ = lsoda(decay.address, np.ones(2), np.linspace(0, 1, 5), data=np.array([float(rates.ctypes.data)]))
    address = predator_prey.address

    @numba.njit
    def sweep(address):
        out = np.empty((20, 2))
        for i in range(20):
            usol, _ = lsoda(address, u0, t_eval, data=np.array([0.5 + 0.05 * i]), rtol=1e-6, atol=1e-8)
            out[i] = usol[-1]
        return out

    usol, ok = lsoda(address, u0, t_eval, data=data)
    dsol, dok = dop853(address, u0, t_eval, data=data, rtol=1e-8, atol=1e-8)
    lsol, _ = dop853(lorenz.address, np.ones(3), np.linspace(0, 2.0, 50), data=np.array([10.0, 28.0, 8.0 / 3.0]),
                     rtol=1e-10, atol=1e-10)
    r = solve_ivp(address, np.array([0.0, 10.0]), u0, t_eval=np.linspace(0, 10, 30), data=data.ctypes.data,
                  rtol=1e-8, atol=1e-8)
    return {"lsoda": usol, "lsoda_ok": np.array(ok), "dop853": dsol, "dop853_ok": np.array(dok), "lorenz": lsol,
            "sweep": sweep(address), "decay": decayed, "ivp_t": np.asarray(r.t), "ivp_y": np.asarray(r.y), "ivp_ok": np.array(r.success)}


def nbkode_solvers():
    """numbakit-ode's solvers (Euler, Adams-Moulton, explicit Runge-Kutta
    with their interpolators, DOP853) on a decay and a damped oscillator
    with parameters: run to given times, and n steps. The adaptive ones are
    given their first step (the installed SciPy's select_initial_step no
    longer takes nbkode's arguments, under Numba too)."""
    import nbkode

    def decay(t, y):
        return -0.5 * y

    def oscillator(t, y, p):
        return np.array([y[1], -p[0] * y[0] - p[1] * y[1]])

    y0, t_eval, out = np.array([1.0, 2.0]), np.linspace(0.0, 5.0, 21), {}
    for name in ("ForwardEuler", "BackwardEuler", "AdamsMoulton2", "RungeKutta23", "RungeKutta45", "DOP853"):
        solver = nbkode.get_solver(name)
        kw = {"h": 0.01} if solver.FIXED_STEP else {"first_step": 0.01}
        out[name + "_t"], out[name + "_y"] = solver(decay, 0.0, y0, **kw).run(t_eval)
        stepped = solver(oscillator, 0.0, y0, params=np.array([2.0, 0.3]), **kw)
        out[name + "_steps_t"], out[name + "_steps_y"] = stepped.step(n=30)
    return out


def cooltools_numutils():
    """cooltools' compiled Hi-C numerics on a synthetic contact map (power-law
    decay, two compartments, an empty bin): log-spaced bins, observed over
    expected with no, 1-d and 2-d masks, iterative correction (symmetric and
    asymmetric), the cis and trans eigenvectors that call them, and the
    log-space smoothing of contact-decay curves."""
    from cooltools.api import eigdecomp
    from cooltools.lib import numutils
    from cooltools.sandbox import expected_smoothing
    rng = np.random.default_rng(0)
    n = 60
    pos = np.arange(n)
    comp = np.sign(np.sin(pos / 6.0))
    a = (1.0 / (1 + np.abs(pos[:, None] - pos[None, :])) ** 1.1 * (1 + 0.4 * comp[:, None] * comp[None, :]) *
         rng.uniform(0.8, 1.2, (n, n)))
    a = (a + a.T) / 2
    a[5, :] = a[:, 5] = 0
    mask = a.sum(0) > 0
    out = {"logbins": numutils._logbins_numba(1, 1000, 1.2), "logbins_n": numutils._logbins_numba(2, 500, 0, 15, True)}
    for tag, m in (("none", np.empty(0, np.bool_)), ("1d", mask), ("2d", np.outer(mask, mask))):
        for k, v in zip(("oe", "bins", "sums", "counts"), numutils.observed_over_expected(a, m)):
            out[f"{k}_{tag}"] = v
    x, bias, (converged, iterations) = numutils.iterative_correction_symmetric(a + 1e-3, max_iter=200, ignore_diags=1)
    x2, b1, b2, (_, iterations2) = numutils.iterative_correction_asymmetric(rng.uniform(0.5, 2.0, (40, 30)), max_iter=300)
    out.update(ic=x, ic_bias=bias, ic_converged=np.array(converged), ic_iterations=np.array(iterations),
               ica=x2, ica_cols=b1, ica_rows=b2, ica_iterations=np.array(iterations2))
    vals, vecs = eigdecomp.cis_eig(a, n_eigs=3, ignore_diags=2)
    tvals, tvecs = eigdecomp.trans_eig(a, np.array([0, 30, 60]), n_eigs=2)
    out.update(cis_vals=vals, cis_vecs=np.abs(vecs), trans_vals=tvals, trans_vecs=np.abs(tvecs))  # (signs are arbitrary)
    xs = np.unique(np.round(np.logspace(0, 4, 300)))
    ys = np.vstack([xs ** -1.1, xs ** -0.8 * (1 + 0.1 * np.sin(np.log(xs)))])
    smooth_x, smooth_y = expected_smoothing._log_smooth_numba(xs, ys, 0.1, 5, 10)
    out.update(thinned=expected_smoothing._log_thin(xs, 0.05), smooth_x=smooth_x, smooth_y=smooth_y,
               log_smooth=np.asarray(expected_smoothing.log_smooth(xs, ys[0])))
    return out


def scvelo_velocity():
    """scvelo's deterministic RNA velocity on its simulated data (300 cells,
    30 genes): neighbours (pynndescent and umap's fuzzy graph, the
    compiled code the pipeline runs; scvelo has none of its own), moments,
    velocities and the velocity graph. The neighbour graph's float32
    weights are compared to 3 decimals, as umap-learn's row: its float32
    exp differs from Numba's in the last bits. (Velocity pseudotime is not
    compared: its eigenvectors start from a random vector, so it differs
    from run to run under Numba too.)"""
    import warnings
    import scvelo as scv
    warnings.filterwarnings("ignore")
    scv.settings.verbosity = 0
    adata = scv.datasets.simulation(n_obs=300, n_vars=30, random_seed=0)
    scv.pp.filter_and_normalize(adata, min_shared_counts=0)
    scv.pp.neighbors(adata, n_neighbors=15, n_pcs=10, random_state=0)
    scv.pp.moments(adata, n_pcs=10, n_neighbors=15)
    scv.tl.velocity(adata, mode="deterministic")  # ("stochastic" fails under Numba too: NumPy 2 and its leastsq)
    scv.tl.velocity_graph(adata, n_jobs=1)
    conn = adata.obsp["connectivities"].toarray()
    return {"neighbors": adata.obsp["distances"].toarray() > 0, "connectivities": np.round(conn, 3),
            "Ms": adata.layers["Ms"], "Mu": adata.layers["Mu"], "velocity": adata.layers["velocity"],
            "velocity_graph": adata.uns["velocity_graph"].toarray()}


def xarray_einstats_numba():
    """xarray-einstats' guvectorized (target="parallel") histogram and
    searchsorted, and the ecdf built on them: its tutorial's MCMC-like
    dataset reduced over chains and draws, density histograms, and every
    integer and float dtype its signatures list."""
    import xarray as xr
    from xarray_einstats import numba as xn, tutorial
    rng = np.random.default_rng(0)
    ds = tutorial.generate_mcmc_like_dataset(3)
    out = {}
    for name in ("mu", "score"):
        out[f"hist_{name}"] = xn.histogram(ds[name], dims=("chain", "draw")).values
        out[f"hist_{name}_density"] = xn.histogram(ds[name], dims=("chain", "draw"), bins=7, density=True).values
        out[f"ecdf_{name}"] = xn.ecdf(ds[name], dims=("chain", "draw")).values
        out[f"ecdf_{name}_draw"] = xn.ecdf(ds[name], dims="draw").values
    for dt in (np.int8, np.uint16, np.int32, np.int64, np.uint64, np.float32):
        a = xr.DataArray((rng.random((4, 50)) * 20).astype(dt), dims=("c", "d"))
        out[f"hist_{dt.__name__}"] = xn.histogram(a, dims="d", bins=np.arange(0, 21, 3).astype(dt)).values
        out[f"searchsorted_{dt.__name__}"] = xn.searchsorted(a, xr.DataArray(np.arange(0, 20, 2).astype(dt), dims=("q",)),
                                                              dims="d").values
    return out


def arviz_numba():
    """arviz with az.Numba.enable_numba(): its compiled histogram (int bins,
    edges, a range) and variance, the KDEs (linear, adaptive, circular, 2-d)
    over them, circular standard deviations, ess (every method), rhat,
    mcse, MC error, summary (with a circular variable), hdi, bfmi, r2 and
    the optimized ECDF confidence band (its vectorized binomial pmf)."""
    import warnings
    import arviz as az
    import scipy.stats
    from arviz import utils as au
    from arviz.stats import density_utils as du, diagnostics as dg, ecdf_utils as eu, stats_utils as su
    warnings.filterwarnings("ignore")
    az.Numba.enable_numba()
    rng = np.random.default_rng(1)
    x = rng.normal(size=2000)
    ang = rng.vonmises(0.5, 2.0, size=1500)
    post = rng.normal(size=(4, 500)).cumsum(axis=1) * 0.05 + rng.normal(size=(4, 500))
    circ = np.angle(np.exp(1j * post))
    out = {}

    def put(name, r):
        for i, v in enumerate(r if isinstance(r, tuple) else (r,)):
            out[f"{name}_{i}"] = np.asarray(v)
    put("kde", az.kde(x))
    put("kde_adaptive", az.kde(x, bw="scott", adaptive=True))
    put("kde_circular", az.kde(ang, circular=True))
    put("kde_circular_bw", az.kde(ang, circular=True, bw=3.0))
    put("kde_2d", du._fast_kde_2d(x[:500], x[500:1000] ** 2))
    put("hist_int", du.histogram(x, 20))
    put("hist_edges", du.histogram(x, np.linspace(-3, 3, 11)))
    put("hist_range", du.histogram(x, 15, (-2.0, 2.0)))
    put("var", (su.stats_variance_1d(x, ddof=1), su.stats_variance_2d(post, ddof=1, axis=1),
                su.stats_variance_2d(post, ddof=0, axis=0)))
    put("circstd", (su._circular_standard_deviation(ang, high=np.pi, low=-np.pi),
                    su._circular_standard_deviation(circ, high=np.pi, low=-np.pi, axis=1)))
    put("linalg", (au._dot(post[:, :10], post[:, :10].T), au._cov(post), au._cov(x)))
    for m in ("bulk", "tail", "mean", "sd", "median", "mad", "z_scale", "folded", "identity", "local", "quantile"):
        kw = {"prob": 0.3} if m == "quantile" else ({"prob": (0.1, 0.4)} if m == "local" else {})
        put(f"ess_{m}", az.ess(post, method=m, **kw))
    for m in ("rank", "split", "folded", "z_scale", "identity"):
        put(f"rhat_{m}", az.rhat(post, method=m))
    for m in ("mean", "median"):
        put(f"mcse_{m}", az.mcse(post, method=m))
    put("mcse_quantile", az.mcse(post, method="quantile", prob=0.2))
    put("mc_error", (dg._mc_error(post.ravel()), dg._mc_error(post.ravel(), batches=1),
                     dg._mc_error(circ.ravel(), circular=True), dg._mc_error(circ.ravel(), batches=1, circular=True)))
    put("summary", az.summary(post, fmt="xarray").to_array().values)
    put("summary_circular", az.summary(circ, circ_var_names=["x"], fmt="xarray").to_array().values)
    put("hdi", (az.hdi(x), az.hdi(ang, circular=True), az.hdi(x, multimodal=True)))
    put("bfmi", az.bfmi(post))
    put("r2", az.r2_score(x[:100], post.reshape(-1, 100)[:, :100] + x[:100]))
    grid = np.linspace(-2, 2, 10)
    put("ecdf_band", eu.ecdf_confidence_band(50, grid, scipy.stats.norm.cdf(grid), prob=0.9, method="optimized"))
    return out


def spectrum_utils_processing():
    """spectrum_utils' MsmsSpectrum on generated spectra: its jitclass
    (fields typed by string annotations) rounding (sum, max), m/z range,
    precursor-peak removal (Da and ppm, isotopes), intensity filtering and
    scaling (root, log, rank, to a maximum), chained; peptide fragment
    annotation (the compiled mass_diff) and a pickled round trip."""
    import pickle
    import spectrum_utils.spectrum as sus

    def make(seed, n=300):
        rng = np.random.default_rng(seed)
        mz = np.round(rng.uniform(100, 1500, n), 3)
        return sus.MsmsSpectrum(f"spec{seed}", 718.36, 2, mz, rng.lognormal(2, 1.5, n).astype(np.float32), retention_time=12.5)
    steps = {"round_sum": [lambda s: s.round(0, "sum")], "round_max": [lambda s: s.round(1, "max")],
             "round_unique": [lambda s: s.round(3)], "mz_range": [lambda s: s.set_mz_range(300, 1200)],
             "mz_range_open": [lambda s: s.set_mz_range(None, 800.0), lambda s: s.set_mz_range(900.0, None)],
             "precursor_da": [lambda s: s.remove_precursor_peak(0.5, "Da")],
             "precursor_ppm": [lambda s: s.remove_precursor_peak(2000, "ppm", 2)],
             "filter": [lambda s: s.filter_intensity(0.05, 50)], "filter_min": [lambda s: s.filter_intensity(0.1)],
             "scale_root": [lambda s: s.scale_intensity("root", degree=3)],
             "scale_log": [lambda s: s.scale_intensity("log", base=10)],
             "scale_rank": [lambda s: s.filter_intensity(0.0, 80), lambda s: s.scale_intensity("rank", max_intensity=1.0)],
             "chain": [lambda s: s.set_mz_range(150, 1400), lambda s: s.remove_precursor_peak(10, "ppm"),
                       lambda s: s.filter_intensity(0.01, 100), lambda s: s.scale_intensity("root", 1.0)]}
    out = {}
    for seed, (name, fs) in enumerate(steps.items()):
        s = make(seed)
        for f in fs:
            f(s)
        out[f"{name}_mz"], out[f"{name}_intensity"] = s.mz, s.intensity
    s = make(20, 400)
    s.annotate_proforma("VAEINPSNGGTTFNEK/2", 0.05, "Da", ion_types="abyIm", max_ion_charge=2, neutral_losses=True)
    t = make(21, 400)
    t.annotate_proforma("[+42.011]-VAEINPSNGGTTFNEK", 20, "ppm", ion_types="by", max_ion_charge=1)
    for tag, spec in (("da", s), ("ppm", t)):  # the annotations' text as bytes (the comparison takes numbers)
        out[f"annotation_{tag}"] = np.frombuffer("\n".join(str(a) for a in spec.annotation).encode(), np.uint8)
    u = pickle.loads(pickle.dumps(s))
    out["pickled_mz"], out["pickled_intensity"] = u.mz, u.intensity
    return out


def matchms_similarities():
    """matchms' similarity scores on 12 generated spectra (shared peaks,
    shifted by a CH2 in some): CosineGreedy, CosineHungarian,
    ModifiedCosine (greedy and Hungarian), NeutralLossesCosine,
    CosineLinear, BlinkCosine, FlashSimilarity (entropy and cosine,
    fragment, neutral-loss and hybrid), fingerprint similarities (jaccard,
    dice, cosine), precursor and parent-mass matches: pairs, matrices and
    symmetric matrices; and the compiled peak-number matching."""
    import logging
    from matchms import Spectrum, calculate_scores
    from matchms import similarity as S
    from matchms.similarity import spectrum_similarity_functions as ssf, vector_similarity_functions as vsf
    logging.disable(logging.CRITICAL)
    rng = np.random.default_rng(5)
    base = np.sort(rng.uniform(50, 600, 60))

    def spectrum(i):
        keep = rng.random(60) < 0.7
        shift = (i % 3) * 14.0157 * (rng.random(keep.sum()) < 0.3)
        mz = np.sort(np.round(base[keep] + rng.normal(0, 0.02, keep.sum()) + shift, 4))
        inten = rng.random(mz.size) ** 2
        fp = (rng.random(128) < 0.3).astype(float) if i % 4 else (rng.random(128) < 0.4)
        return Spectrum(mz=mz, intensities=inten / inten.max(),
                        metadata={"precursor_mz": 620.0 + 14.0157 * (i % 3), "parent_mass": 619.0 + 14.0157 * (i % 3),
                                  "fingerprint": fp, "compound_name": f"c{i % 4}"})
    specs = [spectrum(i) for i in range(12)]
    refs, queries = specs[:6], specs[6:]

    def fields(a):
        a = np.asarray(a)
        return {n: a[n] for n in a.dtype.names} if a.dtype.names else {"": a}
    out = {}
    for name, sim in [("greedy", S.CosineGreedy(tolerance=0.05)),
                      ("greedy_powers", S.CosineGreedy(0.1, mz_power=1.0, intensity_power=0.5)),
                      ("hungarian", S.CosineHungarian(tolerance=0.05)), ("modified_greedy", S.ModifiedCosineGreedy(tolerance=0.05)),
                      ("modified_hungarian", S.ModifiedCosineHungarian(tolerance=0.05)),
                      ("neutral_losses", S.NeutralLossesCosine(tolerance=0.05)), ("linear", S.CosineLinear(tolerance=0.05)),
                      ("blink", S.BlinkCosine(tolerance=0.05)), ("flash_entropy", S.FlashSimilarity()),
                      ("flash_cosine", S.FlashSimilarity(score_type="cosine", tolerance=0.05)),
                      ("flash_neutral_loss", S.FlashSimilarity(matching_mode="neutral_loss")),
                      ("flash_hybrid", S.FlashSimilarity(matching_mode="hybrid", use_ppm=True, tolerance=50)),
                      ("jaccard", S.FingerprintSimilarity("jaccard")), ("dice", S.FingerprintSimilarity("dice")),
                      ("fp_cosine", S.FingerprintSimilarity("cosine")), ("precursor", S.PrecursorMzMatch(tolerance=2.0)),
                      ("precursor_ppm", S.PrecursorMzMatch(tolerance=100, tolerance_type="ppm")),
                      ("parent_mass", S.ParentMassMatch(tolerance=1.0))]:
        pairs = [np.asarray(sim.pair(r, q)) for r in refs[:3] for q in queries[:3]]
        for part, table in (("pairs", np.stack(pairs)), ("matrix", sim.matrix(refs, queries)),
                            ("symmetric", sim.matrix(specs, specs, is_symmetric=True))):
            for field, v in fields(table).items():
                out[f"{name}_{part}{'_' + field if field else ''}"] = v
    for field, v in fields(calculate_scores(refs, queries, S.CosineGreedy()).to_array()).items():
        out[f"calculate_scores_{field}"] = v
    a, b = np.sort(rng.uniform(0, 100, 50)), np.sort(rng.uniform(0, 100, 40))
    out.update(number_matching=np.array(ssf.number_matching(a, b, 0.5)),
               number_matching_symmetric=np.array(ssf.number_matching_symmetric(a, 0.8)),
               number_matching_ppm=np.array(ssf.number_matching_ppm(a + 100, b + 100, 3000.0)),
               number_matching_symmetric_ppm=np.array(ssf.number_matching_symmetric_ppm(a + 100, 5000.0)))
    fps = rng.random((5, 64)) < 0.4
    out.update(jaccard_matrix=vsf.jaccard_similarity_matrix(fps, fps[:3]), dice_matrix=vsf.dice_similarity_matrix(fps, fps[:3]),
               cosine_matrix=vsf.cosine_similarity_matrix(fps.astype(float), fps[:3].astype(float)))
def _choclo_points():
    """Observation points around a prism: random ones plus every mix of its
    faces' coordinates (on faces, edges, vertices; inside)."""
    rng = np.random.default_rng(0)
    e = np.concatenate([rng.uniform(-40, 40, 60), np.repeat([-10.0, 0.0, 10.0, 25.0], 25)])
    n = np.concatenate([rng.uniform(-40, 40, 60), np.tile(np.repeat([-8.0, 2.0, 12.0, 30.0, -33.0], 5), 4)])
    u = np.concatenate([rng.uniform(-30, 20, 60), np.tile([-20.0, -12.0, -5.0, 0.0, 15.0], 20)])
    return e, n, u


def choclo_prism():
    """choclo's prism kernels as its users call them, from compiled loops
    over observation points (the ones on faces and edges included, where
    the singular terms are dropped): the gravity potential, acceleration
    and tensor, the magnetic field and its gradient, each kernel (up to
    third order), and calls from Python."""
    import numba
    from choclo import prism
    box_tuple = (-10.0, 10.0, -8.0, 12.0, -20.0, -5.0)
    box, m = np.array(box_tuple), np.array([1.5, -0.7, 2.3])
    e, n, u = _choclo_points()
    out = {}

    def gravity_loop(f):
        @numba.jit(nopython=True)
        def loop(e, n, u, b, density, res):
            for i in range(e.size):
                res[i] = f(e[i], n[i], u[i], b[0], b[1], b[2], b[3], b[4], b[5], density)
        return loop

    def magnetic_loop(f):
        @numba.jit(nopython=True)
        def loop(e, n, u, b, m, res):
            for i in range(e.size):
                res[i] = f(e[i], n[i], u[i], b[0], b[1], b[2], b[3], b[4], b[5], m[0], m[1], m[2])
        return loop

    @numba.jit(nopython=True)
    def field_loop(e, n, u, b, m, be, bn, bu):
        for i in range(e.size):
            be[i], bn[i], bu[i] = prism.magnetic_field(e[i], n[i], u[i], b[0], b[1], b[2], b[3], b[4], b[5],
                                                       m[0], m[1], m[2])

    for name in ("pot", "e", "n", "u", "ee", "nn", "uu", "en", "eu", "nu"):
        out["gravity_" + name] = res = np.empty(e.size)
        gravity_loop(getattr(prism, "gravity_" + name))(e, n, u, box, 2670.0, res)
    for name in ("e", "n", "u", "ee", "nn", "uu", "en", "eu", "nu"):
        out["magnetic_" + name] = res = np.empty(e.size)
        magnetic_loop(getattr(prism, "magnetic_" + name))(e, n, u, box, m, res)
    out["field_e"], out["field_n"], out["field_u"] = fields = np.empty(e.size), np.empty(e.size), np.empty(e.size)
    field_loop(e, n, u, box, m, *fields)
    for name in ("pot", "e", "n", "u", "ee", "nn", "uu", "en", "eu", "nu", "eee", "nnn", "uuu", "een", "eeu",
                 "enn", "nnu", "euu", "nuu", "enu"):
        kernel = getattr(prism, "kernel_" + name)
        out["kernel_" + name] = np.array([kernel(x, y, z, np.sqrt(x * x + y * y + z * z))
                                          for x, y, z in zip(e[:40] - 0.3, n[:40] + 0.7, u[:40] - 0.1)])
    out["python_pot"] = np.array([prism.gravity_pot(x, y, z, *box_tuple, 3.0) for x, y, z in zip(e, n, u)])
    out["python_field"] = np.array([prism.magnetic_field(x, y, z, *box_tuple, 1.0, 2.0, 3.0) for x, y, z in zip(e, n, u)])
    return out


def choclo_point_dipole():
    """choclo's point-mass gravity (every field and kernel), dipole
    magnetic fields summed over sources in compiled loops, and its
    Cartesian and spherical distances."""
    import numba
    from choclo import dipole, point, utils
    rng = np.random.default_rng(1)
    p, q = rng.uniform(-50, 50, (3, 200)), rng.uniform(-50, 50, (3, 30))
    q[2] -= 80
    mass, moments = rng.uniform(1e3, 1e5, 30), rng.normal(size=(3, 30))
    out = {}

    def point_loop(f):
        @numba.jit(nopython=True)
        def loop(p, q, mass, res):
            for i in range(p.shape[1]):
                s = 0.0
                for j in range(q.shape[1]):
                    s += f(p[0, i], p[1, i], p[2, i], q[0, j], q[1, j], q[2, j], mass[j])
                res[i] = s
        return loop

    for name in ("pot", "e", "n", "u", "ee", "nn", "uu", "en", "eu", "nu"):
        out["point_" + name] = res = np.empty(200)
        point_loop(getattr(point, "gravity_" + name))(p, q, mass, res)
        kernel = getattr(point, "kernel_" + name)
        out["kernel_" + name] = np.array([kernel(*p[:, i], *q[:, 0], utils.distance_cartesian(*p[:, i], *q[:, 0]))
                                          for i in range(50)])

    @numba.jit(nopython=True)
    def dipole_loop(p, q, m, res):
        for i in range(p.shape[1]):
            for j in range(q.shape[1]):
                args = (p[0, i], p[1, i], p[2, i], q[0, j], q[1, j], q[2, j], m[0, j], m[1, j], m[2, j])
                be, bn, bu = dipole.magnetic_field(*args)
                res[0, i] += be
                res[1, i] += bn
                res[2, i] += bu
                res[3, i] += dipole.magnetic_e(*args)
                res[4, i] += dipole.magnetic_n(*args)
                res[5, i] += dipole.magnetic_u(*args)

    out["dipole"] = np.zeros((6, 200))
    dipole_loop(p, q, moments, out["dipole"])
    sph = rng.uniform([-180, -90, 6e6], [180, 90, 6.4e6], (100, 3))
    cos, sin = np.cos(np.radians(sph[:, 1])), np.sin(np.radians(sph[:, 1]))
    out["distance_spherical"] = np.array([utils.distance_spherical(*sph[i], *sph[i + 1]) for i in range(99)])
    out["distance_spherical_core"] = np.array([utils.distance_spherical_core(
        sph[i, 0], cos[i], sin[i], sph[i, 2], sph[i + 1, 0], cos[i + 1], sin[i + 1], sph[i + 1, 2]) for i in range(99)])
    return out


def _harmonica_grid(n=12, height=10.0):
    e, n = np.meshgrid(np.linspace(-500, 500, n), np.linspace(-400, 600, n))
    return e.ravel(), n.ravel(), np.full(e.size, height)


def harmonica_forward():
    """harmonica's forward modelling, serial and parallel: point masses
    (Cartesian, every field; spherical), prisms' gravity (every field;
    float32 results) and magnetic field, dipoles, and a prism layer's
    gravity through its xarray accessor."""
    import harmonica as hm
    rng = np.random.default_rng(0)
    coords = _harmonica_grid()
    points = (rng.uniform(-600, 600, 40), rng.uniform(-600, 600, 40), rng.uniform(-900, -100, 40))
    masses = rng.uniform(1e6, 1e8, 40)
    west, south, bottom = rng.uniform(-600, 400, 25), rng.uniform(-600, 400, 25), rng.uniform(-1000, -300, 25)
    prisms = np.column_stack([west, west + rng.uniform(50, 200, 25), south, south + rng.uniform(50, 200, 25), bottom,
                              bottom + rng.uniform(50, 250, 25)])
    density, magnetization = rng.uniform(-300, 300, 25), rng.normal(size=(3, 25))
    moments = magnetization.repeat(2, 1)[:, :40]
    sph_coords = (np.linspace(-5, 5, 30), np.linspace(-3, 4, 30), np.full(30, 6.4e6))
    sph_points = (rng.uniform(-5, 5, 20), rng.uniform(-5, 5, 20), rng.uniform(6.3e6, 6.35e6, 20))
    out = {}
    for parallel in (False, True):
        for field in ("potential", "g_e", "g_n", "g_z", "g_ee", "g_nn", "g_zz", "g_en", "g_ez", "g_nz"):
            out[f"point_{field}_{parallel}"] = hm.point_gravity(coords, points, masses, field=field, parallel=parallel)
            out[f"prism_{field}_{parallel}"] = hm.prism_gravity(coords, prisms, density, field=field, parallel=parallel)
        for field in ("potential", "g_z"):
            out[f"point_spherical_{field}_{parallel}"] = hm.point_gravity(
                sph_coords, sph_points, masses[:20], field=field, coordinate_system="spherical", parallel=parallel)
        out[f"prism_b_{parallel}"] = np.array(hm.prism_magnetic(coords, prisms, magnetization, "b", parallel=parallel))
        out[f"dipole_b_{parallel}"] = np.array(hm.dipole_magnetic(coords, points, moments, "b", parallel=parallel))
        for field in ("b_e", "b_n", "b_u"):
            out[f"prism_{field}_{parallel}"] = hm.prism_magnetic(coords, prisms, magnetization, field, parallel=parallel)
            out[f"dipole_{field}_{parallel}"] = hm.dipole_magnetic(coords, points, moments, field, parallel=parallel)
    out["prism_g_z_float32"] = hm.prism_gravity(coords, prisms, density, field="g_z", dtype="float32")
    east, north = np.linspace(-400, 400, 8), np.linspace(-300, 300, 6)
    surface = 100 * np.sin(east[None, :] / 200) * np.cos(north[:, None] / 150)
    layer = hm.prism_layer((east, north), surface=surface, reference=0,
                           properties={"density": 2670 * np.ones_like(surface)})
    out["layer_g_z"] = layer.prism_layer.gravity(coords, field="g_z")
    out["layer_potential"] = layer.prism_layer.gravity(coords, field="potential")
    return out


def harmonica_tesseroids():
    """tesseroids' gravity: constant densities (adaptive discretisation,
    radial too, serial and parallel), a density function the caller
    compiles (variable-density discretisation), and a tesseroid layer."""
    import numba
    import harmonica as hm
    rng = np.random.default_rng(2)
    r0 = 6371e3
    lon, lat = np.meshgrid(np.linspace(-3, 3, 7), np.linspace(-2, 2, 5))
    coords = (lon.ravel(), lat.ravel(), np.full(lon.size, r0 + 1e3))
    west, south = rng.uniform(-3, 2, 8), rng.uniform(-2, 1, 8)
    tesseroids = np.column_stack([west, west + 1, south, south + 1, np.full(8, r0 - 10e3), np.full(8, r0 - 1e3)])
    density = rng.uniform(2000, 3000, 8)

    @numba.jit(nopython=True)
    def density_of_radius(radius):
        return 2670.0 + 0.05 * (r0 - radius)

    out = {}
    for field in ("potential", "g_z"):
        for parallel in (False, True):
            out[f"{field}_{parallel}"] = hm.tesseroid_gravity(coords, tesseroids, density, field, parallel=parallel)
            out[f"variable_{field}_{parallel}"] = hm.tesseroid_gravity(coords, tesseroids[:3], density_of_radius, field,
                                                                       parallel=parallel)
        out[f"{field}_radial"] = hm.tesseroid_gravity(coords, tesseroids, density, field,
                                                      radial_adaptive_discretization=True)
    lon, lat = np.linspace(-2, 2, 5), np.linspace(-1, 1, 4)
    layer = hm.tesseroid_layer((lon, lat), surface=r0 + 500 * np.ones((4, 5)), reference=r0 - 1000,
                               properties={"density": 2670 * np.ones((4, 5))})
    out["layer_g_z"] = layer.tesseroid_layer.gravity((np.array([0.0, 0.5]), np.array([0.0, 0.2]), np.full(2, r0 + 1e3)),
                                                     "g_z")
    return out


def harmonica_progressbar():
    """The forward models with progressbar=True (numba_progress's
    ProgressBar passed into compiled code and updated from serial and
    prange loops): prisms' gravity and magnetic field, dipoles,
    tesseroids and a prism layer, serial and parallel."""
    import harmonica as hm
    rng = np.random.default_rng(4)
    coords = _harmonica_grid(8)
    west, south, bottom = rng.uniform(-600, 400, 12), rng.uniform(-600, 400, 12), rng.uniform(-1000, -300, 12)
    prisms = np.column_stack([west, west + rng.uniform(50, 200, 12), south, south + rng.uniform(50, 200, 12), bottom,
                              bottom + rng.uniform(50, 250, 12)])
    density, magnetization = rng.uniform(-300, 300, 12), rng.normal(size=(3, 12))
    points = (rng.uniform(-600, 600, 12), rng.uniform(-600, 600, 12), rng.uniform(-900, -100, 12))
    r0 = 6371e3
    tesseroids = np.column_stack([np.arange(3.0), np.arange(3.0) + 1, np.zeros(3), np.ones(3), np.full(3, r0 - 1e4),
                                  np.full(3, r0 - 1e3)])
    lon, lat = np.meshgrid(np.linspace(-1, 4, 5), np.linspace(-1, 2, 4))
    sph = (lon.ravel(), lat.ravel(), np.full(lon.size, r0 + 1e3))
    out = {}
    for parallel in (False, True):
        out[f"prism_g_z_{parallel}"] = hm.prism_gravity(coords, prisms, density, field="g_z", parallel=parallel,
                                                        progressbar=True)
        out[f"prism_b_u_{parallel}"] = hm.prism_magnetic(coords, prisms, magnetization, "b_u", parallel=parallel,
                                                         progressbar=True)
        out[f"dipole_b_e_{parallel}"] = hm.dipole_magnetic(coords, points, magnetization, "b_e", parallel=parallel,
                                                           progressbar=True)
        out[f"tesseroid_g_z_{parallel}"] = hm.tesseroid_gravity(sph, tesseroids, np.full(3, 2670.0), "g_z",
                                                                parallel=parallel, progressbar=True)
    east, north = np.linspace(-400, 400, 5), np.linspace(-300, 300, 4)
    layer = hm.prism_layer((east, north), surface=50 * np.ones((4, 5)), reference=0,
                           properties={"density": 2670 * np.ones((4, 5))})
    out["layer_g_z"] = layer.prism_layer.gravity(coords, field="g_z", progressbar=True)
    return out


def harmonica_equivalent_sources():
    """equivalent sources fitted to synthetic gravity and predicted on a
    grid: Cartesian (serial, parallel, block-averaged, float32),
    gradient-boosted, and spherical; and the associated Legendre functions
    of its spherical harmonics (plain, Schmidt and fully normalised, with
    their derivatives)."""
    import harmonica as hm
    from harmonica._spherical_harmonics import legendre
    rng = np.random.default_rng(3)
    n = 150
    e, nn, u = rng.uniform(-1000, 1000, n), rng.uniform(-1000, 1000, n), rng.uniform(0, 50, n)
    sources = (rng.uniform(-800, 800, 6), rng.uniform(-800, 800, 6), rng.uniform(-600, -200, 6))
    data = hm.point_gravity((e, nn, u), sources, rng.uniform(1e9, 1e10, 6), field="g_z")
    grid = _harmonica_grid(10, 60.0)
    out = {}
    for parallel in (False, True):
        eqs = hm.EquivalentSources(depth=300, damping=1e-3, parallel=parallel).fit((e, nn, u), data)
        out[f"coefs_{parallel}"], out[f"predicted_{parallel}"] = eqs.coefs_, eqs.predict(grid)
    out["block_averaged"] = hm.EquivalentSources(depth=300, damping=1e-3, block_size=200).fit(
        (e, nn, u), data, weights=np.ones(n)).predict(grid)
    out["float32"] = hm.EquivalentSources(depth=300, damping=1e-3, dtype="float32").fit((e, nn, u), data).predict(grid)
    out["gradient_boosted"] = hm.EquivalentSourcesGB(depth=300, damping=1e-3, window_size=800, random_state=0).fit(
        (e, nn, u), data).predict(grid)
    lon, lat, radius = rng.uniform(-2, 2, 80), rng.uniform(-2, 2, 80), np.full(80, 6.371e6 + 500)
    sdata = hm.point_gravity((lon, lat, radius), (np.array([0.3, -0.5]), np.array([0.1, 0.4]), np.full(2, 6.36e6)),
                             np.array([1e12, 2e12]), field="g_z", coordinate_system="spherical")
    out["spherical"] = hm.EquivalentSourcesSph(damping=1e-4, relative_depth=20e3).fit((lon, lat, radius), sdata).predict(
        (np.linspace(-1, 1, 20), np.linspace(-1, 1, 20), np.full(20, 6.371e6 + 1000)))
    for norm in ("", "_schmidt", "_full"):
        values, derivatives = getattr(legendre, "associated_legendre" + norm), getattr(
            legendre, "associated_legendre" + norm + "_derivative")
        p, dp = np.zeros((15, 21, 21)), np.zeros((15, 21, 21))
        for i, x in enumerate(np.linspace(-0.99, 0.99, 15)):
            values(x, 20, p[i])
            derivatives(20, p[i], dp[i])
        out["legendre" + norm], out["legendre_derivative" + norm] = p, dp
    return out


def _wotan_light_curve(n, seed):
    """A light curve: a slow trend, transits every 3 days, noise, outliers,
    NaNs and a gap."""
    rng = np.random.default_rng(seed)
    time = np.sort(rng.uniform(0, 12, n))
    time = time[(time < 5.0) | (time > 5.8)]
    flux = 1 + 0.01 * np.sin(time / 2.0) + 0.002 * time + rng.normal(0, 5e-4, time.size)
    flux[np.abs((time % 3.0) - 1.5) < 0.06] -= 0.004
    flux[rng.integers(0, time.size, 8)] += 0.01
    flux[[10, 300]] = np.nan
    return time, flux


def wotan_sliders():
    """wotan's flatten with each compiled time-windowed location estimator
    (biweight, andrewsinewave, welsch, hodges, median, mean, trim_mean,
    winsorize, huber_psi, hampelfilt, tau), edge cut-offs, gaps, its own
    cval, transit masks and the thinned slider (step). (huber, hampel and
    ramsay are statsmodels', not compiled.)"""
    from wotan import flatten, transit_mask
    time, flux = _wotan_light_curve(900, 0)
    out = {}
    for method in ("biweight", "andrewsinewave", "welsch", "hodges", "median", "mean", "trim_mean", "winsorize",
                   "huber_psi", "hampelfilt", "tau"):
        out[method], out[method + "_trend"] = flatten(time, flux, window_length=0.5, method=method, return_trend=True)
    out["edges_gaps"] = flatten(time, flux, window_length=0.4, edge_cutoff=0.3, break_tolerance=0.3)
    out["cval"] = flatten(time, flux, window_length=0.7, cval=3)
    out["mask"] = mask = transit_mask(time=time, period=3.0, duration=0.15, T0=1.5)
    for method in ("biweight", "median"):
        out[method + "_masked"] = flatten(time, flux, window_length=0.5, method=method, mask=mask)
    for method in ("biweight", "median", "welsch"):
        out[method + "_step"] = flatten(time, flux, window_length=0.5, method=method, step=0.05)
    return out


def wotan_fits():
    """wotan's compiled non-sliding detrenders: lowess, cofiam and cosine
    (robust too) through flatten, and the cosine design matrices
    (fastmath, cached)."""
    from wotan import flatten
    from wotan.cofiam import matrix_gen, matrix_gen_recurrence
    time, flux = _wotan_light_curve(500, 1)
    out = {}
    for method in ("lowess", "cofiam", "cosine"):
        out[method], out[method + "_trend"] = flatten(time, flux, window_length=1.0, method=method, return_trend=True)
    out["cosine_robust"] = flatten(time, flux, window_length=1.0, method="cosine", robust=True)
    t = np.linspace(0, 10, 200)
    out["matrix_gen"], out["matrix_gen_recurrence"] = matrix_gen(t, 12), matrix_gen_recurrence(t, 12)
    return out


def _pylops():
    """pylops, its kernels compiled parallel=True: it reads
    NUMBA_NUM_THREADS when its modules are imported."""
    import os
    os.environ.setdefault("NUMBA_NUM_THREADS", "2")
    import pylops
    return pylops


def pylops_radon():
    """Radon2D and Radon3D with engine="numba" (linear, parabolic and
    hyperbolic curves; centred or not; interpolated or not; a table or on
    the fly; float64, float32 and complex), forward and adjoint, and
    FourierRadon2D/3D's numba kernels (fastmath)."""
    pylops = _pylops()
    rng = np.random.default_rng(0)
    t, h, px = np.arange(60) * 0.004, np.linspace(-300, 300, 21), np.linspace(-8e-4, 8e-4, 17)
    out = {}
    for kind in ("linear", "parabolic", "hyperbolic"):
        p = {"linear": px, "parabolic": px / 300, "hyperbolic": np.abs(px) + 1e-4}[kind]
        x, d = rng.normal(size=(p.size, t.size)), rng.normal(size=(h.size, t.size))
        for centred in (True, False):
            for interp in (True, False):
                for onthefly in (False, True):
                    R = pylops.signalprocessing.Radon2D(t, h, p, kind=kind, centeredh=centred, interp=interp,
                                                        onthefly=onthefly, engine="numba")
                    out[f"radon2d_{kind}_{centred}_{interp}_{onthefly}"] = R @ x.ravel()
                    out[f"radon2d_adjoint_{kind}_{centred}_{interp}_{onthefly}"] = R.H @ d.ravel()
    for dtype in ("float32", "complex128"):
        x, d = rng.normal(size=(px.size, t.size)).astype(dtype), rng.normal(size=(h.size, t.size)).astype(dtype)
        for onthefly in (False, True):
            R = pylops.signalprocessing.Radon2D(t, h, px, onthefly=onthefly, engine="numba", dtype=dtype)
            out[f"radon2d_{dtype}_{onthefly}"], out[f"radon2d_adjoint_{dtype}_{onthefly}"] = R @ x.ravel(), R.H @ d.ravel()
    ty, hy, hx = np.arange(30) * 0.004, np.linspace(-100, 100, 5), np.linspace(-150, 150, 7)
    py, pxx = np.linspace(-5e-4, 5e-4, 4), np.linspace(-5e-4, 5e-4, 5)
    for kind in ("linear", "parabolic", "hyperbolic"):
        pyk, pxk = {"linear": (py, pxx), "parabolic": (py / 100, pxx / 150),
                    "hyperbolic": (np.abs(py) + 1e-4, np.abs(pxx) + 1e-4)}[kind]
        x, d = rng.normal(size=(py.size, pxx.size, ty.size)), rng.normal(size=(hy.size, hx.size, ty.size))
        for onthefly in (False, True):
            R = pylops.signalprocessing.Radon3D(ty, hy, hx, pyk, pxk, kind=kind, onthefly=onthefly, engine="numba")
            out[f"radon3d_{kind}_{onthefly}"], out[f"radon3d_adjoint_{kind}_{onthefly}"] = R @ x.ravel(), R.H @ d.ravel()
    for kind, (p, pyk, pxk) in (("linear", (px, py, pxx)), ("parabolic", (px / 300, py / 100, pxx / 150))):
        F = pylops.signalprocessing.FourierRadon2D(t, h, p, 128, kind=kind, engine="numba")
        out["fourier2d_" + kind] = F @ rng.normal(size=(px.size, t.size)).ravel()
        out["fourier2d_adjoint_" + kind] = F.H @ rng.normal(size=(h.size, t.size)).ravel()
        F = pylops.signalprocessing.FourierRadon3D(ty, hy, hx, pyk, pxk, 64, kind=(kind, kind), engine="numba")
        out["fourier3d_" + kind] = F @ rng.normal(size=(py.size, pxx.size, ty.size)).ravel()
        out["fourier3d_adjoint_" + kind] = F.H @ rng.normal(size=(hy.size, hx.size, ty.size)).ravel()
    return out


def pylops_spread_kirchhoff():
    """Spread with engine="numba" (a look-up table, with and without
    interpolation weights; an on-the-fly function the caller compiles,
    returning (indices, weights)), and Kirchhoff demigration/migration with
    engine="numba": analytic travel times in a constant velocity,
    kinematic and dynamic, with apertures, and the caller's tables (byot:
    one table, separate source and receiver tables, amplitudes)."""
    pylops = _pylops()
    import numba
    from pylops.waveeqprocessing import Kirchhoff
    rng = np.random.default_rng(1)
    nx0, nt0, nx, nt = 6, 20, 9, 40
    table, dtable = np.full((nx0, nt0, nx), np.nan), np.zeros((nx0, nt0, nx))
    for ix0 in range(nx0):
        for it in range(nt0):
            idx = it + 0.7 * ix0 * np.arange(nx) / nx + rng.uniform(0, 2)
            idx[idx >= nt - 1] = np.nan
            table[ix0, it], dtable[ix0, it] = np.floor(idx), idx - np.floor(idx)
    x, d = rng.normal(size=(nx0, nt0)), rng.normal(size=(nx, nt))
    out = {}
    for name, S in (("table", pylops.Spread((nx0, nt0), (nx, nt), table=table, engine="numba")),
                    ("dtable", pylops.Spread((nx0, nt0), (nx, nt), table=table, dtable=dtable, engine="numba"))):
        out["spread_" + name], out["spread_adjoint_" + name] = S @ x.ravel(), S.H @ d.ravel()

    @numba.jit(nopython=True)
    def indices(ix0, it):
        idx = it + 0.5 * ix0 * np.arange(9) / 9.0 + 0.3
        idx = np.where(idx < 39, idx, np.nan)
        return np.floor(idx), idx - np.floor(idx)

    for interp in (False, True):
        S = pylops.Spread((nx0, nt0), (nx, nt), fh=indices, interp=interp, engine="numba")
        out[f"spread_fh_{interp}"], out[f"spread_adjoint_fh_{interp}"] = S @ x.ravel(), S.H @ d.ravel()
    z, xs, t = np.arange(30) * 10.0, np.arange(40) * 10.0, np.arange(150) * 0.004
    srcs, recs = np.vstack([np.linspace(50, 350, 3), np.zeros(3)]), np.vstack([np.linspace(0, 390, 12), np.zeros(12)])
    wav, _, wavc = pylops.utils.wavelets.ricker(t[:21], f0=20)
    refl = np.zeros((xs.size, z.size))
    refl[:, 12], refl[15:25, 20] = 1.0, -0.7
    data = rng.normal(size=(srcs.shape[1] * recs.shape[1], t.size))
    trav_s, trav_r, amp_s, amp_r, _, _ = Kirchhoff._traveltime_table(z, xs, srcs, recs, 1500.0, mode="analytic")
    trav = (trav_s[:, :, None] + trav_r[:, None, :]).reshape(trav_s.shape[0], -1)
    operators = {
        "analytic": dict(mode="analytic"), "analytic_dynamic": dict(mode="analytic", dynamic=True),
        "apertures": dict(mode="analytic", dynamic=True, angleaperture=(40.0, 60.0), aperture=(2.0, 4.0)),
        "byot": dict(mode="byot", trav=trav), "byot_tables": dict(mode="byot", trav=(trav_s, trav_r)),
        "byot_amplitudes": dict(mode="byot", dynamic=True, trav=(trav_s, trav_r), amp=(amp_s, amp_r))}
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (pylops' FutureWarning on single tables, the aperture's UserWarning)
        for name, options in operators.items():
            K = Kirchhoff(z, xs, t, srcs, recs, 1500.0, wav, wavc, engine="numba", **options)
            out["kirchhoff_" + name], out["kirchhoff_adjoint_" + name] = K @ refl.ravel(), K.H @ data.ravel()
    return out


def pylops_pwd_nonstationary():
    """plane-wave destruction (slope estimation of orders 1 and 2, on 2-d
    and 3-d data; the sprayer and smoother operators, fastmath) and
    non-stationary 2-d/3-d convolution and filter estimation with
    engine="numba". (The filters' adjoint is left out: it fails under
    Numba, its parallel=True lowering of np.zeros((n, *hs.shape)).)"""
    _pylops()
    from pylops.signalprocessing import NonStationaryConvolve2D, NonStationaryConvolve3D, NonStationaryFilters2D, \
        PWSmoother2D, PWSprayer2D
    from pylops.utils.signalprocessing import pwd_slope_estimate
    rng = np.random.default_rng(3)
    nz, nx = 50, 40
    zz, xx = np.meshgrid(np.arange(nz), np.arange(nx), indexing="ij")
    d = np.sin(0.3 * (zz - 0.4 * xx)) + 0.5 * np.sin(0.17 * (zz + 0.2 * xx)) + 0.05 * rng.normal(size=(nz, nx))
    out = {}
    for order in (1, 2):  # (smoothing="boxcar" fails on 2-d data in pylops itself: dims == 2 on a tuple)
        out[f"slope_{order}"] = pwd_slope_estimate(d, niter=3, liter=10, order=order, nsmooth=5)
    out["slope_3d"] = pwd_slope_estimate(np.stack([d, d[:, ::-1]], axis=-1), niter=2, liter=8, nsmooth=3, axis=1)
    P = PWSprayer2D((nz, nx), out["slope_2"], radius=5, alpha=0.8)
    out["spray"], out["spray_adjoint"] = P @ d.ravel(), P.H @ d.ravel()
    S = PWSmoother2D((nz, nx), out["slope_2"], radius=4)
    out["smooth"], out["smooth_adjoint"] = S @ d.ravel(), S.H @ d.ravel()
    hs = rng.normal(size=(4, 3, 5, 7))
    C = NonStationaryConvolve2D((nz, nx), hs, ihx=(5, 18, 31, 44), ihz=(5, 20, 35), engine="numba")
    out["convolve2d"], out["convolve2d_adjoint"] = C @ d.ravel(), C.H @ d.ravel()
    out["filters2d"] = NonStationaryFilters2D(d, (5, 7), ihx=(5, 18, 31, 44), ihz=(5, 20, 35), engine="numba") @ hs.ravel()
    d3 = rng.normal(size=(12, 14, 16))
    C = NonStationaryConvolve3D((12, 14, 16), rng.normal(size=(2, 2, 2, 3, 5, 5)), ihx=(3, 8), ihy=(4, 10), ihz=(4, 11),
                                engine="numba")
    out["convolve3d"], out["convolve3d_adjoint"] = C @ d3.ravel(), C.H @ d3.ravel()
    return out


def sigpy_interp_gridding():
    """sigpy's interpolation and gridding kernels (spline orders 0-2 and
    Kaiser-Bessel) in 1, 2 and 3 dimensions, on float64 and complex64
    data at scattered coordinates."""
    import sigpy as sp
    rng, out = np.random.default_rng(0), {}
    for ndim in (1, 2, 3):
        shape = (2,) + (9,) * ndim
        x = rng.standard_normal(shape)
        xc = (x + 1j * rng.standard_normal(shape)).astype(np.complex64)
        coord = rng.uniform(0.0, 9.0, (17, ndim))
        y = rng.standard_normal((2, 17))
        for kernel, width, param in (("spline", 2, 1), ("spline", 3, 2), ("spline", 1, 0), ("kaiser_bessel", 4, 8.0)):
            tag = f"{ndim}d_{kernel}_{param}"
            kw = dict(kernel=kernel, width=width, param=param)
            out["interp_" + tag] = sp.interpolate(x, coord, **kw)
            out["interp_c_" + tag] = sp.interpolate(xc, coord.astype(np.float32), **kw)
            out["grid_" + tag] = sp.gridding(y, coord, shape, **kw)
            out["grid_c_" + tag] = sp.gridding((y + 1j * y[::-1]).astype(np.complex64), coord.astype(np.float32), shape,
                                               **kw)
    return out


def sigpy_nufft_blocks():
    """sigpy's NUFFT and its adjoint on the CPU (1-3 dimensions, and a
    golden-angle radial trajectory through linop.NUFFT), block extraction
    and its adjoint (array_to_blocks, blocks_to_array), the soft and hard
    thresholds (vectorize) of real and complex data, Poisson-disc sampling
    masks (seeded np.random in compiled code) and the slew-limited
    Runge-Kutta step of its gradient design."""
    import sigpy as sp
    import sigpy.mri as mr
    from sigpy.mri.rf import trajgrad
    rng, out = np.random.default_rng(1), {}
    for ndim in (1, 2, 3):
        shape = (8,) * ndim
        x = rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
        coord = rng.uniform(-4, 4, (30, ndim))
        out[f"nufft_{ndim}d"] = sp.nufft(x, coord)
        out[f"nufft_adjoint_{ndim}d"] = sp.nufft_adjoint(out[f"nufft_{ndim}d"], coord, shape)
    out["radial"] = sp.linop.NUFFT((16, 16), mr.radial((16, 8, 2), (16, 16))) * (rng.standard_normal((16, 16)) + 0j)
    for ndim, bs, st in ((1, [3], [2]), (2, [3, 2], [2, 1]), (3, [2, 2, 3], [1, 2, 2])):
        x = rng.standard_normal((2,) + (7,) * ndim)
        b = sp.array_to_blocks(x, bs, st)
        out[f"blocks_{ndim}d"], out[f"from_blocks_{ndim}d"] = b, sp.blocks_to_array(b, x.shape, bs, st)
    z = rng.standard_normal(50) + 1j * rng.standard_normal(50)
    z[::7] = 0
    out.update(soft=sp.soft_thresh(0.5, z.real), soft_c=sp.soft_thresh(0.5, z), hard=sp.hard_thresh(0.5, z.real),
               hard_c=sp.hard_thresh(0.5, z))
    out["poisson"] = mr.poisson((24, 24), 2.0, seed=3)
    out["poisson_rect"] = mr.poisson((20, 30), 3.0, calib=(4, 4), seed=1, crop_corner=False)
    out["rk_step"] = np.array(trajgrad.runge_kutta(0.01, 1.0, np.array([0.1, 0.2, 0.3]), smax=15.0))
    return out


def _walrus_symmetric(n, seed, complex_=True):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((n, n)) + (1j * rng.standard_normal((n, n)) if complex_ else 0)
    return (a + a.T) / 2


def thewalrus_hafnians():
    """thewalrus' hafnians (glynn, inclusion-exclusion and recursive, of
    real and complex matrices), loop hafnians (odd sizes, repeated rows),
    repeated, banded and sparse hafnians, the approximate hafnian (seeded
    np.random in compiled code), permanents (Ryser, BBFG, repeated, BRS),
    torontonians and loop torontonians (recursive or not), montrealers and
    the characteristic polynomial and power traces."""
    import numba
    import thewalrus as tw
    from thewalrus import charpoly
    from thewalrus._hafnian import hafnian_approx
    out = {}
    for n in (4, 6, 8):
        a, ar = _walrus_symmetric(n, n), _walrus_symmetric(n, n + 10, complex_=False)
        for method in ("glynn", "inclexcl", "recursive"):
            out[f"haf_{n}_{method}"] = np.array(tw.hafnian(a, method=method))
            out[f"haf_real_{n}_{method}"] = np.array(tw.hafnian(ar, method=method))
        out[f"loop_haf_{n}"] = np.array(tw.hafnian(a, loop=True))
        out[f"loop_haf_real_{n}"] = np.array(tw.hafnian(ar, loop=True))
    a5 = _walrus_symmetric(5, 1)
    out["loop_haf_odd"] = np.array(tw.loop_hafnian(a5, D=np.diag(a5).copy()))
    out["loop_haf_reps"] = np.array(tw.loop_hafnian(_walrus_symmetric(3, 2), reps=[2, 1, 2]))
    out["repeated"] = np.array(tw.hafnian_repeated(_walrus_symmetric(3, 3), [1, 2, 1]))
    out["banded"] = np.array(tw.hafnian_banded(np.triu(np.tril(_walrus_symmetric(6, 4), 1), -1)))
    out["sparse"] = np.array(tw.hafnian_sparse(np.triu(np.tril(_walrus_symmetric(6, 5), 2), -2)))
    numba.njit(lambda s: np.random.seed(s))(7)
    out["approx"] = np.array(hafnian_approx(np.abs(_walrus_symmetric(6, 6, complex_=False)), 200))
    rng = np.random.default_rng(11)
    for n in (3, 6):
        m = rng.standard_normal((n, n)) + 1j * rng.standard_normal((n, n))
        for method in ("bbfg", "ryser"):
            out[f"perm_{n}_{method}"] = np.array(tw.perm(m, method=method))
            out[f"perm_real_{n}_{method}"] = np.array(tw.perm(m.real.copy(), method=method))
    m = rng.standard_normal((3, 3))
    out.update(perm_repeated=np.array(tw.permanent_repeated(m, [1, 2, 0])),
               brs=np.array(tw.brs(m + 0j, np.array([1, 0, 1]))), ubrs=np.array(tw.ubrs(m + 0j)))
    for n in (2, 3):
        x = rng.standard_normal((2 * n, 2 * n)) * 0.1
        o, g = x @ x.T + 0j, rng.standard_normal(2 * n) * 0.1 + 0j
        for recursive in (True, False):
            out[f"tor_{n}_{recursive}"] = np.array(tw.tor(o, recursive=recursive))
            out[f"ltor_{n}_{recursive}"] = np.array(tw.ltor(o, g, recursive=recursive))
        out[f"mtl_{n}"], out[f"lmtl_{n}"] = np.array(tw.mtl(o)), np.array(tw.lmtl(o, g))
    h = rng.standard_normal((6, 6)) + 1j * rng.standard_normal((6, 6))
    out.update(charpoly=charpoly.charpoly(h.copy()), powertrace=charpoly.powertrace(h, 5))
    return out


def thewalrus_hermite_gates():
    """thewalrus' multidimensional Hermite polynomials (plain and
    renormalised, modified, their gradients, batched hafnians, the
    interferometer's), the Fock-space gates and their gradients, loop
    hafnian batches (even and odd, with gamma), Fock probabilities and
    density matrices of a Gaussian state, loss, and grouped click
    probabilities (seeded np.random in compiled code)."""
    import thewalrus as tw
    from thewalrus import fock_gradients as fg, quantum
    from thewalrus.grouped_click_probabilities import grouped_click_probabilities, grouped_click_probabilities_squeezed
    from thewalrus.loop_hafnian_batch import loop_hafnian_batch
    from thewalrus.loop_hafnian_batch_gamma import loop_hafnian_batch_gamma
    from thewalrus.quantum.fock_tensors import loss_mat, update_probabilities_with_loss
    rng, out = np.random.default_rng(13), {}
    for n in (2, 3):
        r, y = _walrus_symmetric(n, 20 + n) * 0.3, rng.standard_normal(n) + 1j * rng.standard_normal(n)
        for renorm in (False, True):
            g = tw.hermite_multidimensional(r, 4, y=y, renorm=renorm)
            out[f"hermite_{n}_{renorm}"] = g
            out[f"hermite_modified_{n}_{renorm}"] = tw.hermite_multidimensional(r, 4, y=y, renorm=renorm, modified=True)
            for i, d in enumerate(tw.grad_hermite_multidimensional(g, r, y, renorm=renorm)):
                out[f"hermite_grad_{n}_{renorm}_{i}"] = d
        out[f"batched_{n}"] = tw.hafnian_batched(r, 4, mu=y)
    u = np.linalg.qr(rng.standard_normal((3, 3)) + 1j * rng.standard_normal((3, 3)))[0]
    out["interferometer"] = tw.interferometer(u @ u.T, 3)
    for cutoff in (4, 6):
        for name, gate, grad, args in (("D", fg.displacement, fg.grad_displacement, (0.3, 0.4)),
                                       ("S", fg.squeezing, fg.grad_squeezing, (0.2, 0.1)),
                                       ("T", fg.two_mode_squeezing, fg.grad_two_mode_squeezing, (0.2, 0.1)),
                                       ("B", fg.beamsplitter, fg.grad_beamsplitter, (0.3, 0.2)),
                                       ("M", fg.mzgate, fg.grad_mzgate, (0.3, 0.2))):
            t = gate(*args, cutoff)
            out[f"{name}{cutoff}"], out[f"grad_{name}{cutoff}"] = t, np.array(grad(t, *args))
    a = _walrus_symmetric(4, 30) * 0.3
    d = np.diag(a).copy()
    out["lhb_even"] = loop_hafnian_batch(a, d, np.array([1, 0, 1]), 3)
    out["lhb_odd"] = loop_hafnian_batch(a, d, np.array([1, 1, 1]), 3)
    out["lhb_gamma"] = loop_hafnian_batch_gamma(a, np.stack([d, d * 0.5]), np.array([1, 0, 1]), 3)
    x = rng.standard_normal((4, 4)) * 0.2
    cov, mu = np.eye(4) + x @ x.T, rng.standard_normal(4) * 0.3
    out["probabilities"] = quantum.probabilities(mu, cov, 4)
    out["density_matrix"] = quantum.density_matrix(mu, cov, cutoff=4)
    out["loss"] = loss_mat(0.8, 5)
    out["probabilities_lossy"] = update_probabilities_with_loss([0.9, 0.7], out["probabilities"])
    u = np.linalg.qr(rng.standard_normal((4, 4)) + 1j * rng.standard_normal((4, 4)))[0] * 0.9
    for tag, res in (("thermal", grouped_click_probabilities(np.array([0.5, 0.3, 0.2, 0.4]), np.array([0.1, 0.0, 0.2, 0.1]),
                                                             u, 100, 2, seed=3)),
                     ("squeezed", grouped_click_probabilities_squeezed(np.array([0.5, 0.3, 0.2, 0.4]), u, 100, 2, seed=3))):
        out[f"clicks_{tag}"], out[f"clicks_{tag}_error"] = np.asarray(res[0]), np.asarray(res[1])
    return out


def _vollib_inputs(n=40, seed=0):
    rng = np.random.default_rng(seed)
    s, k = rng.uniform(80, 120, n), rng.uniform(80, 120, n)
    t, r, sigma, q = rng.uniform(0.05, 2.0, n), rng.uniform(0.0, 0.05, n), rng.uniform(0.1, 0.6, n), rng.uniform(0.0, 0.03, n)
    return np.where(rng.uniform(size=n) < 0.5, "c", "p"), s, k, t, r, sigma, q


def py_vollib_vectorized_prices_ivs():
    """py_vollib_vectorized's Black, Black-Scholes and Black-Scholes-Merton
    prices and their implied volatilities (Jaeckel's rational guess)."""
    import py_vollib_vectorized as pv
    flag, s, k, t, r, sigma, q = _vollib_inputs()
    bs = pv.vectorized_black_scholes(flag, s, k, t, r, sigma, return_as="numpy")
    bsm = pv.vectorized_black_scholes_merton(flag, s, k, t, r, sigma, q, return_as="numpy")
    black = pv.vectorized_black(flag, s, k, t, r, sigma, return_as="numpy")
    return {"bs": bs, "bsm": bsm, "black": black,
            "iv_bs": pv.vectorized_implied_volatility(bs, s, k, t, r, flag, return_as="numpy"),
            "iv_bsm": pv.vectorized_implied_volatility(bsm, s, k, t, r, flag, q=q, model="black_scholes_merton",
                                                       return_as="numpy"),
            "iv_black": pv.vectorized_implied_volatility_black(black, s, k, r, t, flag, return_as="numpy")}


def py_vollib_vectorized_greeks():
    """py_vollib_vectorized's numerical greeks of the three models."""
    import py_vollib_vectorized as pv
    flag, s, k, t, r, sigma, q = _vollib_inputs(seed=2)
    out = {}
    for model, qq in (("black_scholes", None), ("black_scholes_merton", q), ("black", None)):
        for greek in ("delta", "gamma", "theta", "vega", "rho"):
            f = getattr(pv, "vectorized_" + greek)
            out[f"{model}_{greek}"] = f(flag, s, k, t, r, sigma, qq, model=model, return_as="numpy")
    return out


def _pecanpy_walks(mode, weighted=True, **options):
    """node2vec walks (p=0.5, q=2) of pecanpy's mode on a random graph of 30
    nodes with an isolated one; the walks' lengths and nodes. Run on one
    thread: each thread seeds its own generator (random_state + its id),
    so the walks depend on how prange's iterations are spread."""
    for old, new in (("bool8", "bool_"), ("object0", "object_"), ("int0", "intp"), ("uint0", "uintp"),
                     ("float_", "float64"), ("longfloat", "longdouble"), ("singlecomplex", "complex64"),
                     ("complex_", "complex128"), ("cfloat", "complex128"), ("clongfloat", "clongdouble"),
                     ("longcomplex", "clongdouble"), ("void0", "void"), ("string_", "bytes_"), ("bytes0", "bytes_"),
                     ("unicode_", "str_"), ("str0", "str_")):
        if not hasattr(np, old):  # nptyping, pecanpy's type hints, reads NumPy 1's aliases at import
            setattr(np, old, getattr(np, new))
    from pecanpy import pecanpy
    rng, n = np.random.default_rng(0), 30
    a = (rng.uniform(size=(n, n)) < 0.2) * (rng.uniform(0.5, 2.0, (n, n)) if weighted else 1.0)
    a = np.triu(a, 1)
    a = a + a.T
    a[3, :] = a[:, 3] = 0
    g = getattr(pecanpy, mode).from_mat(a.astype(np.float32), [str(i) for i in range(n)], p=0.5, q=2.0,
                                        random_state=7, **options)
    import numba
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        walks = g.simulate_walks(num_walks=3, walk_length=12)
    finally:
        numba.set_num_threads(threads)
    return {"lengths": np.array([len(w) for w in walks]), "nodes": np.array([int(x) for w in walks for x in w])}


def pecanpy_sparse_otf():
    return _pecanpy_walks("SparseOTF")


def pecanpy_dense_otf():
    return _pecanpy_walks("DenseOTF")


def pecanpy_precomp_first_order():
    """The precomputed modes (alias tables), the first-order unweighted
    one, and the OTF modes with node2vec+ (extend, gamma)."""
    out = {}
    for mode, weighted, options in (("PreComp", True, {}), ("PreCompFirstOrder", True, {}),
                                    ("FirstOrderUnweighted", False, {}), ("SparseOTF", True, {"extend": True, "gamma": 0.5}),
                                    ("DenseOTF", True, {"extend": True, "gamma": 0.5})):
        walks = _pecanpy_walks(mode, weighted, **options)
        out.update({f"{mode}_{options.get('extend', False)}_{k}": v for k, v in walks.items()})
    return out


def _mne_features_epochs():
    """Three epochs of four channels, 256 samples at 256 Hz: random walks
    with noise on top."""
    rng = np.random.default_rng(0)
    return rng.standard_normal((3, 4, 256)).cumsum(-1) * 0.1 + rng.standard_normal((3, 4, 256))


def mne_features_univariate():
    """mne-features' extract_features with each univariate feature (Higuchi
    fractal dimension, Hurst exponent, Teager-Kaiser energy and others
    compiled; spect_slope is left out: it fails under NumPy 2 without Numba
    too)."""
    import warnings
    from mne_features.feature_extraction import extract_features
    from mne_features.univariate import get_univariate_funcs
    x = _mne_features_epochs()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {name: extract_features(x, 256.0, [name], return_as_df=False)
                for name in sorted(get_univariate_funcs(256.0)) if name != "spect_slope"}


def mne_features_bivariate():
    """mne-features' bivariate features (max_cross_corr compiled with an
    optional(boolean) parameter, the pairs enumerated by a compiled
    generator)."""
    import warnings
    from mne_features.bivariate import get_bivariate_funcs
    from mne_features.feature_extraction import extract_features
    x = _mne_features_epochs()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {name: extract_features(x, 256.0, [name], return_as_df=False)
                for name in sorted(get_bivariate_funcs(256.0))}


def mne_features_float32_kernels():
    """The compiled kernels called directly under both of their explicit
    signatures, float64 and float32."""
    from mne_features import bivariate, univariate
    out = {}
    for dt, int_t in ((np.float64, np.int64), (np.float32, np.int32)):
        d = _mne_features_epochs()[0].astype(dt)
        name = dt.__name__
        out.update({f"hurst_rs_{name}": univariate._hurst_exp_compute_rs(d), f"tk_{name}": univariate._tk_energy(d),
                    f"higuchi_{name}": univariate._higuchi_fd(d, int_t(8)),
                    f"slope_{name}": univariate._slope_lstsq(d[0], d[1]),
                    f"std_{name}": univariate._accumulate_std(d[0]), f"max_{name}": univariate._accumulate_max(d[0]),
                    f"min_{name}": univariate._accumulate_min(d[0]),
                    f"cross_corr_{name}": bivariate._max_cross_corr(dt(256.0), d, True)})
    return out


def tensorpac_numba_methods():
    """tensorpac's Numba implementations of phase-amplitude coupling (mean
    vector length, modulation index, heights ratio, normalized direct PAC,
    and the binning helper) on signals it generates, filtered by Pac."""
    from tensorpac import Pac
    from tensorpac.methods import meth_pac_nb
    from tensorpac.methods.meth_switch import get_pac_fcn
    from tensorpac.signals import pac_signals_tort
    data, _ = pac_signals_tort(f_pha=6, f_amp=60, n_epochs=4, n_times=1000, sf=256.0, rnd_state=0)
    pac = Pac(idpac=(1, 0, 0), f_pha=(4, 8, 2, 1), f_amp=(50, 70, 10, 5), verbose=False)
    pha = np.ascontiguousarray(pac.filter(256.0, data, ftype="phase", n_jobs=1))
    amp = np.ascontiguousarray(pac.filter(256.0, data, ftype="amplitude", n_jobs=1))
    out = {f"method_{k}": get_pac_fcn(k, 18, 0.05, implementation="numba")(pha, amp) for k in (1, 2, 3, 4)}
    rng = np.random.default_rng(1)
    phases, amps = rng.uniform(-np.pi, np.pi, 500), rng.random(500)
    out["bins_mean"] = meth_pac_nb._kl_hr_nb(phases, amps, np.uint64(18), True)
    out["bins_sum"] = meth_pac_nb._kl_hr_nb(phases, amps, np.uint64(10), False)
    return out


def _pynapple_data():
    import pynapple as nap
    rng = np.random.default_rng(0)
    t = np.sort(rng.uniform(0, 100, 2000))
    d = rng.standard_normal((2000, 3)).cumsum(0)
    spikes = nap.TsGroup({i: nap.Ts(np.sort(rng.uniform(0, 100, 300 + 50 * i))) for i in range(3)})
    with_nans = np.where(rng.random(2000) < 0.1, np.nan, d[:, 1])
    return nap, t, d, spikes, with_nans


def _pynapple_values(out, name, r):
    """A pynapple result's arrays: its values, times and epochs."""
    out[name] = np.asarray(getattr(r, "values", r))
    if hasattr(r, "index"):
        out[name + "_t"] = np.asarray(getattr(r.index, "values", r.index))
    if hasattr(r, "start"):
        out[name + "_start"], out[name + "_end"] = np.asarray(r.start), np.asarray(r.end)


def pynapple_core():
    """pynapple's compiled core on irregular time series: restrict, count
    (a dtype parameter whose default is np.int64), value_from, threshold,
    bin_average, interval sets' intersection, union, difference and
    merging, in_interval, dropna and interpolate."""
    nap, t, d, spikes, with_nans = _pynapple_data()
    tsd, tsdf = nap.Tsd(t=t, d=d[:, 0]), nap.TsdFrame(t=t, d=d)
    ep = nap.IntervalSet(start=[0, 20, 55.5], end=[10, 40, 90])
    ep2 = nap.IntervalSet(start=[5, 30, 80], end=[25, 60, 95])
    out = {}
    for name, r in (("restrict", tsd.restrict(ep)), ("restrict_frame", tsdf.restrict(ep)),
                    ("count", tsd.count(0.5, ep)), ("count_group", spikes.count(1.0, ep)),
                    ("value_from", spikes[0].value_from(tsd, ep)), ("above", tsd.threshold(0.5)),
                    ("below_equal", tsd.threshold(-0.5, method="belowequal")),
                    ("above_support", tsd.threshold(0.0).time_support), ("bin_average", tsdf.bin_average(0.7, ep)),
                    ("intersect", ep.intersect(ep2)), ("union", ep.union(ep2)), ("set_diff", ep.set_diff(ep2)),
                    ("merge", ep.merge_close_intervals(3.0)), ("drop_short", ep.drop_short_intervals(12.0)),
                    ("dropna", nap.Tsd(t=t, d=with_nans).dropna()),
                    ("interpolate", tsd.interpolate(nap.Ts(np.linspace(1, 99, 333))))):
        _pynapple_values(out, name, r)
    out["in_interval"] = ep.in_interval(tsd)
    return out


def pynapple_process():
    """pynapple's compiled processing: cross- and autocorrelograms,
    perievent alignment, event-triggered averages and the mean power
    spectral density's overlapping windows."""
    nap, _, _, spikes, _ = _pynapple_data()
    ep = nap.IntervalSet(start=[0, 20, 55.5], end=[10, 40, 90])
    t = np.arange(0, 100, 0.01)
    regular = nap.TsdFrame(t=t, d=np.stack([np.sin(t), np.cos(3 * t) + 0.1 * np.sin(7.1 * t)], 1))
    ts = np.arange(0, 60, 1 / 200.0)
    signal = nap.Tsd(t=ts, d=np.sin(2 * np.pi * 10 * ts) + np.random.default_rng(1).standard_normal(ts.size) * 0.1)
    out = {}
    for name, r in (("crosscorrelogram", nap.compute_crosscorrelogram(spikes, 0.05, 1.0)),
                    ("autocorrelogram", nap.compute_autocorrelogram(spikes, 0.05, 1.0, ep=ep)),
                    ("perievent", nap.compute_perievent(regular, nap.Ts(np.array([15.0, 33.3, 60.0, 75.5])), (-1, 2))),
                    ("eta", nap.compute_event_triggered_average(regular, spikes, 0.1, (-1, 1), epochs=ep)),
                    ("eta_one", nap.compute_event_triggered_average(regular[:, 0], spikes[1], 0.05, (-0.5, 1))),
                    ("mean_psd", nap.compute_mean_power_spectral_density(signal, 2.0, fs=200.0))):
        _pynapple_values(out, name, r)
    return out


def _systole_signals():
    """30 s of a synthetic ECG (QRS and T waves at about 70 beats a minute,
    noise and drift) and PPG at 500 Hz."""
    rng = np.random.default_rng(0)
    t = np.arange(0, 30, 1 / 500)
    beats = np.cumsum(rng.normal(0.85, 0.05, 40))
    beats = beats[beats < 29.5]
    ecg, ppg = np.zeros_like(t), np.zeros_like(t)
    for b in beats:
        ecg += (1.2 * np.exp(-((t - b) / 0.012) ** 2) - 0.2 * np.exp(-((t - b - 0.03) / 0.01) ** 2) +
                0.25 * np.exp(-((t - b - 0.25) / 0.05) ** 2))
        ppg += np.exp(-((t - b - 0.2) / 0.12) ** 2)
    ecg += 0.02 * rng.standard_normal(t.size) + 0.05 * np.sin(2 * np.pi * 0.3 * t)
    ppg += 0.01 * rng.standard_normal(t.size)
    return ecg, ppg


def systole_detectors():
    """systole's compiled R-peak detectors (Hamilton, Christov,
    Engelse-Zeelenberg, Pan-Tompkins, moving average), its PPG detectors
    (rolling average, MSPTD), and sleepecg's Numba backend."""
    from sleepecg import detect_heartbeats
    from systole.detection import ecg_peaks, ppg_peaks
    ecg, ppg = _systole_signals()
    out = {m: ecg_peaks(ecg, sfreq=500, new_sfreq=500, method=m)[1]
           for m in ("hamilton", "christov", "engelse-zeelenberg", "pan-tompkins", "moving-average")}
    out.update({"ppg_" + m: ppg_peaks(ppg, sfreq=500, method=m, clipping=False)[1]
                for m in ("rolling_average", "msptd")})
    out["sleepecg_numba"] = detect_heartbeats(ecg[::2], 250, backend="numba")
    return out


def systole_hrv():
    """systole's RR-interval artefact detection and correction, Poincare,
    nonlinear and recurrence measures of the RR series it simulates, and
    NaN cleaning."""
    from systole import hrv, utils
    from systole.correction import correct_peaks, correct_rr
    from systole.detection import rr_artefacts
    rr = utils.simulate_rr(random_state=1)
    peaks = np.zeros(int(np.sum(rr)) + 10, dtype=bool)
    peaks[np.cumsum(rr).astype(int)] = True
    ecg = _systole_signals()[0]
    ecg[100:120] = np.nan
    out = {f"artefacts_{k}": v for k, v in rr_artefacts(rr).items()}
    out.update({"rr": rr, "corrected_rr": correct_rr(rr, verbose=False)[0],
                "corrected_peaks": correct_peaks(peaks, verbose=False)["clean_peaks"],
                "poincare": np.array(hrv._poincare(np.asarray(rr, float))),
                "nonlinear": hrv.nonlinear_domain(rr).Values.to_numpy(),
                "recurrence": hrv.recurrence_matrix(np.asarray(rr, float)[:120]),
                "nan_cleaned": utils.nan_cleaning(ecg, verbose=False)})
    return out
def _csrgraph(n=25, seed=0):
    """A weighted directed graph of n nodes with a node (4) without out-edges."""
    import scipy.sparse as sp
    import csrgraph as cg
    rng = np.random.default_rng(seed)
    a = (rng.uniform(size=(n, n)) < 0.25) * rng.uniform(0.5, 2.0, (n, n))
    a[4, :] = 0
    return cg.csrgraph(sp.csr_matrix(a))


def _numba_seed(seed):
    """Seeds the generator compiled code draws from (NumPy's own as well)."""
    import numba
    numba.njit(lambda s: np.random.seed(s))(seed)
    np.random.seed(seed)


def csrgraph_walks():
    """Random walks and node2vec walks (return 0.5, neighbour 2.0) from fixed
    seeds, on one thread: each thread draws from its own generator; the
    edge list of the walks' context windows."""
    import numba
    from csrgraph import random_walks
    g = _csrgraph()
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        _numba_seed(3)
        walks = g.random_walks(walklen=8, epochs=2)
        _numba_seed(5)
        n2v = g.random_walks(walklen=8, epochs=2, return_weight=0.5, neighbor_weight=2.0)
    finally:
        numba.set_num_threads(threads)
    edges = random_walks.walks_to_edgelist(walks)
    return {"walks": walks, "node2vec": n2v, **{"edges_" + c: edges[c].to_numpy() for c in edges.columns}}


def csrgraph_methods():
    """The CSR kernels on the pool: node degrees, row normalisation, the
    weights multiplied by their source's and their destination's weight."""
    from csrgraph import methods
    g = _csrgraph(60, 1)
    w = np.arange(1.0, g.nnodes + 1)
    weights = g.weights.astype(np.float64)
    methods._src_multiply(w, g.src, weights)
    src_multiplied = weights.copy()
    methods._dst_multiply(w, g.src, g.dst, weights)
    return {"degrees": methods._node_degrees(g.src, g.dst), "normalized": g.normalize(return_self=False).weights,
            "src_multiplied": src_multiplied, "dst_multiplied": weights}


def csrgraph_embeddings():
    """GGVec (its loss a prange reduction) and GloVe embeddings from fixed
    seeds, on one thread: their updates race between threads."""
    import warnings
    import numba
    g = _csrgraph()
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # "has not converged" in so few epochs
            _numba_seed(9)
            ggvec = g.ggvec(n_components=3, max_epoch=20, verbose=False)
            _numba_seed(11)
            glove = g.glove(n_components=3, max_epoch=30, verbose=False)
    finally:
        numba.set_num_threads(threads)
    return {"ggvec": ggvec, "glove": glove}


def _verde_data():
    import verde as vd
    region = (0, 5000, -2000, 3000)
    coords = vd.scatter_points(region, size=150, random_state=1)
    data = 0.01 * coords[0] - 0.003 * coords[1] + np.sin(coords[0] / 700) * 50
    return region, coords, data, vd.grid_coordinates(region, shape=(12, 15))


def verde_spline():
    """Spline fit (its Jacobian) and prediction on the numba engine, with
    and without weights and given forces; a Jacobian of its own points."""
    import verde as vd
    region, coords, data, grid = _verde_data()
    spline = vd.Spline(damping=1e-8, mindist=1.0, engine="numba").fit(coords, data)
    given = vd.Spline(mindist=5.0, engine="numba", force_coords=vd.grid_coordinates(region, spacing=700))
    given.fit(coords, data, weights=np.linspace(0.5, 2, data.size))
    return {"forces": spline.force_, "predicted": spline.predict(grid),
            "jacobian": spline.jacobian((coords[0][:40], coords[1][:40]), (coords[0][50:80], coords[1][50:80])),
            "given_predicted": given.predict(grid), "given_score": given.score(coords, data)}


def verde_vector_spline_cv():
    """VectorSpline2D's coupled Green's functions (fastmath) and SplineCV's
    cross-validated dampings and mindists."""
    import verde as vd
    _, coords, data, grid = _verde_data()
    vectors = (np.cos(coords[0] / 900), np.sin(coords[1] / 1100))
    spline = vd.VectorSpline2D(poisson=0.25, mindist=10, damping=1e-6, engine="numba").fit(coords, vectors)
    east, north = spline.predict(grid)
    cv = vd.SplineCV(dampings=[None, 1e-6], mindists=[1.0, 10.0], engine="numba", delayed=False).fit(coords, data)
    return {"forces": spline.force_, "east": east, "north": north, "cv_scores": np.array(cv.scores_),
            "cv_predicted": cv.predict(grid)}


def opensimplex_arrays():
    """2-, 3- and 4-D noise on grids (nested prange loops) for three seeds."""
    import opensimplex
    out = {}
    x, y, z, w = np.linspace(-3.7, 5.1, 23), np.linspace(-1.2, 8.3, 19), np.linspace(0.1, 2.9, 7), np.linspace(-2, 2, 5)
    for seed in (0, 1234, -77):
        opensimplex.seed(seed)
        out[f"noise2_{seed}"] = opensimplex.noise2array(x, y)
        out[f"noise3_{seed}"] = opensimplex.noise3array(x, y, z)
        out[f"noise4_{seed}"] = opensimplex.noise4array(x[:9], y[:8], z, w)
    return out


def opensimplex_points():
    """Noise at scattered points, floats and ints, from the module and from
    an OpenSimplex generator of its own seed."""
    import opensimplex
    p = np.random.default_rng(0).uniform(-50, 50, (40, 4))
    opensimplex.seed(42)
    gen = opensimplex.OpenSimplex(seed=99)
    return {"noise2": np.array([opensimplex.noise2(a, b) for a, b, _, _ in p]),
            "noise3": np.array([opensimplex.noise3(a, b, c) for a, b, c, _ in p]),
            "noise4": np.array([opensimplex.noise4(*row) for row in p]),
            "generator": gen.noise2array(np.arange(10.0) * 0.37, np.arange(6.0) * 1.1),
            "ints": np.array([gen.noise2(3, 4), gen.noise3(1, 2, 3), gen.noise4(1, 0, 2, 5)])}


def _pyfixest_data(n=400):
    import pandas as pd
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"f1": rng.integers(0, 12, n), "f2": rng.integers(0, 7, n), "x1": rng.normal(size=n),
                       "x2": rng.normal(size=n), "cl": rng.integers(0, 20, n), "w": rng.uniform(0.5, 2, n),
                       "treat": rng.integers(0, 2, n)})
    df["Y"] = 1.5 * df.x1 - 0.7 * df.x2 + 0.3 * df.treat + df.f1 * 0.1 + rng.normal(size=n)
    return df


def pyfixest_demean():
    """pyfixest's Numba backend (its default is Rust): the alternating
    projections demeaning (prange over columns, a scratch row per thread
    id) of C- and F-ordered data, with weights; fixed-effects regressions
    with clustered and weighted errors through it."""
    import warnings
    import pyfixest as pf
    from pyfixest.estimation.numba.demean_nb import demean
    df = _pyfixest_data()
    x = np.column_stack([df.Y, df.x1, df.x2]).astype(np.float64)
    factors = np.column_stack([df.f1, df.f2]).astype(np.uint64)
    weighted, converged = demean(x, factors, df.w.to_numpy())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the Numba backend's deprecation
        fit = pf.feols("Y ~ x1 + x2 + treat | f1 + f2", data=df, vcov={"CRV1": "cl"}, demeaner_backend="numba")
        fit_w = pf.feols("Y ~ x1 + x2 | f1", data=df, weights="w", demeaner_backend="numba")
    return {"weighted": weighted, "converged": converged, "fortran": demean(np.asfortranarray(x), factors, np.ones(len(df)))[0],
            "coef": fit.coef().to_numpy(), "se": fit.se().to_numpy(), "coef_weighted": fit_w.coef().to_numpy()}


def pyfixest_collinear_nested_ritest():
    """The collinearity check (a Cholesky-like sweep), the nested fixed
    effects count (string arrays compared in prange) and randomisation
    inference (a Generator drawn in compiled code, SVD least squares)."""
    import pyfixest as pf
    from pyfixest.estimation.numba.find_collinear_variables_nb import _find_collinear_variables_nb
    from pyfixest.estimation.numba.nested_fixef_nb import _count_fixef_fully_nested_all
    df = _pyfixest_data()
    X = np.column_stack([df.x1, df.x2, df.x1 + df.x2, df.treat])
    excluded, n_excluded, all_removed = _find_collinear_variables_nb(X.T @ X, 1e-10)
    fe = np.column_stack([df.f1, df.f2, df.cl, df.cl // 4]).astype(np.int64)
    nested, n_nested = _count_fixef_fully_nested_all(np.array(["f1", "f2", "cl", "clq"]), np.array(["cl", "f2x"]),
                                                     np.column_stack([df.cl, df.f2]).astype(np.int64), fe)
    fit = pf.feols("Y ~ treat + x1 + x2", data=df)
    fit.ritest(resampvar="treat", reps=200, store_ritest_statistics=True, rng=np.random.default_rng(3),
               choose_algorithm="fast")
    return {"excluded": excluded, "n_excluded": n_excluded, "all_removed": all_removed, "nested": nested,
            "n_nested": n_nested, "ritest": fit._ritest_statistics, "ritest_p": fit._ritest_pvalue}


def _tls_search(*backends):
    """A transit search (periods 2.5 to 5.5 d) on a light curve of 700
    points with a 1e-3 deep transit every 3.7 d, on the given backends."""
    import warnings
    from transitleastsquares import transitleastsquares
    rng = np.random.default_rng(0)
    t = np.sort(rng.uniform(0, 20, 700))
    y = np.ones_like(t) + rng.normal(0, 1e-4, t.size)
    phase = ((t - 1.3) / 3.7) % 1
    y[(phase < 0.012) | (phase > 0.988)] -= 1e-3
    out = {}
    for backend in backends:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = transitleastsquares(t, y, np.full_like(t, 1e-4), verbose=False).power(
                period_min=2.5, period_max=5.5, oversampling_factor=2, duration_grid_step=1.15, use_threads=1,
                show_progress_bar=False, backend=backend)
        for k in ("period", "T0", "duration", "depth", "SDE", "snr", "odd_even_mismatch", "transit_count", "power",
                  "periods", "model_lightcurve_model"):
            out[f"{backend}_{k}"] = np.asarray(getattr(r, k), dtype=float)
    return out


def transitleastsquares_exact():
    """The exact backends: the reference search (numba), the fused one and
    its prange over chunks of periods (fused-threads)."""
    return _tls_search("numba", "fused", "fused-threads")


def transitleastsquares_approximate():
    """The approximate backends, which keep the residuals in float32:
    stride-binned correlation, piecewise-constant templates, both."""
    return _tls_search("fused-binned", "fused-pieces", "fused-pl")


def _pympdata_run(options, data, courant, n_steps, grid=None):
    """PyMPDATA's solver on periodic boundaries: the advected field after
    n_steps (a Stepper of n_dims, or of the grid where given)."""
    from PyMPDATA import Options, ScalarField, Solver, Stepper, VectorField
    from PyMPDATA.boundary_conditions import Periodic
    options = Options(**options)
    bcs = tuple(Periodic() for _ in data.shape)
    advectee = ScalarField(data, halo=options.n_halo, boundary_conditions=bcs)
    advector = VectorField(courant, halo=options.n_halo, boundary_conditions=bcs)
    stepper = Stepper(options=options, grid=grid) if grid else Stepper(options=options, n_dims=data.ndim)
    solver = Solver(stepper=stepper, advectee=advectee, advector=advector)
    solver.advance(n_steps=n_steps)
    return solver.advectee.get().copy()


def pympdata_advection_1d():
    """A Gaussian advected in 1-d by upwind, MPDATA with 2 iterations, its
    non-oscillatory (FCT) variant, infinite-gauge with FCT, and third-order
    terms with DPDC (each option set compiles its own closures)."""
    x = np.linspace(0, 1, 64)
    psi = np.exp(-((x - .3) / .1) ** 2)
    out = {}
    for name, options in (("upwind", {"n_iters": 1}), ("mpdata2", {"n_iters": 2}),
                          ("fct", {"n_iters": 3, "nonoscillatory": True}),
                          ("iga_fct", {"n_iters": 2, "infinite_gauge": True, "nonoscillatory": True}),
                          ("tot_dpdc", {"n_iters": 3, "third_order_terms": True, "DPDC": True})):
        shift = 1.0 if options.get("nonoscillatory") else 0.0  # FCT on a positive field
        out[name] = _pympdata_run(options, psi + shift, (np.full(65, .4),), 20)
    return out


def pympdata_advection_2d():
    """The README's 2-d example: a Gaussian advected diagonally on a 24x20
    periodic grid, with MPDATA of 2 iterations (a Stepper of n_dims), with
    infinite gauge and FCT, and with 3 iterations on a Stepper made for the
    grid; the 2-d steppers divide the grid among the threads (prange)."""
    nx, ny = 24, 20
    xi, yi = np.indices((nx, ny), dtype=float)
    psi = np.exp(-(xi + .5 - nx / 2) ** 2 / (2 * (ny / 10) ** 2) - (yi + .5 - nx / 2) ** 2 / (2 * (ny / 10) ** 2))
    courant = (np.full((nx + 1, ny), -.5), np.full((nx, ny + 1), -.25))
    return {"mpdata2": _pympdata_run({"n_iters": 2}, psi, courant, 15),
            "iga_fct": _pympdata_run({"n_iters": 2, "infinite_gauge": True, "nonoscillatory": True}, psi, courant, 15),
            "grid_stepper": _pympdata_run({"n_iters": 3}, psi, courant, 15, grid=(nx, ny))}


def pympdata_advection_3d():
    """A Gaussian advected in 3-d on a 12x10x8 periodic grid by MPDATA of 2
    iterations: the 3-d stepper, whose halo filling of the vector field
    calls atv[dim](...), an item of the tuple of per-axis functions at an
    index the caller passes."""
    nx, ny, nz = 12, 10, 8
    xi, yi, zi = np.indices((nx, ny, nz), dtype=float)
    psi = np.exp(-((xi - 6) ** 2 + (yi - 5) ** 2 + (zi - 4) ** 2) / 8)
    courant = (np.full((nx + 1, ny, nz), .2), np.full((nx, ny + 1, nz), -.15), np.full((nx, ny, nz + 1), .1))
    return {"mpdata2": _pympdata_run({"n_iters": 2}, psi, courant, 5)}


def pysdm_box_coalescence():
    """PySDM's box model: Golovin-kernel coalescence of 1024 super-droplets
    from an exponential spectrum (seeded pairing and collision draws), the
    spectrum dv/dlnr after 0, 60 and 120 steps and the multiplicities."""
    from PySDM import Formulae, Particulator
    from PySDM.backends import CPU
    from PySDM.dynamics import Coalescence
    from PySDM.dynamics.collisions.collision_kernels import Golovin
    from PySDM.environments import Box
    from PySDM.initialisation.sampling.spectral_sampling import ConstantMultiplicity
    from PySDM.initialisation.spectra.exponential import Exponential
    from PySDM.physics import si
    from PySDM.products import ParticleVolumeVersusRadiusLogarithmSpectrum
    n_sd = 2 ** 10
    attributes = {}
    spectrum = Exponential(norm_factor=8.39e12, scale=1.19e5 * si.um ** 3)
    attributes["volume"], attributes["multiplicity"] = ConstantMultiplicity(spectrum).sample_deterministic(n_sd)
    env = Box(dt=1 * si.s, dv=1e6 * si.m ** 3, backend=CPU(Formulae(seed=44)))
    edges = np.logspace(np.log10(10 * si.um), np.log10(5e3 * si.um), num=32)
    product = ParticleVolumeVersusRadiusLogarithmSpectrum(radius_bins_edges=edges, name="dv/dlnr")
    particulator = Particulator(n_sd, environment=env, attributes=attributes, products=(product,),
                                dynamics=(Coalescence(collision_kernel=Golovin(b=1.5e3 / si.s)),))
    out = {}
    for step in (0, 60, 120):
        particulator.advance(step - particulator.n_steps)
        out[f"dv_dlnr_{step}"] = particulator.products["dv/dlnr"].get().copy()
    out["multiplicity"] = particulator.attributes["multiplicity"].to_ndarray()
    return out


def pysdm_parcel_condensation():
    """PySDM's adiabatic parcel rising at 2.5 m/s: 64 super-droplets of a
    lognormal aerosol, equilibrated (TOMS748 root finding), growing by
    condensation (its adaptive solver) for 40 steps; the wet radii and the
    parcel's T, p, vapour mixing ratio and RH every 10 steps."""
    from PySDM import Formulae, Particulator
    from PySDM.backends import CPU
    from PySDM.dynamics import AmbientThermodynamics, Condensation
    from PySDM.environments import Parcel
    from PySDM.initialisation.sampling.spectral_sampling import Logarithmic
    from PySDM.initialisation.spectra import Lognormal
    from PySDM.physics import si
    env = Parcel(dt=1 * si.s, mass_of_dry_air=1 * si.kg, p0=1000 * si.hPa, initial_water_vapour_mixing_ratio=20 * si.g / si.kg,
                 T0=300 * si.K, w=2.5 * si.m / si.s, backend=CPU(Formulae(seed=44)))
    n_sd = 64
    spectrum = Lognormal(norm_factor=1e4 / si.mg, m_mode=50 * si.nm, s_geom=1.4)
    r_dry, n_per_kg = Logarithmic(spectrum).sample_deterministic(n_sd)
    attributes = env.init_attributes(n_in_dv=n_per_kg * env.mass_of_dry_air, kappa=0.5, r_dry=r_dry)
    particulator = Particulator(n_sd, environment=env, attributes=attributes,
                                dynamics=(AmbientThermodynamics(), Condensation()), requested_attributes=("radius",))
    out = {}
    for block in range(4):
        particulator.advance(10)
        out[f"radius_{block}"] = particulator.attributes["radius"].to_ndarray()
        out[f"env_{block}"] = np.array([env[k][0] for k in ("T", "p", "water_vapour_mixing_ratio", "RH")])
    return out


def _pandapower_flows(cases, algorithms):
    import warnings
    import pandapower as pp
    import pandapower.networks as pn
    out = {}
    for case in cases:
        for algorithm in algorithms:
            net = getattr(pn, case)()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                pp.runpp(net, algorithm=algorithm, numba=True, calculate_voltage_angles=True)
            out[f"{case}_{algorithm}_vm"] = net.res_bus.vm_pu.to_numpy()
            out[f"{case}_{algorithm}_va"] = net.res_bus.va_degree.to_numpy()
            out[f"{case}_{algorithm}_loading"] = net.res_line.loading_percent.to_numpy()
    return out


def pandapower_newton():
    """runpp's default (numba=True): the admittance matrix, the Jacobian in
    CSR form, dS/dV and the result's branch flows compiled, under
    Newton-Raphson and its Iwamoto multiplier, on four bundled grids."""
    return _pandapower_flows(("case9", "case30", "case118", "mv_oberrhein"), ("nr", "iwamoto_nr"))


def pandapower_other_flows():
    """The fast-decoupled (BX, XB), backward/forward sweep (a radial grid)
    and Gauss-Seidel algorithms, and the DC power flow."""
    import pandapower as pp
    import pandapower.networks as pn
    out = _pandapower_flows(("case9", "case118"), ("fdbx", "fdxb"))
    out.update(_pandapower_flows(("example_simple",), ("bfsw",)))
    out.update(_pandapower_flows(("case9",), ("gs",)))
    net = pn.case118()
    pp.rundcpp(net)
    out["dc_va"], out["dc_p"] = net.res_bus.va_degree.to_numpy(), net.res_line.p_from_mw.to_numpy()
    return out


def pandapower_sc_se_3ph():
    """Short-circuit currents (the compiled admittance matrix), the line
    outage distribution factors, a state estimation from noisy
    measurements and an unbalanced three-phase power flow."""
    import warnings
    import pandapower as pp
    import pandapower.networks as pn
    import pandapower.shortcircuit as sc
    from pandapower.estimation import estimate
    from pandapower.pypower.makeLODF import makeLODF
    from pandapower.pypower.makePTDF import makePTDF
    out = {}
    warnings.simplefilter("ignore")
    net = pn.create_cigre_network_mv(with_der=False)
    sc.calc_sc(net, case="max", ip=True, ith=True)
    out["ikss"], out["ip"] = net.res_bus_sc.ikss_ka.to_numpy(), net.res_bus_sc.ip_ka.to_numpy()
    net = pn.case30()
    pp.rundcpp(net)
    ppc = net._ppc
    out["lodf"] = makeLODF(ppc["branch"], makePTDF(ppc["baseMVA"], ppc["bus"], ppc["branch"]))
    net = pn.case9()
    pp.runpp(net)
    rng = np.random.default_rng(0)
    for b in net.bus.index:
        pp.create_measurement(net, "v", "bus", net.res_bus.vm_pu[b] * (1 + 0.002 * rng.standard_normal()), 0.01, b)
        pp.create_measurement(net, "p", "bus", net.res_bus.p_mw[b] + 0.02 * rng.standard_normal(), 0.1, b)
        pp.create_measurement(net, "q", "bus", net.res_bus.q_mvar[b] + 0.02 * rng.standard_normal(), 0.1, b)
    estimate(net, init="flat")
    out["se_vm"], out["se_va"] = net.res_bus_est.vm_pu.to_numpy(), net.res_bus_est.va_degree.to_numpy()
    net = pp.create_empty_network(sn_mva=100)
    b1, b2, b3 = (pp.create_bus(net, 20) for _ in range(3))
    pp.create_ext_grid(net, b1, s_sc_max_mva=1000, rx_max=0.1, x0x_max=1.0, r0x0_max=0.1)
    pp.create_std_type(net, {"r0_ohm_per_km": 0.0848, "x0_ohm_per_km": 0.4649556, "c0_nf_per_km": 230.6,
                             "max_i_ka": 0.963, "r_ohm_per_km": 0.0212, "x_ohm_per_km": 0.1162389,
                             "c_nf_per_km": 230}, "cable")
    pp.create_line(net, b1, b2, 5, std_type="cable")
    pp.create_line(net, b2, b3, 3, std_type="cable")
    pp.create_asymmetric_load(net, b2, p_a_mw=0.5, p_b_mw=0.3, p_c_mw=0.1, q_a_mvar=0.1)
    pp.create_asymmetric_load(net, b3, p_a_mw=0.2, p_b_mw=0.6, p_c_mw=0.4)
    pp.runpp_3ph(net)
    for k in ("vm_a_pu", "vm_b_pu", "vm_c_pu", "va_a_degree", "va_c_degree"):
        out[f"3ph_{k}"] = net.res_bus_3ph[k].to_numpy()
    return out


def _pybispectra_data():
    import pybispectra as pb
    rng = np.random.default_rng(0)
    fs, t = 200, np.arange(400) / 200
    data = rng.standard_normal((6, 3, 400))
    data[:, 0] += np.sin(2 * np.pi * 10 * t)
    data[:, 1] += (1 + np.sin(2 * np.pi * 10 * t)) * np.sin(2 * np.pi * 40 * t)
    fft, freqs = pb.compute_fft(data, sampling_freq=fs, n_points=fs, verbose=False)
    return data, fs, fft, freqs


def pybispectra_bispectrum():
    """The compiled bispectrum and threenorm (a nested target unpacks each
    row of channel indices): PAC with and without antisymmetrisation and
    normalisation, wave shape, and the general Bispectrum/Threenorm."""
    import pybispectra as pb
    _, fs, fft, freqs = _pybispectra_data()
    out = {}
    pac = pb.PAC(fft, freqs, fs, verbose=False)
    pac.compute(f1s=(5, 15), f2s=(30, 50), antisym=(False, True), norm=(False, True), n_jobs=1)
    out.update({f"pac{i}": r.get_results() for i, r in enumerate(pac.results)})
    shape = pb.WaveShape(fft, freqs, fs, verbose=False)
    shape.compute(f1s=(5, 20), f2s=(5, 20), n_jobs=1)
    out["waveshape"] = shape.results.get_results()
    for cls in (pb.Bispectrum, pb.Threenorm):
        general = cls(fft, freqs, fs, verbose=False)
        general.compute(f1s=(5, 15), f2s=(30, 50), n_jobs=1)
        out[cls.__name__] = general.results.get_results()
    return out


def pybispectra_ppc_aac_tde():
    """Phase-phase and amplitude-amplitude coupling of Morlet transforms,
    and time delays (methods I-IV, antisymmetrised or not) of a shifted copy."""
    import pybispectra as pb
    data, fs, _, _ = _pybispectra_data()
    out = {}
    for name, cls, output in (("ppc", pb.PPC, "complex"), ("aac", pb.AAC, "power")):
        tfr, tfreqs = pb.compute_tfr(data, fs, freqs=np.arange(5, 51, 5.0), n_cycles=3, output=output, verbose=False)
        coupling = cls(tfr, tfreqs, fs, verbose=False)
        coupling.compute(f1s=(5, 15), f2s=(30, 50), n_jobs=1)
        out[name] = coupling.results.get_results()
    shifted = np.stack([data[:, 0], np.roll(data[:, 0], 5, axis=-1) + 0.1 * data[:, 2]], axis=1)
    fft, freqs = pb.compute_fft(shifted, sampling_freq=fs, n_points=2 * shifted.shape[2] + 1, window="hamming",
                                verbose=False)
    tde = pb.TDE(fft, freqs, fs, verbose=False)
    tde.compute(indices=((0,), (1,)), method=(1, 2, 3, 4), antisym=(False, True), n_jobs=1)
    out.update({f"tde{i}": r.get_results() for i, r in enumerate(tde.results)})
    return out


def pybispectra_single():
    """The same in single precision (complex64 and float32 arrays)."""
    import pybispectra as pb
    pb.set_precision("single")
    try:
        return {**pybispectra_bispectrum(), **pybispectra_ppc_aac_tde()}
    finally:
        pb.set_precision("double")
def _financepy_setup():
    from financepy.market.curves import DiscountCurveFlat
    from financepy.utils import Date, OptionTypes
    value_dt = Date(1, 1, 2020)
    return (value_dt, Date(1, 7, 2020), DiscountCurveFlat(value_dt, 0.05), DiscountCurveFlat(value_dt, 0.01),
            OptionTypes)


def financepy_analytic():
    """financepy's closed forms: Black-Scholes values and greeks (ufuncs),
    Barone-Adesi-Whaley and Bjerksund-Stensland American values (a secant
    solver over a ufunc, a nested def reading nonlocals), implied
    volatilities (an object-mode ufunc), SABR and SVI/SSVI smiles, Heston's
    Lewis, Weber and Gatheral integrals, bivariate and trivariate normals."""
    from financepy.models import black_scholes_analytic as b, sabr, volatility_fns as vf, heston
    from financepy.products.equity import EquityVanillaOption
    from financepy.models.black_scholes import BlackScholes
    from financepy.utils import math as fm
    value_dt, expiry, dc, div, ot = _financepy_setup()
    rng = np.random.default_rng(0)
    spots, vols = rng.uniform(80, 120, 6), rng.uniform(0.1, 0.4, 6)
    out = {}
    for name in ("bs_value", "bs_delta", "bs_gamma", "bs_vega", "bs_theta", "bs_rho", "bs_vanna"):
        f = getattr(b, name)
        out[name] = [f(s, 0.5, 100.0, 0.05, 0.01, v, o.value) for s, v in zip(spots, vols)
                     for o in (ot.EUROPEAN_CALL, ot.EUROPEAN_PUT)]
    out["american"] = [b.baw_value(s, 0.5, 100.0, 0.05, 0.01, v, phi) for s, v in zip(spots, vols) for phi in (1, -1)]
    out["bjerksund"] = [b.bjerksund_stensland_value(s, 0.5, 100.0, 0.05, 0.01, v, o.value) for s, v in zip(spots, vols)
                        for o in (ot.AMERICAN_CALL, ot.AMERICAN_PUT)]
    strikes = np.linspace(85.0, 115.0, 7)
    prices = b.bs_value(100.0, 0.5, strikes, 0.05, 0.01, 0.25, ot.EUROPEAN_CALL.value)
    out["implied"] = b.bs_implied_volatility(100.0, 0.5, strikes, 0.05, 0.01, prices, ot.EUROPEAN_CALL.value)
    opt = EquityVanillaOption(expiry, 100.0, ot.EUROPEAN_PUT)
    m = BlackScholes(0.2)
    out["vanilla"] = [opt.value(value_dt, 105.0, dc, div, m), opt.delta(value_dt, 105.0, dc, div, m),
                      opt.vega(value_dt, 105.0, dc, div, m), opt.implied_volatility(value_dt, 105.0, dc, div, 4.0)]
    ks = np.linspace(0.02, 0.06, 9)
    out["sabr"] = [sabr.vol_function_sabr(np.array([0.2, 0.7, -0.3, 0.5]), 0.04, k, 1.5) for k in ks]
    out["sabr_b1"] = [sabr.vol_function_sabr_beta_one(np.array([0.2, -0.3, 0.5]), 0.04, k, 1.5) for k in ks]
    out["svi"] = [vf.vol_function_svi(np.array([0.03, 0.1, -0.3, 0.0, 0.1]), 100.0, k, 0.5) for k in strikes]
    out["ssvi"] = [vf.vol_function_ssvi(np.array([0.2, 0.5, -0.3, 0.8]), 100.0, k, 0.5) for k in strikes]
    out["clark"] = [vf.vol_function_clark(np.array([0.2, 0.01, 0.001]), 100.0, k, 0.5) for k in strikes]
    h = heston.Heston(0.04, 2.0, 0.04, 0.3, -0.6)
    call = EquityVanillaOption(expiry, 100.0, ot.EUROPEAN_CALL)
    out["heston"] = [h.value_lewis(value_dt, call, 100.0, 0.05, 0.01), h.value_weber(value_dt, call, 100.0, 0.05, 0.01),
                     h.value_gatheral(value_dt, call, 100.0, 0.05, 0.01)]
    out["normals"] = [fm.phi2(0.3, -0.2, 0.5), fm.M(0.1, 0.2, 0.3), fm.phi3(0.1, 0.2, 0.3, 0.2, 0.3, 0.1),
                      fm.normcdf_integrate(0.7)] + [fm.norminvcdf(p) for p in (0.01, 0.3, 0.9, 0.999)]
    return out


def financepy_trees_curves():
    """financepy's lattices and grids: CRR binomial trees, Hull-White,
    Black-Karasinski and Black-Derman-Toy trees with European and American
    bond options, the PSOR finite-difference American put, Asian options'
    approximations, an option-implied density and the discount-curve
    interpolation schemes."""
    from financepy.models import equity_crr_tree as crr
    from financepy.models.hw_tree import HWTree
    from financepy.models.bk_tree import BKTree
    from financepy.models.bdt_tree import BDTTree
    from financepy.models.finite_difference_psor import black_scholes_fd_psor
    from financepy.models.option_implied_dbn import option_implied_dbn
    from financepy.products.equity import EquityAsianOption
    from financepy.products.equity.equity_asian_option import AsianOptionValuationMethods
    from financepy.models.black_scholes import BlackScholes
    from financepy.market.curves.interpolator import interpolate, InterpTypes
    from financepy.utils.global_types import FinExerciseTypes
    from financepy.utils import Date
    value_dt, expiry, dc, div, ot = _financepy_setup()
    out = {"crr": [crr.crr_tree_val(100.0, 0.05, 0.01, 0.25, 100, 0.75, o.value, 95.0, even)
                   for o in (ot.AMERICAN_PUT, ot.EUROPEAN_CALL) for even in (0, 1)],
           "crr_avg": [crr.crr_tree_val_avg(100.0, 0.05, 0.01, 0.25, 100, 0.75, o.value, 95.0)["value"]
                       for o in (ot.AMERICAN_PUT, ot.AMERICAN_CALL)]}
    times = np.linspace(0.0, 10.0, 21)
    dfs = np.exp(-0.04 * times)
    for cls, args in ((HWTree, (0.01, 0.05)), (BKTree, (0.2, 0.05)), (BDTTree, (0.2,))):
        m = cls(*args, num_time_steps=40)
        m.build_tree(5.0, times, dfs)
        out[cls.__name__] = [np.ravel(list(m.bond_option(3.0, 95.0, 100.0, np.arange(1.0, 6.0),
                                                         np.array([4.0, 4.0, 4.0, 4.0, 104.0]), e).values()))
                             for e in (FinExerciseTypes.EUROPEAN, FinExerciseTypes.AMERICAN)]
    out["psor"] = [black_scholes_fd_psor(100.0, 0.05, 0.01, 0.2, 1.0, 100.0, ot.AMERICAN_PUT.value)]
    asian = EquityAsianOption(Date(1, 3, 2020), expiry, 100.0, ot.EUROPEAN_CALL, 20)
    out["asian"] = [asian.value(value_dt, 100.0, dc, div, BlackScholes(0.2), method, 0.0)
                    for method in AsianOptionValuationMethods]
    ks = np.linspace(60.0, 140.0, 41)
    out["density"] = option_implied_dbn(100.0, 0.5, 0.05, 0.01, ks, 0.2 + 0.0001 * (ks - 100) ** 2)
    knots = np.array([0.0, 0.5, 1.0, 2.0, 5.0, 10.0])
    knot_dfs = np.exp(-0.03 * knots - 0.001 * knots ** 2)
    for it in (InterpTypes.FLAT_FWD_RATES, InterpTypes.LINEAR_FWD_RATES, InterpTypes.LINEAR_ZERO_RATES):
        out["interp_" + it.name] = [interpolate(t, knots, knot_dfs, it.value) for t in np.linspace(0.1, 12.0, 17)]
    return out


def financepy_monte_carlo():
    """financepy's simulations from np.random.seed inside compiled code:
    Black-Scholes Monte Carlo values, Heston, GBM, Vasicek and CIR paths,
    CIR and Vasicek zero-coupon prices (every CIR scheme, the exact one's
    chi-square draws by Numba's gamma sampler), LIBOR market model
    forwards (one, several and N factors, with Sobol numbers), Sobol points,
    Asian Monte Carlo and large-portfolio credit loss distributions."""
    from financepy.models import heston, process_simulator as ps, cir_montecarlo as cir, vasicek_mc as vas, lmm_mc
    from financepy.models import gauss_copula_lhp as lhp, loss_dbn_builder as loss
    from financepy.models.sobol import get_uniform_sobol, get_gaussian_sobol
    from financepy.products.equity import EquityVanillaOption, EquityAsianOption
    from financepy.models.black_scholes import BlackScholes
    from financepy.utils import Date
    value_dt, expiry, dc, div, ot = _financepy_setup()
    out = {}
    opt, m = EquityVanillaOption(expiry, 100.0, ot.EUROPEAN_CALL), BlackScholes(0.2)
    out["bs_mc"] = [opt.value_mc(value_dt, 105.0, dc, div, m, 2000, 42),
                    opt.value_mc_numba_only(value_dt, 105.0, dc, div, m, 2000, 42)]
    out["heston_paths"] = heston.get_paths(100.0, 0.05, 0.01, 0.04, 2.0, 0.04, 0.3, -0.6, 0.5, 0.01, 200, 7,
                                           heston.HestonNumericalScheme.EULERLOG.value)[:, -1]
    out["heston_mc"] = [heston.Heston(0.04, 2.0, 0.04, 0.3, -0.6).value_mc(value_dt, opt, 100.0, 0.05, 0.01, 200, 7, 0.01)]
    out["gbm"] = ps.get_gbm_paths(50, 52, 1.0, 0.05, 100.0, 0.2, ps.FinGBMNumericalScheme.ANTITHETIC_SCHEME.value, 4)
    out["heston_sim"] = ps.get_heston_paths(50, 52, 1.0, 0.05, 100.0, 0.04, 2.0, 0.04, 0.3, -0.5,
                                            ps.FinHestonNumericalScheme.EULERLOG_SCHEME.value, 4)
    out["vasicek_sim"] = ps.get_vasicek_paths(50, 52, 1.0, 0.05, 0.05, 0.2, 0.01, ps.FinVasicekNumericalScheme.NORMAL.value, 4)
    out["cir_sim"] = ps.get_cir_paths(50, 52, 1.0, 0.05, 0.05, 0.2, 0.01, ps.CIRNumericalScheme.MILSTEIN_SCHEME.value, 4)
    out["cir_zcb"] = [cir.zero_price(0.05, 0.2, 0.05, 0.1, 2.0)] + [
        cir.zero_price_mc(0.05, 0.2, 0.05, 0.1, 2.0, 0.05, 200, 3, s.value)
        for s in cir.CIRNumericalScheme]
    out["cir_path"] = cir.rate_path_mc(0.05, 0.2, 0.05, 0.1, 2.0, 0.05, 3, cir.CIRNumericalScheme.MILSTEIN.value)
    out["vasicek"] = [vas.zero_price(0.05, 0.2, 0.05, 0.1, 2.0), vas.zero_price_mc(0.05, 0.2, 0.05, 0.1, 2.0, 0.05, 200, 3)]
    fwd0, taus, zetas = np.full(8, 0.04), np.full(8, 0.5), np.full(8, 0.2)
    alive = np.triu_indices(8)  # (time, forward): the forwards not yet fixed, all that is written (np.empty)
    out["lmm_nf"] = lmm_mc.lmm_simulate_fwds_nf(8, 20, fwd0, zetas, np.eye(8) * 0.5 + 0.5, taus, 5)[:, alive[0], alive[1]]
    out["lmm_1f"] = lmm_mc.lmm_simulate_fwds_1f(8, 20, 0, fwd0, zetas, taus, False, 5)[:, alive[0], alive[1]]
    out["lmm_1f_sobol"] = lmm_mc.lmm_simulate_fwds_1f(8, 16, 0, fwd0, zetas, taus, True, 5)[:, alive[0], alive[1]]
    fwds = lmm_mc.lmm_simulate_fwds_mf(8, 2, 20, 0, fwd0, np.full((2, 8), 0.1), taus, False, 5)
    out["lmm_mf"] = fwds[:, alive[0], alive[1]]
    out["lmm_swap"] = [lmm_mc.lmm_swap_pricer(0.04, 6, 20, fwd0, fwds, taus)]
    out["sobol"] = get_uniform_sobol(64, 3)
    out["sobol_gauss"] = get_gaussian_sobol(32, 2)
    asian = EquityAsianOption(Date(1, 3, 2020), expiry, 100.0, ot.EUROPEAN_CALL, 20)
    out["asian_mc"] = [asian.value_mc(value_dt, 100.0, dc, div, m, 500, 3, 0.0)]
    out["lhp"] = [lhp.tr_surv_prob_lhp(0.03, 0.07, 100, np.full(100, 0.95), np.full(100, 0.4), 0.3),
                  lhp.portfolio_cdf_lhp(0.05, 100, np.full(100, 0.05), np.full(100, 0.4), 0.3)]
    out["loss_binomial"] = loss.indep_loss_dbn_hetero_adj_binomial(10, np.linspace(0.01, 0.1, 10), np.full(10, 0.6))
    out["loss_gcd"] = loss.indep_loss_dbn_recursion_gcd(10, np.linspace(0.01, 0.1, 10), np.arange(1.0, 11.0))
    return out


def _pandas_ta_frame(n=300, seed=0):
    import pandas as pd
    rng = np.random.default_rng(seed)
    close = 100 * np.exp(np.cumsum(rng.normal(0, 0.01, n)))
    high, low = close * (1 + rng.uniform(0, 0.01, n)), close * (1 - rng.uniform(0, 0.01, n))
    return pd.DataFrame({"open": low + (high - low) * rng.uniform(size=n), "high": high, "low": low, "close": close,
                         "volume": rng.uniform(1e3, 1e4, n)}, index=pd.date_range("2020-01-01", periods=n, freq="D"))


def _pandas_ta_categories(*categories):
    """Every indicator of the categories on one OHLCV frame, with its
    defaults (mavp, which needs a periods series, left out)."""
    import warnings
    import pandas_ta_classic as ta
    df = _pandas_ta_frame()
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for category in categories:
            for name in ta.Category[category]:
                if name != "mavp":
                    out[name] = getattr(df.ta, name)().to_numpy(dtype=float, na_value=np.nan)
    return out


def pandas_ta_classic_overlap_trend():
    """Moving averages and trend indicators (Jurik, Hull, MESA adaptive,
    KAMA, SuperTrend, parabolic SAR, ... the recursive ones @njit loops)."""
    return _pandas_ta_categories("overlap", "trend")


def pandas_ta_classic_momentum_volatility():
    """Momentum, cycle, volatility, volume, statistics and performance
    indicators (RSX, Laguerre RSI, QQE, Fisher, TD sequential, Schaff trend
    cycle's rounded recursion, Even Better Sinewave, Holt-Winters channel)."""
    return _pandas_ta_categories("momentum", "cycles", "volatility", "volume", "statistics", "performance")


def pandas_ta_classic_candles():
    """Every candlestick pattern (cdl_pattern "all": 60-odd @njit pattern
    scans), Heikin-Ashi candles and the z-scored candles."""
    import pandas_ta_classic as ta  # noqa: F401 - registers the DataFrame accessor
    df = _pandas_ta_frame(seed=1)
    return {"patterns": df.ta.cdl_pattern(name="all").to_numpy(dtype=float), "ha": df.ta.ha().to_numpy(dtype=float),
            "z": df.ta.cdl_z().to_numpy(dtype=float, na_value=np.nan),
            "doji": df.ta.cdl_doji().to_numpy(dtype=float, na_value=np.nan)}
def _tls_light_curve(n=600, seed=0):
    """A light curve with transits every 4.3 days (0.5% deep) and white noise."""
    rng = np.random.default_rng(seed)
    t = np.sort(rng.uniform(0, 20, n))
    y = 1 + rng.normal(0, 1e-3, n)
    y[np.abs((t % 4.3) - 2.0) < 0.08] -= 0.005
    return t, y, np.full(n, 1e-3)


def tls_kernels():
    """transitleastsquares' compiled kernels called directly: fold and
    foldfast, the out-of-transit residuals, the lowest residuals of one
    duration, the edge-effect correction, T14, the running median, pink
    noise, interp1d (two guvectorize kernels) and the fused kernel's fold
    with its stable sort."""
    from transitleastsquares import core, core_fused, grid, helpers, interpolation, stats
    t, y, dy = _tls_light_curve()
    w, inv = 30, 1 / dy**2
    patched, patched_inv = np.concatenate([y, y[:w]]), np.concatenate([inv, inv[:w]])
    out = {"fold": core.fold(t, 4.3, 0.7), "foldfast": core.foldfast(t, 4.3)}
    out["ootr"] = ootr = core.out_of_transit_residuals(y, w, inv)
    out["lowest"] = np.array(core.lowest_residuals_in_this_duration(
        1 - helpers.running_mean(y, w), 1e-5, patched, w, np.linspace(1, 0.99, w) ** 2, patched_inv, 1.1, ootr,
        0.1, 3, 600.0, 0.01), dtype=float)
    out["edge"] = core.edge_effect_correction(y, patched, dy, patched_inv)
    out["T14"] = np.array([grid.T14(R_s=r, M_s=1.0, P=p) for r in (0.5, 1, 2) for p in (1.0, 10.0)])
    out["median"] = np.empty(len(y) - 31 + 1)
    helpers._running_median_odd(y, 31, out["median"])
    out["pink"] = stats._pink_noise(y, 25)
    x = np.linspace(0, 1, 50)
    out["interp"] = interpolation.interp1d(np.linspace(0.01, 0.99, 77), x)(np.sin(5 * x))
    for i, part in enumerate(core_fused.fold_sort(t, y, inv, 4.3)):
        out[f"fold_sort{i}"] = part
    return out


def tls_regular_cadence():
    """The fused search on a regular cadence with a gap (28.8 min, as
    Kepler's), where it folds by walking the cadence grid (three-gap steps,
    a certified walk, insertion repairs), and the original algorithm's."""
    import warnings
    from transitleastsquares import transitleastsquares
    rng = np.random.default_rng(3)
    t = np.arange(0, 27, 0.02)
    t = t[(t < 12) | (t > 13.5)]
    y = 1 + rng.normal(0, 1e-3, t.size)
    y[np.abs((t % 4.3) - 2.0) < 0.08] -= 0.005
    out = {}
    for backend in ("fused", "numba"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = transitleastsquares(t, y, verbose=False).power(period_min=2.0, period_max=8.0, oversampling_factor=2,
                                                              use_threads=1, show_progress_bar=False, backend=backend,
                                                              verbose=False)
        for key in ("periods", "power", "SDE", "period", "T0", "depth", "chi2"):
            out[f"{backend}_{key}"] = getattr(r, key)
    return out


def _hendrics_events(seed=0):
    """Photon arrival times over 2000 s: a flat background and a 1.23 Hz pulsation."""
    rng = np.random.default_rng(seed)
    pulsed = np.sort(rng.uniform(0, 2000, 3000)) // (1 / 1.23) * (1 / 1.23) + rng.normal(0, 0.02, 3000)
    return np.sort(np.concatenate([rng.uniform(0, 2000, 20000), pulsed]))


def hendrics_histograms():
    """HENDRICS' compiled histograms: bin edges and bins, 1-3 dimensions with
    and without weights, and the n-dimensional one (array strides, ravel)."""
    from hendrics import base
    rng = np.random.default_rng(1)
    x, y, z, w = rng.uniform(0, 1, 2000), rng.uniform(2, 3, 2000), rng.uniform(4, 5, 2000), rng.random(2000)
    r2, r3 = ((0.0, 1.0), (2.0, 3.0)), ((0.0, 1.0), (2.0, 3.0), (4.0, 5.0))
    edges = base.get_bin_edges(x, 13)
    return {"edges": edges, "bins": np.array([base.compute_bin(v, edges) for v in x[:50]]),
            "h1": base.hist1d_numba_seq(x, 17, (0.0, 1.0)), "h2": base.hist2d_numba_seq(x, y, (5, 7), r2),
            "h3": base.hist3d_numba_seq((x, y, z), (4, 5, 6), r3),
            "h1w": base.hist1d_numba_seq_weight(x, w, 17, (0.0, 1.0)),
            "h2w": base.hist2d_numba_seq_weight(x, y, w, (5, 7), r2),
            "h3w": base.hist3d_numba_seq_weight((x, y, z), w, (4, 5, 6), r3),
            "hnd2": base.histnd_numba_seq(np.array([x, y]), np.array([5, 5]), np.array(r2)),
            "hnd3": base.histnd_numba_seq(np.array([x, y, z]), np.array([5, 6, 7]), np.array(r3))}


def hendrics_statistics():
    """HENDRICS' Z^2_n statistics (on phases, on binned profiles with cached
    harmonics, all harmonics at once), the H test, pulse phases with fdot
    and fddot (parallel=True), profile shifts, its vectorized phase wrappers
    and the Poisson log-likelihood."""
    from hendrics import efsearch, ffa, ml_timing
    times = _hendrics_events()
    phase = 2 * np.pi * ((times * 1.23) % 1)
    profile = np.histogram((times * 1.23) % 1, bins=32)[0].astype(float)
    grid = np.linspace(-3, 3, 31)
    return {"z2": efsearch.z_n_fast(phase, np.ones_like(phase), n=2),
            "z4": efsearch.z_n_fast(phase[:999], np.sin(phase[:999]) + 1, n=4),
            "z3_cached": ffa.z_n_fast_cached(profile, n=3), "z_all": ffa.z_n_fast_cached_all(profile, nmax=8),
            "h_test": np.array(ffa.h_test(profile, nmax=8), dtype=float),
            "phase": efsearch._fast_phase(times, 1.23), "phase_fdot": efsearch._fast_phase_fdot(times, 1.23, 1e-7),
            "phase_fddot": efsearch._fast_phase_fddot(times, 1.23, 1e-7, 1e-12),
            "shifts": efsearch.calculate_shifts(16, 32, 4, 2), "mod": efsearch.mod(np.arange(-5.0, 5.0), 3),
            "roll": ffa.roll(np.arange(10.0), 3), "sum_arrays": ffa.sum_arrays(np.arange(5.0), np.arange(5.0)),
            "sum_arrays_int": ffa.sum_arrays(np.arange(5), np.arange(5)),
            "zero_to_one": ml_timing.phases_from_zero_to_one(grid),
            "zero_to_one32": ml_timing.phases_from_zero_to_one(grid.astype(np.float32)),
            "around_zero": ml_timing.phases_around_zero(grid), "around_zero_int": ml_timing.phases_around_zero(np.arange(-3, 4)),
            "loglike": ml_timing.poisson_loglike(np.linspace(1, 5, 20), np.arange(20) % 6)}


def hendrics_searches():
    """HENDRICS' pulsation searches: the quasi-fast folding search (shifted
    and summed sub-profiles, prange), the fast folding algorithm and its
    search, the transient search, the sub-profile Z^2 search and the epoch
    folding and Z^2 searches of event lists."""
    import warnings
    from hendrics import efsearch, ffa
    from stingray.events import EventList
    from stingray.pulse.search import epoch_folding_search, z_n_search
    times = _hendrics_events()
    rng = np.random.default_rng(2)
    out = dict(zip(("qffa_f", "qffa_fdot", "qffa_stats"),
                   efsearch.search_with_qffa(times, 1.2, 1.26, nbin=16, n=2, npfact=2, oversample=4, silent=True)))
    counts = np.histogram(times, bins=np.arange(0, 2000, 0.05))[0].astype(float)
    out["ffa_periods"], out["ffa_stats"] = ffa.ffa(counts[:5000], 16, z_n_n=2)
    out["ffa_search_f"], out["ffa_search_stats"] = efsearch.search_with_ffa(times, 1.2, 1.26, nbin=16, n=2)[:2]
    out["ffa_bins_p"], out["ffa_bins_stats"] = ffa.ffa_search(counts[:4000], 0.05, 0.7, 0.9)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = efsearch.transient_search(times, 1.2, 1.26, nbin=16, n=1, oversample=2)
        events = EventList(times, gti=np.array([[0.0, 2000.0]]))
        out["ef_f"], out["ef_stats"] = efsearch.folding_search(events, 1.2, 1.26, oversample=2,
                                                               func=epoch_folding_search, nbin=16)[:2]
        out["z2_f"], out["z2_stats"] = efsearch.folding_search(events, 1.2, 1.26, oversample=2, func=z_n_search,
                                                               nbin=16)[:2]
    out["transient_freqs"], out["transient_times"], out["transient_stats"] = r.freqs, r.times, r.stats
    profiles = rng.poisson(5, (16, 32)).astype(float)
    lin, quad = np.outer(np.linspace(-2, 2, 9), np.ones(5)), np.outer(np.ones(9), np.linspace(-1, 1, 5))
    out["fast_step"] = efsearch._fast_step(profiles, lin, quad, np.arange(9), np.arange(5), 32, n=2)
    out["sub_n"], out["sub_z"] = efsearch._average_and_z_sub_search(profiles, n=2)
    return out


def hendrics_long_double():
    """Event times in float128, as X-ray timing keeps them: stingray's
    checks (is_sorted, check_isallfinite) try the compiled function, catch
    its TypingError and convert; HENDRICS' folding searches of such events."""
    import warnings
    from hendrics import efsearch
    from stingray.events import EventList
    from stingray.pulse.search import epoch_folding_search
    from stingray.utils import check_isallfinite, is_sorted
    times = _hendrics_events().astype(np.longdouble)
    out = {"sorted": is_sorted(times), "unsorted": is_sorted(times[::-1]), "finite": check_isallfinite(times)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        events = EventList(times, gti=np.array([[0.0, 2000.0]], dtype=np.longdouble))
        out["ef_f"], out["ef_stats"] = efsearch.folding_search(events, 1.2, 1.26, oversample=2,
                                                               func=epoch_folding_search, nbin=16)[:2]
    return {k: np.asarray(v, dtype=np.float64) for k, v in out.items()}


def _pytransit_models(models):
    """Each model's light curve for one parameter set (circular and
    eccentric) and for two parameter sets at once."""
    times = np.linspace(-0.2, 0.2, 500)
    out = {}
    for name, make, ldc in models:
        tm = make()
        tm.set_data(times)
        kw = {"ldc": np.array(ldc)} if ldc else {}
        many = {"ldc": np.array([ldc, ldc])} if ldc else {}
        out[name] = tm.evaluate(k=0.1, **kw, t0=0.0, p=1.0, a=3.0, i=0.5 * np.pi - 0.05)
        out[name + "_eccentric"] = tm.evaluate(k=0.1, **kw, t0=0.0, p=1.0, a=3.0, i=0.5 * np.pi - 0.05, e=0.1, w=0.5)
        out[name + "_many"] = tm.evaluate(k=np.array([0.1, 0.12]), **many, t0=np.array([0.0, 0.01]),
                                          p=np.array([1.0, 1.1]), a=np.array([3.0, 3.5]), i=np.array([1.52, 1.55]))
    return out


def pytransit_models():
    """PyTransit's transit models: Mandel-Agol quadratic (direct and
    interpolated), uniform, QPower2, chromosphere, the general model, and
    RoadRunner with quadratic, power-2 and nonlinear limb darkening."""
    import pytransit as pt
    return _pytransit_models([
        ("quadratic", pt.QuadraticModel, [0.3, 0.1]),
        ("quadratic_interpolated", lambda: pt.QuadraticModel(interpolate=True), [0.3, 0.1]),
        ("uniform", pt.UniformModel, []), ("qpower2", pt.QPower2Model, [0.3, 0.1]),
        ("chromosphere", pt.ChromosphereModel, []), ("general", pt.GeneralModel, [0.3, 0.1]),
        ("rr_quadratic", lambda: pt.RoadRunnerModel("quadratic"), [0.3, 0.1]),
        ("rr_power2", lambda: pt.RoadRunnerModel("power-2"), [0.6, 0.5]),
        ("rr_nonlinear", lambda: pt.RoadRunnerModel("nonlinear"), [0.3, 0.1, 0.1, -0.05])])


def pytransit_orbits():
    """PyTransit's orbits: eccentric and true anomalies by Newton's method,
    iteration and series, projected distances (serial and prange), folding,
    durations, eclipse phases, inclinations; and the secondary eclipse model."""
    import pytransit as pt
    from pytransit.orbits import orbits_py as o
    times = np.linspace(-0.2, 0.2, 500)
    pv = np.array([0.0, 1.0, 3.0, 0.5 * np.pi - 0.05, 0.1, 0.5])
    i = 0.5 * np.pi - 0.05
    tm = pt.EclipseModel()
    tm.set_data(times + 0.5)
    return {"ea_newton": o.ea_newton_v(times, 0.0, 1.0, 0.1, 0.5), "ea_iter": o.ea_iter_v(times, 0.0, 1.0, 0.1, 0.5),
            "ta_newton": o.ta_newton_v(times, 0.0, 1.0, 0.1, 0.5), "ta_iter": o.ta_iter_v(times, 0.0, 1.0, 0.1, 0.5),
            "ta_ps3": o.ta_ps3(times, 0.0, 1.0, 0.1, 0.5), "ta_ps5": o.ta_ps5(times, 0.0, 1.0, 0.1, 0.5),
            "z_newton": o.z_newton_v(times, pv), "z_iter": o.z_iter_v(times, pv), "z_ps5": o.z_ps5(times, pv),
            "z_newton_p": o.z_newton_p(times, pv), "z_iter_p": o.z_iter_p(times, pv),
            "z_newton_mp": o.z_newton_mp(times, np.array([pv, pv * 1.01])), "fold": o.fold(times, 0.3, 0.01, 0.5),
            "duration": o.duration_eccentric(1.0, 0.1, 3.0, i, 0.1, 0.5, 1),
            "eclipse_phase": o.eclipse_phase(1.0, i, 0.1, 0.5), "i_from_ba": o.i_from_ba(0.3, 3.0),
            "i_from_baew": o.i_from_baew(0.3, 3.0, 0.1, 0.5), "as_from_rhop": o.as_from_rhop(1.4, 3.0),
            "d_from_pkaiews": o.d_from_pkaiews(1.0, 0.1, 3.0, i, 0.1, 0.5, 1),
            "eclipse": tm.evaluate(k=0.1, t0=0.0, p=1.0, a=3.0, i=i, fr=1e-3)}


def pytransit_more():
    """More of PyTransit: RoadRunner over two passbands with supersampling,
    the oblate planet model, its phase curves (parallel=True), the limb
    darkening laws, its likelihoods, baselines, contamination, binning
    and differential evolution's steps (np.random seeded in compiled code)."""
    import numba
    import pytransit as pt
    from pytransit.contamination import contamination
    from pytransit.lpf import lpf
    from pytransit.lpf.baselines import legendrebaseline, linearbaseline
    from pytransit.lpf.loglikelihood import clloglikelihood, logisticloglikelihood, wnloglikelihood
    from pytransit.models.numba import ldmodels, phasecurves
    from pytransit.utils import de, downsample
    from pytransit.utils import phasecurves as planck
    times = np.linspace(-0.2, 0.2, 300)
    ldc = np.array([[0.3, 0.1], [0.2, 0.15]])
    out = {}
    tm = pt.RoadRunnerModel("quadratic")
    tm.set_data(np.concatenate([times, times]), lcids=np.repeat([0, 1], times.size), pbids=[0, 1], nsamples=[1, 5],
                exptimes=[0.0, 0.02])
    out["rr_passbands"] = tm.evaluate(k=np.array([0.1, 0.11]), ldc=ldc, t0=0.0, p=1.0, a=3.0, i=1.52)
    out["rr_passbands_eccentric"] = tm.evaluate(k=np.array([0.1, 0.11]), ldc=ldc, t0=0.0, p=1.0, a=3.0, i=1.52, e=0.2,
                                                w=1.0)
    tm = pt.OblatePlanetModel()
    tm.set_data(times)
    out["oblate"] = tm.evaluate(k=0.1, f=0.2, alpha=0.3, ldc=np.array([0.3, 0.1]), t0=0.0, p=1.0, a=3.0, i=1.52)
    x = np.linspace(0, 2, 200)
    out["ellipsoidal"] = phasecurves.ellipsoidal_variation(1e-4, 0.0, 1.0, 0.0, True, x)
    out["doppler"] = phasecurves.doppler_boosting(1e-4, 0.0, 1.0, True, x)
    out["ev_and_db"] = phasecurves.ev_and_db(1e-4, 2e-5, 0.0, 1.0, 0.0, True, x)
    out["emission"] = phasecurves.emission(0.1, 0.1, 0.9, 0.1, 0.0, 1.0, True, x)
    out["lambert"] = phasecurves.lambert_phase_function(3.0, 0.1, 0.3, 0.0, 1.0, True, x)
    mu = np.linspace(0.01, 1, 50)
    for name in ("ld_linear", "ld_quadratic", "ld_quadratic_tri", "ld_nonlinear", "ld_general", "ld_square_root",
                 "ld_logarithmic", "ld_exponential", "ld_power_2", "ld_power_2_pm", "ld_uniform"):
        out[name] = getattr(ldmodels, name)(mu, np.array([0.3, 0.1, 0.05, 0.02]) if name == "ld_nonlinear"
                                            else np.array([0.3, 0.1]))
    rng = np.random.default_rng(5)
    t = np.sort(rng.uniform(0, 10, 300))
    v, v2 = rng.normal(size=300), rng.normal(size=(300, 3))
    out["binned"] = np.array(downsample.downsample_time_1d(t, v, 0.5))
    out["binned_unsorted"] = np.array(downsample.downsample_time_1d(t[::-1].copy(), v, 0.5, 1.0, 9.0, False))
    for i, part in enumerate(downsample.downsample_time_2d(t, v2, 0.5)):
        out[f"binned_2d{i}"] = part
    o, m, e = 1 + rng.normal(0, 1e-3, 300), np.ones((4, 300)), np.full((4, 2), 1e-3)
    lcids, slices = np.repeat([0, 1], 150), np.array([[0, 150], [150, 300]])
    out["lnlike"] = lpf.lnlike_normal(o, m[0], np.full(300, 1e-3))
    out["lnlike_s"] = lpf.lnlike_normal_s(o, m[0], 1e-3)
    out["lnlike_v"] = lpf.lnlike_normal_v(o, m, e, np.array([0, 1]), lcids)
    out["map_pv"] = lpf.map_pv(np.array([[0.0, 1.0, 1.4, 0.3, 0.01], [0.1, 2.0, 1.2, 0.1, 0.02]]))
    out["map_ldc"] = lpf.map_ldc(np.array([[0.3, 0.2, 0.4, 0.1]]))
    out["logistic"] = logisticloglikelihood.lnlike_logistic(o, m, e, slices, np.array([0, 1]))
    out["white_noise"] = wnloglikelihood.lnlike_normal(o, m, e, slices, np.array([0, 1]))
    out["psum2d"] = clloglikelihood.psum2d(rng.normal(size=(3, 37)))
    out["legendre"] = legendrebaseline.lbaseline(np.linspace(-1, 1, 300), lcids, rng.normal(size=(2, 7)),
                                                 np.array([2, 3]), np.array([0, 3]))
    out["linear"] = linearbaseline.linear_model(rng.normal(size=(2, 6)), lcids, np.array([0, 3]), np.array([2, 2]),
                                                rng.normal(size=600))
    out["contaminated"] = contamination.contaminate_light_curve(o, np.array([0.1, 0.2]), lcids)
    out["planck"] = planck.summed_planck(np.array([3000.0, 5000.0]), np.linspace(4e-7, 9e-7, 50), np.ones(50))

    @numba.njit
    def seed(s):
        np.random.seed(s)

    seed(3)
    pop = rng.normal(size=(20, 4))
    out["de_population"] = np.zeros_like(pop)
    de.evolve_population(pop, out["de_population"], 0.5, 0.9)
    out["de_vector"] = de.evolve_vector(2, pop, 0.5, 0.9)
    return out


def _xugrid_disk(seed, nan_fraction=0.0):
    """xugrid's synthetic triangulated disk with random face values (some NaN)."""
    from xugrid.data.synthetic import disk
    uda = disk()["face_z"]
    rng = np.random.default_rng(seed)
    data = rng.random(uda.shape)
    data[rng.random(uda.shape) < nan_fraction] = np.nan
    return uda.copy(data=data)


def xugrid_regrid():
    """xugrid's regridders from its unstructured disk to a structured grid:
    the overlap reductions (closures compiled per method, parallel=True,
    over CSR weights: mean, geometric mean, mode, median, max_overlap, a
    percentile), the relative overlap and the centroid locator."""
    import xarray as xr
    import xugrid as xu
    uda = _xugrid_disk(0)
    xmin, ymin, xmax, ymax = uda.ugrid.grid.bounds
    target = xr.DataArray(np.zeros((20, 24)), dims=("y", "x"),
                          coords={"y": np.linspace(ymax - 0.5, ymin + 0.5, 20), "x": np.linspace(xmin + 0.5, xmax - 0.5, 24)})
    out = {}
    for method in ("mean", "geometric_mean", "mode", "median", "max_overlap", "p25"):
        out["overlap_" + method] = xu.OverlapRegridder(uda, target, method=method).regrid(uda).values
    out["relative"] = xu.RelativeOverlapRegridder(uda, target, method="first_order_conservative").regrid(uda).values
    out["centroid"] = xu.CentroidLocatorRegridder(uda, target).regrid(uda).values
    return out


def xugrid_interpolate():
    """xugrid's interpolation: barycentric onto a structured mesh, and NaN
    filling by its Laplace solve (an ILU0-preconditioned conjugate gradient
    whose helpers return CSR rows' ranges and slices) and by nearest
    neighbour."""
    import xugrid as xu
    uda = _xugrid_disk(1)
    target = xu.Ugrid2d.from_structured_intervals1d(np.linspace(0.5, 9.5, 13), np.linspace(0.5, 9.5, 11))
    holes = _xugrid_disk(2, nan_fraction=0.3)
    return {"barycentric": xu.BarycentricInterpolator(uda, target).regrid(uda).values,
            "laplace": holes.ugrid.laplace_interpolate().values, "nearest": holes.ugrid.interpolate_na().values}


def xugrid_topology():
    """xugrid's topology helpers: snapping nodes together, a 1-d network's
    depth-first topological sort and vertex contraction, and the overlap
    regridding of one structured grid onto another (1-d overlaps)."""
    import xarray as xr
    import xugrid as xu
    rng = np.random.default_rng(3)
    x, y = rng.uniform(0, 10, 400), rng.uniform(0, 10, 400)
    out = dict(zip(("snap_x", "snap_y", "snap_inverse"), xu.snap_nodes(x, y, 0.3)))
    node_x = np.arange(30.0)
    edges = np.array([[i, i + 1] for i in range(29)] + [[3, 12], [5, 20]])
    network = xu.Ugrid1d(node_x, np.sin(node_x), -1, edges)
    out["topological_sort"] = network.topological_sort_by_dfs()
    out["contracted"] = network.contract_vertices(np.array([0, 4, 9, 15, 22, 29])).edge_node_connectivity
    src = xr.DataArray(rng.random((12, 15)), dims=("y", "x"),
                       coords={"y": np.linspace(9.6, 0.4, 12), "x": np.linspace(0.33, 9.67, 15)})
    dst = xr.DataArray(np.zeros((7, 9)), dims=("y", "x"),
                       coords={"y": np.linspace(9.0, 1.0, 7), "x": np.linspace(0.5, 9.5, 9)})
    out["structured_mean"] = xu.OverlapRegridder(src, dst, method="mean").regrid(src).values
    return out


def pyproximal_simplex():
    """pyproximal's Simplex proximal operator with engine="numba": its
    bisection over one vector, and over the rows or columns of a 2-d one."""
    import pyproximal
    rng = np.random.default_rng(0)
    x, X = rng.standard_normal(200), rng.standard_normal((8, 50)).ravel()
    flat = pyproximal.Simplex(200, radius=3.0, engine="numba")
    return {"prox": flat.prox(x, 0.5), "value": np.array(flat(x)),
            "prox_axis0": pyproximal.Simplex(400, radius=1.0, dims=(8, 50), axis=0, engine="numba").prox(X, 1.0),
            "prox_axis1": pyproximal.Simplex(400, radius=2.0, dims=(8, 50), axis=1, engine="numba").prox(X, 1.0)}


def pyproximal_segment():
    """pyproximal's image segmentation (a primal-dual solver whose simplex
    projection is the numba engine's) of a noisy three-class image."""
    from pyproximal.optimization.segmentation import Segment
    rng = np.random.default_rng(1)
    img = np.zeros((24, 30))
    img[6:18, 5:15], img[:, 20:] = 1.0, 2.0
    img += 0.3 * rng.standard_normal(img.shape)
    x, classes = Segment(img, np.array([0.0, 1.0, 2.0]), 1.0, 0.8, tau=1.0, niter=20,
                         kwargs_simplex={"engine": "numba"})
    return {"probabilities": x, "classes": classes}


_SARKAS_YUKAWA = """
Particles:
    - Species:
        name: C
        number_density: 1.13666931822e+23
        mass: 2.0089e-23
        num: 500
        Z: 1.976599
        temperature: 5.0e+03
Potential:
    type: Yukawa
    method: PP
    rc: 6.0e-8
    screening_length_type: thomas-fermi
    electron_temperature: 5.0e+03
Integrator:
    type: Verlet
    dt: 5.0e-17
Thermostat:
    type: Berendsen
    relaxation_timestep: 5
    berendsen_tau: 2.0
Parameters:
    rand_seed: 314159265
    units: cgs
    boundary_conditions: periodic
    load_method: random_no_reject
    equilibration_steps: 20
    production_steps: 20
    eq_dump_step: 10
    prod_dump_step: 10
IO:
    verbose: no
    job_dir: job
    data_to_save: ["id", "names", "pos", "vel", "acc", "rdf_hist"]
Observables:
  - Thermodynamics:
      phase: production
  - RadialDistributionFunction:
      no_bins: 50
"""


def sarkas_yukawa_md():
    """A Sarkas molecular dynamics run (in a temporary folder) of a Yukawa
    one-component plasma, 500 particles: the linked-cell pair forces and
    radial distribution histogram, velocity Verlet with periodic
    boundaries, the Berendsen thermostat and drift removal, 20
    equilibration and 20 production steps from a seeded start."""
    import os
    import shutil
    import tempfile
    import warnings
    from sarkas.processes import Simulation
    here, folder = os.getcwd(), tempfile.mkdtemp(prefix="sarkas-")
    try:
        os.chdir(folder)
        with open("yukawa.yaml", "w") as f:
            f.write(_SARKAS_YUKAWA)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sim = Simulation("yukawa.yaml")
            sim.setup(read_yaml=True)
            sim.run()
        p = sim.particles
        return {"pos": p.pos, "vel": p.vel, "acc": p.acc, "rdf_hist": p.rdf_hist,
                "potential_energy": np.array(p.potential_energy)}
    finally:
        os.chdir(here)
        shutil.rmtree(folder, ignore_errors=True)
def _orix_euler(n, seed):
    return np.random.default_rng(seed).uniform(0, 1, (n, 3)) * np.array([2 * np.pi, np.pi, 2 * np.pi])


def orix_conversions():
    """Rotations from Euler angles to every other representation and back
    (orix's compiled conversions, with their prange loops), products and
    inverses (its gufuncs)."""
    from orix.quaternion import Rotation
    rot = Rotation.from_euler(_orix_euler(500, 0))
    return {"quaternions": rot.data, "euler": rot.to_euler(), "matrix": rot.to_matrix(),
            "axes": rot.to_axes_angles().data, "homochoric": rot.to_homochoric().data,
            "rodrigues": rot.to_rodrigues().data, "from_matrix": Rotation.from_matrix(rot.to_matrix()).data,
            "product": (rot * rot[::-1]).data, "inverse": (~rot).data}


def orix_misorientation_angles():
    """Symmetry-reduced angles between cubic orientations and the distance
    matrix of misorientations (parallel prange kernels)."""
    from orix.quaternion import Misorientation, Orientation, Rotation
    from orix.quaternion.symmetry import Oh
    eu = _orix_euler(350, 1)
    first, second = Orientation.from_euler(eu[:200], Oh), Orientation.from_euler(eu[200:], Oh)
    mori = Misorientation(Rotation.from_euler(eu[:120]).data, symmetry=(Oh, Oh))
    return {"outer": first.angle_with_outer(second), "self": first.angle_with_outer(first),
            "distance": mori.get_distance_matrix(lazy=False)}


def orix_sampling():
    """Cubochoric sampling of rotation space and of a point group's fundamental zone."""
    from orix.quaternion.symmetry import D6h
    from orix.sampling import get_sample_fundamental
    from orix.sampling._cubochoric_sampling import cubochoric_sampling
    return {"cubochoric": cubochoric_sampling(resolution=8).data,
            "fundamental": get_sample_fundamental(resolution=6, point_group=D6h).data}


def _kikuchipy_patterns():
    import kikuchipy as kp
    s = kp.data.nickel_ebsd_small()
    s.remove_static_background(show_progressbar=False)
    s.remove_dynamic_background(show_progressbar=False)
    return s


def kikuchipy_processing():
    """EBSD pattern processing of the packaged nickel patterns: background
    removal, image quality, intensity rescaling and normalisation."""
    s = _kikuchipy_patterns()
    rescaled, normalised = s.deepcopy(), s.deepcopy()
    rescaled.rescale_intensity(relative=True, show_progressbar=False)
    normalised.change_dtype("float32")
    normalised.normalize_intensity(show_progressbar=False)
    return {"patterns": s.data, "image_quality": s.get_image_quality(show_progressbar=False),
            "rescaled": rescaled.data, "normalised": normalised.data}


def kikuchipy_neighbour_average():
    """Patterns averaged with their neighbours and rescaled to uint8."""
    s = _kikuchipy_patterns()
    s.average_neighbour_patterns(show_progressbar=False)
    return {"averaged": s.data}


def kikuchipy_simulate_index():
    """Patterns projected from the packaged master pattern onto a detector,
    dictionary indexing of the nickel patterns against them, and a
    geometrical simulation's band and zone-axis detector coordinates."""
    import kikuchipy as kp
    from diffpy.structure import Atom, Lattice, Structure
    from diffsims.crystallography import ReciprocalLatticeVector
    from orix.crystal_map import Phase
    from orix.quaternion import Rotation
    s = _kikuchipy_patterns()
    mp = kp.data.nickel_ebsd_master_pattern_small(projection="lambert", energy=20)
    det = kp.detectors.EBSDDetector(shape=s.axes_manager.signal_shape[::-1], pc=(0.421, 0.7794, 0.5049),
                                    sample_tilt=70, convention="tsl")
    rot = Rotation.from_euler(_orix_euler(30, 5))
    sim = mp.get_patterns(rot, det, compute=True, show_progressbar=False)
    xmap = s.dictionary_indexing(sim, keep_n=3)
    phase = Phase(space_group=225, structure=Structure(lattice=Lattice(3.52, 3.52, 3.52, 90, 90, 90),
                                                        atoms=[Atom("Ni", [0, 0, 0])]))
    ref = ReciprocalLatticeVector(phase, hkl=[[1, 1, 1], [2, 0, 0], [2, 2, 0], [3, 1, 1]]).symmetrise()
    geo = kp.simulations.KikuchiPatternSimulator(ref).on_detector(det, rot[:2])
    return {"simulated": sim.data, "scores": xmap.scores, "indices": xmap.simulation_indices,
            "lines": np.nan_to_num(geo._lines_detector_coordinates),
            "zone_axes": np.nan_to_num(geo._zone_axes_detector_coordinates)}
def _bruker_d(folder, seed, frames=12, scans=60, tofs=4000, dia=False):
    """A small Bruker timsTOF .d folder as alphatims reads one: analysis.tdf
    (SQLite: global metadata, frames, ddaPASEF precursors or diaPASEF
    windows) and analysis.tdf_bin (each frame zstd-compressed, compression
    type 2: per scan twice its peak count, then tof deltas and intensities,
    the uint32 words stored byte plane by byte plane); every third frame MS1."""
    import os
    import sqlite3
    import pyzstd
    rng = np.random.default_rng(seed)
    os.makedirs(folder)
    rows, blob, fragment_frames = [], bytearray(), []
    for frame in range(1, frames + 1):
        counts = rng.integers(0, 6, scans)
        counts[-1] = max(counts[-1], 1)
        words = [scans] + [2 * int(c) for c in counts[:-1]]
        for c in counts:
            tof = np.sort(rng.choice(tofs - 2, int(c), replace=False)) + 1
            deltas = np.diff(tof, prepend=0)
            deltas[:1] += 1  # a scan's first tof is stored plus one
            for d in deltas:
                words += [int(d), int(rng.integers(10, 500))]
        planes = np.array(words, dtype=np.uint32).view(np.uint8).reshape(-1, 4).T.tobytes()
        packed = pyzstd.compress(planes)
        ms2 = frame % 3 != 1
        rows.append((frame, frame + 0.1, "+", 9 if dia else 8, (9 if dia else 8) if ms2 else 0, len(blob), 500, 10000,
                     scans, int(counts.sum()), 1, 0.0, 0.0, 1, 1, 100.0 + frame % 2, 100.0))
        blob += (len(packed) + 8).to_bytes(4, "little") + scans.to_bytes(4, "little") + packed
        if ms2:
            fragment_frames.append(frame)
    with open(os.path.join(folder, "analysis.tdf_bin"), "wb") as f:
        f.write(bytes(blob))
    db = sqlite3.connect(os.path.join(folder, "analysis.tdf"))
    db.execute("CREATE TABLE GlobalMetadata (Key TEXT, Value TEXT)")
    db.executemany("INSERT INTO GlobalMetadata VALUES (?, ?)", {
        "TimsCompressionType": "2", "MaxNumPeaksPerScan": "100", "DigitizerNumSamples": str(tofs),
        "OneOverK0AcqRangeLower": "0.6", "OneOverK0AcqRangeUpper": "1.6", "MzAcqRangeLower": "100",
        "MzAcqRangeUpper": "1700", "AcquisitionSoftware": "Bruker timsControl"}.items())
    db.execute("CREATE TABLE Frames (Id INTEGER, Time REAL, Polarity TEXT, ScanMode INTEGER, MsMsType INTEGER, "
               "TimsId INTEGER, MaxIntensity INTEGER, SummedIntensities INTEGER, NumScans INTEGER, "
               "NumPeaks INTEGER, MzCalibration INTEGER, T1 REAL, T2 REAL, TimsCalibration INTEGER, "
               "PropertyGroup INTEGER, AccumulationTime REAL, RampTime REAL)")
    db.executemany("INSERT INTO Frames VALUES (" + ",".join("?" * 17) + ")", rows)
    if dia:
        db.execute("CREATE TABLE DiaFrameMsMsInfo (Frame INTEGER, WindowGroup INTEGER)")
        db.execute("CREATE TABLE DiaFrameMsMsWindows (WindowGroup INTEGER, ScanNumBegin INTEGER, "
                   "ScanNumEnd INTEGER, IsolationMz REAL, IsolationWidth REAL, CollisionEnergy REAL)")
        db.executemany("INSERT INTO DiaFrameMsMsInfo VALUES (?, ?)", [(f, 1 + (f % 3 == 0)) for f in fragment_frames])
        db.executemany("INSERT INTO DiaFrameMsMsWindows VALUES (?, ?, ?, ?, ?, ?)",
                       [(g, b, b + 20, 400.0 + 50 * g + b, 25.0, 30.0) for g in (1, 2) for b in (5, 30)])
    else:
        db.execute("CREATE TABLE PasefFrameMsMsInfo (Frame INTEGER, ScanNumBegin INTEGER, ScanNumEnd INTEGER, "
                   "IsolationMz REAL, IsolationWidth REAL, CollisionEnergy REAL, Precursor INTEGER)")
        db.execute("CREATE TABLE Precursors (Id INTEGER, LargestPeakMz REAL, AverageMz REAL, MonoisotopicMz REAL, "
                   "Charge INTEGER, ScanNumber REAL, Intensity REAL, Parent INTEGER)")
        pasef = [(f, b, b + 15) for f in fragment_frames for b in (3, 25)]
        db.executemany("INSERT INTO PasefFrameMsMsInfo VALUES (?, ?, ?, ?, 2.0, 25.0, ?)",
                       [(f, b, e, 300.0 + 7 * p, p) for p, (f, b, e) in enumerate(pasef, 1)])
        db.executemany("INSERT INTO Precursors VALUES (?, ?, ?, ?, 2, ?, ?, ?)",
                       [(p, 300.0 + 7 * p, 300.1 + 7 * p, 299.9 + 7 * p, b + 7.5, 1000.0 + p, (f - 1) // 3 * 3 + 1)
                        for p, (f, b, e) in enumerate(pasef, 1)])
    db.commit()
    db.close()


def _alphatims_open(name, seed, **kw):
    import os
    import tempfile
    import alphatims.bruker
    import alphatims.utils
    alphatims.utils.set_threads(2)
    alphatims.utils.set_progress_callback(None)
    folder = tempfile.mkdtemp()
    _bruker_d(os.path.join(folder, name + ".d"), seed, **kw)
    return folder, alphatims.bruker.TimsTOF(os.path.join(folder, name + ".d"), mmap_detector_events=False)


def _alphatims_columns(out, prefix, frame):
    for column in frame.columns:
        out[prefix + column] = frame[column].values


def alphatims_dda():
    """A ddaPASEF run read from its .d folder (frames decompressed and
    parsed on threads), sliced by indices, values, dicts and arrays of
    slices into raw indices and data frames; conversions both ways,
    intensities binned along one and two axes, a strike count estimate,
    and MS2 spectra indexed (centroided and trimmed on threads)."""
    _, data = _alphatims_open("dda", 0)
    out = {"tof": data.tof_indices.astype(np.int64), "intensity": data.intensity_values.astype(np.int64),
           "push_indptr": data.push_indptr, "quad_indptr": data.quad_indptr, "quad_mz": data.quad_mz_values}
    raw = data[2:9, 10:50, 0, 200.0:1200.0, "raw"]
    out["raw"] = raw
    out["raw_ms2"] = data[:, :, 1:, :, 50:400, "raw"]
    out["raw_dict"] = data[{"frame_indices": slice(1, 12), "precursor_indices": [1, 3, 5, 8],
                            "intensity_values": slice(100, 450)}, "raw"]
    out["raw_slices"] = data[np.array([[1, 4, 1], [6, 11, 2]]), np.array([[5, 20, 1], [30, 55, 1]]), "raw"]
    out["raw_quad"] = data[:, :, 320.0:400.0, "raw"]
    out["raw_rt_mobility"] = data[3.0:9.5, 0.8:1.3, "raw"]
    _alphatims_columns(out, "frame_", data[:, :, 1:5])
    values = data.convert_from_indices(raw, return_mz_values=True, return_rt_values=True,
                                       return_mobility_values=True, return_quad_mz_values=True)
    out.update({"values_" + k: v for k, v in values.items()})
    out["tof_of_mz"] = data.convert_to_indices(np.array([150.0, 500.5, 999.0]), return_tof_indices=True)
    out["bins_rt_mobility"] = data.bin_intensities(raw, ["rt_values", "mobility_values"])
    out["bins_mz"] = data.bin_intensities(out["raw_ms2"], ["mz_values"])
    out["strikes"] = data.estimate_strike_count(np.array([[1, 9, 1]]), np.array([[0, 40, 1]]), np.array([[0, 1, 1]]),
                                                np.array([[0, 3000, 1]]), np.array([[-1.0, -1.0]]))
    for window, keep in ((0, -1), (2, 3)):
        for i, part in enumerate(data.index_precursors(centroiding_window=window, keep_n_most_abundant_peaks=keep)):
            out[f"spectra_{window}_{i}"] = part
    return out


def alphatims_dia():
    """A diaPASEF run: its cycle of quadrupole windows, slices by window,
    by quadrupole m/z (the cycle's mask, valid windows, push indices), by
    precursor and retention time; a binned chromatogram; DiaData's view."""
    import alphatims.dia_data
    _, data = _alphatims_open("dia", 1, frames=15, dia=True)
    out = {"cycle": data.cycle, "quad_indptr": data.quad_indptr, "tof": data.tof_indices.astype(np.int64)}
    out["raw_window"] = data[:, :, 1, "raw"]
    out["raw_quad"] = data[:, :, 480.0:520.0, "raw"]
    out["raw_quad_tof"] = data[:, 5:45, 440.0:560.0, 300.0:1500.0, "raw"]
    out["raw_dict"] = data[{"precursor_indices": slice(1, 3), "rt_values": slice(2.0, 12.5)}, "raw"]
    _alphatims_columns(out, "frame_", data[:, 10:40, 450.0:560.0])
    out["chromatogram"] = data.bin_intensities(out["raw_quad"], ["rt_values"])
    out["dia_data"] = alphatims.dia_data.DiaData(dia_data=data)[:, :, 1, "raw"]
    return out


def alphatims_hdf():
    """A run read with its detector events memory-mapped, saved as HDF and
    read back from it, then sliced."""
    import os
    import alphatims.bruker
    folder, _ = _alphatims_open("hdf", 2, frames=9)
    data = alphatims.bruker.TimsTOF(os.path.join(folder, "hdf.d"))
    data.save_as_hdf(directory=folder, file_name="hdf.hdf", overwrite=True)
    again = alphatims.bruker.TimsTOF(os.path.join(folder, "hdf.hdf"))
    out = {"raw": again[1:8, :, 0, 300.0:900.0, "raw"], "intensity": again.intensity_values.astype(np.int64),
           "mz": again.mz_values, "same_tofs": np.array_equal(data.tof_indices, again.tof_indices)}
    _alphatims_columns(out, "frame_", again[:, 20:50, :, 100.0:1000.0])
    return out


def _quaternions(seed, shape, normalize=True):
    import quaternionic
    q = quaternionic.array(np.random.default_rng(seed).standard_normal(shape + (4,)))
    return q.normalized if normalize else q


def quaternionic_algebra():
    """Quaternion arithmetic through quaternionic's guvectorized ufuncs:
    products, quotients, sums and scalar mixes (broadcast too), exp, log,
    sqrt, powers, angles, inverses, norms, comparisons, vector rotation."""
    import quaternionic
    p, q, r = _quaternions(0, (50,), False), _quaternions(1, (50,), False), _quaternions(2, (3, 7))
    return {"mul": (p * q).ndarray, "div": (p / q).ndarray, "add": (p + q).ndarray, "sub": (p - q).ndarray,
            "scalar": (2.5 * p - q / 3.0).ndarray, "neg": (-p).ndarray, "conj": p.conj().ndarray, "abs": np.abs(p),
            "norm": p.norm, "exp": np.exp(p).ndarray, "log": np.log(p).ndarray, "sqrt": np.sqrt(p).ndarray,
            "square": np.square(p).ndarray, "reciprocal": np.reciprocal(p).ndarray, "power": (p ** 1.7).ndarray,
            "angle": np.angle(r), "inverse": r.inverse.ndarray, "equal": p == p, "isclose": np.isclose(p, p * 1.0),
            "rotate": r.rotate(np.eye(3)), "normalized": p.normalized.ndarray,
            "broadcast": (p[:5, None] * q[None, :4]).ndarray, "sandwich": (r * quaternionic.x * r.conj()).ndarray}


def quaternionic_converters():
    """Rotors to and from rotation and transformation matrices (both
    algorithms), axis-angle vectors, Euler angles and phases, spherical
    coordinates."""
    import quaternionic
    r, s = _quaternions(3, (40,)), _quaternions(4, (30,)).to_spherical_coordinates
    q = quaternionic.array
    m, angles, phases = r.to_rotation_matrix, r.to_euler_angles, r.to_euler_phases
    return {"matrix": m, "from_matrix": q.from_rotation_matrix(m).ndarray,
            "from_matrix_orthogonal": q.from_rotation_matrix(m, nonorthogonal=False).ndarray,
            "axis_angle": r.to_axis_angle, "from_axis_angle": q.from_axis_angle(r.to_axis_angle).ndarray,
            "euler": angles, "from_euler": q.from_euler_angles(angles).ndarray, "phases": phases,
            "from_phases": q.from_euler_phases(phases).ndarray, "spherical": s,
            "from_spherical": q.from_spherical_coordinates(s).ndarray, "transform": r.to_transformation_matrix}


def quaternionic_interpolation():
    """A rotor time series with sign flips: unflipped, squad-interpolated,
    its angular velocity and minimal rotation; slerp; intrinsic and chordal
    distances of rotors and rotations; the rotor aligning two vector sets."""
    import quaternionic
    t = np.linspace(0, 10, 60)
    frames = quaternionic.array.from_axis_angle(np.outer(t, [0.1, 0.3, -0.2]) + 0.05 * np.sin(t)[:, None])
    frames = frames * np.where(np.arange(60) % 7 == 0, -1.0, 1.0)
    a, b = _quaternions(5, (25,)), _quaternions(6, (25,))
    vectors = np.random.default_rng(7).standard_normal((20, 3))
    unflipped = quaternionic.unflip_rotors(frames)
    return {"unflip": unflipped.ndarray, "slerp": quaternionic.slerp(a, b, 0.3).ndarray,
            "squad": quaternionic.squad(unflipped, t, np.linspace(0.3, 9.7, 45)).ndarray,
            "angular_velocity": frames.to_angular_velocity(t), "minimal": frames.to_minimal_rotation(t).ndarray,
            "rotor_intrinsic": quaternionic.distance.rotor.intrinsic(a, b),
            "rotor_chordal": quaternionic.distance.rotor.chordal(a, b),
            "rotation_intrinsic": quaternionic.distance.rotation.intrinsic(a, b),
            "rotation_chordal": quaternionic.distance.rotation.chordal(a, b),
            "align": quaternionic.align(vectors, _quaternions(8, ()).rotate(vectors)).ndarray}


def _skeleton_image(seed, shape=(96, 128)):
    from skimage.morphology import skeletonize
    from scipy import ndimage as ndi
    rng = np.random.default_rng(seed)
    smooth = ndi.gaussian_filter(rng.standard_normal(shape), 3)
    return skeletonize(smooth > 0.05)


def skan_summarize():
    """A skeleton of a smoothed noise image with pixel values and spacing:
    its jitclass graph, paths walked, the branch table, path lengths,
    means and deviations."""
    import skan
    image = _skeleton_image(0)
    values = np.random.default_rng(1).random(image.shape)
    skel = skan.Skeleton(image * values, spacing=(0.5, 0.75))
    table = skan.summarize(skel, separator="_")
    out = {c: np.asarray(table[c]) for c in table.columns if table[c].dtype.kind in "fiub"}
    out.update(path_lengths=skel.path_lengths(), path_means=skel.path_means(), path_stdev=skel.path_stdev(),
               degrees=skel.degrees, n_paths=skel.n_paths, coordinates=skel.coordinates,
               path_4=skel.path_coordinates(4))
    return out


def skan_graph():
    """A skeleton's pixel graph with its values as heights
    (skeleton_to_csgraph), paths pruned, Sholl analysis (crossings of
    concentric shells), and a 3-d skeleton's branch table."""
    import skan
    from skan.csr import skeleton_to_csgraph, sholl_analysis
    from scipy import ndimage as ndi
    from skimage.morphology import skeletonize
    image = _skeleton_image(2)
    heights = image * np.random.default_rng(3).random(image.shape) * 5.0
    graph, coords = skeleton_to_csgraph(heights, spacing=2.0, value_is_height=True)
    skel = skan.Skeleton(image.astype(float), keep_images=True)
    pruned = skel.prune_paths(np.arange(0, skel.n_paths, 3))
    center, radii, counts = sholl_analysis(skel, center=np.array(image.shape) / 2, shells=np.arange(5, 60, 7))
    volume = ndi.gaussian_filter(np.random.default_rng(4).standard_normal((24, 32, 32)), 2.5) > 0.04
    skel3 = skan.Skeleton(skeletonize(volume).astype(np.uint8), spacing=(2.0, 1.0, 1.0))
    table3 = skan.summarize(skel3, separator="_")
    return {"graph_data": graph.data, "graph_indices": graph.indices, "graph_indptr": graph.indptr,
            "coords": np.asarray(coords), "pruned_lengths": pruned.path_lengths(), "pruned_n": pruned.n_paths,
            "radii": radii, "counts": counts, "branch_distance_3d": table3["branch_distance"].values,
            "branch_type_3d": table3["branch_type"].values, "skeleton_id_3d": table3["skeleton_id"].values,
            "degrees_3d": skel3.degrees}


def _squidpy_adata(seed, n=600, n_genes=12, n_cls=5):
    import anndata as ad
    import pandas as pd
    rng = np.random.default_rng(seed)
    coords = rng.random((n, 2)) * 100.0
    x = rng.poisson(2.0, (n, n_genes)).astype(np.float64)
    adata = ad.AnnData(x, obs=pd.DataFrame({"cluster": pd.Categorical(rng.integers(0, n_cls, n).astype(str))},
                                           index=[f"c{i}" for i in range(n)]),
                       var=pd.DataFrame(index=[f"G{i}" for i in range(n_genes)]))
    adata.obsm["spatial"] = coords
    return adata


def squidpy_graph():
    """A k-nearest-neighbour spatial graph of clustered cells: neighbourhood
    enrichment (its generated per-cluster-count kernel, permutations),
    interaction matrix, centrality, co-occurrence on threads, and the
    spectral transform of a graph (fast_array_utils' sparse sums)."""
    import squidpy as sq
    adata = _squidpy_adata(4)
    sq.gr.spatial_neighbors_knn(adata, n_neighs=6)
    sq.gr.nhood_enrichment(adata, cluster_key="cluster", n_perms=50, seed=7, show_progress_bar=False)
    sq.gr.interaction_matrix(adata, cluster_key="cluster", normalized=True)
    sq.gr.centrality_scores(adata, cluster_key="cluster", show_progress_bar=False)
    sq.gr.co_occurrence(adata, cluster_key="cluster", interval=12)
    cent = adata.uns["cluster_centrality_scores"]
    return {"zscore": adata.uns["cluster_nhood_enrichment"]["zscore"],
            "count": adata.uns["cluster_nhood_enrichment"]["count"],
            "interactions": adata.uns["cluster_interactions"],
            "centrality": np.asarray(cent.values, dtype=float),
            "occ": adata.uns["cluster_co_occurrence"]["occ"],
            "interval": adata.uns["cluster_co_occurrence"]["interval"],
            "spectral": _squidpy_spectral(adata)}


def _squidpy_spectral(adata):
    import squidpy as sq
    res = sq.gr.spatial_neighbors_knn(adata, n_neighs=5, transform="spectral", copy=True)
    return res[0].toarray() if isinstance(res, tuple) else res.connectivities.toarray()


def squidpy_ligrec():
    """The ligand-receptor permutation test (its generated kernel), serial
    and with prange."""
    import pandas as pd
    import squidpy as sq
    adata = _squidpy_adata(5)
    pairs = pd.DataFrame({"source": ["G0", "G1", "G2", "G3", "G4"], "target": ["G5", "G6", "G7", "G8", "G9"]})
    res = sq.gr.ligrec(adata, "cluster", interactions=pairs, n_perms=60, seed=3, copy=True, use_raw=False,
                       threshold=0.0, corr_method=None, show_progress_bar=False, numba_parallel=False)
    res_par = sq.gr.ligrec(adata, "cluster", interactions=pairs, n_perms=60, seed=3, copy=True, use_raw=False,
                           threshold=0.0, show_progress_bar=False, numba_parallel=True)
    return {"means": res["means"].values, "pvalues": res["pvalues"].values.astype(float),
            "means_parallel": res_par["means"].values, "pvalues_parallel": res_par["pvalues"].values.astype(float)}


def squidpy_sepal():
    """Sepal's diffusion scores of genes on a square grid."""
    import anndata as ad
    import pandas as pd
    import squidpy as sq
    side = 18
    yy, xx = np.mgrid[0:side, 0:side].astype(np.float64)
    rng = np.random.default_rng(6)
    blob = np.exp(-((xx - 6.0) ** 2 + (yy - 9.0) ** 2) / 20.0).ravel()
    x = np.stack([blob * 10 + rng.random(side * side), rng.random(side * side) * 3,
                  (xx.ravel() > 9) * 5.0 + rng.random(side * side)], axis=1)
    adata = ad.AnnData(x, var=pd.DataFrame(index=["blob", "noise", "half"]))
    adata.obsm["spatial"] = np.stack([xx.ravel(), yy.ravel()], axis=1)
    sq.gr.spatial_neighbors_grid(adata, n_neighs=4, n_rings=1)
    score = sq.gr.sepal(adata, max_neighs=4, n_iter=20000, dt=0.01, copy=True, show_progress_bar=False, n_jobs=1)
    return {"score": score.loc[["blob", "noise", "half"], "sepal_score"].values}


def _xrspatial_raster(seed, shape=(60, 80)):
    import xarray as xr
    from scipy import ndimage as ndi
    rng = np.random.default_rng(seed)
    z = ndi.gaussian_filter(rng.standard_normal(shape), 4) * 400.0 + 500.0
    return xr.DataArray(z, dims=["y", "x"], coords={"y": np.arange(shape[0]) * 10.0, "x": np.arange(shape[1]) * 10.0})


def xrspatial_terrain():
    """Perlin-noise terrain generated; slope, aspect, curvature, hillshade
    and a viewshed of a smoothed DEM."""
    import xarray as xr
    from xrspatial import aspect, curvature, generate_terrain, hillshade, slope, viewshed
    dem = _xrspatial_raster(8)
    canvas = xr.DataArray(np.zeros((50, 70)), dims=["y", "x"],
                          coords={"y": np.linspace(0, 1000, 50), "x": np.linspace(0, 1400, 70)})
    terrain = generate_terrain(canvas, seed=5, zfactor=2000)
    view = viewshed(dem, x=300.0, y=200.0, observer_elev=20)
    return {"terrain": terrain.values, "slope": slope(dem).values, "aspect": aspect(dem).values,
            "curvature": curvature(dem).values, "hillshade": hillshade(dem, azimuth=300, angle_altitude=35).values,
            "viewshed": view.values}


def xrspatial_focal_zonal():
    """Focal means, kernels and statistics, hot spots, a 2-d convolution;
    zonal statistics and cross tabulation; proximity, allocation and
    direction; an A* path."""
    import xarray as xr
    from xrspatial import a_star_search, allocation, direction, proximity, zonal
    from xrspatial import focal
    from xrspatial.convolution import circle_kernel, convolution_2d
    dem = _xrspatial_raster(9)
    kernel = circle_kernel(1, 1, 2)
    zones = xr.DataArray((dem.values // 40).astype(np.int64) % 5, dims=dem.dims, coords=dem.coords)
    targets = xr.DataArray(np.where(np.random.default_rng(10).random(dem.shape) > 0.985, 1.0 + zones.values, 0.0),
                           dims=dem.dims, coords=dem.coords)
    stats = zonal.stats(zones, dem, stats_funcs=["mean", "max", "min", "std", "var", "count", "sum"])
    path = a_star_search(dem, start=(10.0, 10.0), goal=(550.0, 750.0))
    return {"mean": focal.mean(dem, passes=2).values, "apply": focal.apply(dem, kernel).values,
            "focal_stats": focal.focal_stats(dem, kernel, stats_funcs=["mean", "max", "min", "range", "std", "var",
                                                                         "sum"]).values,
            "hotspots": focal.hotspots(dem, kernel).values.astype(np.int64),
            "convolution": convolution_2d(dem, kernel).values,
            "zonal": stats.drop(columns="zone").values.astype(float), "zone_ids": stats["zone"].values,
            "crosstab": zonal.crosstab(zones, targets).values.astype(float),
            "proximity": proximity(targets).values, "manhattan": proximity(targets, distance_metric="MANHATTAN").values,
            "allocation": allocation(targets).values, "direction": direction(targets).values,
            "path": path.values}


def xrspatial_classify():
    """Natural breaks, quantile and equal-interval classes, reclassify,
    binary; vegetation indices (NDVI, ARVI, EVI, SAVI)."""
    from xrspatial import classify
    from xrspatial.multispectral import arvi, evi, ndvi, savi
    dem = _xrspatial_raster(11)
    nir, red, blue = _xrspatial_raster(12) / 1000.0, _xrspatial_raster(13) / 1000.0, _xrspatial_raster(14) / 1000.0
    return {"natural_breaks": classify.natural_breaks(dem, k=5).values,
            "quantile": classify.quantile(dem, k=4).values,
            "equal_interval": classify.equal_interval(dem, k=6).values,
            "reclassify": classify.reclassify(dem, bins=[300, 450, 600, 800], new_values=[1, 2, 3, 4]).values,
            "binary": classify.binary(dem.round(), [400.0, 500.0, 600.0]).values,
            "ndvi": ndvi(nir, red).values, "arvi": arvi(nir, red, blue).values,
            "evi": evi(nir, red, blue).values, "savi": savi(nir, red).values}


def fast_array_utils_sparse():
    """fast_array_utils on CSR and CSC matrices and arrays of float32 and
    float64: its compiled mean and variance along each axis, constant rows
    and columns, densifying; and a function of our own over its numba
    sparse types (attributes, numpy.shape, which it overloads, ndim, and
    .copy(), an @intrinsic filling the type's struct from the copied
    members)."""
    import numba
    import scipy.sparse as sp
    from fast_array_utils import conv, stats

    @numba.njit
    def scaled_copy(x, k):
        y = x.copy()
        y.data[:] = y.data * k
        n_rows, n_cols = np.shape(y)
        return y, n_rows * n_cols + x.ndim

    rng = np.random.default_rng(11)
    out = {}
    for name, cls in (("csr", sp.csr_matrix), ("csc", sp.csc_array)):
        for dtype in (np.float32, np.float64):
            dense = rng.poisson(0.7, (300, 40)).astype(dtype)
            dense[:, 3] = 2  # constant columns and rows, for is_constant
            dense[5] = 0
            x = cls(dense)
            key = f"{name}_{np.dtype(dtype).name}"
            for axis in (0, 1):
                mean, var = stats.mean_var(x, axis=axis, correction=1)
                out[f"{key}_mean{axis}"], out[f"{key}_var{axis}"] = mean, var
                out[f"{key}_const{axis}"] = stats.is_constant(x, axis=axis)
            out[f"{key}_dense"] = conv.to_dense(x)
            y, size = scaled_copy(x, dtype(3))
            out[f"{key}_copy"] = y.toarray()
            out[f"{key}_copy_size"] = np.array(size)
            out[f"{key}_untouched"] = x.toarray()
    return out

def libpysal_triangulation():
    """Delaunay, Gabriel and relative-neighbourhood graphs (its compiled
    edge lists from simplices, Gabriel and relative-neighbourhood
    filters) through Graph and the W classes; alpha shapes (compiled
    circumcircles, radii and the automatic alpha's search)."""
    from libpysal import graph, weights
    from libpysal.cg import alpha_shape, alpha_shape_auto
    rng = np.random.default_rng(0)
    pts = rng.random((200, 2))
    out = {}
    for method in ("delaunay", "gabriel", "relative_neighborhood"):
        adj = graph.Graph.build_triangulation(pts, method=method).adjacency
        out[method] = np.stack([adj.index.get_level_values(0).to_numpy(), adj.index.get_level_values(1).to_numpy()])
        out[method + "_w"] = adj.to_numpy()
    for cls in (weights.Delaunay, weights.Gabriel, weights.Relative_Neighborhood):
        sparse = cls(pts[:150]).sparse.tocoo()
        out[cls.__name__] = np.stack([sparse.row, sparse.col])
    poly, radius, circles = alpha_shape_auto(pts[:120], return_radius=True, return_circles=True)
    out.update(alpha_coords=np.asarray(poly.exterior.coords), alpha_radius=radius, alpha_circles=circles,
               alpha_areas=np.array([p.area for p in alpha_shape(pts[:120], 0.3)]))
    return out


def libpysal_raster():
    """Raster contiguity (queen and rook, orders 1 and 2, with nodata
    cells; one chunk, and a compiled generator's chunks on two threads)
    into sparse weights and a Graph."""
    import xarray as xr
    from libpysal import graph, weights
    data = np.random.default_rng(5).integers(0, 9, (1, 30, 40)).astype(np.int32)
    da = xr.DataArray(data, dims=("band", "y", "x"), attrs={"nodatavals": (0,)},
                      coords={"band": [1], "y": np.arange(30.0), "x": np.arange(40.0)})
    out = {}
    for criterion in ("queen", "rook"):
        for k in (1, 2):
            for jobs in (1, 2):
                sparse = weights.raster.da2WSP(da, criterion, k=k, n_jobs=jobs).sparse.tocoo()
                order = np.lexsort((sparse.col, sparse.row))  # the chunks' order differs between runs
                out[f"{criterion}{k}_{jobs}"] = np.stack([sparse.row[order], sparse.col[order]])
    adj = graph.Graph.build_raster_contiguity(da, rook=False, k=2).adjacency
    out.update(graph_w=adj.to_numpy(), graph_i=adj.index.codes[0], graph_j=adj.index.codes[1])
    return out


def libpysal_describe():
    """Graph.describe's neighbourhood statistics through pandas' numba
    engine: the compiled mode, and statistics of values limited to a
    quantile range."""
    from libpysal import graph
    rng = np.random.default_rng(3)
    g = graph.Graph.build_knn(rng.random((100, 2)), k=5)
    counts = g.describe(rng.integers(0, 5, 100).astype(float), statistics=["mode", "sum", "nunique", "mean"])
    limited = g.describe(rng.random(100), q=(10, 90))
    return {**{k: counts[k].to_numpy() for k in counts.columns}, **{"q_" + k: limited[k].to_numpy() for k in limited.columns}}


def _mgwr_data(seed, n=150):
    rng = np.random.default_rng(seed)
    coords = rng.random((n, 2)) * 10
    X = rng.normal(size=(n, 2))
    y = 1 + coords[:, :1] * 0.1 + X[:, :1] * coords[:, 1:] / 10 + 0.5 * X[:, 1:] + rng.normal(scale=0.1, size=(n, 1))
    return coords, X, y


def mgwr_gwr():
    """Geographically weighted regression (its compiled local distances,
    Euclidean and haversine): a golden-section bandwidth search, fits with
    adaptive bisquare and Gaussian kernels, on the sphere. n_jobs=1: joblib's
    worker processes would import Numba itself."""
    from mgwr.gwr import GWR
    from mgwr.sel_bw import Sel_BW
    coords, X, y = _mgwr_data(4)
    bw = Sel_BW(coords, y, X, n_jobs=1).search()
    fit = GWR(coords, y, X, bw, n_jobs=1).fit()
    gauss = GWR(coords, y, X, 40.0, kernel="gaussian", n_jobs=1).fit()
    lonlat = np.column_stack([coords[:, 0] * 2 - 10, coords[:, 1] + 40])
    sphere = GWR(lonlat, y, X, 30, spherical=True, n_jobs=1).fit()
    return {"bw": bw, "params": fit.params, "aicc": fit.aicc, "resid": fit.resid_response, "tvalues": fit.tvalues,
            "gauss": gauss.params, "sphere": sphere.params, "sphere_localR2": sphere.localR2}


def mgwr_mgwr():
    """Multiscale GWR: a bandwidth per covariate by backfitting, then the
    fit's parameters and their inference (in this process, n_jobs=1)."""
    from mgwr.gwr import MGWR
    from mgwr.sel_bw import Sel_BW
    coords, X, y = _mgwr_data(6, n=120)
    sel = Sel_BW(coords, y, X, multi=True, n_jobs=1)
    sel.search(multi_bw_min=[20], max_iter_multi=20, verbose=False)
    fit = MGWR(coords, y, X, sel, n_jobs=1).fit()
    return {"bws": sel.bw[0], "params": fit.params, "bse": fit.bse, "aicc": fit.aicc}


def _pyxem_patterns(seed):
    """3x4 diffraction patterns: a central beam and a dozen Gaussian spots."""
    import pyxem
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[:64, :64] - 31.5
    data = np.empty((3, 4, 64, 64))
    for i in np.ndindex(3, 4):
        img = np.exp(-(xx ** 2 + yy ** 2) / 40.0) * 5
        for _ in range(12):
            cx, cy = rng.uniform(-25, 25, 2)
            img += rng.uniform(0.5, 2) * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / 3.0)
        data[i] = img + rng.random((64, 64)) * 0.05
    s = pyxem.signals.Diffraction2D(data)
    s.calibration.center = None
    s.calibration.scale = 0.05
    return s


def _aluminium():
    from diffpy.structure import Atom, Lattice, Structure
    atoms = [Atom("Al", p) for p in ((0, 0, 0), (0.5, 0.5, 0), (0.5, 0, 0.5), (0, 0.5, 0.5))]
    return Structure(atoms=atoms, lattice=Lattice(4.05, 4.05, 4.05, 90, 90, 90))


def pyxem_azimuthal():
    """Azimuthal integration by pixel slices and their overlap factors (its
    compiled, prange, integrators): 2-d polar images (sum, mean, a
    radial range, a mask) and 1-d profiles."""
    s = _pyxem_patterns(0)
    mask = np.zeros((64, 64), bool)
    mask[:, :5] = True
    return {"int2d": s.get_azimuthal_integral2d(npt=40, npt_azim=90).data,
            "int2d_mean": s.get_azimuthal_integral2d(npt=30, npt_azim=60, mean=True, radial_range=(0.1, 1.4)).data,
            "int2d_mask": s.get_azimuthal_integral2d(npt=30, npt_azim=72, mask=mask).data,
            "int1d": s.get_azimuthal_integral1d(npt=50).data,
            "int1d_mask": s.get_azimuthal_integral1d(npt=40, mask=mask, mean=True).data}


def pyxem_orientation():
    """Template matching of polar patterns (its compiled prange correlation
    of each template at every in-plane shift, mirrored too) against
    diffsims' simulations of aluminium over the reduced fundamental zone."""
    from orix.crystal_map import Phase
    from orix.sampling import get_sample_reduced_fundamental
    from diffsims.generators.simulation_generator import SimulationGenerator
    phase = Phase("al", space_group=225, structure=_aluminium())
    grid = get_sample_reduced_fundamental(resolution=4, point_group=phase.point_group)
    sim = SimulationGenerator(200, minimum_intensity=1e-3).calculate_diffraction2d(
        phase, rotation=grid, max_excitation_error=0.05, reciprocal_radius=1.5, with_direct_beam=False)
    polar = _pyxem_patterns(1).get_azimuthal_integral2d(npt=60, npt_azim=180, radial_range=(0, 1.5), mean=True) ** 0.5
    return {"best": polar.get_orientation(sim, n_best=4, frac_keep=0.5).data,
            "all": polar.get_orientation(sim, n_best=-1).data}


def diffsims_atomic():
    """Kinematic diffraction of a 3x3x3 block of aluminium cells (its
    compiled, parallel, atomic densities averaged over voxels and
    pointwise, probe and FFT shifts), with and without precession."""
    from diffpy.structure import Structure
    from diffsims.generators.diffraction_generator import AtomicDiffractionGenerator
    from diffsims.utils.probe_utils import BesselProbe
    cell = _aluminium()
    atoms = [type(a)(a.element, a.xyz + np.array(d)) for a in cell for d in np.ndindex(3, 3, 3)]
    block = Structure(atoms=atoms, lattice=type(cell.lattice)(12.15, 12.15, 12.15, 90, 90, 90))
    gen = AtomicDiffractionGenerator(200, [np.linspace(-1.5, 1.5, 48)] * 2, reciprocal_mesh=True)
    return {name: gen.calculate_ed_data(block, BesselProbe(8.0), 1.0, z_range=40, GPU=False, **kw)
            for name, kw in (("plain", {}), ("pointwise", {"pointwise": True}), ("precessed", {"precessed": (1.0, 6)}))}


def diffsims_patterns():
    """Simulated spot patterns drawn as sub-pixel Gaussians (compiled) and
    on whole pixels, rotated; reflections grouped into symmetry sets {hkl}
    (a compiled function with an explicit signature)."""
    from orix.crystal_map import Phase
    from orix.quaternion import Rotation
    from diffsims.crystallography import ReciprocalLatticeVector
    from diffsims.generators.simulation_generator import SimulationGenerator
    phase = Phase("al", space_group=225, structure=_aluminium())
    rotation = Rotation.from_euler(np.deg2rad([[0, 0, 0], [10, 20, 30], [45, 54.7, 0]]))
    sim = SimulationGenerator(200).calculate_diffraction2d(phase, rotation=rotation, max_excitation_error=0.05,
                                                           reciprocal_radius=1.5)
    out = {}
    for k in range(3):
        sim.rotation_index = k
        out[f"subpixel{k}"] = sim.get_diffraction_pattern(shape=(96, 96), sigma=2.5, calibration=0.02, fast=False)
        out[f"pixel{k}"] = sim.get_diffraction_pattern(shape=(96, 96), sigma=2.5, calibration=0.02,
                                                       in_plane_angle=17, fast=True)
    rlv = ReciprocalLatticeVector.from_min_dspacing(phase, 0.6)
    out["sets"] = np.array([[*k, len(v[0])] for k, v in sorted(rlv.get_hkl_sets().items())])
    out["unique"] = rlv.unique(use_symmetry=True).hkl
    return out


def diffsims_discretise():
    """Atoms discretised on a mesh and on its Fourier mesh (compiled,
    parallel: densities and Fourier transforms of each atom, averaged and
    pointwise, of one and of two species); the Bessel probe's transform,
    FFT phase shifts in one and two dimensions, a 2-d mesh in a basis."""
    from diffsims.utils.discretise_utils import get_discretisation
    from diffsims.utils.fourier_transform import fftshift_phase, to_recip
    from diffsims.utils.generic_utils import to_mesh
    from diffsims.utils.probe_utils import BesselProbe
    loc = np.random.default_rng(7).random((30, 3)) * 8
    x = [np.linspace(0, 8, 24)] * 3
    out = {}
    for pointwise in (False, True):
        out[f"fourier_{pointwise}"] = get_discretisation(loc, "Al", to_recip(x), GPU=False, pointwise=pointwise,
                                                         FT=True, ZERO=1e-10)
        out[f"real_{pointwise}"] = get_discretisation(loc, np.array(["Al"] * 15 + ["Cu"] * 15), x, GPU=False,
                                                      pointwise=pointwise, ZERO=1e-10)
    out["mesh2"] = to_mesh([np.arange(5.0), np.arange(7.0)], dx=[np.array([1.0, 0.5]), np.array([0.0, 2.0])])
    out["shift1"] = fftshift_phase(np.arange(8.0) + 1)
    out["shift2"] = fftshift_phase(np.arange(48.0).reshape(6, 8) + 1)
    out["bessel_ft"] = BesselProbe(5.0).FT(to_mesh([np.linspace(-1, 1, 9)] * 3))
    return out


def _skforecast_series(n=144, seed=0):
    """Monthly-like data: a trend, a 12-step season and noise."""
    t = np.arange(n)
    return 100 + 0.5 * t + 10 * np.sin(2 * np.pi * t / 12) + np.random.default_rng(seed).normal(0, 2, n)


def skforecast_models():
    """skforecast's statistical models (their likelihoods and recursions
    compiled): ETS of a given and of a chosen form, seasonal ARIMA, auto
    ARIMA's order search and ARAR, each fitted and forecast."""
    from skforecast.stats import Arar, Arima, Ets
    y = _skforecast_series()
    ets = Ets(m=12, model="AAA").fit(y)
    return {"ets_aaa": ets.predict(12), "ets_aaa_interval": np.asarray(ets.predict_interval(12)),
            "ets_chosen": Ets(m=12, model="ZZZ").fit(y).predict(6),
            "arima": Arima(order=(1, 1, 1), seasonal_order=(0, 1, 1), m=12).fit(y).predict(12),
            "auto_arima": Arima(order=None, seasonal_order=None, m=12).fit(y).predict(6),
            "arar": Arar().fit(y).predict(12)}


def skforecast_rolling_features():
    """RollingFeatures' nine window statistics (compiled per window) over an
    array and, through pandas' rolling apply, over a Series."""
    import pandas as pd
    from skforecast.preprocessing import RollingFeatures
    y = np.cumsum(np.random.default_rng(3).normal(0.1, 1.0, 200)) + 50
    stats = ["mean", "std", "min", "max", "sum", "median", "ratio_min_max", "coef_variation", "ewm"]
    rf = RollingFeatures(stats=stats, window_sizes=[7, 7, 14, 14, 5, 9, 12, 10, 8], kwargs_stats={"ewm": {"alpha": 0.4}})
    return {"transform": rf.transform(y),
            "batch": rf.transform_batch(pd.Series(y, index=pd.RangeIndex(200))).to_numpy()}


def pymoo_age():
    """AGE-MOEA and AGE-MOEA2 (their survival's compiled distances, crowding
    and convergence scores, fastmath) on ZDT1 and three-objective DTLZ2,
    30 generations from a fixed seed: the final fronts, sorted."""
    from pymoo.algorithms.moo.age import AGEMOEA
    from pymoo.algorithms.moo.age2 import AGEMOEA2
    from pymoo.optimize import minimize
    from pymoo.problems import get_problem
    out = {}
    for name, algorithm in (("age", AGEMOEA), ("age2", AGEMOEA2)):
        for problem in (get_problem("zdt1"), get_problem("dtlz2", n_obj=3)):
            f = minimize(problem, algorithm(pop_size=40), ("n_gen", 30), seed=1, verbose=False).F
            out[f"{name}_{problem.name()}"] = f[np.lexsort(f.T[::-1])]
    return out


def _ffpiv_frames(seed, count=2, shape=(128, 160), shift=(3, -2)):
    """count frames of 700 Gaussian particles, each moved by shift from
    the one before, with noise"""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[: shape[0], : shape[1]]
    py, px = rng.uniform(0, shape[0], 700), rng.uniform(0, shape[1], 700)
    weight = rng.uniform(100, 255, 700)
    frames = []
    for k in range(count):
        f = np.zeros(shape)
        for cy, cx, w in zip(py + k * shift[0], px + k * shift[1], weight):
            f += w * np.exp(-((y - cy) ** 2 + (x - cx) ** 2) / 3.0)
        frames.append(f + rng.normal(0, 0.5, shape))
    return np.stack(frames)


def _ffpiv32(a, decimals):
    """float32 results of transforms: rocket-fft computes them in single
    precision, ruchey in double rounded to single, so their last bits
    differ (about 1e-7 of the correlations, 1e-5 of a displacement); kept
    to the decimals that PIV resolves"""
    return np.round(np.asarray(a, np.float64), decimals)


def ffpiv_piv():
    """PIV of a frame pair by its numba engine: normalised cross-correlation
    of 32x32 windows (prange over windows, numpy.fft.rfft2, irfft2 and
    fftshift of float32 windows, compiled through rocket-fft) and the
    sub-pixel peak displacements; with overlap, normalisation and clipping."""
    import ffpiv
    a, b = _ffpiv_frames(0)
    out = {}
    for name, kw in (("plain", {}), ("overlap", {"overlap": (16, 16)}), ("normalize", {"normalize": True}),
                     ("clip", {"overlap": (8, 8), "clip_norm": True})):
        u, v = ffpiv.piv(a, b, window_size=(32, 32), engine="numba", **kw)
        out[name + "_u"], out[name + "_v"] = _ffpiv32(u, 2), _ffpiv32(v, 2)
    return out


def ffpiv_stack():
    """cross_corr and piv_stack of four frames by the numba engine (each
    pair's windows correlated in parallel): each window's correlation peak
    (where, how high) and the displacements."""
    import ffpiv
    frames = _ffpiv_frames(1, count=4).astype(np.float32)
    x, y, corr = ffpiv.cross_corr(frames, window_size=(32, 32), overlap=(8, 8), engine="numba")
    u, v = ffpiv.u_v_displacement(corr, len(y), len(x), engine="numba")
    su, sv = ffpiv.piv_stack(frames, window_size=(32, 32), engine="numba")
    flat = corr.reshape(corr.shape[0], corr.shape[1], -1)
    return {"x": x, "y": y, "peak_at": flat.argmax(axis=2), "peak": _ffpiv32(flat.max(axis=2), 3),
            "u": _ffpiv32(u, 2), "v": _ffpiv32(v, 2), "stack_u": _ffpiv32(su, 2), "stack_v": _ffpiv32(sv, 2)}


def ffpiv_transforms():
    """ffpiv's compiled numpy.fft wrappers (rfft2, rfft2 with a shape,
    irfft2, fftshift over axes) on float64 windows; on float32 ones, NumPy
    2's dtypes (complex64, float32) and the results within float32's
    rounding of the float64 transforms."""
    from ffpiv import pnb
    w = np.random.default_rng(2).standard_normal((3, 24, 20))
    w32 = w.astype(np.float32)
    spectrum = pnb.rfft2(w[0])
    s32 = pnb.rfft2(w32[0])
    back32 = pnb.irfft2(pnb.rfft2(w32[2]))
    eps = np.finfo(np.float32).eps
    return {"rfft2": spectrum, "rfft2_s": pnb.rfft2_x(w[1], (32, 30)), "irfft2": pnb.irfft2(spectrum),
            "shift": pnb.fftshift(w, (-2, -1)), "conj": pnb.conj(spectrum),
            "itemsizes": np.array([s32.dtype.itemsize, back32.dtype.itemsize]),  # complex64, float32
            "close32": np.array([np.abs(s32 - np.fft.rfft2(w32[0].astype(np.float64))).max() < 64 * eps * np.abs(s32).max(),
                                 np.abs(back32 - w32[2]).max() < 64 * eps])}


def _strax_records(n_channels=8, n_pulses=400, seed=0):
    """Records of 110 samples (10 ns each) of a gaussian pulse on a 16000
    ADC baseline with noise, on 8 channels, no two of a channel overlapping."""
    import strax
    rng = np.random.default_rng(seed)
    length = 110
    recs = np.zeros(n_pulses, dtype=strax.record_dtype(length))
    recs["dt"] = 10
    recs["channel"] = rng.integers(0, n_channels, n_pulses)
    recs["time"] = np.sort(rng.integers(0, 4_000_000, n_pulses)) // 10 * 10
    recs["length"] = length
    recs["pulse_length"] = length
    recs["baseline"] = 0
    t = np.arange(length)
    for r in recs:
        centre, width = rng.uniform(20, 90), rng.uniform(2, 8)
        wave = 16000 - rng.integers(-3, 4, length) - rng.uniform(20, 300) * np.exp(-0.5 * ((t - centre) / width) ** 2)
        r["data"] = wave.astype(np.int16)
    # no two records of a channel overlap
    recs = strax.sort_by_time(recs)
    for ch in range(n_channels):
        sel = np.where(recs["channel"] == ch)[0]
        keep = np.diff(recs["time"][sel], prepend=-10**9) >= length * 10
        recs = recs[np.isin(np.arange(len(recs)), sel[~keep], invert=True)]
    return recs


def strax_pulses():
    """strax's pulse processing: baselines, integrals, hit finding, record
    links, filtering and cutting the samples outside hits."""
    import strax
    r = _strax_records()
    strax.baseline(r, baseline_samples=40)
    strax.zero_out_of_bounds(r)
    strax.integrate(r)
    hits = strax.find_hits(r, min_amplitude=15)
    hits = strax.sort_by_time(hits)
    prev_r, next_r = strax.record_links(r)
    filtered = r.copy()
    strax.filter_records(filtered, np.array([0.1, 0.8, 0.1]))
    cut = r.copy()
    strax.cut_outside_hits(cut, hits)
    return {"data": r["data"].astype(float), "area": r["area"].astype(float), "baseline": r["baseline"].astype(float),
            "hits": np.stack([hits[k].astype(float) for k in ("time", "length", "area", "left", "right", "height", "channel")]),
            "links": np.stack([prev_r, next_r]).astype(float), "filtered": filtered["data"].astype(float),
            "cut": cut["data"].astype(float)}


def strax_peaks():
    """Peaks from hits: find_peaks (a growing result), hit integration
    bounds, summed waveforms (a default array argument), widths and
    properties, local-minimum and natural-breaks splitting, merging."""
    import strax
    r = _strax_records()
    strax.baseline(r, baseline_samples=40)
    strax.integrate(r)
    hits = strax.sort_by_time(strax.find_hits(r, min_amplitude=15))
    to_pe = np.ones(8, dtype=np.float64)
    rlinks = strax.record_links(r)
    peaks = strax.find_peaks(hits, to_pe, gap_threshold=300, left_extension=20, right_extension=150, min_channels=1,
                             result_dtype=strax.peak_dtype(n_channels=8))
    hits["left_integration"], hits["right_integration"] = hits["left"], hits["right"]
    strax.find_hit_integration_bounds(hits, np.zeros(0, dtype=strax.time_dt_fields), r, (10, 20), 8,
                                      allow_bounds_beyond_records=True)
    strax.sum_waveform(peaks, hits, r, rlinks, to_pe)
    strax.compute_properties(peaks)
    split = strax.split_peaks(peaks, hits, r, rlinks, to_pe, algorithm="local_minimum", min_height=0, min_ratio=0)
    nb = strax.split_peaks(peaks, hits, r, rlinks, to_pe, algorithm="natural_breaks", threshold=lambda p: np.full(len(p), 0.4))
    merged = strax.merge_peaks(peaks, np.array([0]), np.array([2]), max_buffer=int(1e5))
    return {"peaks": np.stack([peaks[k].astype(float) for k in ("time", "length", "dt", "area", "n_hits", "center_time")]),
            "data": peaks["data"].astype(float), "width": peaks["width"].astype(float),
            "area_decile": peaks["area_decile_from_midpoint"].astype(float),
            "split": np.stack([split[k].astype(float) for k in ("time", "length", "area")]),
            "natural_breaks": np.stack([nb[k].astype(float) for k in ("time", "length", "area")]),
            "merged": merged["area"].astype(float), "bounds": hits["left_integration"].astype(float)}


def strax_hitlets():
    """Hitlets: overlapping hits concatenated, their data, properties
    (area fractions, widths at a fraction of the maximum), conditional
    entropy and the highest density region."""
    import strax
    r = _strax_records()
    strax.baseline(r, baseline_samples=40)
    strax.integrate(r)
    hits = strax.sort_by_time(strax.find_hits(r, min_amplitude=15))
    to_pe = np.ones(8, dtype=np.float64)
    hits = strax.concat_overlapping_hits(hits, (5, 20), (0, 7), 0, 10**10)
    hitlets = strax.create_hitlets_from_hits(hits, (5, 20), [0, 7])
    hitlets = strax.sort_by_time(hitlets)
    hw = np.zeros(len(hitlets), dtype=strax.hitlet_with_data_dtype(n_samples=200))
    strax.copy_to_buffer(hitlets, hw, "_copy_hitlets_to_data")
    strax.get_hitlets_data(hw, r, to_pe)
    strax.hitlet_properties(hw)
    ent = strax.conditional_entropy(hw, template="flat")
    hdr = strax.highest_density_region(hw[0]["data"][:hw[0]["length"]], np.array([0.5, 0.9]))
    return {"area": hw["area"].astype(float), "amplitude": hw["amplitude"].astype(float),
            "left_area": hw["left_area"].astype(float), "range_50p": hw["range_50p_area"].astype(float),
            "fwxm": np.array([strax.get_fwxm(h) for h in hw[:50]], dtype=float), "entropy": ent.astype(float),
            "hdr0": np.asarray(hdr[0], dtype=float)}


def strax_intervals():
    """Intervals in containers: full containment, splitting by containment
    (a typed List of record arrays), touching windows, times to the
    neighbouring intervals, endtime (an overload reading the dtype)."""
    import strax
    rng = np.random.default_rng(5)
    things = np.zeros(3000, dtype=strax.interval_dtype)
    things["time"] = np.sort(rng.integers(0, 10**7, 3000))
    things["length"] = 100
    things["dt"] = 10
    cont = np.zeros(200, dtype=strax.interval_dtype)
    cont["time"] = np.arange(200) * 50_000
    cont["length"] = 3000
    cont["dt"] = 10
    fc = strax.fully_contained_in(things, cont)
    split = strax.split_by_containment(things, cont)
    tw = strax.touching_windows(things, cont, window=100)
    prev_next = strax.abs_time_to_prev_next_interval(things, cont)
    return {"fully_contained": fc.astype(float), "split_sizes": np.array([len(s) for s in split], dtype=float),
            "touching": tw.astype(float), "prev_next": np.asarray(prev_next, dtype=float),
            "endtime": strax.endtime(things).astype(float)}


def strax_merging():
    """Peaks after building: merged over gaps and replacing their members,
    lone hits integrated and added to the peaks they fall in, things
    split by touching windows (a List of record arrays), the top array's
    and the first samples' waveforms, groups of peaks."""
    import strax
    r = _strax_records(seed=3)
    strax.baseline(r, baseline_samples=40)
    strax.integrate(r)
    hits = strax.sort_by_time(strax.find_hits(r, min_amplitude=15))
    to_pe = np.ones(8, dtype=np.float64)
    rlinks = strax.record_links(r)
    peaks = strax.find_peaks(hits, to_pe, gap_threshold=300, left_extension=20, right_extension=150, min_channels=1, min_area=1500,
                             result_dtype=strax.peak_dtype(n_channels=8))
    strax.sum_waveform(peaks, hits, r, rlinks, to_pe)
    strax.compute_properties(peaks)
    lone = hits[strax.fully_contained_in(hits, peaks) == -1]
    lone["left_integration"], lone["right_integration"] = lone["left"], lone["right"]
    strax.integrate_lone_hits(lone, r, peaks, (3, 20), 8)
    gaps = np.diff(peaks["time"])
    start = np.flatnonzero(gaps < 20_000)[::2]
    merged = strax.merge_peaks(peaks, start, np.minimum(start + 2, len(peaks)), max_buffer=int(1e6))
    replaced = strax.replace_merged(peaks, merged)
    strax.add_lone_hits(replaced, lone[strax.fully_contained_in(lone, replaced) >= 0], to_pe)
    parts = strax.split_touching_windows(hits, peaks)
    top = peaks.copy()
    strax.sum_waveform(top, hits, r, rlinks, to_pe, n_top_channels=4, store_data_top=True, store_data_start=True)
    area_top = strax.compute_area_fraction_top(top, 4)
    group_start, group_end = strax.find_peak_groups(peaks, gap_threshold=30_000, left_extension=100,
                                                    right_extension=100)
    return {"lone_area": lone["area"].astype(float),
            "merged": np.stack([merged[k].astype(float) for k in ("time", "length", "area", "n_hits")]),
            "replaced": np.stack([replaced[k].astype(float) for k in ("time", "length", "area")]),
            "replaced_data": replaced["data"].astype(float),
            "split_sizes": np.array([len(p) for p in parts], dtype=float), "data_top": top["data_top"].astype(float),
            "data_start": top["data_start"].astype(float), "area_top": area_top.astype(float),
            "groups": np.stack([group_start, group_end]).astype(float)}


def iminuit_costs():
    """iminuit's compiled cost functions (chi2, poisson_chi2,
    multinomial_chi2, the unbinned NLL, the soft-l1 loss; inlined overloads
    of log_or_zero and _z_squared) on float64 and float32 data, empty
    bins among them."""
    from iminuit import cost
    rng = np.random.default_rng(3)
    out = {}
    for dtype in (np.float64, np.float32):
        mu = rng.uniform(0.5, 20, 200).astype(dtype)
        n = rng.poisson(mu).astype(dtype)
        n[::17] = 0
        y, ye = rng.normal(mu, 1).astype(dtype), np.full(200, 1.0, dtype)
        name = np.dtype(dtype).name
        out[name] = np.array([cost.chi2(y, ye, mu), cost.poisson_chi2(n, mu), cost.multinomial_chi2(n, mu),
                              cost._unbinned_nll(rng.uniform(0, 1, 500).astype(dtype)),
                              cost._soft_l1_cost(y, ye, mu)], dtype=float)
    return out


def iminuit_fits():
    """Fits with jitted models, as iminuit's tutorials write them: an
    unbinned and an extended binned likelihood (math.erf in a loop) and a
    least-squares fit with the soft-l1 loss, minimised by Minuit's MIGRAD
    with HESSE errors."""
    import math
    from iminuit import Minuit, cost
    from numba import njit

    @njit
    def pdf(x, mu, sigma):
        return np.exp(-0.5 * ((x - mu) / sigma) ** 2) / (sigma * np.sqrt(2 * np.pi))

    @njit
    def cdf(xe, s, b, mu, sigma):
        out = np.empty_like(xe)
        for i, x in enumerate(xe):
            out[i] = s * 0.5 * (1 + math.erf((x - mu) / (sigma * math.sqrt(2)))) + b * (x + 3) / 6
        return out

    @njit
    def line(x, a, b):
        return a + b * x

    rng = np.random.default_rng(4)
    x = rng.normal(0.5, 1.2, 2000)
    nll = Minuit(cost.UnbinnedNLL(x, pdf), mu=0.0, sigma=1.0)
    nll.limits["sigma"] = (0.01, None)
    nll.migrad().hesse()
    n, xe = np.histogram(np.append(rng.normal(0.3, 0.5, 1000), rng.uniform(-3, 3, 500)), bins=40, range=(-3, 3))
    binned = Minuit(cost.ExtendedBinnedNLL(n, xe, cdf), s=800.0, b=400.0, mu=0.0, sigma=1.0)
    binned.limits["sigma"] = (0.01, None)
    binned.migrad().hesse()
    xs = np.linspace(0, 1, 50)
    ys = 1 + 2 * xs + rng.normal(0, 0.1, 50)
    ys[::10] += 3  # outliers
    lsq = Minuit(cost.LeastSquares(xs, ys, 0.1, line, loss="soft_l1"), a=0.0, b=0.0)
    lsq.migrad().hesse()
    return {"unbinned": np.array([*nll.values, *nll.errors, nll.fval]),
            "binned": np.array([*binned.values, *binned.errors, binned.fval]),
            "least_squares": np.array([*lsq.values, *lsq.errors, lsq.fval])}


def _spatialpandas_polygons(n=400, seed=0):
    """n random convex-ish polygons (star-shaped rings of 6 to 12 vertices,
    some clockwise), each a list of one ring of flat x, y coordinates."""
    rng = np.random.default_rng(seed)
    polys = []
    for _ in range(n):
        k = int(rng.integers(6, 13))
        angles = np.sort(rng.uniform(0, 2 * np.pi, k))
        if rng.random() < 0.5:
            angles = angles[::-1]
        r = rng.uniform(0.5, 2.0, k)
        cx, cy = rng.uniform(0, 100, 2)
        ring = np.stack([cx + r * np.cos(angles), cy + r * np.sin(angles)], axis=1)
        ring = np.vstack([ring, ring[:1]])
        polys.append([ring.ravel().tolist()])
    return polys


def spatialpandas_measures():
    """spatialpandas' compiled geometry kernels: polygon areas and
    perimeters, line lengths, bounds of polygons, lines and points, Hilbert
    distances, and areas after orienting the rings counter-clockwise."""
    from spatialpandas.geometry import LineArray, MultiPointArray, PolygonArray
    polys = _spatialpandas_polygons()
    pa = PolygonArray(polys)
    lines = LineArray([p[0] for p in polys])
    points = MultiPointArray([p[0] for p in polys[:50]])
    return {"area": pa.area, "length": pa.length, "line_length": lines.length, "bounds": pa.bounds,
            "total_bounds": np.array(pa.total_bounds), "line_bounds": lines.bounds, "point_bounds": points.bounds,
            "hilbert": pa.hilbert_distance().astype(float), "oriented_area": pa.oriented().area}


def spatialpandas_intersections():
    from spatialpandas.geometry import (LineArray, MultiLineArray, MultiPointArray, MultiPolygonArray, PointArray,
                                        Polygon, PolygonArray)
    from spatialpandas.spatialindex import hilbert_curve
    polys = _spatialpandas_polygons(seed=1)
    pa = PolygonArray(polys)
    lines = LineArray([p[0] for p in polys])
    points = MultiPointArray([p[0] for p in polys])
    box = (20.0, 30.0, 60.0, 70.0)
    rng = np.random.default_rng(2)
    probes = rng.uniform(0, 100, (40, 2))
    probes = PointArray(rng.uniform(0, 100, (4000, 2)).tolist())
    hits = np.array([probes.intersects(Polygon(p)) for p in polys[:20]])
    index = pa.sindex
    multipolygons = MultiPolygonArray([[[polys[i][0]], [polys[i + 1][0]]] for i in range(0, len(polys), 2)])
    multilines = MultiLineArray([[polys[i][0], polys[i + 1][0]] for i in range(0, len(polys), 2)])
    distances = np.arange(0, 4 ** 6, 7, dtype=np.int64)
    coords = hilbert_curve.coordinates_from_distances(6, 2, distances)
    return {"polygons": pa.intersects_bounds(box), "lines": lines.intersects_bounds(box),
            "points": points.intersects_bounds(box), "point_in_polygon": hits,
            "rtree": np.sort(index.intersects(np.array(box))).astype(float),
            "covers": np.sort(index.covers_overlaps(np.array(box))[0]).astype(float),
            "multipolygons": multipolygons.intersects_bounds(box), "multipolygon_area": multipolygons.area,
            "multilines": multilines.intersects_bounds(box), "multiline_length": multilines.length,
            "hilbert_coords": coords.astype(float),
            "hilbert_back": hilbert_curve.distances_from_coordinates(6, coords).astype(float)}


def _pastas_forcing(n=3000, seed=0):
    """Daily precipitation (dry days among them), potential evaporation
    and temperature with a yearly cycle, in mm/d and degrees Celsius."""
    rng = np.random.default_rng(seed)
    day = np.arange(n)
    prec = np.where(rng.random(n) < 0.55, 0.0, rng.gamma(0.8, 5.0, n))
    evap = np.clip(2.0 + 1.5 * np.sin(2 * np.pi * (day - 100) / 365.25) + rng.normal(0, 0.3, n), 0, None)
    temp = 10 + 8 * np.sin(2 * np.pi * (day - 110) / 365.25) + rng.normal(0, 3, n)
    return prec, evap, temp


def pastas_recharge():
    """pastas' compiled soil water balances: FlexModel (with its snow and
    interception reservoirs), Berendrecht and Peterson, each simulated with
    its initial parameters, every flux returned."""
    import pastas as ps
    prec, evap, temp = _pastas_forcing()
    out = {}
    for name, model in (("flex", ps.rch.FlexModel()), ("flex_snow", ps.rch.FlexModel(snow=True, interception=True)),
                        ("berendrecht", ps.rch.Berendrecht()), ("peterson", ps.rch.Peterson())):
        p = model.get_init_parameters("rch").initial.to_numpy(dtype=float)
        full = model.simulate(prec, evap, temp, p, return_full=True) if name.startswith("flex") else \
            model.simulate(prec, evap, p, return_full=True)
        for i, flux in enumerate(full):
            out[f"{name}_{i}"] = np.asarray(flux, dtype=float)
    return out


def pastas_stats_noise():
    """pastas' compiled statistics and noise: autocorrelation of an
    irregular series by gaussian and rectangle bins (prange loops) and of a
    regular one, a cross-correlation, the ARMA(1,1) noise of residuals, and
    the Hantush step response by quadrature of a compiled integrand."""
    import pandas as pd
    import pastas as ps
    rng = np.random.default_rng(1)
    index = pd.date_range("2000-01-01", periods=1500, freq="D")
    values = np.cumsum(rng.normal(0, 1, 1500)) * 0.1 + np.sin(np.arange(1500) / 30)
    regular = pd.Series(values, index=index)
    irregular = regular.iloc[np.sort(rng.choice(1500, 700, replace=False))]
    other = pd.Series(np.roll(values, 5) + rng.normal(0, 0.1, 1500), index=index)
    lags = np.arange(1.0, 60.0)
    res = pd.Series(rng.normal(0, 0.2, 700), index=irregular.index)
    return {"acf_gaussian": ps.stats.acf(irregular, lags=lags, bin_method="gaussian").to_numpy(),
            "acf_rectangle": ps.stats.acf(irregular, lags=lags, bin_method="rectangle").to_numpy(),
            "acf_regular": ps.stats.acf(regular, lags=lags).to_numpy(),
            "ccf": ps.stats.ccf(regular, other, lags=lags, bin_method="gaussian").to_numpy(),
            "arma": ps.ArmaNoiseModel().simulate(res, np.array([10.0, 5.0])).to_numpy(),
            "hantush": ps.Hantush(quad=True).step(np.array([1.0, 100.0, 0.5]))}


def _sleepecg_ecg(fs, seconds=300, seed=0):
    """A synthetic ECG: QRS-like spikes (with P and T waves) at a heart
    rate wandering around 65 bpm, baseline drift and noise."""
    rng = np.random.default_rng(seed)
    t = np.arange(int(seconds * fs)) / fs
    ecg = 0.2 * np.sin(2 * np.pi * 0.2 * t) + rng.normal(0, 0.03, len(t))
    beat = 0.5
    while beat < seconds - 1:
        for offset, height, width in ((-0.2, 0.15, 0.025), (0.0, 1.2, 0.01), (0.02, -0.3, 0.008), (0.3, 0.3, 0.05)):
            ecg += height * np.exp(-0.5 * ((t - beat - offset) / width) ** 2)
        beat += 60 / (65 + 8 * np.sin(beat / 20) + rng.normal(0, 2))
    return ecg


def sleepecg_heartbeats():
    """sleepecg's heartbeat detector with its Numba backend (the moving
    integration and the adaptive thresholds) at two sampling rates."""
    import sleepecg
    out = {}
    for fs in (128, 360):
        beats = sleepecg.detect_heartbeats(_sleepecg_ecg(fs, seed=fs), fs, backend="numba")
        out[f"beats_{fs}"] = np.asarray(beats, dtype=np.int64)
    return out


def _hotspot_adata(n_cells=300, n_genes=60, seed=0):
    """Counts of genes in cells along a latent 2-d trajectory: a third of the
    genes follow the first latent axis, a third the second, the rest noise;
    the latent coordinates in obsm."""
    import anndata
    import pandas as pd
    import scipy.sparse
    rng = np.random.default_rng(seed)
    latent = rng.normal(0, 1, (n_cells, 2))
    rate = np.ones((n_cells, n_genes))
    third = n_genes // 3
    rate[:, :third] *= np.exp(latent[:, :1])
    rate[:, third:2 * third] *= np.exp(latent[:, 1:2])
    counts = rng.poisson(rate * rng.uniform(0.5, 3, n_genes)).astype(np.float64)
    adata = anndata.AnnData(scipy.sparse.csc_matrix(counts), obs=pd.DataFrame(index=[f"c{i}" for i in range(n_cells)]),
                            var=pd.DataFrame(index=[f"g{i}" for i in range(n_genes)]))
    adata.obsm["latent"] = latent
    adata.obs["total_counts"] = counts.sum(1)
    return adata


def hotspotsc_autocorrelation():
    """Hotspot's gene autocorrelations (Geary-like Z scores on a KNN graph)
    under its four null models (danb, bernoulli, normal, none), weighted and
    unweighted graphs."""
    import hotspot
    out = {}
    for model, weighted in (("danb", False), ("bernoulli", True), ("normal", True), ("none", False)):
        adata = _hotspot_adata()
        if model == "none":
            adata.X = adata.X.toarray()
            adata.X = (adata.X - adata.X.mean(0)) / (adata.X.std(0) + 1e-9)
        hs = hotspot.Hotspot(adata, model=model, latent_obsm_key="latent", umi_counts_obs_key="total_counts")
        hs.create_knn_graph(weighted_graph=weighted, n_neighbors=15, approx_neighbors=False)
        res = hs.compute_autocorrelations().sort_index()
        out[model + "_z"] = res["Z"].to_numpy()
        out[model + "_c"] = res["C"].to_numpy()
    out["weights"] = hs.weights.to_numpy()
    return out


def hotspotsc_local_correlations():
    """Pairwise local correlations of the most autocorrelated genes, the
    modules they cluster into and the modules' scores."""
    import hotspot
    hs = hotspot.Hotspot(_hotspot_adata(seed=1), model="danb", latent_obsm_key="latent",
                         umi_counts_obs_key="total_counts")
    hs.create_knn_graph(weighted_graph=False, n_neighbors=15, approx_neighbors=False)
    auto = hs.compute_autocorrelations()
    genes = auto.sort_values("Z", ascending=False).index[:30]
    lcz = hs.compute_local_correlations(genes)
    modules = hs.create_modules(min_gene_threshold=4, core_only=True, fdr_threshold=0.05)
    scores = hs.calculate_module_scores()
    return {"local_z": lcz.loc[sorted(genes), sorted(genes)].to_numpy(), "modules": modules.sort_index().to_numpy(),
            "scores": scores.to_numpy()}


def _sj_outputs(ss, names):
    return np.array([float(ss[name]) for name in names])


def sequence_jacobian_krusell_smith():
    """sequence-jacobian's Krusell-Smith model (its example): the
    household's endogenous gridpoint iteration and distribution (compiled
    interpolation, guvectorized), the steady state by brentq on beta, the
    general-equilibrium Jacobian and a TFP shock's impulse response."""
    from sequence_jacobian.examples import krusell_smith
    ss_model, ss, model, unknowns, targets, inputs = krusell_smith.dag()
    T = 200
    G = model.solve_jacobian(ss, unknowns, targets, inputs, T=T)
    shock = 0.01 * 0.9 ** np.arange(T)
    irf = model.solve_impulse_linear(ss, unknowns, targets, {"Z": shock})
    return {"ss": _sj_outputs(ss, ["beta", "K", "A", "C", "r", "w", "Y"]), "dist": np.asarray(ss.internals["hh"]["D"]),
            "G_K_Z": G["K"]["Z"], "G_C_Z": G["C"]["Z"], "irf_C": irf["C"], "irf_r": irf["r"]}


def sequence_jacobian_hank():
    """The one-asset HANK example: steady state by the package's Broyden
    solver on beta and vphi, hetoutputs (labor supply), the Jacobian and a
    monetary shock's impulse response."""
    from sequence_jacobian.examples import hank
    ss_model, ss, model, unknowns, targets, exogenous = hank.dag()
    T = 150
    G = model.solve_jacobian(ss, unknowns, targets, exogenous, T=T)
    irf = model.solve_impulse_linear(ss, unknowns, targets, {"rstar": -0.001 * 0.6 ** np.arange(T)})
    return {"ss": _sj_outputs(ss, ["beta", "vphi", "A", "C", "NE", "w", "Div"]), "G_pi_rstar": G["pi"]["rstar"],
            "G_Y_Z": G["Y"]["Z"], "irf_Y": irf["Y"], "irf_pi": irf["pi"]}


def hark_fast_consumers():
    """HARK's numba-solved consumption-saving models (ConsIndShockModelFast):
    the perfect-foresight and the idiosyncratic-shock consumer (infinite
    horizon, cubic interpolation on) solved by their compiled EGM steps;
    consumption, marginal value and MPC functions on a grid of market resources."""
    from HARK.ConsumptionSaving.ConsIndShockModelFast import (IndShockConsumerTypeFast,
                                                               PerfForesightConsumerTypeFast)
    m = np.linspace(0.1, 20.0, 200)
    pf = PerfForesightConsumerTypeFast(cycles=0)
    pf.solve()
    ind = IndShockConsumerTypeFast(cycles=0)
    ind.solve()
    cubic = IndShockConsumerTypeFast(cycles=0, CubicBool=True, vFuncBool=True)
    cubic.solve()
    life = IndShockConsumerTypeFast(cycles=1, T_cycle=1)
    life.solve()
    return {"pf_c": pf.solution[0].cFunc(m), "ind_c": ind.solution[0].cFunc(m), "ind_vP": ind.solution[0].vPfunc(m),
            "cubic_c": cubic.solution[0].cFunc(m), "cubic_v": cubic.solution[0].vFunc(m),
            "cubic_mpc": cubic.solution[0].cFunc.derivative(m), "life_c": life.solution[0].cFunc(m),
            "mNrmMin": np.array([ind.solution[0].mNrmMin, cubic.solution[0].mNrmMin])}


def _dem(n, seed):
    """A valley sloping to the south edge, with noise and a few pits."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:n, 0:n].astype(np.float64)
    dem = 0.5 * (n - y) + 0.3 * np.abs(x - n / 2) + rng.standard_normal((n, n)) * 2.0
    return dem.astype(np.float32)


def pyflwdir_from_dem():
    import pyflwdir
    from pyflwdir import dem as pdem
    data = _dem(150, 0)
    data[40:45, 40:45] = -9999.0
    filled, d8 = pdem.fill_depressions(data, nodata=-9999.0)
    filled_min, d8_min = pdem.fill_depressions(data, nodata=-9999.0, outlets="min")
    # (outlets="min" with a max_depth writes past the array's end in pyflwdir 0.5.12: kept apart)
    filled_pits, d8_pits = pdem.fill_depressions(data, nodata=-9999.0, max_depth=3.0)
    flw = pyflwdir.from_dem(data, nodata=-9999.0)
    return {"filled": filled, "d8": d8, "filled_min": filled_min, "d8_min": d8_min, "filled_pits": filled_pits, "d8_pits": d8_pits,
            "to_array": flw.to_array(), "ldd": flw.to_array("ldd"), "nextxy": np.asarray(flw.to_array("nextxy")),
            "slope": pdem.slope(data, nodata=-9999.0), "seq": flw.idxs_seq}


def pyflwdir_hydrography():
    import pyflwdir
    data = _dem(150, 1)
    flw = pyflwdir.from_dem(data, transform=(0.01, 0, 4.0, 0, -0.01, 52.0), latlon=True)
    upa = flw.upstream_area(unit="km2")
    strahler = flw.stream_order()
    classic = flw.stream_order(type="classic")
    basins = flw.basins()
    sub_sto, _ = flw.subbasins_streamorder(min_sto=3)
    sub_pfaf, _ = flw.subbasins_pfafstetter(depth=2)
    sub_area, _ = flw.subbasins_area(area_min=5.0)
    drain = strahler >= 3
    return {"upa": upa, "upa_cells": flw.upstream_area(), "strahler": strahler, "classic": classic,
            "basins": basins, "sub_sto": sub_sto, "sub_pfaf": sub_pfaf, "sub_area": sub_area,
            "distance": flw.stream_distance(mask=drain, unit="m"), "hand": flw.hand(drain, data),
            "floodplains": flw.floodplains(data, upa_min=1.0), "dem_adjust": flw.dem_adjust(data),
            "accuflux": flw.accuflux(np.ones(data.shape, np.float32)),
            "dem_dig_d4": flw.dem_dig_d4(data, rivmsk=drain), "bounds": flw.basin_bounds(basins)[1]}


def pyflwdir_upscale():
    import pyflwdir
    flw = pyflwdir.from_dem(_dem(200, 2))
    upa = flw.upstream_area()
    out = {}
    for method in ("ihu", "eam_plus", "dmm"):
        coarse, idxs_out = flw.upscale(10, method=method, uparea=upa)
        out[method] = coarse.to_array()
        out[method + "_out"] = idxs_out
    coarse, idxs_out = flw.upscale(10, method="ihu", uparea=upa)
    out["error"] = np.asarray(flw.upscale_error(coarse, idxs_out)[1])
    ucat_idxs = flw.ucat_outlets(10, uparea=upa)
    out["ucat_idxs"] = ucat_idxs
    out["ucat_map"], out["ucat_area"] = flw.ucat_area(ucat_idxs)
    out["rivlen"] = flw.subgrid_rivlen(ucat_idxs, mask=upa > 10)
    out["rivslp"] = flw.subgrid_rivslp(ucat_idxs, _dem(200, 2), mask=upa > 10)
    return out


def pyflwdir_paths():
    import pyflwdir
    data = _dem(120, 3)
    flw = pyflwdir.from_dem(data)
    upa = flw.upstream_area()
    starts = np.array([5 * 120 + 7, 30 * 120 + 60, 80 * 120 + 100])
    paths, dists = flw.path(idxs=starts, unit="m")
    snapped, dist = flw.snap(idxs=starts, mask=upa > 50)
    streams = flw.streams(min_sto=3)
    vec = flw.vectorize(mask=upa > 30)
    values = np.where(upa > 20, data, -9999.0).astype(np.float32)
    flw.order_cells(method="walk")
    return {"paths": np.concatenate(paths), "dists": np.asarray(dists), "snapped": snapped, "snap_dist": dist,
            "streams": np.array([len(f["geometry"]["coordinates"]) for f in streams]),
            "vectorize": np.array([len(f["geometry"]["coordinates"]) for f in vec]),
            "fillnodata": flw.fillnodata(values, -9999.0), "upstream_sum": flw.upstream_sum(np.ones(data.shape)),
            "moving_average": flw.moving_average(data, n=3), "moving_median": flw.moving_median(data, n=3),
            "main_upstream": flw.main_upstream(upa), "inflow": flw.inflow_idxs(flw.basins() == 1),
            "smooth_rivlen": flw.smooth_rivlen(np.full(data.shape, 1.0), 10.0),
            "walk_seq": flw.idxs_seq}


def pyflwdir_more():
    import pyflwdir
    from pyflwdir import gis_utils, regions
    data = _dem(120, 4)
    flw = pyflwdir.from_dem(data)
    upa = flw.upstream_area()
    ldd = pyflwdir.from_array(flw.to_array("ldd"), ftype="ldd")
    nextxy = pyflwdir.from_array(flw.to_array("nextxy"), ftype="nextxy")
    d8 = flw.to_array()
    d8[60, 60] = 0  # a pit inside
    with_pit = pyflwdir.from_array(d8, ftype="d8")
    idxs_out = flw.ucat_outlets(8, uparea=upa)
    hand = flw.hand(upa > 40, data)
    obs = np.zeros(data.shape, np.int32)
    obs[::30, ::40] = np.arange(1, 13).reshape(4, 3)
    filled, origin, dist = gis_utils.spread2d(obs, msk=data > data.mean() - 30, nodata=0)
    basins = flw.basins()
    rivwth = np.clip(upa / 20.0, 1, None).astype(np.float32)
    qbank = (upa * 0.05).astype(np.float32)
    return {"ldd_upa": ldd.upstream_area(), "nextxy_upa": nextxy.upstream_area(), "pit_basins": with_pit.basins(),
            "ucat_volume": np.asarray(flw.ucat_volume(idxs_out, hand)[1]),
            "rivavg": flw.subgrid_rivavg(idxs_out, data, mask=upa > 20),
            "spread": filled, "origin": origin, "spread_dist": dist,
            "outlets": regions.region_outlets(basins, flw.idxs_ds, flw.idxs_seq)[1],
            "interbasin": flw.interbasin_mask(basins == basins[60, 60], stream=upa > 40),
            "accuflux_down": flw.accuflux(np.ones(data.shape, np.float32), direction="down"),
            "estuaries": flw.classify_estuaries(data, rivwth),
            "depth_manning": flw.river_depth(qbank, rivwth, zs=data, rivdst=flw.distnc, method="manning"),
            "headwaters": flw.idxs_headwater if hasattr(flw, "idxs_headwater") else np.zeros(1)}


def numpy_quaternion_calculus():
    import quaternion
    from quaternion import calculus
    rng = np.random.default_rng(0)
    t = np.sort(rng.uniform(0, 10, 400))
    q = quaternion.from_rotation_vector(np.stack([np.sin(t), np.cos(0.5 * t), 0.1 * t], axis=1))
    f = quaternion.as_float_array(q)
    f3 = np.stack([f, 2 * f, f ** 2], axis=2)
    return {"d1": calculus.fd_derivative(f[:, 0], t), "d2": calculus.fd_derivative(f, t),
            "d3": calculus.fd_derivative(f3, t), "integral": calculus.fd_indefinite_integral(f, t),
            "definite": calculus.fd_definite_integral(f, t)}


def _climate(seed):
    """Daily weather on a 3 x 4 grid for two years, as xclim's inputs."""
    import pandas as pd
    import xarray as xr
    rng = np.random.default_rng(seed)
    time = pd.date_range("2001-01-01", periods=730, freq="D")
    day = np.arange(730)[:, None, None]
    shape = (730, 3, 4)
    lat = np.array([45.0, 50.0, 55.0])
    coords = {"time": time, "lat": lat, "lon": np.array([-80.0, -75.0, -70.0, -65.0])}

    def da(values, units):
        return xr.DataArray(values, dims=("time", "lat", "lon"), coords=coords, attrs={"units": units})

    tas = da(10 + 15 * np.sin(2 * np.pi * (day - 110) / 365) + 3 * rng.standard_normal(shape), "degC")
    pr = da(np.where(rng.random(shape) < 0.35, rng.gamma(0.8, 6.0, shape), 0.0), "mm/d")
    wind = da(np.abs(12 + 6 * rng.standard_normal(shape)), "km/h")
    hurs = da(np.clip(65 + 20 * rng.standard_normal(shape), 5, 100), "%")
    snd = da(np.where(tas.values < 0, 0.2, 0.0), "m")
    return tas, pr, wind, hurs, snd, xr.DataArray(lat, dims="lat", coords={"lat": lat}, attrs={"units": "degrees_north"})


def xclim_fire_weather():
    from xclim.indices import fire
    tas, pr, wind, hurs, snd, lat = _climate(0)
    dc, dmc, ffmc, isi, bui, fwi = fire.cffwis_indices(tas, pr, wind, hurs, lat)
    dc_ow, *_ = fire.cffwis_indices(tas, pr, wind, hurs, lat, season_method="WF93", overwintering=True)
    return {"dc": dc.values, "dmc": dmc.values, "ffmc": ffmc.values, "isi": isi.values, "bui": bui.values,
            "fwi": fwi.values, "dc_overwintering": dc_ow.values,
            "season": fire.fire_season(tas, method="WF93").values.astype(np.int64)}


def xclim_drought_factors():
    from xclim.indices import fire
    tas, pr, wind, hurs, snd, lat = _climate(1)
    pr_annual = (pr.mean("time") * 365).assign_attrs(units="mm/year")
    kbdi = fire.keetch_byram_drought_index(pr, tas.clip(-5, 40).assign_attrs(units="degC"), pr_annual)
    df = fire.griffiths_drought_factor(pr, kbdi, "xlim")
    ffdi = fire.mcarthur_forest_fire_danger_index(df, tas, hurs, wind)
    return {"kbdi": kbdi.values, "drought_factor": df.values, "ffdi": ffdi.values}


def xclim_converters_runs():
    import xarray as xr
    from xclim.indices import converters, run_length as rl
    tas, pr, wind, hurs, snd, lat = _climate(2)
    mrt = (tas + 5).assign_attrs(units="degC")
    utci = converters.universal_thermal_climate_index(tas, hurs, wind, mrt=mrt)
    wpp = converters.wind_power_potential((wind * 2).assign_attrs(units="km/h"))
    wet = pr > 1.0
    values, lengths, starts = rl.rle_1d(wet.values[:, 0, 0])
    with xr.set_options(keep_attrs=True):
        return {"utci": utci.values, "wind_power": wpp.values, "rle_values": np.asarray(values).astype(np.int64),
                "rle_lengths": np.asarray(lengths), "rle_starts": np.asarray(starts),
                "rle": rl.rle(wet).values, "longest": rl.longest_run(wet, freq="YS").values,
                "first_run": rl.first_run(wet, window=3, ufunc_1dim=True).values,
                "windowed_count": rl.windowed_run_count(wet, window=3, ufunc_1dim=True).values}


def pointpats_centrography():
    """Skyum's minimum bounding circle, whose compiled _circle takes its
    distance function as a compiled default."""
    from pointpats import centrography as cg
    rng = np.random.default_rng(0)
    out = {}
    for i, n in enumerate((5, 40, 300)):
        pts = rng.standard_normal((n, 2)) * [3, 1] + [10, -4]
        (x, y), r = cg.minimum_bounding_circle(pts)
        out[f"circle{i}"] = np.array([x, y, r])
    return out


def mapclassify_fisher_jenks():
    import mapclassify
    rng = np.random.default_rng(1)
    y = np.concatenate([rng.normal(0, 1, 300), rng.normal(6, 2, 300), rng.lognormal(2, 0.5, 200)])
    fj = mapclassify.FisherJenks(y, k=6)
    np.random.seed(2)  # the sample is drawn by NumPy's global generator
    fjs = mapclassify.FisherJenksSampled(y, k=5, pct=0.5)
    return {"bins": fj.bins, "counts": fj.counts, "yb": fj.yb, "sampled_bins": np.sort(fjs.bins)}


def _velocity_model():
    # thickness (km), Vp, Vs (km/s), density (g/cm3): a layered crust over a half space
    return np.array([[10.0, 7.00, 3.50, 2.00], [10.0, 6.80, 3.40, 2.00], [10.0, 7.00, 3.50, 2.00],
                     [10.0, 7.60, 3.80, 2.00], [10.0, 8.40, 4.20, 2.00], [10.0, 9.00, 4.50, 2.00],
                     [10.0, 9.40, 4.70, 2.00], [10.0, 9.60, 4.80, 2.00], [10.0, 9.50, 4.75, 2.00]]).T


def disba_dispersion():
    from disba import GroupDispersion, PhaseDispersion
    t = np.logspace(0.0, 2.0, 40)
    out = {}
    for algorithm in ("dunkin", "fast-delta"):
        pd = PhaseDispersion(*_velocity_model(), algorithm=algorithm)
        gd = GroupDispersion(*_velocity_model(), algorithm=algorithm)
        for mode in (0, 1):
            out[f"phase_{algorithm}_{mode}"] = pd(t, mode=mode, wave="rayleigh").velocity
            out[f"group_{algorithm}_{mode}"] = gd(t, mode=mode, wave="rayleigh").velocity
        out[f"love_{algorithm}"] = pd(t, mode=0, wave="love").velocity
    return out


def disba_eigen_sensitivity():
    from disba import Ellipticity, EigenFunction, GroupSensitivity, PhaseSensitivity
    model = _velocity_model()
    eigf = EigenFunction(*model)
    ray = eigf(20.0, mode=0, wave="rayleigh")
    love = eigf(20.0, mode=0, wave="love")
    ps = PhaseSensitivity(*model)
    gs = GroupSensitivity(*model)
    ell = Ellipticity(*model)
    return {"ray_ur": ray.ur, "ray_uz": ray.uz, "love_uu": love.uu,
            "phase_kernel": ps(20.0, mode=0, wave="rayleigh", parameter="velocity_s").kernel,
            "group_kernel": gs(20.0, mode=0, wave="love", parameter="thickness").kernel,
            "ellipticity": ell(np.logspace(0.0, 1.5, 20)).ellipticity}


def fastjmd95_density():
    import fastjmd95
    rng = np.random.default_rng(0)
    s, t, p = rng.uniform(30, 38, (50, 40)), rng.uniform(-2, 30, (50, 40)), rng.uniform(0, 5000, (50, 40))
    out = {"rho": fastjmd95.rho(s, t, p), "drhodt": fastjmd95.drhodt(s, t, p), "drhods": fastjmd95.drhods(s, t, p)}
    out["rho32"] = fastjmd95.rho(s.astype(np.float32), t.astype(np.float32), p.astype(np.float32))
    return out


def _coo(seed, nrows=300, ncols=200, nnz=3000):
    rng = np.random.default_rng(seed)
    idx = rng.choice(nrows * ncols, nnz, replace=False)
    return idx // ncols, idx % ncols, rng.standard_normal(nnz), (nrows, ncols)


def csr_matrices():
    from csr import CSR
    rows, cols, vals, shape = _coo(0)
    m = CSR.from_coo(rows, cols, vals, shape=shape)
    m2 = CSR.from_coo(*_coo(1, 200, 150, 1500)[:3], shape=(200, 150))
    v = np.random.default_rng(2).standard_normal(200)
    t = m.transpose()
    prod = m.multiply(m2)
    norm = m.copy()
    norm.normalize_rows("center")
    unit = m.copy()
    unit.normalize_rows("unit")
    picked = m.pick_rows(np.array([5, 7, 7, 299, 0]))
    return {"dense": m.to_scipy().toarray(), "mult_vec": m.mult_vec(v), "transpose": t.to_scipy().toarray(),
            "product": prod.to_scipy().toarray(), "centered": norm.to_scipy().toarray(),
            "unit": unit.to_scipy().toarray(), "picked": picked.to_scipy().toarray(),
            "row_nnzs": m.row_nnzs(), "rowinds": m.rowinds(), "row5": m.row(5), "sub": m.subset_rows(10, 40).to_scipy().toarray(),
            "filtered": m.filter_nnzs(m.values > 0).to_scipy().toarray()}


def csr_compiled_api():
    """csr's structref in user code: a compiled function taking a CSR."""
    import numba
    import csr
    from csr import CSR
    rows, cols, vals, shape = _coo(3)
    m = CSR.from_coo(rows, cols, vals, shape=shape)

    @numba.njit
    def row_sums(a):
        out = np.zeros(a.nrows)
        for i in range(a.nrows):
            sp, ep = a.row_extent(i)
            for j in range(sp, ep):
                out[i] += a.values[j]
        return out

    @numba.njit
    def build(n):
        a = csr.create_from_sizes(n, n, np.full(n, 2, dtype=np.intc))
        for i in range(n):
            a.colinds[2 * i] = i
            a.colinds[2 * i + 1] = (i + 1) % n
            a.values[2 * i] = i
            a.values[2 * i + 1] = -1.0
        return a

    @numba.njit
    def through(a):
        return a.transpose(), a.row(3), a.row_cs(3), a.row_vs(3), a.row_mask(3)

    tr, row, cs, vs, nnzs = through(m)
    return {"row_sums": row_sums(m), "built": build(10).to_scipy().toarray(), "tr": tr.to_scipy().toarray(),
            "row": row, "cs": cs, "vs": vs, "nnzs": nnzs}


def consav_interpolation():
    """Multilinear interpolation in 1 to 4 dimensions on nonlinear grids
    (scalar, vectorised, prepared and monotone variants), as an
    endogenous-grid solver calls them."""
    from consav import linear_interp
    from consav.grids import nonlinspace, nonlinspace_jit
    rng = np.random.default_rng(11)
    g1, g2, g3, g4 = nonlinspace(0.0, 10.0, 40, 1.3), nonlinspace_jit(0.1, 5.0, 25, 1.1), \
        np.linspace(-1.0, 1.0, 12), nonlinspace(1.0, 3.0, 9, 1.5)
    v1 = np.log1p(g1)
    v2 = np.add.outer(np.sqrt(g1), g2 ** 2)
    v3 = v2[:, :, None] * np.cos(g3)[None, None, :]
    v4 = v3[..., None] + g4[None, None, None, :]
    x1, x2 = np.sort(rng.uniform(-1.0, 11.0, 500)), rng.uniform(0.0, 5.5, 500)
    x3, x4 = rng.uniform(-1.2, 1.2, 500), rng.uniform(0.9, 3.2, 500)
    out = {}
    y = np.empty(500)
    linear_interp.interp_1d_vec(g1, v1, x1, y)
    out["1d_vec"] = y.copy()
    prep = linear_interp.interp_1d_prep(500)
    linear_interp.interp_1d_vec_mon(prep, g1, v1, x1, y)
    out["1d_mon"] = y.copy()
    linear_interp.interp_1d_vec_mon_noprep(g1, v1, x1, y)
    out["1d_mon_noprep"] = y.copy()
    out["1d"] = np.array([linear_interp.interp_1d(g1, v1, x) for x in x1[:50]])
    out["2d"] = np.array([linear_interp.interp_2d(g1, g2, v2, a, b) for a, b in zip(x1[:50], x2[:50])])
    linear_interp.interp_2d_vec(g1, g2, v2, x1, x2, y)
    out["2d_vec"] = y.copy()
    prep2 = linear_interp.interp_2d_prep(g1, 3.3, 500)
    linear_interp.interp_2d_only_last_vec_mon(prep2, g1, g2, v2, 3.3, np.sort(x2), y)
    out["2d_last_mon"] = y.copy()
    out["3d"] = np.array([linear_interp.interp_3d(g1, g2, g3, v3, a, b, c) for a, b, c in zip(x1[:50], x2[:50], x3[:50])])
    linear_interp.interp_3d_vec(g1, g2, g3, v3, x1, x2, x3, y)
    out["3d_vec"] = y.copy()
    out["4d"] = np.array([linear_interp.interp_4d(g1, g2, g3, g4, v4, a, b, c, d)
                          for a, b, c, d in zip(x1[:50], x2[:50], x3[:50], x4[:50])])
    out["search"] = np.array([linear_interp.binary_search(0, g1.size, g1, x) for x in x1[:100]])
    return out


def consav_optimizers():
    """Golden-section and Newton-Raphson optimisers taking a user's @njit
    objective and its extra arguments, the upper envelope built around a
    utility function, and Markov choice draws: a value-function iteration of
    a buffer-stock model on a small grid."""
    from numba import njit
    from consav import golden_section_search, linear_interp, markov, newton_raphson, upperenvelope

    @njit
    def utility(c, rho):
        return c ** (1.0 - rho) / (1.0 - rho)

    @njit
    def obj_bellman(c, m, rho, beta, grid_a, v_next):
        a = m - c
        return -(utility(c, rho) + beta * linear_interp.interp_1d(grid_a, v_next, a))

    @njit
    def solve(grid_m, grid_a, v_next, rho, beta):
        c = np.empty(grid_m.size)
        v = np.empty(grid_m.size)
        for i in range(grid_m.size):
            m = grid_m[i]
            c[i] = golden_section_search.optimizer(obj_bellman, 1e-8, m, args=(m, rho, beta, grid_a, v_next),
                                                   tol=1e-8)
            v[i] = -obj_bellman(c[i], m, rho, beta, grid_a, v_next)
        return c, v

    @njit
    def quad(x, a, b):
        return (x[0] - a) ** 2 + 2.0 * (x[1] + b) ** 2 + 0.5 * x[0] * x[1] + x[0] ** 4

    grid_m = np.linspace(0.1, 10.0, 120)
    grid_a = np.linspace(0.0, 10.0, 120)
    v = utility(grid_a + 0.5, 2.0)
    for _ in range(5):
        c, v = solve(grid_m, grid_a, v, 2.0, 0.96)
    xmin = newton_raphson.optimizer(quad, np.array([0.5, 0.5]), args=(1.0, 0.5))
    envelope = upperenvelope.create(utility)
    m_vec = grid_a + np.sqrt(grid_a + 0.2)
    c_vec = np.sqrt(grid_a + 0.2)
    w_vec = -1.0 / (1.0 + grid_a)
    c_ast, v_ast = np.zeros(150), np.zeros(150)
    envelope(grid_a, m_vec, c_vec, w_vec, np.linspace(0.05, 12.0, 150), c_ast, v_ast, 2.0)
    cumsum = np.cumsum(np.full(7, 1 / 7))
    draws = np.array([markov.choice(r, cumsum) for r in np.random.default_rng(3).random(200)])
    return {"c": c, "v": v, "newton": xmin, "c_ast": c_ast, "v_ast": v_ast, "draws": draws}


def spherical_wigner():
    """Wigner's d and 𝔇 matrices and spin-weighted spherical harmonics up to
    ℓ = 16 by spherical's H recursions, for rotors of a quaternion array
    (quaternionic), with the Wigner 3j symbols, Clebsch-Gordan coefficients
    and the Wigner3jCalculator jitclass."""
    import quaternionic
    import spherical
    rng = np.random.default_rng(21)
    R = quaternionic.array(rng.standard_normal((6, 4))).normalized
    wigner = spherical.Wigner(16)
    d = np.array([wigner.d(np.exp(1j * beta)) for beta in (0.3, 1.1, 2.9)])
    D = wigner.D(R)
    Y = np.array([wigner.sYlm(s, R) for s in (-2, 0, 1)])
    calc = spherical.Wigner3jCalculator(8, 8)
    w3j = np.concatenate([calc.calculate(j2, j3, m2, m3).copy()
                          for j2, j3, m2, m3 in ((2, 3, 1, -1), (5, 4, -2, 0), (8, 8, 3, 3))])
    symbols = np.array([spherical.Wigner3j(2, 6, 4, 0, 0, 0), spherical.Wigner3j(3, 3, 2, 1, -1, 0),
                        spherical.clebsch_gordan(1.0, 0.5, 2.0, -0.5, 2.5, 0.0)])
    return {"d": d, "D": D, "sYlm": Y, "wigner3j": w3j, "symbols": symbols,
            "index": np.array([wigner.Dindex(5, -2, 3), wigner.Yindex(7, -4), wigner.Hindex(6, 2, -1)])}


def spherical_modes():
    """Modes objects: evaluation on a grid, rotation, multiplication of two
    spin-weighted functions, the eth/ethbar operators, and complex powers."""
    import quaternionic
    import spherical
    rng = np.random.default_rng(22)
    ell_max = 8
    size = spherical.Ysize(0, ell_max)
    f = spherical.Modes(rng.standard_normal((size,)) + 1j * rng.standard_normal((size,)), spin_weight=0,
                        ell_max=ell_max)
    g = spherical.Modes(rng.standard_normal((size,)) + 1j * rng.standard_normal((size,)), spin_weight=0,
                        ell_max=ell_max)
    R = quaternionic.array.from_rotation_vector(rng.standard_normal((5, 3)))
    wigner = spherical.Wigner(ell_max)
    grid = f.grid(n_theta=9, n_phi=17)
    rotated = wigner.rotate(f, R[0])
    evaluated = wigner.evaluate(f, R)
    product = spherical.multiply(np.asarray(f), 0, ell_max, 0, np.asarray(g), 0, ell_max, 0)
    powers = spherical.complex_powers(np.exp(1j * np.linspace(0, 3, 7)), 6)
    return {"grid": np.asarray(grid), "rotated": np.asarray(rotated), "evaluated": np.asarray(evaluated),
            "product": np.asarray(product[0]), "eth": np.asarray(f.eth), "ethbar": np.asarray(f.ethbar),
            "powers": powers, "theta_phi": spherical.theta_phi(5, 7)}


def _sxs_waveform():
    import sxs
    ell_min, ell_max = 2, 6
    t = np.linspace(0.0, 400.0, 2001)
    modes = [(ell, m) for ell in range(ell_min, ell_max + 1) for m in range(-ell, ell + 1)]
    data = np.empty((t.size, len(modes)), dtype=complex)
    for k, (ell, m) in enumerate(modes):
        amp = 0.1 / (ell - 1) ** 2 * (1 + 0.05 * m) * (1 + t / 800)
        data[:, k] = amp * np.exp(1j * (m * 0.05 + 0.01 * ell) * t * (1 + t / 2000))
    return sxs.WaveformModes(data, time=t, time_axis=0, modes_axis=1, ell_min=ell_min, ell_max=ell_max,
                             spin_weight=-2, data_type="h")


def sxs_fluxes():
    """Energy, momentum and angular-momentum fluxes and the Poincaré fluxes
    of a waveform's modes (sparse matrix expectation values), ⟨L ∂ₜ⟩ and
    ⟨LL⟩ of its modes, its angular velocity, its values in two directions,
    and the waveform rotated (spherical's Wigner matrices)."""
    import quaternionic
    from sxs.waveforms import flux
    h = _sxs_waveform()
    return {"energy": np.asarray(flux.energy_flux(h)), "momentum": np.asarray(flux.momentum_flux(h)),
            "angular_momentum": np.asarray(flux.angular_momentum_flux(h)),
            "poincare": np.concatenate([np.asarray(x).ravel() for x in flux.poincare_fluxes(h)]),
            "Ldt": np.asarray(h.expectation_value_Ldt), "LL": np.asarray(h.expectation_value_LL),
            "dominant_eigenvector": np.asarray(h.dominant_eigenvector_LL()), "angular_velocity": h.angular_velocity,
            "evaluated": np.asarray(h[::100].evaluate(np.array([[0.3, 1.2], [2.0, -0.4]]))),
            "rotated": np.asarray(h[::100].rotate(quaternionic.array([0.9, 0.1, -0.3, 0.2]).normalized))}


def sxs_utilities():
    """sxs's compiled helpers: smooth transition and bump functions, monotonic
    indices, bitwise diff and xor along an axis (its compression filters) and
    multishuffle."""
    from sxs.utilities import bitwise, monotonicity, smooth_functions
    rng = np.random.default_rng(23)
    x = np.linspace(-1.0, 3.0, 4001)
    y = np.empty_like(x)
    smooth_functions.transition_function_inplace(y, x, 0.2, 1.7)
    yp = np.empty_like(x)
    smooth_functions.transition_function_derivative_inplace(yp, x, 0.2, 1.7, 1.0, 4.0, 2)
    bump = np.empty_like(x)
    smooth_functions.bump_function_inplace(bump, x, 0.0, 0.5, 1.5, 2.5, 0.0, 1.0, 0.0, 3, 3)
    noisy = np.cumsum(rng.standard_normal(3000)) + np.arange(3000) * 0.1
    ints = rng.integers(0, 2 ** 40, size=(7, 300)).astype(np.int64)
    floats = rng.standard_normal((5, 200))
    diffed = bitwise.diff(ints, axis=-1)
    xored = bitwise.xor(floats.view(np.uint64), axis=-1)
    shuffle = bitwise.multishuffle((8, 8, 16, 32))
    shuffled = shuffle(rng.integers(0, 2 ** 63, size=500, dtype=np.uint64))
    return {"transition": y, "derivative": yp, "bump": bump,
            "monotonic": monotonicity.monotonic_indices(noisy).astype(np.int64),
            "diff": diffed, "undiff": bitwise.diff(diffed, reverse=True, axis=-1),
            "xor": xored, "unxor": bitwise.xor(xored, reverse=True, axis=-1).view(np.float64),
            "shuffle": shuffled}


def _momenta(n, seed):
    rng = np.random.default_rng(seed)
    p = rng.standard_normal((n, 3)) * 20.0
    mass = rng.uniform(0.1, 5.0, n)
    return p, np.sqrt((p ** 2).sum(1) + mass ** 2)


def vector_lorentz():
    """vector's objects in compiled code (registered through Numba's
    numba_extensions entry point): 4-momenta made in a loop from arrays,
    pair invariant masses, ΔR, boosts to the pair's rest frame, rapidities,
    and vector objects passed in and returned."""
    import vector
    from numba import njit

    @njit
    def pairs(p, E):
        n = p.shape[0] // 2
        out = np.empty((n, 7))
        for i in range(n):
            a = vector.obj(px=p[2 * i, 0], py=p[2 * i, 1], pz=p[2 * i, 2], E=E[2 * i])
            b = vector.obj(px=p[2 * i + 1, 0], py=p[2 * i + 1, 1], pz=p[2 * i + 1, 2], E=E[2 * i + 1])
            s = a + b
            rest = a.boost_p4(-s)  # (the boost by the sum's opposite, into its rest frame)
            out[i, 0] = s.mass
            out[i, 1] = a.deltaR(b)
            out[i, 2] = s.rapidity
            out[i, 3] = rest.E
            out[i, 4] = a.deltaphi(b)
            out[i, 5] = s.pt
            out[i, 6] = a.dot(b)
        return out

    @njit
    def heaviest(a, b, c):
        s = a.add(b)
        return s if s.mass > c.mass else c

    p, E = _momenta(4000, 31)
    first = heaviest(vector.obj(px=1.0, py=2.0, pz=3.0, E=10.0), vector.obj(px=-1.0, py=0.5, pz=2.0, E=5.0),
                     vector.obj(px=0.0, py=0.0, pz=0.0, E=12.0))
    return {"pairs": pairs(p, E), "heaviest": np.array([first.px, first.py, first.pz, first.E])}


def vector_coordinates():
    """2-, 3- and 4-vectors in compiled code over their coordinate systems
    (x-y, ρ-φ, z, θ, η, t, τ): conversions, rotations about the axes and
    about another vector, unit vectors, cross products, angles, scaling,
    and comparisons (rotate_euler's default order Numba refuses: vector
    types it as an Omitted argument it has no signature for)."""
    import vector
    from numba import njit

    @njit
    def planar(xs, ys):
        out = np.empty((xs.size, 6))
        for i in range(xs.size):
            v = vector.obj(x=xs[i], y=ys[i])
            w = vector.obj(rho=1.5 + xs[i] ** 2, phi=ys[i])
            out[i, 0] = v.rho
            out[i, 1] = v.phi
            out[i, 2] = v.rotateZ(0.7).x
            out[i, 3] = (v - w).rho
            out[i, 4] = v.unit().y
            out[i, 5] = v.scale(2.5).dot(w)
        return out

    @njit
    def spatial(xs, ys, zs):
        out = np.empty((xs.size, 8))
        for i in range(xs.size):
            v = vector.obj(x=xs[i], y=ys[i], z=zs[i])
            w = vector.obj(rho=1.0 + abs(ys[i]), phi=xs[i], eta=zs[i])
            u = vector.obj(x=ys[i], y=zs[i], theta=1.2)
            c = v.cross(w)
            out[i, 0] = v.mag
            out[i, 1] = v.theta
            out[i, 2] = v.eta
            out[i, 3] = c.z
            out[i, 4] = v.deltaangle(w)
            out[i, 5] = v.rotateX(0.3).rotateY(-0.2).z
            out[i, 6] = v.rotate_axis(w, 0.3).x
            out[i, 7] = u.z + w.costheta + (1.0 if v.is_parallel(v.scale(2.0)) else 0.0)
        return out

    @njit
    def temporal(xs, ys, zs):
        out = np.empty((xs.size, 4))
        for i in range(xs.size):
            v = vector.obj(x=xs[i], y=ys[i], z=zs[i], tau=1.0 + abs(zs[i]))
            w = vector.obj(pt=1.0 + abs(xs[i]), phi=ys[i], eta=zs[i], mass=0.5)
            out[i, 0] = v.t
            out[i, 1] = (v + w).tau
            out[i, 2] = v.beta
            out[i, 3] = w.boostZ(0.4).E
        return out

    rng = np.random.default_rng(32)
    xs, ys, zs = rng.standard_normal(1000), rng.standard_normal(1000), rng.standard_normal(1000)
    return {"planar": planar(xs, ys), "spatial": spatial(xs, ys, zs), "temporal": temporal(xs, ys, zs)}


def ht_convection():
    """ht.numba (ht compiled through fluids.numba's transform, as its users
    import it): Nusselt numbers of internal, external and free convection,
    tube banks and packed beds, and finned-tube air coolers."""
    import ht.numba as h
    return {"internal_laminar": h.Nu_conv_internal(Re=1E3, Pr=.7, x=.01, Di=.1),
            "gnielinski": h.turbulent_Gnielinski(Re=1E5, Pr=1.2, fd=0.0185),
            "baehr_stephan": h.laminar_entry_Baehr_Stephan(Re=100000, Pr=1.1, L=5, Di=.5),
            "zukauskas": h.Nu_cylinder_Zukauskas(7992, 0.707, 0.69), "cylinder": h.Nu_external_cylinder(6071, 0.7),
            "plate": h.Nu_external_horizontal_plate(Re=1e7, Pr=.7, L=0.1),
            "churchill_plate": h.Nu_vertical_plate_Churchill(0.69, 2.63E9),
            "horizontal_cylinder": h.Nu_horizontal_cylinder(0.72, 1E7), "sphere": h.Nu_sphere_Churchill(.7, 1E7),
            "rayleigh": h.Nu_Nusselt_Rayleigh_Holling_Herwig(5.54, 3.21e8, buoyancy=True),
            "tube_bank": h.Nu_Zukauskas_Bejan(Re=1E4, Pr=7., tube_rows=10, pitch_parallel=.05, pitch_normal=.05),
            "packed_bed": h.Nu_packed_bed_Gnielinski(dp=8E-4, voidage=0.4, vs=1, rho=1E3, mu=1E-3, Pr=0.7),
            "rectangular": h.Nu_laminar_rectangular_Shan_London(.7),
            "ganguli": h.h_Ganguli_VDI(m=1.8, A=3.0, A_min=1.0, A_increase=10.0, A_fin=10.0, A_tube_showing=1.0,
                                       tube_diameter=0.03, fin_diameter=0.05, bare_length=0.01, fin_thickness=0.001,
                                       tube_rows=5, pitch_parallel=0.05, pitch_normal=0.06, rho=1.161, Cp=1007.,
                                       mu=1.85E-5, k=0.0263, k_fin=205)}


def ht_boiling_condensation():
    """ht.numba's boiling and condensation: nucleate boiling (Rohsenow,
    Cooper), critical heat flux, flow boiling (Chen-Bennett), laminar film
    condensation and Shah's correlation."""
    import ht.numba as h
    return {"rohsenow": h.Rohsenow(Te=4.9, Cpl=4217., kl=0.680, mul=2.79E-4, sigma=0.0589, Hvap=2.257E6, rhol=958.,
                                   rhog=0.597, Csf=0.011, n=1.26),
            "cooper": h.Cooper(Te=16.2, P=101325., Pc=22048320., MW=18.02),
            "qmax": h.qmax_boiling(D=0.0127, sigma=8.2E-3, Hvap=272E3, rhol=567., rhog=18.09, P=5E5, Pc=4.6E6),
            "chen_bennett": h.Chen_Bennett(m=0.106, x=0.2, D=0.0212, rhol=567, rhog=18.09, mul=156E-6, mug=7.11E-6,
                                           kl=0.086, Cpl=2730, Hvap=2E5, sigma=0.02, dPsat=1E5, Te=3),
            "nusselt_laminar": h.Nusselt_laminar(Tsat=370, Tw=350, rhog=7.0, rhol=585., kl=0.091, mul=158.9E-6,
                                                 Hvap=776900, L=0.1),
            "shah": h.Shah(m=1, x=0.4, D=.3, rhol=800, mul=1E-5, kl=0.6, Cpl=2300, P=1E6, Pc=2E7)}


def ht_exchangers():
    """ht.numba's heat exchangers: effectiveness from NTU (its adaptive
    quadrature, quad_adaptive, run by exec under one made-up file name),
    temperature effectiveness, LMTD and its correction factors, tube counts
    and bundle sizes, shell-side pressure drop, radiation and conduction."""
    import ht.numba as h
    return {"effectiveness": h.effectiveness_from_NTU(NTU=5, Cr=0.7, subtype="counterflow"),
            "effectiveness_crossflow": h.effectiveness_from_NTU(NTU=2, Cr=0.3, subtype="crossflow"),
            "temperature_effectiveness": h.temperature_effectiveness_basic(R1=.1, NTU1=4, subtype="crossflow"),
            "fakheri": h.F_LMTD_Fakheri(Thi=15, Tho=130, Tci=110, Tco=180, shells=1), "lmtd": h.LMTD(100., 60., 30., 40.2),
            "ntubes": h.Ntubes(DBundle=1.2, Do=.025, pitch=.03125),
            "bundle": h.size_bundle_from_tubecount(N=1285, Do=.025, pitch=.03125),
            "aircooler": h.Ft_aircooler(Thi=125., Tho=45., Tci=25., Tco=95., Ntp=1, rows=4),
            "kern": h.dP_Kern(m=11., rho=995., mu=0.000803, DShell=0.584, LSpacing=0.1524, pitch=0.0254, Do=.019,
                              NBaffles=22, mu_w=0.000657),
            "blackbody": h.blackbody_spectral_radiance(T=800., wavelength=4E-6),
            "q_rad": h.q_rad(emissivity=0.8, T=400, T2=305.), "r_cylinder": h.R_cylinder(0.9, 1., 20., 10.),
            "sphere_to_plane": h.S_isothermal_sphere_to_plane(1, 100)}


def rocket_fft_numpy():
    """numpy.fft in compiled code, as rocket-fft adds it to Numba (its
    numba_extensions entry point): complex and real transforms in 1, 2 and n
    dimensions with norms and axes, Hermitian ones, frequencies and shifts,
    and a spectral derivative and convolution built from them."""
    from numba import njit

    @njit
    def transforms(x, y, img, cube):
        return (np.fft.fft(x), np.fft.ifft(y, n=70), np.fft.rfft(x, norm="ortho"), np.fft.irfft(y, n=128),
                np.fft.fft2(img), np.fft.ifft2(img, axes=(0, 1)), np.fft.rfftn(cube), np.fft.fftn(cube, axes=(0, 2)),
                np.fft.irfftn(np.fft.rfftn(cube), s=cube.shape), np.fft.hfft(y[:33]), np.fft.ihfft(x),
                np.fft.fftfreq(64, 0.1), np.fft.rfftfreq(64, 0.1), np.fft.fftshift(np.fft.fft2(img)),
                np.fft.ifftshift(np.fft.fftfreq(65)), np.roll(img, (2, -3), axis=(0, 1)))

    @njit
    def derivative(u, length):
        k = 2j * np.pi * np.fft.fftfreq(u.size, length / u.size)
        return np.fft.ifft(k * np.fft.fft(u)).real

    @njit
    def convolve(a, b):
        n = a.size + b.size - 1
        return np.fft.irfft(np.fft.rfft(a, n) * np.fft.rfft(b, n), n)

    rng = np.random.default_rng(41)
    x = rng.standard_normal(128)
    y = rng.standard_normal(64) + 1j * rng.standard_normal(64)
    img = rng.standard_normal((24, 30))
    cube = rng.standard_normal((6, 8, 10))
    names = ("fft", "ifft", "rfft", "irfft", "fft2", "ifft2", "rfftn", "fftn", "irfftn", "hfft", "ihfft",
             "fftfreq", "rfftfreq", "fftshift", "ifftshift", "roll")
    out = dict(zip(names, transforms(x, y, img, cube)))
    grid = np.linspace(0, 2 * np.pi, 256, endpoint=False)
    out["derivative"] = derivative(np.sin(3 * grid), 2 * np.pi)
    out["convolve"] = convolve(x, rng.standard_normal(40))
    out["float32"] = np.fft.rfft(x.astype(np.float32))
    return out


def rocket_fft_scipy():
    """scipy.fft in compiled code (rocket-fft's overloads): complex and real
    transforms in 1, 2 and n dimensions, with workers and norms, and
    next_fast_len."""
    import scipy.fft
    from numba import njit

    @njit
    def transforms(x, img):
        return (scipy.fft.fft(x, workers=2), scipy.fft.rfft(x), scipy.fft.irfft(scipy.fft.rfft(x)),
                scipy.fft.fft2(img), scipy.fft.rfftn(img), scipy.fft.ifftn(img, norm="forward"),
                scipy.fft.ihfft(x))

    @njit
    def fast_lengths(ns):
        out = np.empty((2, ns.size), dtype=np.int64)
        for i in range(ns.size):
            out[0, i] = scipy.fft.next_fast_len(ns[i], True)
            out[1, i] = scipy.fft.next_fast_len(ns[i])
        return out

    rng = np.random.default_rng(42)
    out = dict(zip(("fft", "rfft", "irfft", "fft2", "rfftn", "ifftn", "ihfft"),
                   transforms(rng.standard_normal(90), rng.standard_normal((12, 20)))))
    out["next_fast_len"] = fast_lengths(np.concatenate([np.arange(1, 200), [1021, 4099, 10 ** 9 + 7]]))
    return out


def rocket_fft_dct_dst():
    """scipy.fft's discrete cosine and sine transforms in compiled code
    (rocket-fft's overloads), of each type, their inverses and n-d ones."""
    import scipy.fft
    from numba import njit

    @njit
    def transforms(x, img):
        return (scipy.fft.dct(x), scipy.fft.dct(x, type=1), scipy.fft.dct(x, type=3, norm="ortho"),
                scipy.fft.idct(x, type=2), scipy.fft.dst(x, type=2), scipy.fft.dst(x, type=4),
                scipy.fft.idst(x, type=1), scipy.fft.dctn(img), scipy.fft.idctn(img, type=1),
                scipy.fft.dstn(img, type=3))

    rng = np.random.default_rng(44)
    names = ("dct2", "dct1", "dct3", "idct", "dst2", "dst4", "idst1", "dctn", "idctn1", "dstn3")
    return dict(zip(names, transforms(rng.standard_normal(90), rng.standard_normal((12, 20)))))


def rocket_fft_special():
    """rocket-fft's special functions in compiled code: loggamma of complex
    arguments and the Pochhammer symbol."""
    from numba import njit
    from rocket_fft.special import loggamma, poch

    @njit
    def values(z, x, m):
        out = np.empty(z.size, dtype=np.complex128)
        p = np.empty(x.size)
        for i in range(z.size):
            out[i] = loggamma(z[i])
        for i in range(x.size):
            p[i] = poch(x[i], m[i])
        return out, p

    rng = np.random.default_rng(43)
    z = rng.uniform(0.1, 20, 50) + 1j * rng.uniform(-5, 5, 50)
    lg, p = values(z, rng.uniform(0.1, 10, 50), rng.uniform(0.0, 5, 50))
    return {"loggamma": lg, "poch": p}


def numba_scipy_special():
    """scipy.special in compiled code as numba-scipy adds it to Numba (its
    numba_extensions entry point, SciPy's Cython kernels by address):
    gamma-family, error functions, Bessel functions of each kind, elliptic
    integrals, hypergeometric and zeta functions, logistic and normal
    distribution functions, over arrays in loops."""
    import scipy.special as sc
    from numba import njit

    @njit
    def table(x, nu):
        out = np.empty((26, x.size))
        for i in range(x.size):
            v = x[i]
            out[0, i] = sc.gamma(v)
            out[1, i] = sc.gammaln(v)
            out[2, i] = sc.psi(v)
            out[3, i] = sc.rgamma(v)
            out[4, i] = sc.gammainc(nu, v)
            out[5, i] = sc.gammaincc(nu, v)
            out[6, i] = sc.beta(v, nu)
            out[7, i] = sc.betainc(nu, 2.5, v / (1.0 + v))
            out[8, i] = sc.erf(v - 2.0)
            out[9, i] = sc.erfc(v - 2.0)
            out[10, i] = sc.erfcx(v)
            out[11, i] = sc.j0(v)
            out[12, i] = sc.y1(v)
            out[13, i] = sc.jv(nu, v)
            out[14, i] = sc.yv(nu, v)
            out[15, i] = sc.iv(nu, v)
            out[16, i] = sc.kv(nu, v)
            out[17, i] = sc.ellipk(v / (1.0 + v))
            out[18, i] = sc.ellipe(v / (1.0 + v))
            out[19, i] = sc.hyp2f1(0.5, 1.5, 2.0, v / (2.0 + v))
            out[20, i] = sc.gammaincinv(nu, v / (1.0 + v))
            out[21, i] = sc.expit(v - 3.0)
            out[22, i] = sc.logit(v / (1.0 + v))
            out[23, i] = sc.ndtr(v - 2.0)
            out[24, i] = sc.ndtri(v / (1.0 + v))
            out[25, i] = sc.xlogy(v, v + 1.0)
        return out

    x = np.concatenate([np.linspace(0.05, 12.0, 240), [1e-8, 30.0, 100.0]])
    return {"table": table(x, 1.5), "half_integer": table(x, 0.5)}


def numba_scipy_sparse():
    """SciPy's CSR and CSC matrices in compiled code (numba-scipy's value
    types): their data, indices, indptr, shape and ndim read for a
    matrix-vector product and row sums, np.shape of them, and copies
    returned to Python as SciPy matrices."""
    import scipy.sparse as sps
    from numba import njit

    @njit
    def matvec(m, v):
        rows = m.shape[0]
        out = np.zeros(rows)
        for r in range(rows):
            for k in range(m.indptr[r], m.indptr[r + 1]):
                out[r] += m.data[k] * v[m.indices[k]]
        return out

    @njit
    def column_sums(m):
        out = np.zeros(np.shape(m)[1])
        for c in range(m.shape[1]):
            for k in range(m.indptr[c], m.indptr[c + 1]):
                out[c] += m.data[k]
        return out, m.ndim

    @njit
    def scaled_copy(m, k):
        c = m.copy()
        c.data[:] *= k
        return c

    rng = np.random.default_rng(71)
    csr = sps.random(60, 40, density=0.1, format="csr", random_state=rng)
    csr.indices, csr.indptr = csr.indices.astype(np.int32), csr.indptr.astype(np.int32)
    csc = csr.tocsc()
    csc.indices, csc.indptr = csc.indices.astype(np.int32), csc.indptr.astype(np.int32)
    v = rng.standard_normal(40)
    sums, ndim = column_sums(csc)
    copy = scaled_copy(csr, 2.5)
    return {"matvec": matvec(csr, v), "column_sums": sums, "ndim": ndim, "copy": copy.toarray(),
            "copy_is_csr": float(sps.issparse(copy) and copy.format == "csr"), "original": csr.toarray()}


def _abtem_atoms():
    from ase.build import bulk
    return bulk("Si", "diamond", a=5.43, cubic=True) * (2, 2, 1)


def abtem_potentials():
    """abTEM's projected potentials of a silicon crystal: the finite
    projection (its radial integrals interpolated by compiled code) with
    the Lobato and Kirkland parametrizations, the infinite projection, and
    the Peng parametrization's scattering factors."""
    import abtem
    abtem.config.set({"device": "cpu", "fft": "numpy", "precision": "float64", "progress_bar": False})
    atoms = _abtem_atoms()
    out = {}
    for param in ("lobato", "kirkland"):
        potential = abtem.Potential(atoms, sampling=0.12, projection="finite", slice_thickness=2.0,
                                    parametrization=param)
        out["finite_" + param] = potential.build().compute().array
    potential = abtem.Potential(atoms, sampling=0.12, projection="infinite", slice_thickness=2.0,
                                parametrization="peng")
    out["infinite_peng"] = potential.build().compute().array
    return out


def abtem_multislice():
    """A plane wave through the crystal by the multislice algorithm (complex
    exponentials of the potential, compiled ufuncs), its exit-wave
    intensity, diffraction pattern and the diffraction spots indexed by the
    crystal's reciprocal lattice."""
    import abtem
    abtem.config.set({"device": "cpu", "fft": "numpy", "precision": "float64", "progress_bar": False})
    atoms = _abtem_atoms()
    potential = abtem.Potential(atoms, sampling=0.12, projection="finite", slice_thickness=2.0)
    wave = abtem.PlaneWave(energy=100e3).multislice(potential).compute()
    pattern = wave.diffraction_patterns(max_angle=40).compute()
    spots = pattern.index_diffraction_spots(cell=atoms.cell)
    return {"intensity": wave.intensity().array, "pattern": pattern.array,
            "spots": np.asarray(spots.intensities if hasattr(spots, "intensities") else spots.array)}


def rosettasciio_fei_stream():
    """RosettaSciIO's FEI (Velox/EMD) EDS stream codec, compiled: a spectrum
    image written as a stream of channel events (array_to_stream) and read
    back as a dense array, frame by frame and summed, with rebinned energy,
    and as sparse COO arrays."""
    from rsciio.utils import _fei_stream_readers as fei
    rng = np.random.default_rng(61)
    frames = rng.poisson(0.3, size=(3, 6, 5, 64)).astype(np.uint16)
    stream = np.concatenate([np.concatenate([fei.array_to_stream(frame), [65535]]) for frame in frames])
    stream = stream[:-1].astype(np.uint16)
    summed = fei.stream_to_array(stream, (6, 5), 64, last_frame=3)
    per_frame = fei.stream_to_array(stream, (6, 5), 64, last_frame=3, sum_frames=False)
    rebinned = fei.stream_to_array(stream, (6, 5), 64, last_frame=3, rebin_energy=4)
    middle = fei.stream_to_array(stream, (6, 5), 64, first_frame=1, last_frame=2, sum_frames=False)
    sparse_sum = fei.stream_to_sparse_COO_array(stream, (6, 5), 64, last_frame=3).compute()
    sparse_frames = fei.stream_to_sparse_COO_array(stream, (6, 5), 64, last_frame=3, sum_frames=False,
                                                   rebin_energy=2).compute()
    return {"stream": stream, "summed": summed, "per_frame": per_frame, "rebinned": rebinned, "middle": middle,
            "sparse_sum": sparse_sum, "sparse_frames": sparse_frames, "round_trip": per_frame == frames}


def rosettasciio_tvips():
    """A 4D-STEM data set written to a TVIPS stream file and read back with
    its scan found from the frames' rotation indices (the compiled scan
    index grid), flyback and winding."""
    import os
    import tempfile
    from rsciio.tvips import file_reader, file_writer
    rng = np.random.default_rng(62)
    data = rng.integers(0, 1000, size=(5, 5, 16, 16)).astype(np.uint16)
    axes = [{"name": n, "size": s, "offset": 0.0, "scale": 1.0, "units": u, "navigate": nav}
            for n, s, u, nav in (("y", 5, "nm", True), ("x", 5, "nm", True), ("ky", 16, "1/nm", False),
                                 ("kx", 16, "1/nm", False))]
    signal = {"data": data, "axes": axes, "metadata": {"General": {"title": "scan"},
                                                       "Signal": {"signal_type": "diffraction"}},
              "original_metadata": {}, "attributes": {"_lazy": False}}
    out = {}
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "scan_000.tvips")
        file_writer(path, signal, show_progressbar=False)
        out["flyback"] = file_reader(path, scan_shape=(5, 5))[0]["data"]
        out["auto"] = file_reader(path, scan_shape="auto")[0]["data"]
        out["winding"] = file_reader(path, scan_shape=(5, 5), winding_scan_axis="x")[0]["data"]
    return out


def _simpeg_setup():
    import discretize
    mesh = discretize.TensorMesh([[(10.0, 8)], [(10.0, 8)], [(5.0, 6)]], origin="CCN")
    x, y = np.meshgrid(np.linspace(-30, 30, 7), np.linspace(-30, 30, 7))
    locations = np.c_[x.ravel(), y.ravel(), np.full(x.size, 5.0)]
    rng = np.random.default_rng(51)
    model = rng.normal(0.0, 0.1, mesh.n_cells)
    return mesh, locations, model


def simpeg_gravity():
    """SimPEG's gravity simulation by its numba engine (choclo's prism
    kernels in parallel loops): forward-only and stored sensitivities of
    the acceleration and its gradient tensor, on a tensor mesh, with a
    sensitivity-transpose product and the diagonal of GᵀG."""
    from simpeg import maps
    from simpeg.potential_fields import gravity
    mesh, locations, model = _simpeg_setup()
    receivers = gravity.receivers.Point(locations, components=["gz", "gxx", "gyz", "guv"])
    survey = gravity.survey.Survey(gravity.sources.SourceField(receiver_list=[receivers]))
    out = {}
    for store in ("forward_only", "ram"):
        sim = gravity.simulation.Simulation3DIntegral(survey=survey, mesh=mesh, rhoMap=maps.IdentityMap(mesh),
                                                      engine="choclo", store_sensitivities=store)
        out[store] = sim.dpred(model)
        if store == "ram":
            out["G"] = np.asarray(sim.G)
            out["Jtv"] = sim.Jtvec(model, np.ones(out[store].size))
            out["diag"] = sim.getJtJdiag(model)
    return out


def simpeg_magnetics():
    """SimPEG's magnetic simulation by its numba engine: total-field anomaly
    and field components from susceptibility, and from an effective
    susceptibility vector model (three components per cell)."""
    from simpeg import maps
    from simpeg.potential_fields import magnetics
    mesh, locations, model = _simpeg_setup()
    receivers = magnetics.receivers.Point(locations, components=["tmi", "bx", "bz", "bxz"])
    field = magnetics.sources.UniformBackgroundField(receiver_list=[receivers], amplitude=50000.0,
                                                     inclination=60.0, declination=15.0)
    survey = magnetics.survey.Survey(field)
    out = {}
    for store in ("forward_only", "ram"):
        sim = magnetics.simulation.Simulation3DIntegral(survey=survey, mesh=mesh, chiMap=maps.IdentityMap(mesh),
                                                        engine="choclo", store_sensitivities=store)
        out["scalar_" + store] = sim.dpred(np.abs(model))
    vector = magnetics.simulation.Simulation3DIntegral(survey=survey, mesh=mesh,
                                                       chiMap=maps.IdentityMap(nP=3 * mesh.n_cells),
                                                       model_type="vector", engine="choclo",
                                                       store_sensitivities="ram")
    m = np.random.default_rng(52).normal(0.0, 0.01, 3 * mesh.n_cells)
    out["vector"] = vector.dpred(m)
    out["vector_G"] = np.asarray(vector.G)
    return out


def _alphabase_precursors(n, seed):
    import pandas as pd
    rng = np.random.default_rng(seed)
    aas = np.array(list("ACDEFGHIKLMNPQRSTVWY"))
    seqs = ["".join(rng.choice(aas, rng.integers(7, 20))) + rng.choice(["K", "R"]) for _ in range(n)]
    mods = [("Oxidation@M;Carbamidomethyl@C" if "M" in s and "C" in s else "") for s in seqs]
    sites = [("%d;%d" % (s.index("M") + 1, s.index("C") + 1) if "M" in s and "C" in s else "") for s in seqs]
    return pd.DataFrame({"sequence": seqs, "mods": mods, "mod_sites": sites, "charge": rng.integers(2, 5, n)})


def alphabase_isotopes():
    """alphabase's isotope distributions: the element tables convolved
    (abundance_convolution, one_element_dist) for formulas and for
    precursors' isotope envelopes."""
    from alphabase.constants.isotope import IsotopeDistribution
    from alphabase.peptide.precursor import calc_precursor_isotope_intensity, update_precursor_mz
    dist = IsotopeDistribution()
    formulas = [[("C", 60), ("H", 98), ("N", 17), ("O", 20), ("S", 1)], [("C", 250), ("H", 400), ("N", 70), ("O", 80)]]
    out = {}
    for i, formula in enumerate(formulas):
        d, mono = dist.calc_formula_distribution(formula)
        out[f"formula{i}"], out[f"mono{i}"] = d, mono
    df = update_precursor_mz(_alphabase_precursors(300, 0))
    df = calc_precursor_isotope_intensity(df, max_isotope=6)
    out["intensity"] = df[[f"i_{i}" for i in range(6)]].to_numpy()
    out["mono_idx"], out["precursor_mz"] = df["mono_isotope_idx"].to_numpy(), df["precursor_mz"].to_numpy()
    return out


def alphabase_fragments():
    """alphabase's fragment tables: m/z of charged b/y series with neutral
    losses, flattened (_parse_fragment), compressed, joined and counted
    per elution group (calc_fragment_cardinality)."""
    from alphabase.peptide import fragment as fr
    from alphabase.peptide.precursor import update_precursor_mz
    df = update_precursor_mz(_alphabase_precursors(200, 1))
    types = ["b_z1", "b_z2", "y_z1", "y_z2", "y_H2O_z1", "b_modloss_z1"]
    mz = fr.create_fragment_mz_dataframe(df, types)
    rng = np.random.default_rng(2)
    inten = mz.copy()
    inten[:] = rng.random(mz.shape).astype(np.float32)
    prec, flat = fr.flatten_fragments(df.copy(), mz, inten, min_fragment_intensity=0.2)
    frag_idx = prec[["frag_start_idx", "frag_stop_idx"]].to_numpy()
    compressed = fr.compress_fragment_indices(frag_idx.copy())
    left, right = rng.integers(0, 500, 300), np.unique(rng.integers(0, 500, 200))
    df2 = df.copy()
    df2["elution_group_idx"] = df2["nAA"]
    df2["decoy"] = np.arange(len(df2)) % 2
    card = fr.calc_fragment_cardinality(df2, mz)
    return {"mz": mz.to_numpy(), "flat_mz": flat["mz"].to_numpy(), "flat_type": flat["type"].to_numpy(),
            "flat_number": flat["number"].to_numpy(), "flat_loss": flat["loss_type"].to_numpy(),
            "frag_idx": frag_idx, "compressed": np.asarray(compressed[0] if isinstance(compressed, tuple) else compressed),
            "join": fr.join_left(left, right), "cardinality": card.to_numpy()}


def alphabase_digest():
    """alphabase's protein digestion: trypsin cleavage with missed
    cleavages (cleave_sequence_with_cut_pos, which builds typed lists of
    strings) and the LCP-array enumeration of all substrings."""
    from alphabase.protein.fasta import Digest
    from alphabase.protein.lcp_digest import get_substring_indices
    rng = np.random.default_rng(3)
    aas = np.array(list("ACDEFGHIKLMNPQRSTVWY"))
    prots = ["M" + "".join(rng.choice(aas, rng.integers(150, 400))) for _ in range(20)]
    digest = Digest("trypsin", max_missed_cleavages=2, peptide_length_min=6, peptide_length_max=30)
    seqs, miss, nterm, cterm = [], [], [], []
    for p in prots:
        s, m, n, c = digest.cleave_sequence(p)
        seqs += s; miss += m; nterm += n; cterm += c
    cat = "$" + "$".join(prots[:8]) + "$"
    starts, ends = get_substring_indices(cat, 7, 25)
    return {"lengths": np.array([len(s) for s in seqs]), "hash": np.array([sum(map(ord, s)) for s in seqs]),
            "miss": np.array(miss), "nterm": np.array(nterm), "cterm": np.array(cterm),
            "starts": np.asarray(starts), "ends": np.asarray(ends)}


def pegasuspy_neighbors_csi():
    """pegasus' nearest neighbours (hnswlib, then the compiled reordering
    that puts each cell first in its own row) and the connection-
    specificity index matrix of calc_dendrogram (fastmath loops)."""
    from pegasus.tools import calculate_nearest_neighbors
    from pegasus.tools.utils import calc_csi_matrix
    rng = np.random.default_rng(0)
    centres = rng.standard_normal((6, 20)) * 4
    X = (centres[rng.integers(0, 6, 1500)] + rng.standard_normal((1500, 20))).astype(np.float32)
    indices, distances, _ = calculate_nearest_neighbors(X, K=15, n_jobs=1, random_state=0)
    groups = np.repeat(np.arange(30), 50)
    means = np.array([X[groups == g].mean(axis=0) for g in range(30)])
    return {"indices": indices, "distances": distances, "csi": calc_csi_matrix(np.corrcoef(means))}


def pegasuspy_inmf_quantile_norm():
    """pegasus' integrative-NMF quantile normalisation (algorithm 3 of
    LIGER) on per-batch H factors: clusters refined by their neighbours'
    votes, then each batch's factor loadings mapped quantile by quantile
    onto the reference batch's, over typed lists of arrays (np.quantile,
    np.interp, lists of lists of arrays); and the query-matrix column
    selection of run_scvi on CSR data."""
    from numba.typed import List
    from pegasus.tools import calculate_nearest_neighbors
    from pegasus.tools.nmf import _refine_cluster, _quantile_norm
    from pegasus.tools.scvitools import _select_csr
    import scipy.sparse as sp
    rng = np.random.default_rng(1)
    k = 5
    Hs, csums, ids = List(), List(), List()
    for size in (600, 400, 300):
        H = rng.gamma(0.5, 1.0, (size, k)) + np.eye(k)[rng.integers(0, k, size)] * 2
        H = np.ascontiguousarray(H / np.linalg.norm(H, axis=0), dtype=np.float32)
        Hs.append(H)
        indices, _, _ = calculate_nearest_neighbors(H, K=20, n_jobs=1, random_state=0)
        clusters, csum = _refine_cluster(np.argmax(H, axis=1), indices, k)
        csums.append(csum)
        ids.append(np.argsort(clusters, kind="stable"))
    _quantile_norm(Hs, csums, ids, 3, 0, k)
    mat = sp.random(300, 200, density=0.05, format="csr", random_state=2, dtype=np.float32)
    indexer = np.where(rng.random(200) < 0.6, np.arange(200) // 2, -1)
    new_size = int((indexer[mat.indices] >= 0).sum())
    data, idx, ptr = _select_csr(mat.data, mat.indices, mat.indptr, indexer, new_size)
    out = {f"H{i}": h for i, h in enumerate(Hs)}
    out.update({f"csum{i}": c for i, c in enumerate(csums)})
    out.update({"csr_data": data, "csr_indices": idx, "csr_indptr": ptr})
    return out


def _spikeinterface_analyzer():
    import spikeinterface.full as si
    recording, sorting = si.generate_ground_truth_recording(durations=[30.0], num_units=10, num_channels=16, seed=0)
    analyzer = si.create_sorting_analyzer(sorting, recording, format="memory", sparse=False)
    return si, recording, sorting, analyzer


def spikeinterface_postprocessing():
    """spikeinterface's compiled postprocessing on a simulated probe
    recording: cross- and auto-correlograms (prange over spikes), ISI
    histograms, template similarity (cosine/l1/l2 over shifts, prange over
    pairs) and monopolar/center-of-mass unit locations."""
    si, recording, sorting, analyzer = _spikeinterface_analyzer()
    from spikeinterface.postprocessing.template_similarity import compute_similarity_with_templates_array
    analyzer.compute(["random_spikes", "templates"])
    out = {}
    for fast in ("on", "off"):
        ccg, bins = si.compute_correlograms(sorting, window_ms=50.0, bin_ms=1.0, method="numba", fast_mode=fast)
        out[f"ccg_{fast}"], out[f"ccg_bins_{fast}"] = ccg, bins
    isi = analyzer.compute("isi_histograms", window_ms=50.0, bin_ms=1.0, method="numba").get_data()
    out["isi"], out["isi_bins"] = isi
    templates = analyzer.get_extension("templates").get_data()
    for method in ("cosine", "l1", "l2"):
        out["similarity_" + method] = compute_similarity_with_templates_array(
            templates, templates[::-1].copy(), method=method, num_shifts=3)
    out["similarity_ext"] = analyzer.compute("template_similarity", method="cosine", max_lag_ms=0.2).get_data()
    return out


def spikeinterface_metrics():
    """spikeinterface's compiled quality metrics and curation: refractory
    period violations (pairwise spike differences), synchrony counts,
    duplicated-spike removal (keep first / last, iterative) and the
    spike-vector to spike-train conversion."""
    si, recording, sorting, analyzer = _spikeinterface_analyzer()
    from spikeinterface.curation.curation_tools import find_duplicated_spikes
    from spikeinterface.core.sorting_tools import spike_vector_to_spike_trains
    analyzer.compute(["random_spikes"], progress_bar=False)
    rp = si.compute_refrac_period_violations(analyzer, refractory_period_ms=2.0, censored_period_ms=0.0)
    sync = si.compute_synchrony_metrics(analyzer)
    out = {"rp_contamination": np.array(list(rp.rp_contamination.values()), dtype=float),
           "rp_violations": np.array(list(rp.rp_violations.values()), dtype=float)}
    for key, values in sync._asdict().items():
        out["sync_" + key] = np.array(list(values.values()), dtype=float)
    train = np.sort(np.random.default_rng(5).integers(0, 200000, 5000))
    for method in ("keep_first_iterative", "keep_last_iterative", "keep_first"):
        out["dup_" + method] = find_duplicated_spikes(train, 30, method=method)
    trains = spike_vector_to_spike_trains(sorting.to_spike_vector(concatenated=False), sorting.unit_ids)
    for u, t in trains[0].items():
        out[f"train_{u}"] = t
    return out


def spikeinterface_comparison():
    """spikeinterface's ground-truth comparison: the match-count matrix
    (compiled, over sorted spike vectors), agreement scores, and the
    spike-vector dot products of the generalized comparison."""
    import spikeinterface.full as si
    from spikeinterface.comparison.comparisontools import make_match_count_matrix, compute_distance_matrix
    gt = si.generate_sorting(num_units=12, durations=[60.0], seed=1)
    tested = si.add_synchrony_to_sorting(gt, sync_event_ratio=0.3, seed=2)
    match = make_match_count_matrix(gt, tested, delta_frames=10)
    cmp = si.compare_sorter_to_ground_truth(gt, tested, exhaustive_gt=True)
    dist = compute_distance_matrix(gt, tested, delta_frames=10)
    return {"match": match.to_numpy(), "agreement": cmp.agreement_scores.to_numpy(),
            "performance": cmp.get_performance().to_numpy(dtype=float), "distance": np.asarray(dist)}


def frites_binning_mi():
    """frites' binning mutual-information estimators (histograms, 2-d
    histograms and entropies compiled with fastmath): continuous-continuous,
    continuous-discrete and conditional MI, per time point, with and
    without categories; and the connectivity-style MI on time series."""
    from frites.estimator import BinMIEstimator
    from frites.core.mi_bin_ephy import mi_bin_conn_time, mi_bin_ccd
    rng = np.random.default_rng(0)
    n_times, n_trials = 40, 300
    y = rng.standard_normal(n_trials)
    x = y * np.linspace(0, 1, n_times)[:, None, None] + rng.standard_normal((n_times, 1, n_trials))
    disc = rng.integers(0, 3, n_trials)
    z = rng.integers(0, 2, n_trials)
    cats = rng.integers(0, 2, n_trials)
    out = {}
    for bins in (4, 8):
        out[f"cc{bins}"] = BinMIEstimator("cc", n_bins=bins).estimate(x, y)
        out[f"cc_cat{bins}"] = BinMIEstimator("cc", n_bins=bins).estimate(x, y, categories=cats)
        out[f"cd{bins}"] = BinMIEstimator("cd", n_bins=bins).estimate(x, disc)
        out[f"ccd{bins}"] = BinMIEstimator("ccd", n_bins=bins).estimate(x, y, z=z)
    xs = x[:, 0, :].astype(np.float32)
    ys = (xs + rng.standard_normal(xs.shape)).astype(np.float32)
    out["conn_time"] = mi_bin_conn_time(xs, ys, 6, 6)
    out["ccd_one"] = np.float64(mi_bin_ccd(xs[0], ys[0], z.astype(np.float32), 6))
    return out


def _stardist_labels(shape, n, seed):
    """A label image of n discs (balls) at random places, later ones on top."""
    rng = np.random.default_rng(seed)
    grid = np.indices(shape)
    labels = np.zeros(shape, np.int32)
    for k in range(1, n + 1):
        centre = rng.uniform(0, shape, len(shape))
        r = rng.uniform(3, 8)
        inside = sum((g - c) ** 2 for g, c in zip(grid, centre)) < r * r
        labels[inside] = k
    from stardist.matching import relabel_sequential
    return relabel_sequential(labels)[0]


def stardist_matching():
    """stardist's instance matching: the compiled label-overlap table of a
    ground-truth and a predicted label image (2-d and 3-d), its IoU /
    IoT / IoP scores and the matched statistics over a data set."""
    from stardist.matching import matching, matching_dataset, label_overlap, relabel_sequential
    out = {}
    for dim, shape, n in ((2, (256, 256), 60), (3, (40, 64, 64), 30)):
        true = _stardist_labels(shape, n, dim)
        pred = np.roll(_stardist_labels(shape, n, dim), 1, axis=0)
        pred[_stardist_labels(shape, n // 3, 10 + dim) > 0] = 0
        pred = relabel_sequential(pred)[0]
        out[f"overlap{dim}"] = label_overlap(true, pred).astype(np.int64)
        for criterion in ("iou", "iot", "iop"):
            stats = matching(true, pred, thresh=0.5, criterion=criterion)
            out[f"{criterion}{dim}"] = np.array([stats.tp, stats.fp, stats.fn, stats.precision, stats.recall,
                                                 stats.f1, stats.mean_true_score, stats.panoptic_quality])
    trues = [_stardist_labels((128, 128), 25, s) for s in range(4)]
    preds = [np.roll(t, 2, axis=1) for t in trues]
    for thresh in (0.3, 0.7):
        stats = matching_dataset(trues, preds, thresh=thresh, show_progress=False)
        out[f"dataset{thresh}"] = np.array([stats.tp, stats.fp, stats.fn, stats.f1, stats.mean_matched_score])
    return out


def pop_tools_eos():
    """pop-tools' equation of state of seawater (McDougall et al., 2003),
    a vectorize with float64 and float32 loops, from depth and from
    pressure, with the density derivatives."""
    import pop_tools
    rng = np.random.default_rng(0)
    salt = rng.uniform(30, 38, (20, 50, 50))
    temp = rng.uniform(-2, 30, (20, 50, 50))
    depth = np.linspace(0, 5000, 20)[:, None, None] * np.ones((1, 50, 50))
    rho, drhods, drhodt = pop_tools.eos(salt, temp, depth=depth, return_coefs=True)
    rho32 = pop_tools.eos(salt.astype(np.float32), temp.astype(np.float32), depth=depth.astype(np.float32))
    from pop_tools.eos import compute_pressure
    return {"rho": rho, "drhods": drhods, "drhodt": drhodt, "rho32": np.asarray(rho32, dtype=np.float64),
            "pressure": compute_pressure(np.linspace(0, 6000, 500)),
            "rho_p": pop_tools.eos(salt[0], temp[0], pressure=np.full((50, 50), 2000.0))}


def pop_tools_fill():
    """pop-tools' lateral fill of land points (parallel compiled
    iterations): the POP smoother and successive over-relaxation, on a
    periodic and on a tripole grid."""
    from pop_tools.fill import lateral_fill_np_array
    ny, nx = 60, 90
    y, x = np.mgrid[0:ny, 0:nx]
    field = np.cos(x / nx * 2 * np.pi) * np.sin(y / ny * np.pi) * 10 + 15
    land = ((x - 30) ** 2 / 200 + (y - 25) ** 2 / 80 < 1) | ((x > 60) & (x < 75) & (y > 35))
    var = np.where(land, np.nan, field)
    valid = np.ones_like(land)
    valid[:3] = False
    out = {}
    for tripole in (False, True):
        out[f"pop{tripole}"] = lateral_fill_np_array(var, valid, ltripole=tripole)
        out[f"sor{tripole}"] = lateral_fill_np_array(var, valid, ltripole=tripole, use_sor=True, rc=1.6)
    return out


def pop_tools_grid():
    """pop-tools' T-point latitudes and longitudes from U-points (a
    prange nest of spherical averages), as get_grid computes them, on a
    displaced-pole-like grid."""
    from pop_tools.grid import _compute_TLAT_TLONG, _compute_corners
    ny, nx = 80, 100
    lat = np.deg2rad(np.linspace(-78, 88, ny))[:, None] + 0.01 * np.sin(np.arange(nx) / 7)[None, :]
    lon = np.deg2rad(np.linspace(0, 360, nx, endpoint=False))[None, :] + 0.02 * np.cos(np.arange(ny) / 5)[:, None]
    tlat, tlon = np.empty((ny, nx)), np.empty((ny, nx))
    _compute_TLAT_TLONG(lat, lon, tlat, tlon, ny, nx)
    corners = _compute_corners(lat, lon)
    return {"tlat": tlat, "tlon": tlon, "corner_lat": corners[0], "corner_lon": corners[1]}


def directlfq_lfq():
    """directLFQ's label-free quantification, as its API runs it: samples
    normalised by median fold-change distances (compiled nanmedian and
    nanvar of distance distributions, NaN counts per row), then protein
    intensities estimated from each protein's shifted ion traces."""
    import pandas as pd
    import directlfq.normalization as lfqnorm
    import directlfq.protein_intensity_estimation as lfqprot
    import directlfq.utils as lfqutils
    import directlfq.config as config
    config.set_global_protein_and_ion_id(protein_id="protein", quant_id="ion")
    config.set_log_processed_proteins(log_processed_proteins=False)
    config.set_compile_normalized_ion_table(compile_normalized_ion_table=True)
    config.check_wether_to_copy_numpy_arrays_derived_from_pandas()
    rng = np.random.default_rng(0)
    n_prot, n_samples = 60, 8
    rows = []
    for p in range(n_prot):
        level = rng.uniform(15, 25)
        for i in range(rng.integers(2, 9)):
            ion = level + rng.normal(0, 1.5) + rng.normal(0, 0.2, n_samples) + np.linspace(0, 0.8, n_samples)
            values = 2.0 ** ion
            values[rng.random(n_samples) < 0.15] = np.nan
            rows.append([f"P{p:03d}", f"P{p:03d}_ion{i}", *values])
    df = pd.DataFrame(rows, columns=["protein", "ion", *[f"s{k}" for k in range(n_samples)]])
    df = lfqutils.index_and_log_transform_input_df(df)
    df = lfqutils.remove_allnan_rows_input_df(df)
    normed = lfqnorm.NormalizationManagerSamplesOnSelectedProteins(df, num_samples_quadratic=8).complete_dataframe
    protein_df, ion_df = lfqprot.estimate_protein_intensities(normed, min_nonan=1, num_samples_quadratic=10,
                                                              num_cores=1)
    return {"normed": normed.to_numpy(), "proteins": protein_df.drop(columns="protein").to_numpy(dtype=float),
            "ions": ion_df.select_dtypes("number").to_numpy(dtype=float)}



def _fteikpy_velocity_2d():
    """A layered velocity model (m/s) with a smooth random perturbation."""
    rng = np.random.default_rng(7)
    z = np.linspace(0.0, 1.0, 120)[:, None]
    noise = np.cumsum(np.cumsum(rng.standard_normal((120, 160)), axis=0), axis=1)
    return 1500.0 + 2500.0 * z + 40.0 * noise / np.abs(noise).max() + np.zeros((1, 160))


def fteikpy_eikonal2d():
    """Traveltimes from several sources (with gradients), read at receivers,
    and a posteriori ray tracing, as a tomography forward model does."""
    from fteikpy import Eikonal2D
    eik = Eikonal2D(_fteikpy_velocity_2d(), gridsize=(10.0, 10.0))
    sources = np.array([[0.0, 100.0], [0.0, 800.0], [50.0, 1500.0], [600.0, 10.0]])
    tts = eik.solve(sources, nsweep=2, return_gradient=True)
    receivers = np.column_stack([np.full(30, 5.0), np.linspace(10.0, 1580.0, 30)])
    single = eik.solve(np.array([300.0, 700.0]), nsweep=3)
    rays = tts[0].raytrace(receivers[:5])
    out = {f"tt{i}": tt.grid for i, tt in enumerate(tts)}
    out.update({"picks": np.array([tt(receivers) for tt in tts]), "single": single.grid,
                "gradient_z": tts[1].gradient[0].grid, "gradient_x": tts[1].gradient[1].grid,
                "ray_lengths": np.array([len(r) for r in rays], dtype=float),
                "ray_ends": np.array([r[0] for r in rays] + [r[-1] for r in rays]),
                "ray_grid": tts[2].raytrace(receivers[10], honor_grid=True)})
    return out


def fteikpy_eikonal3d():
    """A 3-d traveltime grid (first-order sweeps with gradients), its values
    at points off the grid and rays from them back to the source."""
    from fteikpy import Eikonal3D
    z = np.linspace(0.0, 1.0, 40)[:, None, None]
    rng = np.random.default_rng(3)
    velocity = 2000.0 + 2000.0 * z + 50.0 * rng.random((40, 36, 32))
    eik = Eikonal3D(velocity, gridsize=(10.0, 10.0, 10.0))
    tt = eik.solve(np.array([0.0, 180.0, 150.0]), nsweep=2, return_gradient=True)
    points = np.column_stack([rng.uniform(0, 390, 40), rng.uniform(0, 350, 40), rng.uniform(0, 310, 40)])
    rays = tt.raytrace(points[:4])
    return {"tt": tt.grid, "picks": tt(points), "gradient_y": tt.gradient[2].grid,
            "ray_ends": np.array([r[-1] for r in rays]), "velocity_at": eik(points)}


def empymod_dipole():
    """Frequency-domain responses of a layered earth (a resistive target in
    marine sediments) for in-line and broadside dipoles, isotropic and
    anisotropic, by the digital linear filter and by quadrature."""
    import empymod
    depth = [0, 1000, 2000, 2100]
    res = [2e14, 0.3, 1, 50, 1]
    offsets = np.arange(1, 41) * 250.0
    out = {}
    for ab in (11, 12, 13, 33, 14, 66):
        out[f"ab{ab}"] = empymod.dipole([0, 0, 950], [offsets, offsets * 0.2, 1000], depth, res,
                                        [0.1, 0.5, 1.0], ab=ab, verb=0)
    out["aniso"] = empymod.dipole([0, 0, 950], [offsets, 0, 1000], depth, res, 0.5, aniso=[1, 1, 1.5, 2, 1],
                                  verb=0)
    out["quad"] = empymod.dipole([0, 0, 950], [offsets[:10], 0, 1000], depth, res, 1.0, ht="quad", verb=0)
    out["qwe"] = empymod.dipole([0, 0, 950], [offsets[:10], 0, 1000], depth, res, 1.0, ht="qwe", verb=0)
    return {k: np.stack([np.real(v), np.imag(v)]) for k, v in out.items()}


def empymod_time_domain():
    """Step and impulse responses (Fourier-transformed by the sine/cosine
    filter and by FFTLog) of finite bipoles, and of a loop."""
    import empymod
    depth = [0, 300, 1000, 1050]
    res = [1e20, 0.3, 1, 50, 1]
    times = np.logspace(-2, 1, 30)
    step = empymod.bipole([-50, 50, 0, 0, 100, 100], [2000, 0, 200, 0, 0], depth, res, times, signal=1,
                          srcpts=5, verb=0)
    impulse = empymod.dipole([0, 0, 100], [3000, 0, 200], depth, res, times, signal=0, verb=0)
    fftlog = empymod.dipole([0, 0, 100], [3000, 0, 200], depth, res, times, signal=-1, ft="fftlog", verb=0)
    loop = empymod.loop([0, 0, 0, 0, 90], [500, 0, 0, 0, 90], depth[1:], res[1:], [1.0, 10.0, 100.0], verb=0)
    kernels = empymod.dipole_k([0, 0, 100], [1000, 0, 200], depth, res, 1.0, np.logspace(-4, -1, 50), verb=0)
    return {"step": step, "impulse": impulse, "fftlog": fftlog,
            "loop": np.stack([np.real(loop), np.imag(loop)]),
            "pj0": np.stack([np.real(kernels[0]), np.imag(kernels[0])]),
            "pj1": np.stack([np.real(kernels[1]), np.imag(kernels[1])])}


def emg3d_solve():
    """A 3-d CSEM forward model: a mesh built around the survey, a resistive
    block in a conductive half-space, the multigrid solver with its
    variants (semicoarsening, line relaxation, BiCGSTAB preconditioning),
    fields at receivers and the magnetic field."""
    import emg3d
    def widths(n, inner, factor):
        core = np.full(n // 2, inner)
        return np.r_[(inner * factor ** np.arange(n // 4, 0, -1)), core, inner * factor ** np.arange(1, n // 4 + 1)]
    hx, hy, hz = widths(32, 100.0, 1.3), widths(16, 100.0, 1.3), widths(32, 50.0, 1.2)
    grid = emg3d.TensorMesh([hx, hy, hz], origin=(-hx.sum() / 2, -hy.sum() / 2, -hz.sum() * 0.7))
    res = np.ones(grid.shape_cells)
    res[:, :, grid.cell_centers_z > 0] = 1e8
    block = np.ix_(np.abs(grid.cell_centers_x) < 500, np.abs(grid.cell_centers_y) < 400,
                   (grid.cell_centers_z < -500) & (grid.cell_centers_z > -700))
    res[block] = 100.0
    model = emg3d.Model(grid, property_x=res, property_z=res * 1.5, mapping="Resistivity")
    source = emg3d.TxElectricDipole((-1000, 0, -150, 0, 0))
    sfield = emg3d.fields.get_source_field(grid, source, frequency=1.0)
    out = {}
    for name, opts in {"plain": {}, "semicoarsening": {"semicoarsening": True},
                       "linerelaxation": {"linerelaxation": True, "semicoarsening": 3},
                       "bicgstab": {"sslsolver": True}}.items():
        efield = emg3d.solve(model, sfield, verb=0, tol=1e-7, **opts)
        out[name] = np.stack([efield.field.real, efield.field.imag])
    receivers = (np.linspace(-500, 1200, 20), 0, -250, 0, 0)
    at = efield.get_receiver(receivers)
    hfield = emg3d.get_magnetic_field(model, efield)
    out.update({"receivers": np.stack([at.real, at.imag]), "hfield": np.stack([hfield.field.real, hfield.field.imag])})
    return out


def emg3d_interpolation():
    """Models and fields carried between meshes: volume averaging, linear
    and cubic interpolation, and edges averaged onto cells."""
    import emg3d
    rng = np.random.default_rng(5)
    grid = emg3d.TensorMesh([np.full(24, 50.0), np.full(20, 60.0), np.full(16, 40.0)], origin=(-600, -600, -640))
    fine = emg3d.TensorMesh([np.full(40, 30.0), np.full(30, 40.0), np.full(32, 20.0)], origin=(-600, -600, -640))
    values = rng.uniform(0.5, 20.0, grid.shape_cells)
    model = emg3d.Model(grid, property_x=values, mapping="Resistivity")
    field = emg3d.Field(grid, frequency=1.0)
    field.field = rng.standard_normal(field.field.size) + 1j * rng.standard_normal(field.field.size)
    points = (rng.uniform(-500, 500, 50), rng.uniform(-500, 500, 50), rng.uniform(-600, 0, 50))
    return {"volume": emg3d.maps.interpolate(grid, values, fine, method="volume"),
            "linear": emg3d.maps.interpolate(grid, values, fine, method="linear"),
            "cubic": emg3d.maps.interpolate(grid, values, points, method="cubic"),
            "model": model.interpolate_to_grid(fine).property_x,
            "field_linear": np.abs(field.interpolate_to_grid(fine, method="linear").field),
            "field_cubic": np.abs(field.interpolate_to_grid(fine, method="cubic").field)}



def _thermal_fields(result, prefix):
    """A pythermalcomfort result's numeric fields (a dataclass of arrays)."""
    import dataclasses
    out = {}
    for field in dataclasses.fields(result):
        value = np.asarray(getattr(result, field.name))
        if value.dtype.kind in "biuf":
            out[f"{prefix}_{field.name}"] = value.astype(float)
    return out


def _thermal_conditions(n, seed):
    rng = np.random.default_rng(seed)
    return {"tdb": rng.uniform(18, 32, n), "tr": rng.uniform(18, 35, n), "v": rng.uniform(0.05, 1.5, n),
            "rh": rng.uniform(20, 80, n), "met": rng.uniform(1.0, 2.0, n), "clo": rng.uniform(0.3, 1.0, n)}


def pythermalcomfort_comfort_indices():
    """Indoor comfort over many rooms' conditions: PMV/PPD (ISO 7730 and
    ASHRAE 55 with its cooling effect), SET and the Gagge two-node model,
    the cooling effect of elevated air speed and ATHB."""
    from pythermalcomfort import models
    c = _thermal_conditions(400, 11)
    out = {}
    out.update(_thermal_fields(models.pmv_ppd_iso(c["tdb"], c["tr"], c["v"], c["rh"], c["met"], c["clo"],
                                                  round_output=False, limit_inputs=False), "iso"))
    out.update(_thermal_fields(models.pmv_ppd_ashrae(c["tdb"], c["tr"], c["v"], c["rh"], c["met"], c["clo"],
                                                     round_output=False, limit_inputs=False), "ashrae"))
    out.update(_thermal_fields(models.set_tmp(c["tdb"], c["tr"], c["v"], c["rh"], c["met"], c["clo"],
                                              round_output=False, limit_inputs=False), "set"))
    out.update(_thermal_fields(models.two_nodes_gagge(c["tdb"][:100], c["tr"][:100], c["v"][:100], c["rh"][:100],
                                                      c["met"][:100], c["clo"][:100], round_output=False), "gagge"))
    out.update(_thermal_fields(models.cooling_effect(c["tdb"][:60], c["tr"][:60], c["v"][:60] + 0.3, c["rh"][:60],
                                                     c["met"][:60], c["clo"][:60]), "ce"))
    out.update(_thermal_fields(models.pmv_athb(c["tdb"], c["tr"], c["v"], c["rh"], c["met"], c["tdb"] - 5.0), "athb"))
    return out


def pythermalcomfort_heat_stress():
    """Heat and cold stress: the predicted heat strain (ISO 7933, scalar and
    array paths), the solar gain on a body, the Ji and sleep variants of the
    two-node model, fans in heatwaves and the required clothing insulation
    (ISO 11079)."""
    from pythermalcomfort import models
    rng = np.random.default_rng(12)
    n = 120
    tdb, rh = rng.uniform(30, 42, n), rng.uniform(20, 50, n)
    tr = tdb + rng.uniform(0, 15, n)
    v, met, clo = rng.uniform(0.1, 2.0, n), rng.uniform(1.5, 4.0, n), rng.uniform(0.3, 0.8, n)
    out = {}
    out.update(_thermal_fields(models.phs(tdb, tr, v, rh, met, clo, posture="standing", round_output=False), "phs"))
    out.update(_thermal_fields(models.phs(40.0, 40.0, 0.3, 33.0, 2.5, 0.5, posture="sitting", round_output=False),
                               "phs_scalar"))
    altitude, sharp, radiation = rng.uniform(0, 90, n), rng.uniform(0, 180, n), rng.uniform(200, 900, n)
    out.update(_thermal_fields(models.solar_gain(altitude, sharp, radiation, 0.8, 0.5, 0.5, round_output=False),
                               "solar"))
    out.update(_thermal_fields(models.two_nodes_gagge_ji(tdb[:40], tr[:40], v[:40], 1.2, 0.5, 2.0), "ji"))
    ones = np.ones(40)
    room, walls, humidity = rng.uniform(18, 30, 40), rng.uniform(18, 30, 40), rng.uniform(30, 70, 40)
    out.update(_thermal_fields(models.two_nodes_gagge_sleep(room, walls, 0.1 * ones, humidity, ones, 2.0 * ones),
                               "sleep"))
    out.update(_thermal_fields(models.use_fans_heatwaves(tdb[:40], tr[:40], v[:40], rh[:40], 1.2, 0.5,
                                                         round_output=False), "fans"))
    cold = [models.ireq(tdb=t, tr=t, vr=2.0, rh=55.0, met=m / 58.15, clo=2.8, p=8.0, walk_sp=0.3, round_output=False)
            for t in (-25.0, -15.0, -5.0) for m in (120.0, 175.0)]
    for i, result in enumerate(cold):
        out.update(_thermal_fields(result, f"ireq{i}"))
    return out


def _pynucastro_network(name, nuclei):
    """A network of ReacLib's rates linking nuclei, written as a Python
    module of Numba-compiled rates (PythonNetwork) and imported (its folder
    kept: ruchey reads a function's source when it compiles it)."""
    import importlib
    import sys
    import tempfile
    import pynucastro as pyna
    lib = pyna.ReacLibLibrary().linking_nuclei(nuclei, with_reverse=False)
    folder = tempfile.mkdtemp(prefix="pynucastro-")
    pyna.PythonNetwork(libraries=[lib]).write_network(f"{folder}/{name}.py")
    sys.path.insert(0, folder)
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(folder)


def pynucastro_cno_network():
    """Hot CNO burning: the network's right-hand side and Jacobian over a
    grid of temperatures and densities, with and without screening, and
    its integration by SciPy's BDF, as pynucastro's examples do."""
    from scipy.integrate import solve_ivp
    from pynucastro.screening import screen5, chugunov_2007
    net = _pynucastro_network("cno_compat", ["p", "he4", "c12", "c13", "n13", "n14", "n15", "o14", "o15"])
    X = np.full(net.nnuc, 0.01)
    X[net.jp], X[net.jhe4] = 0.7, 0.28 - 0.01 * (net.nnuc - 2)
    Y0 = X / net.A
    out = {}
    for T in (1e8, 2e8, 4e8):
        for rho in (1e2, 1e4):
            out[f"rhs_{T:.0e}_{rho:.0e}"] = net.rhs(0.0, Y0, rho, T)
            out[f"jac_{T:.0e}_{rho:.0e}"] = net.jacobian(0.0, Y0, rho, T)
            out[f"screened_{T:.0e}_{rho:.0e}"] = net.rhs(0.0, Y0, rho, T, screen_func=screen5)
    out["chugunov"] = net.rhs(0.0, Y0, 1e4, 2e8, screen_func=chugunov_2007)
    sol = solve_ivp(net.rhs, [0, 1e3], Y0, method="BDF", jac=net.jacobian, dense_output=False,
                    args=(1e4, 3e8), rtol=1e-6, atol=1e-10)
    out["final_Y"] = sol.y[:, -1]
    out["energy"] = np.array(net.energy_release(sol.y[:, -1] - Y0))
    return out


def pynucastro_screening_eos():
    """Plasma screening factors by each of pynucastro's compiled methods
    over a grid of stellar conditions, and its Fermi-Dirac integrals and
    electron equation of state."""
    import pynucastro as pyna
    from pynucastro.screening import (chugunov_2007, chugunov_2009, debye_huckel, make_plasma_state,
                                      make_screen_factors, potekhin_1998, screen5)
    nuclei = [pyna.Nucleus(n) for n in ("p", "he4", "c12", "o16", "ne20", "mg24")]
    pairs = [(nuclei[0], nuclei[2]), (nuclei[1], nuclei[2]), (nuclei[2], nuclei[2]), (nuclei[3], nuclei[3]),
             (nuclei[1], nuclei[4])]
    molar = {n: y for n, y in zip(nuclei, (0.3, 0.1, 0.02, 0.02, 0.005, 0.002))}
    out = {}
    for method in (screen5, chugunov_2007, chugunov_2009, potekhin_1998, debye_huckel):
        values = []
        for T in np.geomspace(1e7, 5e9, 8):
            for rho in np.geomspace(1.0, 1e9, 8):
                state = make_plasma_state(T, rho, molar)
                values += [method(state, make_screen_factors(a, b)) for a, b in pairs]
        out[method.__name__] = np.array(values)
    fermi = []
    for k in (-0.5, 0.5, 1.5, 2.5):
        for eta in (-5.0, 0.0, 3.0, 40.0):
            for beta in (1e-4, 0.1, 10.0):
                f = pyna.eos.FermiIntegral(k, eta, beta)
                f.evaluate()
                fermi.append([f.F, f.dF_deta, f.dF_dbeta, f.d2F_deta2, f.d2F_dbeta2, f.d2F_detadbeta])
    out["fermi"] = np.array(fermi)
    eos = pyna.eos.ElectronEOS()
    comp = pyna.Composition([pyna.Nucleus("c12"), pyna.Nucleus("o16")])
    comp.set_equal()
    states = [eos.pe_state(rho=rho, T=T, comp=comp) for rho in (1e4, 1e7, 1e9) for T in (1e7, 1e8, 1e9)]
    out["electron_eos"] = np.array([[s.n, s.p, s.e, s.dp_drho, s.dp_dT] for pair in states for s in pair])
    return out


def _pyro_run(solver, problem, params):
    """A pyro simulation run to its end (in a temporary folder: it writes
    its parameters to inputs.auto there); its conserved fields."""
    import os
    import shutil
    import tempfile
    from pyro import Pyro
    here, folder = os.getcwd(), tempfile.mkdtemp(prefix="pyro-")
    try:
        os.chdir(folder)
        sim = Pyro(solver)
        sim.initialize_problem(problem, inputs_dict=params)
        sim.run_sim()
    finally:
        os.chdir(here)
        shutil.rmtree(folder, ignore_errors=True)
    data = sim.get_sim().cc_data
    return {f"{problem}_{name}": np.asarray(data.get_var(name).v()) for name in data.names}


def pyro_compressible():
    """Compressible hydrodynamics (the unsplit CTU solver): a Sedov blast
    with the HLLC Riemann solver, and a Kelvin-Helmholtz shear layer and
    a Sod shock tube with the two-shock CGF one."""
    out = _pyro_run("compressible", "sedov", {"mesh.nx": 48, "mesh.ny": 48, "driver.tmax": 0.02})
    out.update(_pyro_run("compressible", "kh", {"mesh.nx": 32, "mesh.ny": 32, "driver.max_steps": 25,
                                                 "compressible.riemann": "CGF"}))
    out.update(_pyro_run("compressible", "sod", {"mesh.nx": 64, "mesh.ny": 8, "driver.tmax": 0.05,
                                                  "compressible.riemann": "CGF"}))
    return out


def pyro_other_solvers():
    """pyro's other compiled solvers: the fourth-order compressible one
    (its reconstruction), shallow water and the low-Mach atmosphere."""
    out = _pyro_run("compressible_fv4", "acoustic_pulse", {"mesh.nx": 32, "mesh.ny": 32, "driver.max_steps": 10})
    out.update(_pyro_run("swe", "dam", {"mesh.nx": 64, "mesh.ny": 8, "driver.max_steps": 40}))
    out.update(_pyro_run("lm_atm", "bubble", {"mesh.nx": 32, "mesh.ny": 32, "driver.max_steps": 5}))
    return out


def _emd_signal(n, seed):
    t = np.linspace(0, 1, n)
    noise = np.random.default_rng(seed).standard_normal(n)
    return t, np.sin(40 * np.pi * t) + 0.6 * np.cos(11 * np.pi * t ** 1.3) + 2.0 * t + 0.1 * noise


def emd_signal_jitemd():
    """Empirical mode decomposition by PyEMD's compiled JitEMD: a chirp,
    a tone and a trend split into IMFs, with its simple and parabolic
    extrema detection and cubic and Akima envelopes, and its helpers on
    their own (extrema, the end condition, the IMF check)."""
    from PyEMD.experimental import jitemd
    t, s = _emd_signal(1500, 21)
    out = {}
    for detection in ("simple", "parabol"):
        for spline in ("cubic", "akima"):
            emd = jitemd.JitEMD(spline_kind=spline, extrema_detection=detection)
            out[f"imfs_{detection}_{spline}"] = emd(s, t)
    emd = jitemd.JitEMD()
    out["limited"] = emd(s, t, max_imf=2)
    imfs, trend = emd.get_imfs_and_trend()
    out.update({"imfs": imfs, "trend": trend})
    for i, part in enumerate(jitemd.find_extrema(t, s, "simple")):
        out[f"extrema_{i}"] = np.asarray(part, dtype=float)
    out["timeline"] = jitemd.get_timeline(1000, np.float64)
    return out



def spherical_functions_wigner():
    """moble's spherical_functions: Wigner D matrices and elements, spin-
    weighted spherical harmonics (at points and on a grid), Wigner 3j
    symbols and Clebsch-Gordan coefficients, complex powers, and the
    product of two spin-weighted functions by their modes."""
    import quaternion
    import spherical_functions as sf
    rng = np.random.default_rng(31)
    q = rng.standard_normal((20, 4))
    R = quaternion.from_float_array(q / np.linalg.norm(q, axis=1, keepdims=True))
    ell_max = 8
    out = {"D": np.array([sf.Wigner_D_matrices(r, 0, ell_max) for r in R]),
           "D_elements": np.array([sf.Wigner_D_element(r, sf.LMpM_range(0, 4)) for r in R[:5]]),
           "D_element_series": sf.Wigner_D_element(R, 3, 1, -2),
           "swsh": np.array([sf.SWSH(r, -2, sf.LM_range(2, ell_max)) for r in R]),
           "swsh_grid": sf.SWSH_grid(quaternion.from_spherical_coords(*np.meshgrid(np.linspace(0.1, 3.0, 9),
                                                                                    np.linspace(0, 6.0, 11))), -1, 6),
           "w3j": np.array([sf.Wigner3j(j1, j2, j3, m1, m2, -m1 - m2) for j1 in range(4) for j2 in range(4)
                            for j3 in range(abs(j1 - j2), j1 + j2 + 1) for m1 in range(-j1, j1 + 1)
                            for m2 in range(-j2, j2 + 1)]),
           "cg": np.array([sf.clebsch_gordan(j1, m1, j2, 0, 3, m1) for j1 in range(1, 5) for m1 in range(-1, 2)
                           for j2 in range(1, 5)]),
           "powers": sf.complex_powers(np.exp(1j * rng.uniform(0, 6, 30)), 10)}
    calculator = sf.Wigner3jCalculator(8, 8)
    out["w3j_calculator"] = np.array(calculator.calculate(5, 4, 1, -2))
    lm = sf.LM_total_size(1, ell_max)
    f, g = (sf.Modes(rng.standard_normal(lm) + 1j * rng.standard_normal(lm), spin_weight=s, ell_min=1,
                     ell_max=ell_max) for s in (1, -1))
    product = f.multiply(g)
    out.update({"product": np.asarray(product), "evaluated": f.evaluate(R[:5]), "eth": np.asarray(g.eth),
                "ethbar": np.asarray(g.ethbar)})
    return {k: np.stack([np.real(v), np.imag(v)]) if np.iscomplexobj(v) else v for k, v in out.items()}


def scri_fluxes():
    """Gravitational-wave analysis with scri on a precessing model waveform:
    energy, momentum, angular-momentum and boost fluxes, the angular
    velocity and the co-precessing and co-rotating frames, and a rotated
    decomposition basis."""
    import quaternion
    import scri
    h = scri.sample_waveforms.fake_precessing_waveform(t_0=-20.0, t_1=2_000.0, dt=1.0, ell_max=6)
    hdot = h.copy()
    hdot.data = h.data_dot
    out = {"energy": scri.energy_flux(h), "momentum": scri.momentum_flux(h),
           "angular_momentum": scri.angular_momentum_flux(h), "boost": scri.boost_flux(h),
           "omega": h.angular_velocity(), "ldt": scri.mode_calculations.LdtVector(h),
           "dominant": scri.mode_calculations.LLDominantEigenvector(h)}
    coprecessing = h.copy().to_coprecessing_frame()
    corotating = h.copy().to_corotating_frame()
    rotated = h.copy().rotate_decomposition_basis(quaternion.from_rotation_vector([0.3, -0.2, 0.5]))
    out.update({"coprecessing_frame": quaternion.as_float_array(coprecessing.frame),
                "coprecessing": coprecessing.data, "corotating": corotating.data, "rotated": rotated.data})
    return {k: np.stack([np.real(v), np.imag(v)]) if np.iscomplexobj(v) else np.asarray(v, dtype=float)
            for k, v in out.items()}


def _xgcm_ocean(nx, nz, seed):
    """An ocean section: temperature and salinity on depth levels, a
    density field falling with depth, on an xgcm Grid along Z."""
    import xarray as xr
    import xgcm
    rng = np.random.default_rng(seed)
    z = np.linspace(5.0, 995.0, nz)
    zl = np.linspace(0.0, 1000.0, nz + 1)
    theta = 25.0 * np.exp(-z / 300.0)[None, :] + rng.normal(0, 0.3, (nx, nz))
    salt = 34.0 + 0.002 * z[None, :] + rng.normal(0, 0.05, (nx, nz))
    transport = rng.normal(0, 1, (nx, nz))
    dens = 1020.0 + 0.005 * zl[None, :] + np.sort(rng.uniform(0, 0.5, (nx, nz + 1)), axis=1)
    ds = xr.Dataset({"theta": (("x", "z"), theta), "salt": (("x", "z"), salt),
                     "transport": (("x", "z"), transport), "dens": (("x", "zl"), dens)},
                    coords={"x": np.arange(nx, dtype=float), "z": z, "zl": zl})
    grid = xgcm.Grid(ds, coords={"Z": {"center": "z", "outer": "zl"}}, padding="fill", autoparse_metadata=False)
    return grid, ds


def xgcm_transform():
    """xgcm's vertical regridding (its compiled interpolation kernels):
    onto new depths (linear and logarithmic), onto temperature levels,
    and a transport conservatively regridded onto density classes."""
    import xarray as xr
    grid, ds = _xgcm_ocean(120, 50, 41)
    depths = xr.DataArray(np.linspace(0.0, 1000.0, 37), dims=["znew"])
    temps = xr.DataArray(np.linspace(2.0, 24.0, 23), dims=["temp"])
    dens_bins = xr.DataArray(np.linspace(1020.0, 1026.0, 30), dims=["dbin"])
    theta = ds.theta.astype(np.float32)
    return {"linear": grid.transform(ds.salt, "Z", depths, method="linear").values,
            "log": grid.transform(ds.salt, "Z", depths, method="log").values,
            "on_theta": grid.transform(ds.salt, "Z", temps, target_data=ds.theta, method="linear").values,
            "float32": grid.transform(theta, "Z", depths.astype(np.float32), method="linear").values,
            "no_extrapolation": grid.transform(ds.salt, "Z", depths, method="linear", mask_edges=False).values,
            "conservative": grid.transform(ds.transport, "Z", dens_bins, target_data=ds.dens,
                                           method="conservative").values}


def openpnm_invasion():
    """Pore-network modelling with OpenPNM: a cubic network's geometry and
    water's capillary pressures, invasion percolation (its compiled
    queue) from one face, trapping against the other and the capillary
    pressure curve, and the network's cluster labels."""
    import openpnm as op
    np.random.seed(0)
    op.Workspace().clear()
    pn = op.network.Cubic(shape=[18, 18, 8], spacing=1e-4)
    pn.add_model_collection(op.models.collections.geometry.spheres_and_cylinders)
    pn.regenerate_models()
    water = op.phase.Water(network=pn)
    water.add_model_collection(op.models.collections.physics.basic)
    water.regenerate_models()
    ip = op.algorithms.InvasionPercolation(network=pn, phase=water)
    ip.set_inlet_BC(pores=pn.pores("left"))
    ip.run()
    sequence = {"pore_sequence": ip["pore.invasion_sequence"].copy(),
                "throat_sequence": ip["throat.invasion_sequence"].copy()}
    ip.set_outlet_BC(pores=pn.pores("right"))
    ip.apply_trapping()
    pc, saturation = ip.pc_curve()
    throats = np.random.default_rng(1).random(pn.Nt) < 0.5
    clusters = op.topotools.find_clusters(network=pn, mask=throats)
    return {**sequence, "pore_trapped": ip["pore.trapped"].astype(float),
            "throat_trapped": ip["throat.trapped"].astype(float), "pc": np.asarray(pc),
            "saturation": np.asarray(saturation), "pore_clusters": clusters.pore_labels,
            "throat_clusters": clusters.throat_labels}



def pysm3_emission():
    """Galactic foregrounds with PySM 3 from in-memory HEALPix templates
    (nside 64): modified-blackbody dust, power-law and curved power-law
    synchrotron emission (their parallel compiled loops) at single
    frequencies and integrated over bandpasses, in uK_RJ and uK_CMB."""
    import pysm3
    import pysm3.units as u
    nside = 64
    npix = 12 * nside ** 2
    rng = np.random.default_rng(51)
    iqu = np.abs(rng.normal(50.0, 10.0, (3, npix))) * u.uK_RJ
    iqu[1:] -= 50.0 * u.uK_RJ
    beta = rng.normal(1.55, 0.05, npix) * u.dimensionless_unscaled
    temp = rng.normal(20.0, 1.0, npix) * u.K
    beta_s = rng.normal(-3.0, 0.1, npix) * u.dimensionless_unscaled
    dust = pysm3.ModifiedBlackBody(iqu, "353 GHz", "353 GHz", beta, temp, nside=nside)
    sync = pysm3.PowerLaw(iqu / 10.0, "23 GHz", beta_s, nside=nside, freq_ref_P="23 GHz")
    curved = pysm3.CurvedPowerLaw(iqu / 10.0, "23 GHz", beta_s, nside=nside, freq_ref_P="23 GHz",
                                  spectral_curvature=-0.05 * u.dimensionless_unscaled, freq_curve="23 GHz")
    band = np.linspace(90.0, 110.0, 11) * u.GHz
    weights = np.exp(-((band.value - 100.0) / 6.0) ** 2)
    out = {}
    for name, model in (("dust", dust), ("sync", sync), ("curved", curved)):
        out[f"{name}_single"] = model.get_emission(150 * u.GHz).value
        out[f"{name}_band"] = model.get_emission(band, weights).value
        out[f"{name}_cmb"] = (model.get_emission(band, weights)
                              * pysm3.bandpass_unit_conversion(band, weights, u.uK_CMB)).value
    sky = pysm3.Sky(nside=nside, component_objects=[dust, sync])
    out["sky"] = sky.get_emission(np.array([30.0, 40.0, 50.0]) * u.GHz, np.array([0.2, 0.5, 0.3])).value
    return out



def _peaks_found(signal):
    """The peaks find_peaks gives (a ragged array of each image's): one list
    of (row, column) positions."""
    return np.concatenate([np.asarray(p, dtype=float).reshape(-1, 2) for p in np.asarray(signal.data).ravel()])


def hyperspy_signals():
    """HyperSpy's compiled helpers through its signal API: LOWESS smoothing
    of spectra, rebinning by non-integer factors, histograms, axis value
    look-ups with each rounding, an artificial atomic-resolution image
    and its peaks found by the Zaefferer and statistical peak finders."""
    import hyperspy.api as hs
    rng = np.random.default_rng(61)
    x = np.linspace(0, 10, 400)
    spectra = hs.signals.Signal1D(np.sin(x)[None, :] * np.arange(1, 7)[:, None] + rng.normal(0, 0.3, (6, 400)))
    smoothed = spectra.deepcopy()
    smoothed.smooth_lowess(smoothing_parameter=0.1, number_of_iterations=2, show_progressbar=False)
    image = hs.signals.Signal2D(rng.random((3, 60, 50)))
    rebinned = image.rebin(scale=(1, 1.5, 2.5))
    axis = spectra.axes_manager.signal_axes[0]
    axis.scale, axis.offset = 0.025, -1.0
    values = rng.uniform(-1.0, 8.9, 30)
    atoms = hs.data.atomic_resolution_image(size=160, rotation_angle=10)
    atoms_signal = hs.signals.Signal2D(atoms.data + rng.normal(0, 0.01, atoms.data.shape))
    peaks_z = atoms_signal.find_peaks(method="zaefferer", grad_threshold=0.02, window_size=10, distance_cutoff=5.0,
                                      interactive=False, show_progressbar=False)
    peaks_s = hs.signals.Signal2D(rng.random((60, 60))).find_peaks(method="stat", interactive=False,
                                                                  show_progressbar=False)
    return {"lowess": smoothed.data, "rebinned": rebinned.data,
            "histogram": spectra.get_histogram(bins=40).data.astype(float),
            "index_round": np.asarray(axis.value2index(values), dtype=float),
            "index_floor": np.asarray(axis.value2index(values, rounding=np.floor), dtype=float),
            "index_ceil": np.asarray(axis.value2index(values, rounding=np.ceil), dtype=float),
            "atoms": atoms.data, "peaks_zaefferer": _peaks_found(peaks_z), "peaks_stat": _peaks_found(peaks_s)}

# ---------------------------------------------------------------- numba.cuda paths

def _gpu_or_cpu(gpu, cpu):
    """The package's GPU function where numba.cuda can launch kernels (under
    ruchey its CPU backend, RUCHEY_CUDA_BACKEND=cpu), else its CPU function:
    under Numba, on a machine without a GPU, the CPU path's result is the
    reference the kernels must agree with."""
    from numba import cuda
    return gpu if cuda.is_available() else cpu


def _profile(mp):
    return {"P": mp[:, 0].astype(float), "I": mp[:, 1].astype(np.int64), "IL": mp[:, 2].astype(np.int64),
            "IR": mp[:, 3].astype(np.int64)}


def stumpy_gpu_stump():
    """gpu_stump (its kernels compute each row of the distance matrix from
    the last by a sliding dot product): self-join, AB-join, the top-k
    nearest neighbours, and a series with constant stretches."""
    import stumpy
    stump = _gpu_or_cpu(stumpy.gpu_stump, stumpy.stump)
    t, u = _walk(1500, 20), _walk(1200, 21)
    flat = t.copy()
    flat[300:400] = 1.0
    out = {f"self.{k}": v for k, v in _profile(stump(t, 50)).items()}
    out.update({f"ab.{k}": v for k, v in _profile(stump(t, 50, u, ignore_trivial=False)).items()})
    out["flat.P"] = stump(flat, 30)[:, 0].astype(float)
    top = stump(t[:800], 40, k=3)
    out.update(top_P=top[:, :3].astype(float), top_I=top[:, 3:6].astype(np.int64))
    return out


def stumpy_gpu_aamp():
    """gpu_aamp: non-normalised matrix profiles with the Euclidean and the
    Manhattan distance (p=1), self- and AB-joins, top-k."""
    import stumpy
    aamp = _gpu_or_cpu(stumpy.gpu_aamp, stumpy.aamp)
    t, u = _walk(1500, 22), _walk(1000, 23)
    out = {f"self.{k}": v for k, v in _profile(aamp(t, 40)).items()}
    out["manhattan.P"] = aamp(t, 40, p=1.0)[:, 0].astype(float)
    out["ab.P"] = aamp(t, 40, u, ignore_trivial=False)[:, 0].astype(float)
    out["top_P"] = aamp(t[:700], 30, k=2)[:, :2].astype(float)
    return out


def stumpy_gpu_distances_consensus():
    """gpu_mpdist and gpu_aampdist (the MPdist distance), gpu_ostinato and
    gpu_aamp_ostinato (the consensus motif of several series)."""
    import stumpy
    t, u, w = _walk(800, 24), _walk(700, 25), _walk(600, 26)
    out = {"mpdist": _gpu_or_cpu(stumpy.gpu_mpdist, stumpy.mpdist)(t, u, 40),
           "aampdist": _gpu_or_cpu(stumpy.gpu_aampdist, stumpy.aampdist)(t, u, 40)}
    radius, ts_index, subseq_index = _gpu_or_cpu(stumpy.gpu_ostinato, stumpy.ostinato)([t, u, w], 30)
    out["ostinato"] = np.array([radius, ts_index, subseq_index], dtype=float)
    radius, ts_index, subseq_index = _gpu_or_cpu(stumpy.gpu_aamp_ostinato, stumpy.aamp_ostinato)([t, u, w], 30)
    out["aamp_ostinato"] = np.array([radius, ts_index, subseq_index], dtype=float)
    return out


def stumpy_gpu_stimp():
    """gpu_stimp and gpu_aamp_stimp: pan matrix profiles over a range of
    window lengths, one update at a time (the CPU's stimp run exactly:
    percentage 1, no pre-SCRIMP)."""
    import functools
    import stumpy
    t = _walk(500, 27)
    out = {}
    for name, gpu, cpu in (("stimp", stumpy.gpu_stimp, functools.partial(stumpy.stimp, pre_scrump=False)),
                           ("aamp_stimp", stumpy.gpu_aamp_stimp,
                            functools.partial(stumpy.aamp_stimp, pre_scraamp=False))):
        pan = _gpu_or_cpu(gpu, functools.partial(cpu, percentage=1.0))(t, min_m=10, max_m=40, step=5)
        for _ in range(4):
            pan.update()
        out[name] = pan.PAN_
    return out


def sgkit_gpu_distance():
    """sgkit's pairwise distances on device="gpu" (its numba.cuda map
    kernels over pairs of chunks, reduced on the host): euclidean and
    correlation over chunked dask arrays, with missing values."""
    import dask.array as da
    import sgkit as sg
    device = _gpu_or_cpu("gpu", "cpu")
    x = _sgkit_calls(120, 60)["call_genotype"].sum(dim="ploidy").values.T.astype(float)
    out = {}
    for metric in ("euclidean", "correlation"):
        out[metric] = np.asarray(sg.pairwise_distance(x, metric=metric, device=device))
        out[metric + ".chunked"] = np.asarray(sg.pairwise_distance(da.from_array(x, chunks=(25, 40)), metric=metric,
                                                                   split_every=2, device=device))
    with_nan = x.copy()
    with_nan[np.random.default_rng(6).random(x.shape) < 0.05] = np.nan
    out["euclidean.nan"] = np.asarray(sg.pairwise_distance(with_nan, metric="euclidean", device=device))
    return out


def _g3c_objects(rng, n):
    """Random conformal objects built from points: point pairs, lines,
    circles, planes and spheres, n of each, normalised."""
    from clifford.g3c import e1, e2, e3, einf, up

    def point():
        return up(sum(float(c) * b for c, b in zip(rng.standard_normal(3), (e1, e2, e3))))

    kinds = {"point_pair": lambda: point() ^ point(), "line": lambda: point() ^ point() ^ einf,
             "circle": lambda: point() ^ point() ^ point(), "plane": lambda: point() ^ point() ^ point() ^ einf,
             "sphere": lambda: point() ^ point() ^ point() ^ point()}
    return {kind: [make().normal() for _ in range(n)] for kind, make in kinds.items()}


def _each(kernel, cpu, inputs, out):
    """kernel over the rows of inputs, writing out's (one thread a row; out
    may be the last input, updated in place) where numba.cuda can launch
    it, else cpu on each row's multivectors (clifford.tools.g3c's CPU
    functions: their results are the reference)."""
    import math
    from clifford.g3c import layout
    from numba import cuda
    if cuda.is_available():
        kernel[math.ceil(len(out) / 64), 64](*inputs, *(() if out is inputs[-1] else (out,)))
        return out
    for i in range(len(out)):
        result = cpu(*(layout.MultiVector(a[i]) for a in inputs))
        out[i] = getattr(result, "value", result)  # (a multivector's coefficients, or a cost)
    return out


def clifford_cuda_kernels():
    """clifford.tools.g3c.cuda's kernels (each thread a multivector, its
    products written out in device functions over cuda.local arrays, some
    decorated with njit(device=True)): geometric and inner products,
    adjoints, normalisation, rotors between objects and between lines,
    square roots of rotors, rotors applied, Dorst norms, the rotor costs
    between lines and between objects."""
    from clifford.tools import g3c
    from clifford.tools.g3c import cuda as g3c_cuda
    from clifford.tools.g3c.cost_functions import rotor_cost
    objects = _g3c_objects(np.random.default_rng(7), 40)
    a = np.array([o.value for o in objects["line"] + objects["circle"]])
    b = np.array([o.value for o in objects["line"][::-1] + objects["circle"][::-1]])
    out = {"gp": _each(g3c_cuda.gp_kernel, lambda x, y: x * y, (a, b), np.zeros_like(a)),
           "ip": _each(g3c_cuda.ip_kernel, lambda x, y: x | y, (a, b), np.zeros_like(a)),
           "adjoint": _each(g3c_cuda.adjoint_kernel, lambda x: ~x, (a,), np.zeros_like(a))}
    scaled = a * 3.0  # (normalised in place)
    out["normalised"] = _each(g3c_cuda.normalise_mvs_kernel, lambda x: x.normal(), (scaled,), scaled)
    for kind, objs in objects.items():
        x = np.array([o.value for o in objs])
        y = np.array([o.value for o in objs[1:] + objs[:1]])
        rotors = _each(g3c_cuda.rotor_between_objects_kernel, g3c.rotor_between_objects, (x, y), np.zeros_like(x))
        out[f"rotor.{kind}"] = rotors
        out[f"applied.{kind}"] = _each(g3c_cuda.apply_rotor_kernel, g3c.apply_rotor, (x, rotors), np.zeros_like(x))
        out[f"root.{kind}"] = _each(g3c_cuda.square_root_of_rotor_kernel, lambda r: g3c.square_roots_of_rotor(r)[0],
                                    (rotors,), np.zeros_like(x))
        out[f"cost.{kind}"] = _each(g3c_cuda.cost_between_objects_kernel,
                                    lambda p, q: rotor_cost(g3c.rotor_between_objects(p, q)),
                                    (x, y), np.zeros(len(x)))
    lines = np.array([o.value for o in objects["line"]])
    other = lines[::-1].copy()
    out["rotor_lines"] = _each(g3c_cuda.rotor_between_lines_kernel, g3c.rotor_between_lines, (lines, other),
                               np.zeros_like(lines))
    out["line_cost"] = _each(g3c_cuda.cost_line_to_line_kernel,
                             lambda p, q: rotor_cost(g3c.rotor_between_lines(p, q)), (lines, other),
                             np.zeros(len(lines)))
    return out


def clifford_cuda_matching():
    """clifford's CUDA model matching: the matrices of rotor costs between
    two sets of lines and of other objects (kernels over 2-d grids), and
    the assignment of measurements to objects by them."""
    from clifford.tools import g3c
    from clifford.tools.g3c import cuda as g3c_cuda
    from clifford.tools.g3c.cost_functions import rotor_cost
    from clifford.tools.g3c.model_matching import assign_measurements_to_objects_matrix
    from numba import cuda
    objects = _g3c_objects(np.random.default_rng(8), 24)

    def costs(gpu, between, set_a, set_b):
        if cuda.is_available():
            return gpu(set_a, set_b)
        return np.array([[rotor_cost(between(p, q)) for q in set_b] for p in set_a])

    lines = objects["line"]
    out = {"line_costs": costs(g3c_cuda.line_set_cost_cuda_mvs, g3c.rotor_between_lines, lines, lines[3:] + lines[:3])}
    for kind in ("point_pair", "circle", "sphere"):
        objs = objects[kind]
        out[f"object_costs.{kind}"] = costs(g3c_cuda.object_set_cost_cuda_mvs, g3c.rotor_between_objects, objs,
                                            objs[::-1])
    shuffled = objects["circle"][5:] + objects["circle"][:5]
    out["labels"] = np.asarray(assign_measurements_to_objects_matrix(objects["circle"], shuffled,
                                                                     cuda=cuda.is_available())[0])
    return out


def frbb_boosting():
    """FastRealBoostBins (frbb): real boosting over binned features, fitted
    and applied with its numba.cuda kernels (weights added per bin under
    per-feature spin locks of atomic compare-and-swap and exchange, logits,
    exponential errors, the argmin under a lock; the decision function's
    kernel for each input dtype), which fall back to its numba_jit
    functions where numba.cuda has no GPU; float and integer features."""
    from frbb import FastRealBoostBins
    rng = np.random.default_rng(9)
    out = {}
    for dtype in (np.float32, np.float64, np.int16, np.uint8):
        x = rng.standard_normal((3000, 12)) * 40
        y = np.where(x[:, 0] + 0.5 * x[:, 3] - x[:, 7] + rng.standard_normal(3000) * 20 > 0, 1, -1)
        x = (x + (0 if np.issubdtype(dtype, np.floating) or np.dtype(dtype).kind == "i" else 128)).astype(dtype)
        clf = FastRealBoostBins(T=16, B=8).fit(x[:2000], y[:2000])
        name = np.dtype(dtype).name
        out[f"{name}.features"] = clf.features_selected_
        out[f"{name}.logits"] = clf.logits_
        out[f"{name}.decision"] = clf.decision_function(x[2000:])
        out[f"{name}.predict"] = clf.predict(x[2000:])
    return out


def locate_pixelcolor_numbacuda_search():
    """locate-pixelcolor-numbacuda's search_colors: a 3-d grid over an
    image's pixels (and its three channels) compares each with the colours
    sought; each match takes its place in the output by an atomic add (the
    matches sorted: their order is the threads')."""
    from locate_pixelcolor_numbacuda import search_colors
    rng = np.random.default_rng(10)
    pic = rng.integers(0, 4, size=(40, 30, 3), dtype=np.uint8) * 85
    out = {}
    for name, colors in (("white", [[255, 255, 255]]), ("two", [[0, 0, 0], [85, 170, 255]])):
        found = search_colors(pic, colors=np.array(colors))[0]
        out[name] = found[np.lexsort(found.T[::-1])]
    return out


def aquagrid_season():
    """aquagrid's AquaCrop season for every pixel of a grid: one numba.cuda
    thread per pixel (its model written once and compiled as device
    functions, loops over soil compartments, evaporation time steps,
    scratch rows of 2-d arrays) on backend="gpu", its njit(parallel=True)
    prange over pixels on backend="cpu" (the reference); final and daily
    outputs of maize on sandy loam, synthetic weather."""
    from aquagrid.bench import _inputs
    from aquagrid.engine.run import run_grid_arrays
    backend = _gpu_or_cpu("gpu", "cpu")
    final, daily = run_grid_arrays(backend=backend, save_daily=True, **_inputs(200, 200, seed=11))
    return {"final": final, "daily": daily}


def _numta_batches(modules, also=()):
    """numta's *_batch indicators whose kernels the numta.gpu modules named
    hold (one numba.cuda thread a ticker, each running the indicator's
    whole series), on 16 tickers of 400 bars of random OHLCV prices, where
    numba.cuda can launch kernels; else numta's CPU function of the same
    name on each ticker's series (the reference). Each output is keyed by
    its function's name."""
    import importlib
    import inspect
    import numta
    from numta.api import batch
    from numba import cuda
    rng = np.random.default_rng(12)
    close = 100 + np.cumsum(rng.standard_normal((16, 400)), axis=1)
    open_ = close + rng.standard_normal(close.shape) * 0.5
    spread = np.abs(rng.standard_normal((2, 16, 400)))
    prices = {"open_": open_, "close": close, "high": np.maximum(open_, close) + spread[0],
              "low": np.minimum(open_, close) - spread[1], "volume": rng.uniform(1e3, 1e5, close.shape)}
    names = list(also)
    for module in modules:
        kernels = vars(importlib.import_module(f"numta.gpu.{module}"))
        names += [f"{k[1:-len('_batch_cuda')].upper()}_batch" for k in sorted(kernels) if k.endswith("_batch_cuda")]
    out = {}
    for name in names:
        if not hasattr(batch, name):  # (a kernel a batch function shares)
            continue
        gpu, cpu = getattr(batch, name), getattr(numta, name[:-len("_batch")])
        inputs = [prices[p.name] for p in inspect.signature(gpu).parameters.values() if p.default is p.empty]
        if cuda.is_available():
            result = gpu(*inputs)
        else:
            rows = [cpu(*(a[i] for a in inputs)) for i in range(16)]
            result = tuple(np.stack(r) for r in zip(*rows)) if isinstance(rows[0], tuple) else np.stack(rows)
        for i, r in enumerate(result if isinstance(result, tuple) else (result,)):
            out[f"{name[:-len('_batch')]}.{i}"] = r
    return out


def numta_overlap_momentum():
    """numta's moving averages (SMA, EMA, DEMA, TEMA, T3, TRIMA, KAMA, MAMA,
    WMA), Bollinger bands, parabolic SAR and its momentum indicators (RSI,
    MACD, ADX, CCI, stochastics, Aroon, MFI, ultimate oscillator ...)."""
    return _numta_batches(("overlap", "momentum_indicators"), also=("STOCH_batch", "STOCHF_batch"))


def numta_statistics_volume():
    """numta's volatility (true range, NATR), volume (A/D, OBV, ADOSC),
    statistics (stddev, var, TSF, beta, correlation, linear regression),
    rolling min/max and their indices, sums, price transforms."""
    return _numta_batches(("volatility_indicators", "volume_indicators", "statistics", "statistic_functions",
                           "math_operators", "price_transform"))


def numta_cycles_patterns():
    """numta's Hilbert-transform cycle indicators (trendline, trend mode,
    dominant cycle period and phase, phasor, sine wave) and its 60
    candlestick patterns."""
    return _numta_batches(("cycle_indicators", "pattern_recognition"))


def pylops_cuda_nonstationary():
    """pylops' non-stationary 2-d and 3-d convolutions (forward and adjoint)
    with engine="cuda" (numba.cuda kernels over
    2-d and 3-d grids, with max_registers, adding into the output by
    atomics, on NumPy arrays the launch copies), engine="numba" where
    numba.cuda has no GPU (the reference)."""
    _pylops()
    from pylops.signalprocessing import NonStationaryConvolve2D, NonStationaryConvolve3D
    engine = _gpu_or_cpu("cuda", "numba")
    rng = np.random.default_rng(13)
    nz, nx = 120, 100
    d = rng.normal(size=(nz, nx))
    hs = rng.normal(size=(5, 4, 9, 7))
    ihx, ihz = (10, 35, 60, 85, 110), (10, 35, 60, 85)
    C = NonStationaryConvolve2D((nz, nx), hs, ihx=ihx, ihz=ihz, engine=engine, num_threads_per_blocks=(16, 16))
    out = {"convolve2d": C @ d.ravel(), "convolve2d_adjoint": C.H @ d.ravel()}
    d3 = rng.normal(size=(20, 24, 28))
    C = NonStationaryConvolve3D((20, 24, 28), rng.normal(size=(2, 3, 3, 5, 5, 7)), ihx=(4, 14), ihy=(4, 11, 18),
                                ihz=(5, 13, 21), engine=engine)
    out["convolve3d"], out["convolve3d_adjoint"] = C @ d3.ravel(), C.H @ d3.ravel()
    return out


def geofast_gpu_kernels():
    """geofast's numba.cuda kernels (cuda_kernels: haversine distances of
    pairs and the 2-d grid of a distance matrix, hexagonal cell keys with
    their cube rounding), where numba.cuda can launch them; else its
    njit(parallel=True) primitives (the reference)."""
    from geofast import cuda_kernels, primitives
    rng = np.random.default_rng(14)
    lat1, lat2 = rng.uniform(-80, 80, (2, 50000))
    lon1, lon2 = rng.uniform(-180, 180, (2, 50000))
    gpu = cuda_kernels.NUMBA_CUDA_AVAILABLE
    haversine = cuda_kernels.haversine_gpu if gpu else primitives.haversine_batch
    matrix = cuda_kernels.haversine_matrix_gpu if gpu else primitives.haversine_matrix
    hex_keys = cuda_kernels.hex_keys_gpu if gpu else primitives.lat_lon_to_hex_batch
    q, r = hex_keys(lat1, lon1, 0.37, 0.41)
    return {"haversine": haversine(lat1, lon1, lat2, lon2, 6371.0),
            "matrix": matrix(lat1[:300], lon1[:300], lat2[:200], lon2[:200], 3959.0), "q": q, "r": r}


def _skglm_data(n, p, seed, sparse=False):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, p))
    if sparse:
        X[rng.random((n, p)) < 0.8] = 0.0
    w = np.zeros(p)
    w[:10] = rng.standard_normal(10) * 3
    y = X @ w + 0.5 * rng.standard_normal(n)
    if sparse:
        import scipy.sparse
        X = scipy.sparse.csc_matrix(X)
    return X, y


def skglm_regression():
    """skglm's sparse regressions as scikit-learn users fit them: Lasso,
    weighted Lasso, ElasticNet and MCP (the working-set Anderson coordinate
    descent over jitclass datafits and penalties) on dense and CSC inputs,
    and the Gram-matrix solver."""
    from skglm import ElasticNet, Lasso, MCPRegression, WeightedLasso
    from skglm.penalties import L1
    from skglm.solvers import GramCD
    X, y = _skglm_data(400, 200, 0)
    Xs, ys = _skglm_data(400, 300, 1, sparse=True)
    out = {}
    for tag, (a, b) in {"dense": (X, y), "sparse": (Xs, ys)}.items():
        out[tag + "_lasso"] = Lasso(alpha=0.1, tol=1e-8).fit(a, b).coef_
        out[tag + "_enet"] = ElasticNet(alpha=0.1, l1_ratio=0.6, tol=1e-8).fit(a, b).coef_
        out[tag + "_mcp"] = MCPRegression(alpha=0.1, gamma=3.0, tol=1e-8).fit(a, b).coef_
    weights = np.linspace(0.5, 1.5, X.shape[1])
    out["weighted"] = WeightedLasso(alpha=0.1, weights=weights, tol=1e-8).fit(X, y).coef_
    out["gram_cd"] = GramCD(tol=1e-8, max_iter=1000, fit_intercept=False).solve(X, y, None, L1(0.1))[0]
    return out


def skglm_glm():
    """skglm's generalized linear models: sparse logistic regression and
    Poisson regression (prox-Newton), Huber with SCAD and the L0.5 and L2/3
    penalties (Anderson CD), a box-constrained SVM dual, FISTA with the
    SLOPE penalty and L-BFGS with an L2 penalty."""
    from skglm import GeneralizedLinearEstimator, LinearSVC, SparseLogisticRegression
    from skglm.datafits import Huber, Logistic, Poisson, Quadratic
    from skglm.penalties import L0_5, L2, L2_3, SCAD, SLOPE, L1
    from skglm.solvers import AndersonCD, FISTA, LBFGS, ProxNewton
    X, y = _skglm_data(300, 120, 2)
    rng = np.random.default_rng(3)
    labels = np.where(X[:, :5].sum(axis=1) + 0.3 * rng.standard_normal(300) > 0, 1.0, -1.0)
    counts = rng.poisson(np.exp(0.2 * X[:, :4].sum(axis=1))).astype(float)
    out = {}
    out["logistic"] = SparseLogisticRegression(alpha=0.01, tol=1e-8).fit(X, labels).coef_.ravel()
    out["logistic_pn"] = GeneralizedLinearEstimator(Logistic(), L1(0.01), ProxNewton(tol=1e-8)).fit(X, labels).coef_
    out["poisson"] = GeneralizedLinearEstimator(Poisson(), L1(0.05), ProxNewton(tol=1e-8, fit_intercept=False)
                                                ).fit(X, counts).coef_
    out["huber_scad"] = GeneralizedLinearEstimator(Huber(1.0), SCAD(0.05, 3.7), AndersonCD(tol=1e-8)).fit(X, y).coef_
    out["l05"] = GeneralizedLinearEstimator(Quadratic(), L0_5(0.05), AndersonCD(tol=1e-8)).fit(X, y).coef_
    out["l23"] = GeneralizedLinearEstimator(Quadratic(), L2_3(0.05), AndersonCD(tol=1e-8)).fit(X, y).coef_
    out["svc"] = LinearSVC(C=0.5, tol=1e-8).fit(X, labels).coef_.ravel()
    alphas = np.linspace(0.2, 0.01, X.shape[1])
    fista = FISTA(max_iter=2000, tol=1e-8, opt_strategy="fixpoint")
    out["slope"] = GeneralizedLinearEstimator(Quadratic(), SLOPE(alphas), fista).fit(X, y).coef_
    out["lbfgs"] = LBFGS(tol=1e-8).solve(X, labels, Logistic(), L2(0.1))[0]
    return out


def skglm_group_multitask():
    """skglm's block-separable models: group Lasso (block coordinate
    descent over grouped columns), multi-task Lasso, the L1+L2 Cox
    proportional hazards estimator and the graphical Lasso."""
    from skglm import CoxEstimator, GraphicalLasso, GroupLasso, MultiTaskLasso
    X, y = _skglm_data(300, 120, 4)
    rng = np.random.default_rng(5)
    out = {"group": GroupLasso(groups=4, alpha=0.1, tol=1e-8).fit(X, y).coef_}
    Y = np.column_stack([y, y + rng.standard_normal(300), -y])
    out["multitask"] = MultiTaskLasso(alpha=0.1, tol=1e-8).fit(X, Y).coef_
    Xc = rng.standard_normal((200, 30))
    times = rng.exponential(np.exp(-Xc[:, :3].sum(axis=1)))
    events = (rng.random(200) < 0.7).astype(float)
    cox = CoxEstimator(alpha=0.05, l1_ratio=0.7, method="breslow", tol=1e-8).fit(Xc, np.column_stack([times, events]))
    out["cox"] = cox.coef_
    cov = np.cov(rng.standard_normal((500, 20)), rowvar=False)
    out["graphical"] = GraphicalLasso(alpha=0.05, tol=1e-8).fit(cov).precision_
    return out



def _bm25s_corpus(n_docs, seed):
    """Documents of Zipf-distributed words, as text."""
    rng = np.random.default_rng(seed)
    vocab = [f"w{i}" for i in range(3000)]
    ranks = np.minimum(rng.zipf(1.3, size=n_docs * 40), len(vocab)) - 1
    lengths = rng.integers(10, 70, n_docs)
    cuts = np.cumsum(lengths)
    return [" ".join(vocab[r] for r in ranks[start:stop] % len(vocab))
            for start, stop in zip(np.r_[0, cuts[:-1]], cuts)], vocab, rng


def bm25s_retrieve():
    """bm25s's sparse BM25 retrieval with its numba backend, as its README
    runs it: a corpus indexed (the compiled CSC builder) under each BM25
    variant, queries scored and their top-k documents selected by the
    compiled scorer and top-k selection."""
    import bm25s
    texts, vocab, rng = _bm25s_corpus(3000, 0)
    queries = [" ".join(rng.choice(vocab[:400], size=rng.integers(2, 7))) for _ in range(200)]
    out = {}
    for method in ("lucene", "robertson", "atire", "bm25l", "bm25+"):
        retriever = bm25s.BM25(method=method, backend="numba")
        retriever.index(bm25s.tokenize(texts, stopwords=None, show_progress=False), show_progress=False)
        query_tokens = bm25s.tokenize(queries, stopwords=None, show_progress=False)
        docs, scores = retriever.retrieve(query_tokens, k=10, show_progress=False, n_threads=1)
        out[method + "_docs"], out[method + "_scores"] = docs, scores
        out[method + "_all_scores"] = retriever.get_scores(["w1", "w7", "w30"])
    return out


def _ranx_runs(seed, n_queries=300, n_docs=2000):
    """Qrels and three systems' runs as ranx's dicts of query -> doc -> score."""
    from ranx import Qrels, Run
    rng = np.random.default_rng(seed)
    qrels, runs = {}, [{}, {}, {}]
    for q in range(n_queries):
        relevant = rng.choice(n_docs, size=rng.integers(1, 15), replace=False)
        qrels[f"q{q}"] = {f"d{d}": int(rng.integers(1, 4)) for d in relevant}
        for k, run in enumerate(runs):
            retrieved = rng.choice(n_docs, size=100, replace=False)
            retrieved[: len(relevant) // (k + 1)] = relevant[: len(relevant) // (k + 1)]
            scores = rng.random(100) + (0.4 + 0.05 * k) * np.isin(retrieved, relevant)
            run[f"q{q}"] = {f"d{d}": float(s) for d, s in zip(retrieved, scores)}
    return Qrels(qrels), [Run(run, name=f"sys{k}") for k, run in enumerate(runs)]


def ranx_evaluate():
    """ranx's IR metrics, as its users evaluate a run: each metric at
    cut-offs over Numba typed dicts of qrels and runs (parallel over
    queries), per query and averaged, and its statistical comparison of
    systems by Student's t."""
    from ranx import compare, evaluate
    qrels, runs = _ranx_runs(0)
    metrics = ["hits", "hit_rate", "precision", "recall", "f1", "r-precision", "mrr", "map", "ndcg", "ndcg_burges",
               "bpref", "rbp.8", "precision@5", "recall@20", "map@10", "ndcg@10", "mrr@10", "f1@15",
               "hits@3", "ndcg_burges@5", "hit_rate@10", "rbp.95"]
    scores = evaluate(qrels, runs[0], metrics, make_comparable=True)
    out = {m.replace("@", "_at_").replace(".", "_"): v for m, v in scores.items()}
    evaluate(qrels, runs[1], ["ndcg@10", "map"], make_comparable=True)
    out["per_query_ndcg"] = np.array(list(runs[1].scores["ndcg@10"].values()))
    few_qrels, few_runs = _ranx_runs(2, n_queries=30)
    for test in ("student",):  # (Fisher's: np.random in a prange, each thread's own stream under Numba)
        report = compare(few_qrels, few_runs, metrics=["map@100", "ndcg@10"], stat_test=test, max_p=0.05,
                         make_comparable=True, random_seed=42, n_permutations=500)
        pairs = [(a, b) for a in ("sys0", "sys1") for b in ("sys1", "sys2") if a != b]
        out[test + "_p"] = np.array([report.comparisons[pair][m]["p_value"] for pair in pairs
                                     for m in ("map@100", "ndcg@10")])
    return out


def ranx_fuse():
    """ranx's rank fusion: the score-based (CombSUM, CombMNZ, weighted sum
    over min-max, max and z-score normalised runs) and rank-based
    (reciprocal rank, Borda, ISR, RBC) methods its fuse() offers, each
    compiled over typed dicts of the runs (not Condorcet's, whose order
    of candidates is a Python set's, another in each process)."""
    from ranx import evaluate, fuse
    qrels, runs = _ranx_runs(1, n_queries=150)
    out = {}
    for method, norm, params in (("sum", "min-max", None), ("mnz", "max", None), ("max", "zmuv", None),
                                 ("min", "sum", None), ("med", "min-max", None), ("anz", "min-max", None),
                                 ("gmnz", "min-max", {"gamma": 0.5}), ("wsum", "min-max", {"weights": [0.5, 0.3, 0.2]}),
                                 ("wmnz", "min-max", {"weights": [0.5, 0.3, 0.2]}), ("rrf", None, {"k": 60}),
                                 ("bordafuse", None, None), ("w_bordafuse", None, {"weights": [0.5, 0.3, 0.2]}),
                                 ("isr", None, None), ("log_isr", None, None),
                                 ("logn_isr", None, {"sigma": 0.01}), ("rbc", None, {"phi": 0.8})):
        fused = fuse(runs, norm=norm, method=method, params=params)
        out[method] = evaluate(qrels, fused, ["map@100", "ndcg@10", "mrr"], make_comparable=True)
        out[method + "_ndcg_at_10_q0"] = fused.scores.get("ndcg@10", {}).get("q0", np.nan) if fused.scores else np.nan
    return {k: np.asarray(list(v.values()) if isinstance(v, dict) else v, dtype=float) for k, v in out.items()}



def _claspy_series(seed, n=3000):
    """Three regimes (a sine, a sawtooth, noise on a slower sine), as
    change-point benchmarks concatenate them."""
    rng = np.random.default_rng(seed)
    t = np.arange(n // 3)
    parts = [np.sin(2 * np.pi * t / 40), (t % 25) / 25.0 - 0.5, 0.8 * np.sin(2 * np.pi * t / 90)]
    return np.concatenate(parts) + 0.1 * rng.standard_normal(3 * (n // 3))


def claspy_segmentation():
    """ClaSPy's change-point detection as its README runs it: the
    window size learned (SuSS, the dominant Fourier frequency, the highest
    autocorrelation), binary ClaSP segmentation (k-nearest subsequence
    neighbours, classification scores, significance tests) and its score
    profile."""
    from claspy.segmentation import BinaryClaSPSegmentation
    from claspy.window_size import dominant_fourier_frequency, highest_autocorrelation, suss
    ts = _claspy_series(0)
    out = {"suss": suss(ts), "fft": dominant_fourier_frequency(ts), "acf": highest_autocorrelation(ts)}
    clasp = BinaryClaSPSegmentation(n_jobs=1, score="f1")  # (its roc_auc calls np.trapz, which NumPy 2.4 removed)
    out["cps"] = clasp.fit_predict(ts)
    out["profile"] = clasp.profile
    out["fixed"] = BinaryClaSPSegmentation(n_segments=3, window_size=20, n_jobs=1, score="f1",
                                           validation=None).fit_predict(ts)
    out["cinvariant"] = BinaryClaSPSegmentation(distance="cinvariant_euclidean_distance", n_jobs=1,
                                                score="f1").fit_predict(ts)
    return out


def claspy_streaming_states():
    """ClaSPy's streaming segmentation (ClaSS: a sliding k-NN over each new
    point, its profile updated) and its state detection (CLaP: segments
    labelled by a compiled ROCKET classifier and merged by confusion)."""
    from claspy.segmentation import BinaryClaSPSegmentation
    from claspy.state_detection import AgglomerativeCLaPDetection
    from claspy.streaming.segmentation import StreamingClaSPSegmentation
    ts = _claspy_series(1, n=4500)
    stream = StreamingClaSPSegmentation(n_timepoints=2000, n_warmup=1000, window_size=20)
    found = []
    for v in ts:
        stream.update(v)
        found.append(len(stream.change_points))
    out = {"stream_cps": stream.predict(), "stream_profile": stream.profile, "found": np.array(found)}
    clap = AgglomerativeCLaPDetection(n_jobs=1, random_state=7)
    cps = BinaryClaSPSegmentation(n_jobs=1, score="f1").fit_predict(ts[:3000])
    out["states"] = clap.fit_predict(ts[:3000], change_points=cps)
    return out


def fastnode2vec_walks():
    """fastnode2vec's node2vec random walks, compiled over the graph's CSR
    arrays with NumPy's random generator seeded in compiled code: biased
    (p, q) walks on an unweighted and a weighted graph, then the Node2Vec
    model's own walk generator."""
    from fastnode2vec import Graph, Node2Vec
    from fastnode2vec.node2vec import set_seed
    rng = np.random.default_rng(0)
    n = 400
    edges = {(int(a), int(b)) for a, b in rng.integers(0, n, (3000, 2)) if a != b}
    plain = Graph(sorted(edges), directed=False, weighted=False, verbose=False)
    weighted = Graph([(a, b, float(w)) for (a, b), w in zip(sorted(edges), rng.random(len(edges)) + 0.1)],
                     directed=True, weighted=True, verbose=False)
    out = {}
    for tag, graph in (("plain", plain), ("weighted", weighted)):
        for p, q in ((1.0, 1.0), (0.5, 2.0), (4.0, 0.25)):
            set_seed(11)
            out[f"{tag}_{p}_{q}"] = np.array([graph.generate_random_walk(30, p, q, s) for s in range(0, n, 3)])
    model = Node2Vec(plain, dim=16, walk_length=20, window=5, p=2.0, q=0.5, workers=1, seed=5)
    set_seed(3)
    out["model_walks"] = np.array([model.generate_random_walk(s) for s in range(n)])
    return out



def _hft_feed(n, seed):
    """A level-2 feed (hftbacktest 1.x's columns: event, exchange and local
    timestamps in microseconds, side, price, quantity): depth updates of
    five levels a side around a random-walk mid, and trades at the touch."""
    rng = np.random.default_rng(seed)
    tick = 0.1
    mid = 100.0 + tick * np.cumsum(rng.choice([-1, 0, 0, 0, 1], size=n))
    rows, t = [], 1_000_000
    for i in range(n):
        t += int(rng.integers(1_000, 20_000))
        for level in range(5):
            for side in (1, -1):
                price = round((mid[i] - side * tick * (level + 1)) / tick) * tick
                rows.append((1, t, t + 500, side, price, float(rng.integers(1, 50))))
        if rng.random() < 0.3:
            side = 1 if rng.random() < 0.5 else -1
            price = round((mid[i] + side * tick) / tick) * tick
            rows.append((2, t + 1, t + 501, side, price, float(rng.integers(1, 10))))
    return np.array(rows, dtype=np.float64)


def hftbacktest_market_making():
    """hftbacktest 1.x's backtest of a grid market maker, as its tutorials
    write one: a compiled strategy stepping a jitclass backtester (market
    depth, latency and queue-position models, order matching of GTX and GTC
    orders, cancels) and recording its equity with Stat."""
    from numba import njit
    from hftbacktest import (GTX, ConstantLatency, HftBacktest, Linear, PowerProbQueueModel, RiskAverseQueueModel,
                             Stat)

    @njit
    def grid_maker(hbt, recorder, half_spread_ticks, max_position):
        tick = hbt.tick_size
        while hbt.elapse(100_000):
            hbt.clear_inactive_orders()
            if hbt.best_bid_tick == -2147483648 or hbt.best_ask_tick == 2147483647:
                continue
            mid = (hbt.best_bid + hbt.best_ask) / 2.0
            bid = np.floor(mid / tick - half_spread_ticks) * tick
            ask = np.ceil(mid / tick + half_spread_ticks) * tick
            for order in hbt.orders.values():
                if order.cancellable and (order.price != bid and order.price != ask):
                    hbt.cancel(order.order_id)
            bid_id, ask_id = np.uint64(round(bid / tick)), np.uint64(round(ask / tick))
            if hbt.position < max_position and bid_id not in hbt.orders:
                hbt.submit_buy_order(bid_id, bid, 1.0, GTX)
            if hbt.position > -max_position and ask_id not in hbt.orders:
                hbt.submit_sell_order(ask_id, ask, 1.0, GTX)
            recorder.record(hbt)
        return True

    out = {}
    for tag, queue in (("risk_averse", RiskAverseQueueModel()), ("power", PowerProbQueueModel(3.0))):
        hbt = HftBacktest([_hft_feed(3000, 0)], tick_size=0.1, lot_size=1.0, maker_fee=-0.00005, taker_fee=0.0007,
                          order_latency=ConstantLatency(entry_latency=2_000, response_latency=3_000),
                          asset_type=Linear, queue_model=queue)
        stat = Stat(hbt)
        grid_maker(hbt, stat.recorder, 2.0, 10.0)
        out[tag + "_equity"] = np.array([hbt.balance, hbt.position, hbt.fee, hbt.trade_num, hbt.trade_qty])
        out[tag + "_mid"] = stat.mid[:len(stat.timestamp)]
        out[tag + "_position"] = stat.position[:len(stat.timestamp)]
    return out


def _fatigue_history(n, seed):
    """A stress history (MPa) of a welded detail: two sea states and noise."""
    t = np.arange(n) * 0.05
    noise = np.random.default_rng(seed).standard_normal(n)
    return t, 20 + 40 * np.sin(0.7 * t) + 15 * np.sin(3.1 * t + 0.4) + 10 * noise


def py_fatigue_rainflow_damage():
    """ASTM rainflow counting of a long history, a two-slope S-N curve's
    cycles and stresses, Palmgren-Miner and nonlinear damage rules, and
    mean stress corrections (DNV-GL's, Walker's, Goodman's by Newton)."""
    import py_fatigue as pf
    from py_fatigue.damage import stress_life
    t, s = _fatigue_history(100000, 0)
    cc = pf.CycleCount.from_timeseries(s, t, name="weld", range_bin_lower_bound=0.5, range_bin_width=1.0)
    sn = pf.SNCurve(slope=[3, 5], intercept=[12.164, 15.606], norm="DNVGL-RP-C203", curve="D", environment="Air")
    cycles = sn.get_cycles(cc.stress_range)
    out = {"ranges": cc.stress_range, "counts": cc.count_cycle, "means": cc.mean_stress,
           "residuals": np.asarray(cc.residuals, dtype=float), "cycles": cycles,
           "stress_back": sn.get_stress(cycles[np.isfinite(cycles)]), "pm": stress_life.get_pm(cc, sn)}
    for rule in ("pavlou", "manson-halford", "si jian", "leve"):
        kwargs = {"base_exponent": 0.4, "ultimate_stress": 700} if rule == "pavlou" else {}
        out[rule.replace(" ", "_")] = np.asarray(stress_life.get_nonlinear_damage(rule, cc, sn, **kwargs), dtype=float)
    out["dnvgl"] = cc.mean_stress_correction("DNVGL-RP-C203", detail_factor=0.6).stress_range
    out["walker"] = cc.mean_stress_correction("Walker", gamma=0.5).stress_range
    out["goodman"] = cc.mean_stress_correction("Goodman", r_out=-1, ult_s=700).stress_range
    return out


def py_fatigue_crack_growth():
    """Paris-law crack growth integrated cycle by cycle (a jitclass holding
    a typed dict of the geometry) through a history's rainflow cycles, on
    an infinite surface and in a hollow cylinder's wall."""
    import py_fatigue as pf
    from py_fatigue.damage import crack_growth
    from py_fatigue.geometry import HollowCylinder, InfiniteSurface
    t, s = _fatigue_history(20000, 1)
    cc = pf.CycleCount.from_timeseries(3 * s, t, name="bolt")
    paris = pf.ParisCurve(slope=[2.88, 5.1, 8.16, 5.1, 2.88], intercept=[1e-16, 1e-20, 1e-27, 1e-19, 1e-13],
                          threshold=20, critical=2000, norm="The norm", environment="Environment")
    out = {}
    for name, geometry in (("surface", InfiniteSurface(initial_depth=2.0)),
                           ("cylinder", HollowCylinder(initial_depth=2.0, outer_diameter=500.0, thickness=40.0, height=1000.0,
                                                         crack_position="external"))):
        cg = crack_growth.get_crack_growth(cc, paris, geometry)
        out[name + "_depth"] = cg.crack_depth
        out[name + "_sif"] = cg.sif
        out[name + "_factor"] = cg.geometry_factor
        out[name + "_final"] = np.array([cg.final_cycles, float(cg.failure)])
    out["growth_rate"] = paris.get_growth_rate(np.linspace(10, 2500, 400))
    out["sif_back"] = paris.get_sif(paris.get_growth_rate(np.linspace(30, 1900, 400)))
    return out


def _elastica_collection():
    import elastica as ea

    class Simulator(ea.BaseSystemCollection, ea.Constraints, ea.Forcing, ea.Damping, ea.Contact, ea.CallBacks):
        pass
    return Simulator()


def pyelastica_beam():
    """A cantilevered Cosserat rod (Timoshenko's beam) loaded at its tip,
    with analytical damping, stepped by position Verlet; and a ring rod
    under gravity stepped by PEFRL with a Laplace dissipation filter."""
    import elastica as ea
    sim = _elastica_collection()
    n, length = 100, 3.0
    rod = ea.CosseratRod.straight_rod(n, np.zeros(3), np.array([0.0, 0.0, 1.0]), np.array([0.0, 1.0, 0.0]),
                                      length, 0.25, 5000.0, youngs_modulus=1e6, shear_modulus=1e6 / 3.0)
    sim.append(rod)
    sim.constrain(rod).using(ea.OneEndFixedBC, constrained_position_idx=(0,), constrained_director_idx=(0,))
    dt = 0.07 * length / n
    sim.add_forcing_to(rod).using(ea.EndpointForces, np.zeros(3), np.array([-15.0, 0.0, 0.0]), ramp_up_time=0.5)
    sim.dampen(rod).using(ea.AnalyticalLinearDamper, damping_constant=0.1, time_step=dt)
    sim.finalize()
    ea.integrate(ea.PositionVerlet(), sim, 3000 * dt, 3000, progress_bar=False)
    ring_sim = _elastica_collection()
    ring = ea.CosseratRod.ring_rod(60, np.zeros(3), np.array([0.0, 0.0, 1.0]), np.array([1.0, 0.0, 0.0]),
                                   1.0, 0.02, 1000.0, youngs_modulus=1e5)
    ring_sim.append(ring)
    ring_sim.add_forcing_to(ring).using(ea.GravityForces, acc_gravity=np.array([0.0, -9.81, 0.0]))
    ring_sim.dampen(ring).using(ea.LaplaceDissipationFilter, filter_order=5)
    ring_sim.finalize()
    ea.integrate(ea.PEFRL(), ring_sim, 0.2, 2000, progress_bar=False)
    # its velocities and internal forces at rest are differences of nearly equal terms (rounding noise of
    # 1e-11 m/s and 1e-6 N, stiffness 1e6 times a position's last bits): the shapes are compared
    return {"positions": rod.position_collection, "directors": rod.director_collection,
            "ring_positions": ring.position_collection, "ring_directors": ring.director_collection}


def pyelastica_snake():
    """The continuum snake: a rod driven by travelling-wave muscle torques
    on a ground with anisotropic friction (rod-plane contact), under
    gravity, with analytical damping."""
    import elastica as ea
    sim = _elastica_collection()
    n, length = 50, 0.35
    rod = ea.CosseratRod.straight_rod(n, np.zeros(3), np.array([0.0, 0.0, 1.0]), np.array([0.0, 1.0, 0.0]),
                                      length, 0.035 * length, 1000.0, youngs_modulus=1e6, shear_modulus=1e6 / 3.0)
    sim.append(rod)
    sim.add_forcing_to(rod).using(ea.GravityForces, acc_gravity=np.array([0.0, -9.80665, 0.0]))
    b_coeff = np.array([17.4, 48.5, 5.4, 14.7, 0.97])
    sim.add_forcing_to(rod).using(ea.MuscleTorques, base_length=length, b_coeff=b_coeff[:-1], period=1.0,
                                  wave_number=2 * np.pi / b_coeff[-1], phase_shift=0.0,
                                  direction=np.array([0.0, 1.0, 0.0]), rest_lengths=rod.rest_lengths,
                                  ramp_up_time=1.0, with_spline=True)
    ground = ea.Plane(plane_origin=np.array([0.0, -0.035 * length, 0.0]), plane_normal=np.array([0.0, 1.0, 0.0]))
    sim.append(ground)
    friction = 2.0 * 0.11
    sim.detect_contact_between(rod, ground).using(
        ea.RodPlaneContactWithAnisotropicFriction, k=1.0, nu=1e-6, slip_velocity_tol=1e-8,
        static_mu_array=np.array([2 * friction, 4 * friction, 2 * friction]),
        kinetic_mu_array=np.array([friction, 2 * friction, friction]))
    dt = 1e-4
    sim.dampen(rod).using(ea.AnalyticalLinearDamper, damping_constant=2e-3, time_step=dt)
    sim.finalize()
    ea.integrate(ea.PositionVerlet(), sim, 0.5, 5000, progress_bar=False)
    return {"positions": rod.position_collection, "velocities": rod.velocity_collection,
            "directors": rod.director_collection, "external_torques": rod.external_torques}


def pyelastica_contact_knots():
    """Two rods crossing under end forces with rod-rod contact, one rod
    coiling against itself (self contact), and the link, twist and writhe
    of a helical rod (knot theory)."""
    import elastica as ea
    sim = _elastica_collection()
    a = ea.CosseratRod.straight_rod(30, np.array([-0.5, 0.0, 0.0]), np.array([1.0, 0.0, 0.0]),
                                    np.array([0.0, 0.0, 1.0]), 1.0, 0.02, 1000.0, youngs_modulus=1e5)
    b = ea.CosseratRod.straight_rod(30, np.array([0.0, -0.5, 0.03]), np.array([0.0, 1.0, 0.0]),
                                    np.array([0.0, 0.0, 1.0]), 1.0, 0.02, 1000.0, youngs_modulus=1e5)
    sim.append(a)
    sim.append(b)
    sim.add_forcing_to(b).using(ea.UniformForces, force=-2.0, direction=np.array([0.0, 0.0, 1.0]))
    sim.detect_contact_between(a, b).using(ea.RodRodContact, k=1e3, nu=0.1)
    sim.detect_contact_between(b, b).using(ea.RodSelfContact, k=1e3, nu=0.1)
    sim.constrain(a).using(ea.FixedConstraint, constrained_position_idx=(0, -1), constrained_director_idx=(0, -1))
    sim.dampen(a).using(ea.AnalyticalLinearDamper, damping_constant=0.05, time_step=1e-4)
    sim.dampen(b).using(ea.AnalyticalLinearDamper, damping_constant=0.05, time_step=1e-4)
    sim.finalize()
    ea.integrate(ea.PositionVerlet(), sim, 0.2, 2000, progress_bar=False)
    s = np.linspace(0.0, 6 * np.pi, 201)
    helix = np.stack([np.cos(s), np.sin(s), 0.2 * s])[None]
    normal = np.stack([np.cos(s[:-1]), np.sin(s[:-1]), np.zeros(200)])[None]
    radius = np.full((1, 200), 0.05)
    twist, local_twist = ea.compute_twist(helix, normal)
    return {"a_positions": a.position_collection, "b_positions": b.position_collection,
            "b_velocities": b.velocity_collection, "twist": twist, "local_twist": local_twist,
            "writhe": ea.compute_writhe(helix, 0.2 * 6 * np.pi, "next_tangent"),
            "link": ea.compute_link(helix, normal, radius, 0.2 * 6 * np.pi, "next_tangent")}


def _sph_particles(n, seed):
    """Clustered particles in a unit box: positions, masses (float32) and
    smoothing lengths (float32) as a SWIFT snapshot's gas holds them."""
    rng = np.random.default_rng(seed)
    centres = rng.uniform(0.2, 0.8, (8, 3))
    pos = (centres[rng.integers(0, 8, n)] + 0.08 * rng.standard_normal((n, 3))) % 1.0
    m = rng.uniform(0.5, 1.5, n).astype(np.float32)
    h = (0.01 + 0.04 * rng.random(n)).astype(np.float32)
    return pos[:, 0].copy(), pos[:, 1].copy(), pos[:, 2].copy(), m, h


def swiftsimio_projection():
    """SPH projections of particles onto images by each of swiftsimio's
    CPU backends (fast, histogram, renormalised, subsampled, its extreme
    variant, reference), serial and parallel, in a periodic box."""
    from swiftsimio.visualisation.projection_backends import backends, backends_parallel
    x, y, _, m, h = _sph_particles(20000, 0)
    out = {}
    for name in ("fast", "histogram", "renormalised", "subsampled", "subsampled_extreme", "reference"):
        res = 128 if name.startswith("subsampled") else 256
        out[name] = backends[name](x=x, y=y, m=m, h=h, res=res, box_x=1.0, box_y=1.0)
        if name in ("fast", "histogram"):
            out[name + "_parallel"] = backends_parallel[name](x=x, y=y, m=m, h=h, res=res, box_x=1.0, box_y=1.0)
    return out


def swiftsimio_fastmath_sums():
    """The backends whose float32 sums fastmath lets the compiler reorder
    (nested grids' projection and voxels, the renormalised projection's
    threads): results within a few float32 roundings of Numba's."""
    from swiftsimio.visualisation.projection_backends import backends, backends_parallel
    from swiftsimio.visualisation.volume_render_backends import backends as volumes
    x, y, z, m, h = _sph_particles(20000, 0)
    return {"nested": backends["nested"](x=x, y=y, m=m, h=h, res=256, box_x=1.0, box_y=1.0),
            "renormalised_parallel": backends_parallel["renormalised"](x=x, y=y, m=m, h=h, res=256, box_x=1.0,
                                                                       box_y=1.0),
            "voxels_nested": volumes["nested"](x=x, y=y, z=z, m=m, h=h, res=48, box_x=1.0, box_y=1.0, box_z=1.0)}


def swiftsimio_slices_volumes():
    """Density slices (SPH kernel and nearest neighbour), voxel grids by
    scatter, serial and parallel, and power-spectrum depositions with
    folding, of one particle set."""
    from swiftsimio.visualisation.power_spectrum import deposit, deposit_parallel
    from swiftsimio.visualisation.slice_backends import backends as slices
    from swiftsimio.visualisation.volume_render_backends import backends as volumes
    from swiftsimio.visualisation.volume_render_backends import backends_parallel as volumes_parallel
    x, y, z, m, h = _sph_particles(20000, 1)
    out = {"slice_sph": slices["sph"](x=x, y=y, z=z, m=m, h=h, z_slice=0.5, xres=200, yres=160,
                                      box_x=1.0, box_y=1.0, box_z=1.0),
           "slice_nn": slices["nearest_neighbours"](x=x, y=y, z=z, m=m, h=h, z_slice=0.5, xres=200, yres=160,
                                                    box_x=1.0, box_y=1.0, box_z=1.0)}
    out["voxels"] = volumes["scatter"](x=x, y=y, z=z, m=m, h=h, res=48, box_x=1.0, box_y=1.0, box_z=1.0)
    out["voxels_parallel"] = volumes_parallel["scatter"](x=x, y=y, z=z, m=m, h=h, res=48, box_x=1.0, box_y=1.0,
                                                         box_z=1.0)
    for fold in (1.0, 4.0):
        out[f"deposit_{fold:g}"] = deposit(x, y, z, m, 32, fold, 1.0, 1.0, 1.0)
        out[f"deposit_parallel_{fold:g}"] = deposit_parallel(x, y, z, m, 32, fold, 1.0, 1.0, 1.0)
    return out


def swiftsimio_ranges():
    """The reading helpers: contiguous ranges of sorted particle IDs (a
    mask's runs), their expansion back to indices, and chunked range
    extraction as the snapshot reader does it."""
    from swiftsimio.accelerated import expand_ranges, get_chunk_ranges, extract_ranges_from_chunks, ranges_from_array
    rng = np.random.default_rng(2)
    ids = np.flatnonzero(rng.random(400000) < 0.3)
    ranges = ranges_from_array(ids)
    expanded = expand_ranges(ranges)
    chunks = get_chunk_ranges(ranges, 4096, 400000)
    dataset = np.sqrt(np.arange(400000.0))
    read = np.concatenate([dataset[lo:hi] for lo, hi in chunks])
    return {"ranges": ranges, "expanded": expanded, "chunks": chunks,
            "extracted": extract_ranges_from_chunks(read, chunks, ranges)}


def _xsdba_tas(seed, years, start, offset=0.0, scale=1.0, trend=0.0):
    """Daily temperatures (K) with an annual cycle, a trend and noise."""
    import pandas as pd
    import xarray as xr
    time = pd.date_range(f"{start}-01-01", periods=365 * years, freq="D")
    rng = np.random.default_rng(seed)
    doy = time.dayofyear.to_numpy()
    values = (280.0 + offset + 12 * np.sin(2 * np.pi * (doy - 100) / 365) + trend * np.arange(len(time)) / 3650
              + scale * 3 * rng.standard_normal(len(time)))
    return xr.DataArray(values, dims=("time",), coords={"time": time}, attrs={"units": "K"})


def xsdba_quantile_mapping():
    """Bias adjustment of a model's temperatures to observations: empirical
    quantile mapping by day-of-year windows, detrended quantile mapping and
    quantile delta mapping, trained on 1981-2010 and applied to 2041-2070
    (numba quantiles of each group, extrapolation on quantiles)."""
    import xsdba
    ref = _xsdba_tas(0, 30, 1981)
    hist = _xsdba_tas(1, 30, 1981, offset=2.0, scale=1.3)
    sim = _xsdba_tas(2, 30, 2041, offset=4.0, scale=1.3, trend=1.0)
    out = {}
    eqm = xsdba.EmpiricalQuantileMapping.train(ref, hist, nquantiles=50, group="time.month", kind="+")
    out["eqm"] = eqm.adjust(sim, extrapolation="constant", interp="linear").values
    out["eqm_af"] = eqm.ds.af.values
    dqm = xsdba.DetrendedQuantileMapping.train(ref, hist, nquantiles=30, group="time", kind="+")
    out["dqm"] = dqm.adjust(sim, interp="nearest").values
    qdm = xsdba.QuantileDeltaMapping.train(ref, hist, nquantiles=40, group=xsdba.Grouper("time.dayofyear", window=31),
                                           kind="*")
    out["qdm"] = qdm.adjust(sim, interp="linear").values
    return out


def xsdba_loess_npdf():
    """LOESS smoothing (numba's robust locally weighted regression, tricube
    and gaussian weights), and the multivariate N-dimensional probability
    density function transform with its energy scores, on two variables."""
    import xarray as xr
    import xsdba
    from xsdba.loess import loess_smoothing
    tas = _xsdba_tas(3, 6, 2001, trend=2.0)
    out = {"loess_tricube": loess_smoothing(tas, f=0.2).values,
           "loess_gaussian": loess_smoothing(tas, f=0.1, d=0, weights="gaussian", niter=1).values}
    ref = xr.Dataset({"tas": _xsdba_tas(4, 10, 1981), "tasmax": _xsdba_tas(5, 10, 1981, offset=6.0)})
    hist = xr.Dataset({"tas": _xsdba_tas(6, 10, 1981, offset=1.0, scale=1.2),
                       "tasmax": _xsdba_tas(7, 10, 1981, offset=8.0, scale=0.8)})
    ref_s, hist_s = xsdba.stack_variables(ref), xsdba.stack_variables(hist)
    np.random.seed(42)  # its random rotations
    with xsdba.set_options(extra_output=True):
        npdf = xsdba.adjustment.NpdfTransform.adjust(ref_s, hist_s, hist_s, base=xsdba.QuantileDeltaMapping,
                                                     base_kws={"nquantiles": 20, "group": "time"}, n_iter=8,
                                                     n_escore=200, adj_kws={"interp": "nearest",
                                                                            "extrapolation": "constant"})
    out["npdf"] = npdf.scenh.values
    out["escores"] = npdf.escores.values
    return out


def segregation_indices():
    """Gini's segregation index (a parallel, fastmath sum over pairs of
    tracts, reduced into an array) and the spatial proximity profile (a
    closure over the tracts' shortest paths with boolean-mask indexing) of
    a grid of tracts, groups clustered in one corner."""
    import geopandas as gpd
    import libpysal
    from segregation.singlegroup import Gini, SpatialProxProf
    from shapely.geometry import box
    rng = np.random.default_rng(11)
    side = 30
    cells = [box(i, j, i + 1, j + 1) for i in range(side) for j in range(side)]
    ii, jj = np.divmod(np.arange(side * side), side)
    total = rng.integers(50, 800, side * side)
    total[rng.random(side * side) < 0.02] = 0
    share = 1 / (1 + np.exp((ii + jj - side) / 6.0))
    group = rng.binomial(total, share)
    tracts = gpd.GeoDataFrame({"group": group, "total": total}, geometry=cells, crs="EPSG:3857")
    w = libpysal.weights.Rook.from_dataframe(tracts, use_index=False)
    gini = Gini(tracts, "group", "total")
    spp = SpatialProxProf(tracts, "group", "total", w=w, m=400)
    return {"gini": np.array([gini.statistic]), "spp": np.array([spp.statistic])}


def geoana_prism_kernels():
    """Users' compiled code calling geoana's prism kernels (Cython
    functions Numba calls by address): gravity and gravity gradients of
    rectangular prisms on a grid of stations, the eight-corner sums of
    each kernel."""
    from geoana.kernels import (prism_f, prism_fxxy, prism_fxxz, prism_fxyz, prism_fz, prism_fzx, prism_fzy,
                                prism_fzz, prism_fzzz)
    from numba import njit

    def corners(kernel):
        @njit
        def field(stations, prisms):
            out = np.zeros(len(stations))
            for s in range(len(stations)):
                for p in range(len(prisms)):
                    total = 0.0
                    for a in range(2):
                        for b in range(2):
                            for c in range(2):
                                sign = (-1.0) ** (a + b + c + 1)
                                total += sign * kernel(prisms[p, a] - stations[s, 0], prisms[p, 2 + b] - stations[s, 1],
                                                       prisms[p, 4 + c] - stations[s, 2])
                    out[s] += total
            return out
        return field

    rng = np.random.default_rng(5)
    xy = np.stack(np.meshgrid(np.linspace(-50, 50, 30), np.linspace(-50, 50, 30)), -1).reshape(-1, 2)
    stations = np.column_stack([xy, np.full(len(xy), 1.0)])
    lo = rng.uniform(-40, 30, (40, 3))
    lo[:, 2] = rng.uniform(-60, -20, 40)
    prisms = np.column_stack([lo[:, 0], lo[:, 0] + rng.uniform(2, 10, 40), lo[:, 1], lo[:, 1] + rng.uniform(2, 10, 40),
                              lo[:, 2], lo[:, 2] + rng.uniform(2, 10, 40)])
    kernels = {"f": prism_f, "fz": prism_fz, "fzz": prism_fzz, "fzx": prism_fzx, "fzy": prism_fzy,
               "fzzz": prism_fzzz, "fxxy": prism_fxxy, "fxxz": prism_fxxz, "fxyz": prism_fxyz}
    return {name: corners(kernel)(stations, prisms) for name, kernel in kernels.items()}


def sectionproperties_analysis():
    """Finite-element section analysis (numba-compiled element assembly,
    shape functions and coordinate transforms): geometric, warping and
    plastic properties, and stresses under combined actions, of a steel I
    section and of a composite box of two materials."""
    from sectionproperties.analysis import Section
    from sectionproperties.pre import Material
    from sectionproperties.pre.library import i_section, rectangular_hollow_section, rectangular_section
    out = {}
    geom = i_section(d=310, b=165, t_f=9.7, t_w=6.1, r=11.4, n_r=8)
    geom.create_mesh(mesh_sizes=[20.0])
    sec = Section(geom)
    sec.calculate_geometric_properties()
    sec.calculate_warping_properties()
    sec.calculate_plastic_properties()
    stress = sec.calculate_stress(n=50e3, mxx=-50e6, m22=2.5e6, mzz=0.5e6, vx=10e3, vy=5e3)
    out["i_props"] = np.array([sec.get_area(), *sec.get_ic(), *sec.get_z(), sec.get_j(), sec.get_gamma(),
                               *sec.get_sc(), *sec.get_as(), *sec.get_s()])
    out["i_vm"] = stress.get_stress()[0]["sig_vm"]
    out["i_zxy"] = stress.get_stress()[0]["sig_zxy"]
    steel = Material("Steel", 200e3, 0.3, 500, 7.85e-6, "grey")
    timber = Material("Timber", 8e3, 0.35, 20, 6.5e-7, "burlywood")
    box = rectangular_hollow_section(d=200, b=120, t=8, r_out=12, n_r=6, material=steel)
    core = rectangular_section(d=184, b=104, material=timber).align_center(box)
    comp = (box + core)
    comp.create_mesh(mesh_sizes=[25.0, 40.0])
    csec = Section(comp)
    csec.calculate_geometric_properties()
    csec.calculate_warping_properties()
    cstress = csec.calculate_stress(mxx=20e6, vy=8e3, mzz=1e6)
    out["comp_props"] = np.array([csec.get_ea(), *csec.get_eic(), csec.get_ej(), *csec.get_sc()])
    out["comp_vm"] = np.concatenate([s["sig_vm"] for s in cstress.get_stress()])
    return out


def pydsge_irfs_filter():
    """A small New Keynesian model with the zero lower bound (pydsge's
    example): solved at its calibration, impulse responses to a monetary
    shock that binds the bound (numba's piecewise linear transition), and
    the log-likelihood of US data by the transposed-ensemble Kalman filter."""
    import pandas as pd
    import pydsge
    mod = pydsge.DSGE.read(pydsge.example_model)
    df = pd.read_csv(pydsge.example_data, parse_dates=["date"], index_col=["date"])
    mod.load_data(df, start="1998Q1")
    mod.set_par("calib", verbose=False)
    irfs_small, lk_small, _ = mod.irfs(("e_r", 1, 0), verbose=False)
    irfs_binding, lk_binding, _ = mod.irfs([("e_u", 3, 0), ("e_r", 2, 0)], verbose=False)
    mod.prep_estim(N=150, seed=0, verbose=False)
    mod.filter.R = mod.create_obs_cov(1e-1)
    np.random.seed(0)
    ll = mod.get_ll()
    return {"irfs": np.asarray(irfs_small), "irfs_binding": np.asarray(irfs_binding), "ll": np.array([ll]),
            "lk": np.asarray(lk_small), "lk_binding": np.asarray(lk_binding)}


def aotools_turbulence():
    """Infinite atmospheric phase screens (von Karman and Kolmogorov): the
    stencils' separations computed by a parallel compiled loop, then rows
    added as the screen moves; and the optimal grouping of a 60-layer
    turbulence profile into 6 (Saxenhuber's cost function, compiled)."""
    from aotools.turbulence import infinitephasescreen, profile_compression
    vk = infinitephasescreen.PhaseScreenVonKarman(64, 0.02, 0.15, 25.0, random_seed=1, n_columns=2)
    for _ in range(40):
        vk.add_row()
    kol = infinitephasescreen.PhaseScreenKolmogorov(64, 0.02, 0.15, 25.0, random_seed=2, stencil_length_factor=4)
    for _ in range(40):
        kol.add_row()
    h = np.linspace(0.0, 20000.0, 60)
    p = 1e-14 * np.exp(-h / 3000.0) * (1 + 0.5 * np.sin(h / 1500.0) ** 2)
    np.random.seed(3)  # its random starting groupings
    heights, cn2 = profile_compression.optimal_grouping(8, 6, h, p)
    return {"von_karman": vk.scrn, "kolmogorov": kol.scrn, "vk_separations": vk.seperations,
            "heights": heights, "cn2": cn2}


def einsteinpy_coordinates():
    """Coordinate conversions of particles near a Kerr black hole, compiled
    on arrays and on scalars: Cartesian to spherical and Boyer-Lindquist
    and back, with velocities, and the timelike component of a 4-velocity
    under a metric."""
    from einsteinpy.coordinates import utils
    rng = np.random.default_rng(8)
    n = 200000
    t = rng.uniform(0, 10, n)
    x, y, z = rng.uniform(-50, 50, (3, n))
    vx, vy, vz = rng.uniform(-0.3, 0.3, (3, n)) * 3e8
    alpha = 0.7
    sph = utils.cartesian_to_spherical(t, x, y, z, vx, vy, vz)
    bl = utils.cartesian_to_bl(t, x, y, z, alpha, vx, vy, vz)
    back = utils.bl_to_cartesian(*bl[:4], alpha, *bl[4:])
    back_sph = utils.spherical_to_cartesian(*sph)
    novel = utils.cartesian_to_bl_novel(t, x, y, z, alpha)
    scalars = np.array([utils.spherical_to_cartesian_novel(1.0, r, th, ph)
                        for r, th, ph in zip(sph[1][:2000], sph[2][:2000], sph[3][:2000])])
    g = np.diag([1.0, -1.0, -1.0, -1.0]) * np.array([1.0, 1.2, 1.5, 2.0])[:, None]
    v0s = np.array([utils.v0(g, a, b, c) for a, b, c in zip(vx[:2000] / 3e9, vy[:2000] / 3e9, vz[:2000] / 3e9)])
    return {"spherical": np.array(sph), "bl": np.array(bl), "back": np.array(back), "back_sph": np.array(back_sph),
            "novel": np.array(novel), "scalars": scalars, "v0": v0s}


def kalepy_densities():
    """kalepy's kernel density estimates, as its users draw them: the
    density of weighted 2-d data at given points and on a grid with each
    of its kernels (Gaussian, Box, Parabola, Triweight: each a compiled
    function the compiled sum over data points receives as an argument),
    with reflecting boundaries, of a projection (params) and 1-d pdf/cdf."""
    import kalepy as kale
    rng = np.random.default_rng(0)
    data = np.vstack([rng.lognormal(0.0, 0.5, 1500), rng.normal(0.0, 1.0, 1500)])
    data[1] += 0.5 * data[0]
    weights = rng.uniform(0.5, 1.5, 1500)
    points = np.vstack([rng.uniform(0.1, 4.0, 1200), rng.uniform(-3.0, 4.0, 1200)])
    out = {}
    for kernel in ("gaussian", "box", "parabola", "triweight"):
        kde = kale.KDE(data, weights=weights, kernel=kernel)
        out[kernel] = kde.density(points, probability=True)[1]
        out[kernel + "_reflect"] = kde.density(points, reflect=[[0.0, None], None], probability=True)[1]
        out[kernel + "_param"] = kde.density(points[1], params=1, probability=True)[1]
    edges = (np.linspace(0.1, 4.0, 40), np.linspace(-3.0, 4.0, 50))
    out["grid"] = kale.KDE(data, weights=weights).density(edges, grid=True)[1]
    one = rng.standard_gamma(2.0, 3000)
    xs = np.linspace(0.0, 10.0, 500)
    out["pdf_1d"] = kale.KDE(one).pdf(xs, reflect=[0.0, None])[1]
    out["cdf_1d"] = kale.KDE(one).cdf(xs)
    return out


def _pymc_bart_fit(response, seed, split_rules=None):
    """A BART regression sampled by PyMC with pymc-bart's particle Gibbs
    step, one chain on one core from a fixed seed (its tree proposals draw
    from NumPy's global generator, its compiled jitter of duplicated
    covariate values from the compiled code's own, hence both seedings)."""
    import numba
    import pymc as pm
    import pymc_bart as pmb
    numba.njit(lambda s: np.random.seed(s))(seed)
    rng = np.random.default_rng(seed)
    X = rng.uniform(-2.0, 2.0, (250, 4))
    X[:, 3] = rng.integers(0, 4, 250)
    Y = np.sin(2.0 * X[:, 0]) + 0.5 * X[:, 1] ** 2 + 0.3 * X[:, 3] + rng.normal(0.0, 0.3, 250)
    np.random.seed(seed)
    with pm.Model() as model:
        mu = pmb.BART("mu", X, Y, m=30, response=response, split_rules=split_rules)
        sigma = pm.HalfNormal("sigma", 1.0)
        pm.Normal("y", mu, sigma, observed=Y)
        idata = pm.sample(draws=150, tune=150, chains=1, cores=1, random_seed=seed, progressbar=False,
                          compute_convergence_checks=False)
    return model, mu, X, idata


def pymc_bart_sampling():
    """pymc-bart's Bayesian additive regression trees sampled as its users
    do (pm.sample with its PGBART step): constant leaves, linear leaves
    (least-squares fits per leaf) and one-hot splits of a categorical
    covariate; the posterior of the mean and the variable inclusion."""
    import pymc_bart as pmb
    out = {}
    for response, seed, rules in (("constant", 0, None), ("linear", 1, None),
                                  ("constant", 2, [pmb.ContinuousSplitRule()] * 3 + [pmb.OneHotSplitRule()])):
        _, _, _, idata = _pymc_bart_fit(response, seed, rules)
        key = f"{response}_{seed}"
        out[key + "_mu"] = idata.posterior["mu"].values.mean(axis=(0, 1))
        out[key + "_sigma"] = idata.posterior["sigma"].values.ravel()
        out[key + "_inclusion"] = np.array([pmb.utils._decode_vi(code, 4) for code in
                                            idata.sample_stats["variable_inclusion"].values.ravel()])
    return out


def pymc_bart_importance():
    """pymc-bart's variable importance of a fitted BART (the R squared of
    the submodels' posterior predictions, compiled Pearson correlations)
    and its posterior predictive sampling of the trees at new points."""
    import pymc_bart as pmb
    model, mu, X, idata = _pymc_bart_fit("constant", 3)
    vi = pmb.compute_variable_importance(idata, mu, X, model=model, method="backward", samples=40,
                                         random_seed=3)
    out = {"indices": np.asarray(vi["indices"]), "r2_mean": np.asarray(vi["r2_mean"]),
           "r2_hdi": np.asarray(vi["r2_hdi"])}
    rng = np.random.default_rng(4)
    new = rng.uniform(-2.0, 2.0, (60, 4))
    new[:, 3] = rng.integers(0, 4, 60)
    out["predicted"] = pmb.utils._sample_posterior(mu.owner.op.all_trees, X=new, rng=np.random.default_rng(5),
                                                   size=30)
    return out


def _scirpy_cdr3s(seed, n_families=120, per_family=12):
    """CDR3 amino-acid sequences in families: each a random seed sequence
    and copies of it with a few substitutions, so that distance cut-offs
    keep neighbours."""
    rng = np.random.default_rng(seed)
    alphabet = np.array(list("ACDEFGHIKLMNPQRSTVWY"))
    seqs = []
    for _ in range(n_families):
        base = rng.choice(alphabet, rng.integers(9, 17))
        for _ in range(per_family):
            copy = base.copy()
            where = rng.integers(0, len(copy), rng.integers(0, 4))
            copy[where] = rng.choice(alphabet, len(where))
            seqs.append("".join(copy))
    return np.array(seqs)


def scirpy_distances():
    """scirpy's immune receptor sequence distances, as its users compute
    clonotype networks: sparse sequence x sequence matrices of Hamming,
    normalised Hamming and TCRdist distances under cut-offs (compiled
    loops over encoded sequences building typed lists of rows), of one
    set with itself and against a second."""
    import scirpy as ir
    seqs, other = _scirpy_cdr3s(0), _scirpy_cdr3s(1, n_families=60)
    out = {}
    for metric, cutoff in (("hamming", 2), ("normalized_hamming", 20), ("tcrdist", 24)):
        for name, second in (("self", None), ("pair", other)):
            mat = ir.ir_dist.sequence_dist(seqs, second, metric=metric, cutoff=cutoff, n_jobs=1).tocsr()
            mat.sort_indices()
            key = f"{metric}_{name}"
            out[key + "_indptr"], out[key + "_indices"], out[key + "_data"] = mat.indptr, mat.indices, mat.data
    return out


def scirpy_chains_mutations():
    """scirpy's receptor model and mutational load on AIRR data built cell
    by cell: index_chains (compiled loops over awkward arrays appending to
    an awkward ArrayBuilder) and the per-region Hamming distances of
    sequences from their germline."""
    import scirpy as ir
    from scirpy.io import AirrCell, from_airr_cells
    rng = np.random.default_rng(2)
    nts = np.array(list("ACGT"))
    germline = "".join(rng.choice(nts, 360))
    cells = []
    for c in range(300):
        cell = AirrCell(f"cell{c}")
        for locus in ("IGH", "IGK")[: 1 + c % 2] + (("IGH",) if c % 7 == 0 else ()):
            chain = AirrCell.empty_chain_dict()
            seq = np.array(list(germline))
            where = rng.integers(0, 360, rng.integers(0, 25))
            seq[where] = rng.choice(nts, len(where))
            junction = "".join(rng.choice(nts, 3 * int(rng.integers(10, 20))))
            chain.update(locus=locus, junction=junction, junction_aa="CAR" + "G" * int(rng.integers(3, 9)),
                         productive=bool(c % 11), consensus_count=int(rng.integers(1, 200)),
                         umi_count=int(rng.integers(1, 50)), duplicate_count=int(rng.integers(1, 50)),
                         sequence_alignment="".join(seq), germline_alignment_d_mask=germline)
            cell.add_chain(chain)
        cells.append(cell)
    adata = from_airr_cells(cells)
    ir.pp.index_chains(adata)
    ir.tl.mutational_load(adata)
    airr = ir.get.airr(adata, [f"{r}mutation_{m}" for r in ("", "v_", "cdr1_", "cdr3_", "fwr4_")
                               for m in ("count", "freq")])
    out = {k: np.asarray(airr[k], dtype=float) for k in airr.columns}
    chains = adata.obsm["chain_indices"]
    for k in ("VJ", "VDJ"):
        out["chain_" + k] = np.array([[-1 if v is None else v for v in (list(row) + [None, None])[:2]]
                                      for row in chains[k].to_list()], dtype=float)
    out["multichain"] = np.asarray(chains["multichain"].to_numpy(), dtype=float)
    return out


def _cellrank_adata(seed, n_cells=1200, n_genes=60):
    """Cells along two branching trajectories with spliced counts smoothed
    into Ms, velocities pointing along the branches, a PCA and a kNN graph
    (scanpy's), as scVelo would leave them for CellRank."""
    import anndata
    import scanpy as sc
    # CellRank 2.0's velocity kernel checks shapes by np.testing.assert_array_equal(x=, y=), keywords
    # NumPy 2.4 renamed (actual, desired)
    check = np.testing.assert_array_equal
    if "x" not in check.__code__.co_varnames:
        np.testing.assert_array_equal = lambda *args, x=None, y=None, **kw: check(*args or (x, y), **kw)
    rng = np.random.default_rng(seed)
    t = rng.uniform(0.0, 1.0, n_cells)
    branch = rng.integers(0, 2, n_cells)
    loadings = rng.normal(0.0, 1.0, (3, n_genes))
    Ms = (np.outer(t, loadings[0]) + np.outer(t * branch, loadings[1]) + np.outer(t * (1 - branch), loadings[2])
          + rng.normal(0.0, 0.1, (n_cells, n_genes)))
    velocity = loadings[0] + np.outer(branch, loadings[1]) + np.outer(1 - branch, loadings[2])
    velocity += rng.normal(0.0, 0.3, velocity.shape)
    adata = anndata.AnnData(X=Ms.astype(np.float64), layers={"Ms": Ms, "velocity": velocity})
    adata.obs["t"] = t
    adata.obs["branch"] = branch
    sc.pp.pca(adata, n_comps=20, random_state=0)
    sc.pp.neighbors(adata, n_neighbors=20, random_state=0)
    return adata


def cellrank_velocity_kernel():
    """CellRank's velocity kernel, as its users build transition matrices
    from RNA velocity: the deterministic model with each similarity
    scheme (correlation, cosine, dot product: compiled softmaxes over
    each cell's neighbours' displacements), forward and backward."""
    import cellrank as cr
    adata = _cellrank_adata(0)
    out = {}
    for similarity in ("correlation", "cosine", "dot_product"):
        for backward in (False, True):
            vk = cr.kernels.VelocityKernel(adata, backward=backward)
            vk.compute_transition_matrix(model="deterministic", similarity=similarity, softmax_scale=4.0,
                                         show_progress_bar=False, n_jobs=1)
            T = vk.transition_matrix.tocsr()
            key = f"{similarity}_{'bwd' if backward else 'fwd'}"
            out[key] = np.asarray(T.sum(axis=0)).ravel()
            out[key + "_data"] = T.data
            out[key + "_logits"] = np.asarray(vk.logits.sum(axis=1)).ravel()
    return out


def cellrank_drivers():
    """CellRank's fate mapping: a velocity and connectivity kernel mix,
    terminal states set by branch, the absorption (fate) probabilities and
    the lineage drivers (compiled means and deviations of the
    gene-by-lineage correlation tests)."""
    import cellrank as cr
    adata = _cellrank_adata(1, n_cells=900)
    vk = cr.kernels.VelocityKernel(adata).compute_transition_matrix(softmax_scale=4.0, show_progress_bar=False,
                                                                    n_jobs=1)
    ck = cr.kernels.ConnectivityKernel(adata).compute_transition_matrix()
    g = cr.estimators.GPCCA(0.8 * vk + 0.2 * ck)
    ends = {"A": list(adata.obs_names[(adata.obs["t"] > 0.95) & (adata.obs["branch"] == 0)]),
            "B": list(adata.obs_names[(adata.obs["t"] > 0.95) & (adata.obs["branch"] == 1)])}
    g.set_terminal_states(ends)
    g.compute_fate_probabilities(solver="direct", show_progress_bar=False, n_jobs=1)
    drivers = g.compute_lineage_drivers(lineages=["A", "B"])
    return {"fates": np.asarray(g.fate_probabilities), "corr_A": drivers["A_corr"].sort_index().to_numpy(),
            "pval_B": drivers["B_pval"].sort_index().to_numpy(), "ci_A": drivers["A_ci_low"].sort_index().to_numpy()}


def _tacco_spatial(seed, n_obs=3000, n_types=6, n_genes=80):
    """Spatial observations of cell types in patches on a 2-d slide, with
    counts drawn from each type's gene profile, and a reference of single
    cells of those types."""
    import anndata
    import pandas as pd
    rng = np.random.default_rng(seed)
    xy = rng.uniform(0.0, 100.0, (n_obs, 2))
    types = (np.floor(xy[:, 0] / 25.0).astype(int) + 2 * (xy[:, 1] > 50.0) + rng.integers(0, 2, n_obs)) % n_types
    profiles = rng.gamma(0.5, 2.0, (n_types, n_genes))
    counts = rng.poisson(profiles[types] * 3.0).astype(np.float32)
    obs = pd.DataFrame({"x": xy[:, 0], "y": xy[:, 1]}, index=[f"o{i}" for i in range(n_obs)])
    adata = anndata.AnnData(X=counts, obs=obs, var=pd.DataFrame(index=[f"g{j}" for j in range(n_genes)]))
    adata.obs["type"] = pd.Categorical([f"t{t}" for t in types])
    ref_types = rng.integers(0, n_types, 1500)
    reference = anndata.AnnData(X=rng.poisson(profiles[ref_types] * 5.0).astype(np.float32), var=adata.var.copy(),
                                obs=pd.DataFrame(index=[f"r{i}" for i in range(1500)]))
    reference.obs["type"] = pd.Categorical([f"t{t}" for t in ref_types])
    return adata, reference


def tacco_distances():
    """TACCO's distance matrices: sparse euclidean neighbourhoods under a
    cut-off from its compiled spatial binning (2-d and 3-d, serial and
    parallel), dense euclidean matrices from its 1-, 2-, 3- and n-d
    compiled kernels, and cdist's metrics on dense and sparse profiles."""
    import scipy.sparse
    import tacco as tc
    rng = np.random.default_rng(0)
    out = {}
    for d in (2, 3):
        coords = rng.uniform(0.0, 50.0, (4000, d))
        for parallel in (False, True):
            m = tc.utils.sparse_distance_matrix(coords, 3.0, parallel=parallel, verbose=0).tocsr()
            m.sort_indices()
            key = f"sparse_{d}d_{'par' if parallel else 'ser'}"
            out[key + "_indptr"], out[key + "_indices"], out[key + "_data"] = m.indptr, m.indices, m.data
    for d in (1, 2, 3, 5):
        a, b = rng.normal(0.0, 1.0, (700, d)), rng.normal(0.0, 1.0, (500, d))
        out[f"dense_{d}d"] = tc.utils.dense_distance_matrix(a, b)
        out[f"dense_{d}d_serial"] = tc.utils.dense_distance_matrix(a, parallel=False)
    profiles = rng.gamma(0.5, 1.0, (400, 60)) * (rng.uniform(0, 1, (400, 60)) < 0.3)
    other = rng.gamma(0.5, 1.0, (300, 60))
    for metric in ("euclidean", "cosine", "bc", "hellinger"):
        out["cdist_" + metric] = tc.utils.cdist(profiles, other, metric=metric)
        out["cdist_sparse_" + metric] = tc.utils.cdist(scipy.sparse.csr_matrix(profiles), other, metric=metric)
    return out


def tacco_co_occurrence():
    """TACCO's spatial co-occurrence scores of annotations (sparse and
    dense distance paths, compiled histograms of pair distances per pair
    of annotations) and its co-occurrence matrix at a distance."""
    import tacco as tc
    adata, _ = _tacco_spatial(1)
    out = {}
    for sparse in (True, False):
        tc.tl.co_occurrence(adata, "type", max_distance=20.0, delta_distance=2.0, sparse=sparse, result_key="occ",
                            n_permutation=4, seed=3, verbose=0)
        res = adata.uns["occ"]
        key = "sparse" if sparse else "dense"
        out[key + "_occ"] = np.asarray(res["occ"])
        out[key + "_log_occ"] = np.asarray(res["log_occ"])
        out[key + "_z"] = np.asarray(res["z"], dtype=float)
    tc.tl.co_occurrence_matrix(adata, "type", max_distance=10.0, result_key="occm", verbose=0)
    out["matrix_occ"] = np.asarray(adata.uns["occm"]["occ"])
    return out


def tacco_annotate():
    """TACCO's annotation of spatial observations by a single-cell
    reference: its optimal-transport method with platform normalisation
    (a compiled objective and gradient) and bisections (compiled
    multinomial splits of counts), and the NNLS and projection methods."""
    import tacco as tc
    adata, reference = _tacco_spatial(2, n_obs=1500)
    out = {}
    for method, kw in (("OT", {}), ("OT", {"bisections": 2, "platform_iterations": 0}), ("nnls", {}),
                       ("projection", {})):
        res = tc.tl.annotate(adata, reference, "type", method=method, verbose=0, **kw)
        out[f"{method}_{len(kw)}"] = np.asarray(res, dtype=float)
    return out


def liana_bivariate():
    """LIANA+'s spatially informed ligand-receptor scores, as its users
    score a slide: Gaussian spatial weights from coordinates, and the
    local masked Spearman correlation of each ligand-receptor pair in each
    spot's neighbourhood (a compiled parallel loop over spots with a
    float32 signature and compiled weighted rank correlations), with
    permutation p-values; the cosine and Moran's scores beside it."""
    import anndata
    import liana as li
    import pandas as pd
    rng = np.random.default_rng(0)
    n_spots, n_genes = 1200, 40
    xy = rng.uniform(0.0, 60.0, (n_spots, 2))
    field = np.sin(xy[:, :1] / 8.0) + np.cos(xy[:, 1:] / 11.0)
    expr = rng.poisson(np.exp(0.5 * field * rng.normal(0.0, 1.0, n_genes) + rng.normal(0.0, 0.5, n_genes)))
    genes = [f"G{j}" for j in range(n_genes)]
    adata = anndata.AnnData(X=np.log1p(expr).astype(np.float32), var=pd.DataFrame(index=genes),
                            obs=pd.DataFrame(index=[f"s{i}" for i in range(n_spots)]))
    adata.obsm["spatial"] = xy
    li.ut.spatial_neighbors(adata, bandwidth=6.0, cutoff=0.1, set_diag=True)
    interactions = [(genes[a], genes[b]) for a, b in rng.integers(0, n_genes, (30, 2)) if a != b]
    out = {}
    for local, perms in (("masked_spearman", None), ("masked_spearman", 20), ("cosine", 20)):
        lrdata = li.mt.bivariate(adata, local_name=local, global_name="morans", interactions=interactions,
                                 n_perms=perms, seed=1, nz_prop=0.0, use_raw=False, verbose=False)
        key = f"{local}_{perms}"
        order = np.argsort(np.asarray(lrdata.var_names))
        dense = (lambda m: m.toarray() if hasattr(m, "toarray") else np.asarray(m))
        out[key] = dense(lrdata.X)[:, order]
        if perms:
            out[key + "_pvals"] = dense(lrdata.layers["pvals"])[:, order]
        out[key + "_morans"] = lrdata.var["morans"].to_numpy()[order]
    return out


def _tsdate_simulated(seed, samples=60, length=2e5):
    """A tree sequence of diploid samples simulated by msprime (ancestry
    with recombination, then mutations), with its true times dropped as
    tsdate's users date inferred ones."""
    import msprime
    ts = msprime.sim_ancestry(samples, sequence_length=length, recombination_rate=1e-8, population_size=1e4,
                              random_seed=seed)
    return msprime.sim_mutations(ts, rate=1e-8, random_seed=seed)


def tsdate_variational_gamma():
    """tsdate's variational gamma method, its default, as its users date a
    tree sequence: expectation propagation over edges and mutations
    (compiled moments of gamma approximations, hypergeometric functions of
    its own, mutation phasing and the rescaling of the time axis), with
    and without singleton phasing and rescaling."""
    import tsdate
    ts = _tsdate_simulated(1)
    out = {}
    for name, kw in (("default", {}), ("no_rescale", {"rescaling_intervals": 0}),
                     ("unphased", {"singletons_phased": False, "max_iterations": 5})):
        dated = tsdate.variational_gamma(ts, mutation_rate=1e-8, **kw)
        out[name + "_nodes"] = dated.nodes_time
        out[name + "_mutations"] = dated.mutations_time
    return out


def tsdate_discrete_time():
    """tsdate's discrete-time methods on a grid of times: the conditional
    coalescent prior (compiled), then the inside-outside posterior means
    and the maximization (Viterbi-like) dates, in probability and log
    space."""
    import tsdate
    ts = _tsdate_simulated(2, samples=30, length=1e5)
    out = {}
    priors = tsdate.build_prior_grid(ts, population_size=1e4, timepoints=20)
    out["prior_grid"] = np.asarray(priors.grid_data)
    for method, space in (("inside_outside", "linear"), ("inside_outside", "logarithmic"),
                          ("maximization", "logarithmic")):
        dated = tsdate.date(ts, mutation_rate=1e-8, method=method, priors=priors, probability_space=space)
        out[f"{method}_{space}"] = dated.nodes_time
    return out


def _pybaselines_spectrum(seed, n=3000):
    """A spectrum as pybaselines' users correct one: Gaussian and
    Lorentzian peaks on a curved, drifting baseline, with noise."""
    rng = np.random.default_rng(seed)
    x = np.linspace(0.0, 1000.0, n)
    baseline = 5.0 + 0.01 * x + 3.0 * np.sin(x / 250.0) + 2e-6 * (x - 400.0) ** 2
    peaks = sum(h * np.exp(-0.5 * ((x - c) / w) ** 2) for h, c, w in
                zip(rng.uniform(2, 20, 12), rng.uniform(50, 950, 12), rng.uniform(2, 15, 12)))
    peaks += sum(h / (1.0 + ((x - c) / w) ** 2) for h, c, w in zip(rng.uniform(2, 10, 5), rng.uniform(50, 950, 5),
                                                                   rng.uniform(3, 8, 5)))
    return x, baseline + peaks + rng.normal(0.0, 0.2, n)


def pybaselines_polynomial_classification():
    """pybaselines' compiled baselines of polynomials and peak
    classification: LOESS (compiled windowed weighted least squares, with
    the delta skipping and its low-memory variant, symmetric and asymmetric
    weights) and the rolling-deviation classifiers (std_distribution,
    fastchrom)."""
    from pybaselines import Baseline
    x, y = _pybaselines_spectrum(0)
    fitter = Baseline(x)
    out = {}
    for name, kw in (("plain", {}), ("delta", {"delta": 2.0}), ("low_memory", {"use_original": False,
                                                                              "conserve_memory": True}),
                     ("asymmetric", {"symmetric_weights": False, "poly_order": 2}), ("tukey", {"tol": 1e-4})):
        baseline, params = fitter.loess(y, fraction=0.15, **kw)
        out["loess_" + name] = baseline
        out["loess_" + name + "_weights"] = params["weights"]
    out["std_distribution"] = fitter.std_distribution(y, half_window=20)[0]
    out["fastchrom"] = fitter.fastchrom(y, half_window=25)[0]
    return out


def pybaselines_splines_beads():
    """pybaselines' compiled spline and sparse paths: penalised splines
    whose B-spline design and normal equations it builds in compiled code
    (asymmetric least squares, mixture model, IRSQR), corner cutting by
    quadratic Bezier splines, and BEADS (compiled banded products)."""
    from pybaselines import Baseline
    x, y = _pybaselines_spectrum(1)
    fitter = Baseline(x)
    out = {}
    out["pspline_asls"] = fitter.pspline_asls(y, lam=1e4, num_knots=150)[0]
    out["pspline_airpls"] = fitter.pspline_airpls(y, lam=1e4, num_knots=100)[0]
    out["mixture_model"] = fitter.mixture_model(y, lam=1e4, num_knots=100)[0]
    out["irsqr"] = fitter.irsqr(y, lam=1e3, quantile=0.05, num_knots=80, spline_degree=2)[0]
    out["corner_cutting"] = fitter.corner_cutting(y, max_iter=80)[0]
    out["beads"] = Baseline(x[:1500]).beads(y[:1500], freq_cutoff=0.005, lam_0=1.0, lam_1=1.0, lam_2=1.0)[0]
    return out


def ctxcore_aucell():
    """ctxcore's AUCell enrichment (pySCENIC's regulon activity per cell):
    the area under each cell's recovery curve of a regulon's genes in its
    gene ranking (a compiled weighted AUC per cell: argsort of ranks,
    cumulative weights), for weighted and unweighted regulons, rankings
    of int16 and int32, and two AUC thresholds."""
    import pandas as pd
    from ctxcore.genesig import GeneSignature, Regulon
    from ctxcore.recovery import aucs, enrichment4cells
    rng = np.random.default_rng(0)
    n_cells, n_genes = 800, 3000
    genes = [f"g{j}" for j in range(n_genes)]
    ranks = np.argsort(rng.random((n_cells, n_genes)) - np.linspace(0.0, 0.3, n_genes), axis=1).argsort(axis=1)
    out = {}
    for dtype in (np.int16, np.int32):
        rnk = pd.DataFrame(ranks.astype(dtype), index=[f"c{i}" for i in range(n_cells)], columns=genes)
        for r in range(6):
            members = [genes[j] for j in rng.choice(n_genes, 40 + 20 * r, replace=False)]
            weights = rng.uniform(0.1, 3.0, len(members))
            if r % 2:
                sig = Regulon(name=f"TF{r}", gene2weight=dict(zip(members, weights)), transcription_factor=f"TF{r}",
                              gene2occurrence={})
            else:
                sig = GeneSignature(name=f"S{r}", gene2weight=members)
            for threshold in (0.05, 0.2):
                key = f"{np.dtype(dtype).name}_{r}_{threshold}"
                out[key] = enrichment4cells(rnk, sig, auc_threshold=threshold)["AUC"].to_numpy()
        sub = rnk.iloc[:, :500]
        out[np.dtype(dtype).name + "_aucs"] = aucs(sub, n_genes, rng.uniform(0.5, 2.0, 500), 0.1)
    return out



def tsinfer_infer():
    """tsinfer's inference of tree sequences from variation data simulated
    by msprime (SampleData from the simulated sites): ancestors generated,
    grouped for matching by its compiled line sweep over their intervals
    and dependency groups, matched, and the samples matched; the inferred
    topology and the grouping itself."""
    import tsinfer
    out = {}
    for seed, samples in ((3, 40), (4, 80)):
        ts = _tsdate_simulated(seed, samples=samples, length=3e5)
        sd = tsinfer.SampleData.from_tree_sequence(ts, use_sites_time=False)
        anc = tsinfer.generate_ancestors(sd)
        groups = tsinfer.ancestors.group_ancestors_by_linesweep(anc.ancestors_start[:], anc.ancestors_end[:],
                                                               anc.ancestors_time[:])
        out[f"groups_{seed}"] = np.array([[g, a] for g in sorted(groups) for a in sorted(groups[g])])
        inferred = tsinfer.infer(sd)
        tables = inferred.tables
        out[f"edges_{seed}"] = np.column_stack([tables.edges.left, tables.edges.right, tables.edges.parent,
                                                tables.edges.child])
        out[f"nodes_time_{seed}"] = tables.nodes.time
    return out


def _alphapept_peptides(seed, n=600):
    """Tryptic-like peptides (ending in K or R) with oxidised methionines
    written as alphapept writes modifications (oxM)."""
    rng = np.random.default_rng(seed)
    aas = np.array(list("ACDEFGHILMNPQSTVWY"))
    peptides = []
    for _ in range(n):
        body = "".join(rng.choice(aas, rng.integers(6, 20)))
        if rng.random() < 0.3:
            body = body.replace("M", "oxM", 1)
        peptides.append(body + rng.choice(["K", "R"]))
    return peptides


def alphapept_fasta_chem():
    """alphapept's compiled peptide chemistry: peptide strings parsed into
    typed lists of (modified) amino acids, decoys (reversed, pseudo-reversed,
    A/L and K/R swaps), fragment and precursor masses from its typed dict
    of masses, spectra of a typed list of peptides, and averagine isotope
    distributions (typed dicts of jitclass isotopes, compiled convolution)."""
    from numba.typed import List
    from alphapept import chem, constants, fasta
    peptides = _alphapept_peptides(0)
    out = {}
    out["parsed_len"] = np.array([len(fasta.parse(p)) for p in peptides])
    for name, kw in (("reverse", {}), ("pseudo", {"pseudo_reverse": True}),
                     ("swaps", {"pseudo_reverse": True, "AL_swap": True, "KR_swap": True})):
        decoys = [fasta.get_decoy_sequence(p, **kw) for p in peptides]
        out["decoy_" + name] = np.array([sum(ord(c) * (k + 1) for k, c in enumerate(d)) for d in decoys])
    spectra = fasta.get_spectra(List(peptides), constants.mass_dict)
    out["precursor"] = np.array([sp[0] for sp in spectra])
    out["fragments"] = np.concatenate([sp[2] for sp in spectra])
    out["fragment_types"] = np.concatenate([sp[3] for sp in spectra]).astype(np.int64)
    frag = fasta.get_frag_dict(fasta.parse(peptides[1]), constants.mass_dict)
    out["frag_dict"] = np.array([frag[k] for k in sorted(frag)])
    masses, ints = [], []
    for mass in np.linspace(500.0, 6000.0, 60):
        m, i = chem.mass_to_dist(mass, constants.averagine_aa, constants.isotopes)
        masses.append(m)
        ints.append(i)
    out["isotope_masses"] = np.concatenate(masses)
    out["isotope_ints"] = np.concatenate(ints)
    out["mass"] = np.array([chem.calculate_mass(mz, z) for mz, z in zip(np.linspace(300, 1500, 50), range(1, 51))])
    return out


def alphapept_search_score():
    """alphapept's compiled spectrum matching and scoring: fragments of
    database peptides compared with noisy query spectra (Dalton and ppm
    tolerances), hits with their mass deltas and intensity fractions,
    q-values of FDRs, and centroiding of profile spectra."""
    from numba.typed import List
    from alphapept import constants, fasta, io, score, search
    rng = np.random.default_rng(1)
    spectra = fasta.get_spectra(List(_alphapept_peptides(2, 300)), constants.mass_dict)
    out = {"hits_da": [], "hits_ppm": [], "delta": [], "fraction": []}
    for sp in spectra:
        db = sp[2]
        keep = rng.random(len(db)) < 0.7
        query = np.sort(np.concatenate([db[keep] + rng.normal(0.0, 0.005, keep.sum()),
                                        rng.uniform(100.0, 2000.0, 10)]))
        query_int = rng.uniform(1.0, 100.0, len(query))
        hits = search.compare_frags(query, db, 0.02)
        out["hits_da"].append(hits)
        out["hits_ppm"].append(search.compare_frags(query, db, 20.0, True))
        out["delta"].append(np.array(search.frag_delta(query, db, hits)))
        out["fraction"].append(np.array([search.intensity_fraction(query_int, hits)]))
    out = {k: np.concatenate([np.ravel(x) for x in v]) for k, v in out.items()}
    out["ppm_to_dalton"] = np.array([search.ppm_to_dalton(m, 20) for m in np.linspace(100, 3000, 30)])
    fdr = np.sort(rng.uniform(0.0, 0.2, 2000))[::-1] * rng.uniform(0.8, 1.0, 2000)
    out["q_values"] = score.get_q_values(fdr)
    mz = np.linspace(400.0, 410.0, 5000)
    profile = sum(h * np.exp(-0.5 * ((mz - c) / 0.01) ** 2) for h, c in zip(rng.uniform(10, 100, 25),
                                                                          rng.uniform(400.2, 409.8, 25)))
    profile += rng.uniform(0.0, 0.5, len(mz))
    cmz, cint = io.centroid_data(mz, profile)
    out["centroid_mz"], out["centroid_int"] = np.asarray(cmz), np.asarray(cint)
    return out


def _plummer(n, seed):
    """A Plummer sphere of n equal-mass particles (positions, velocities, masses)."""
    rng = np.random.default_rng(seed)
    r = 1.0 / np.sqrt(rng.uniform(0.01, 0.99, n) ** (-2.0 / 3.0) - 1.0)
    direction = rng.standard_normal((n, 3))
    direction /= np.linalg.norm(direction, axis=1)[:, None]
    return r[:, None] * direction, 0.3 * rng.standard_normal((n, 3)), np.full(n, 1.0 / n)


def pytreegrav_gravity():
    """pytreegrav's N-body gravity as a simulation code calls it: potentials and
    accelerations by the octree walk (a jitclass tree, monopole and quadrupole,
    serial and parallel, grouped walks) and by brute force, at the particles and
    at other points, and tidal tensors."""
    from pytreegrav import Accel, AccelTarget, ConstructTree, Potential, PotentialTarget, TidalTensor
    pos, _, m = _plummer(4000, 0)
    h = np.full(len(m), 0.02)
    targets = np.random.default_rng(1).uniform(-2, 2, (500, 3))
    tree = ConstructTree(pos, m, softening=h, quadrupole=True)
    return {"accel_tree": Accel(pos, m, h, method="tree"),
            "accel_quad": Accel(pos, m, h, method="tree", quadrupole=True, tree=tree),
            "accel_parallel": Accel(pos, m, h, method="tree", parallel=True),
            "accel_brute": Accel(pos[:800], m[:800], h[:800], method="bruteforce"),
            "phi_tree": Potential(pos, m, h, method="tree", theta=0.5),
            "phi_brute": Potential(pos[:800], m[:800], h[:800], method="bruteforce"),
            "accel_target": AccelTarget(targets, pos, m, softening_source=h, method="tree"),
            "phi_target": PotentialTarget(targets, pos, m, softening_source=h, method="bruteforce"),
            "tidal": TidalTensor(pos[:1500], m[:1500], h[:1500], method="tree"),
            "tree_masses": tree.Masses, "tree_sizes": tree.Sizes}


def pytreegrav_statistics():
    """pytreegrav's tree-accelerated statistics of a particle distribution: the
    mass and velocity correlation functions, the velocity structure function
    (periodic box too) and ray-traced column densities."""
    from pytreegrav import ColumnDensity, DensityCorrFunc, VelocityCorrFunc, VelocityStructFunc
    pos, vel, m = _plummer(3000, 2)
    rbins = np.logspace(-2, 0.5, 12)
    box = np.random.default_rng(3).uniform(0, 1, (2000, 3))
    radii = np.full(600, 0.05)
    return {"mass_corr": DensityCorrFunc(pos, m, rbins)[0],
            "vel_corr": VelocityCorrFunc(pos, m, vel, rbins)[0],
            "struct": VelocityStructFunc(pos, m, vel, rbins)[0],
            "struct_periodic": VelocityStructFunc(box, np.ones(2000), vel[:2000], np.linspace(0.02, 0.4, 8),
                                                  boxsize=1.0)[0],
            "column": ColumnDensity(pos[:600], m[:600], radii, rays=np.eye(3))}


def _meshoid_cloud(n, seed):
    rng = np.random.default_rng(seed)
    pos = rng.standard_normal((n, 3))
    return pos, np.full(n, 1.0 / n), np.exp(-0.5 * (pos ** 2).sum(1)), rng.standard_normal((n, 3))


def meshoid_derivatives():
    """meshoid's meshless analysis of particle data: neighbour search, kernel
    densities and smoothing lengths, least-squares gradients, divergence and
    curl of a vector field, kernel averages and integrals."""
    from meshoid import Meshoid
    pos, m, f, v = _meshoid_cloud(3000, 0)
    M = Meshoid(pos, m, des_ngb=32, verbose=False)
    # no second-order fits: with 32 neighbours the few inside the kernel of a
    # particle far out leave its 9 x 9 least-squares system singular (NumPy's
    # inv raises, Numba's returns noise), and with more the smoothing-length
    # bisection (to 1e-13) need not end
    return {"density": M.Density(), "h": M.SmoothingLength(), "grad": M.D(f), "div": M.Div(v),
            "curl": M.Curl(v), "average": M.KernelAverage(f), "variance": M.KernelVariance(f),
            "integral": np.atleast_1d(M.Integrate(f))}


def meshoid_gridding():
    """meshoid's projections and slices of SPH data onto grids: surface density
    (plain and conservative), projected and mass-weighted averages, slices,
    interpolation to a 3-d grid, deposition and density grids."""
    from meshoid import Meshoid
    pos, m, f, _ = _meshoid_cloud(3000, 1)
    M = Meshoid(pos, m, des_ngb=32, verbose=False)
    return {"sigma": M.SurfaceDensity(M.m, size=4.0, res=64),
            "sigma_conservative": M.SurfaceDensity(M.m, size=4.0, res=64, conservative=True),
            "projected": M.ProjectedAverage(f, size=4.0, res=64),
            "mass_weighted": M.MassWeightedAverage(f, size=4.0, res=64),
            "slice": M.Slice(f, size=4.0, res=64),
            "slice_order1": M.Slice(f, size=4.0, res=64, order=1),
            "interp": M.InterpToGrid(f, size=4.0, res=24),
            "deposit": M.DepositToGrid(m, size=4.0, res=24)}


def meshoid_radiation():
    """meshoid's dust radiative transfer helpers: Planck functions and their
    temperature derivative, and a per-pixel modified-blackbody fit of an
    image cube by Gauss-Newton."""
    from meshoid.radiation import modified_blackbody_fit_image, planck_function, planck_function_dT
    freqs = np.logspace(11, 13, 40)
    temps = np.linspace(8.0, 80.0, 25)
    wavelengths = np.array([100.0, 160.0, 250.0, 350.0, 500.0])
    nu = 2.998e14 / wavelengths
    rng = np.random.default_rng(4)
    T, tau = rng.uniform(12, 40, (16, 16)), 10 ** rng.uniform(-3, -1, (16, 16))
    x = 6.626e-27 * nu / (1.381e-16 * T[..., None])
    image = tau[..., None] * (nu / nu[2]) ** 1.7 * nu ** 3 / np.expm1(x) * 1e-20
    fit = modified_blackbody_fit_image(image, 0.05 * image, wavelengths)
    return {"planck": np.array([planck_function(freqs, t) for t in temps]),
            "planck_dT": np.array([planck_function_dT(freqs, t) for t in temps]),
            "fit": np.asarray(fit)}


def _sarracen_disc(n, seed, dim=3):
    """A SarracenDataFrame of a thin gas disc of n equal-mass SPH particles."""
    import sarracen
    rng = np.random.default_rng(seed)
    r, phi = rng.uniform(0.5, 2.0, n), rng.uniform(0, 2 * np.pi, n)
    data = {"x": r * np.cos(phi), "y": r * np.sin(phi), "h": rng.uniform(0.05, 0.15, n),
            "vx": -np.sin(phi) / np.sqrt(r), "vy": np.cos(phi) / np.sqrt(r), "u": 1.0 / r}
    if dim == 3:
        data["z"] = 0.05 * r * rng.standard_normal(n)
        data["vz"] = 0.01 * rng.standard_normal(n)
    sdf = sarracen.SarracenDataFrame(data, params={"mass": 1e-4, "hfact": 1.2})
    sdf.calc_density()
    return sdf


def sarracen_interpolate_3d():
    """sarracen's rendering of 3-d SPH data as Phantom users plot it: column
    projections (fast and exact, cubic, quartic and quintic kernels, rotated,
    density weighted), cross sections, vector fields, lines and 3-d grids."""
    import sarracen
    from sarracen.interpolate import interpolate_3d_cross_vec, interpolate_3d_grid, interpolate_3d_line
    from sarracen.kernels import QuarticSplineKernel, QuinticSplineKernel
    sdf = _sarracen_disc(6000, 0)
    grid = dict(x_pixels=96, y_pixels=96, xlim=(-2.2, 2.2), ylim=(-2.2, 2.2))
    return {"proj": sarracen.interpolate_3d_proj(sdf, "rho", **grid),
            "proj_quartic": sarracen.interpolate_3d_proj(sdf, "u", kernel=QuarticSplineKernel(), **grid),
            "proj_quintic": sarracen.interpolate_3d_proj(sdf, "u", kernel=QuinticSplineKernel(), dens_weight=True,
                                                         **grid),
            "proj_exact": sarracen.interpolate_3d_proj(sdf, "rho", exact=True, x_pixels=32, y_pixels=32,
                                                       xlim=(-2.2, 2.2), ylim=(-2.2, 2.2)),
            "proj_rotated": sarracen.interpolate_3d_proj(sdf, "rho", rotation=[0, 60, 0], rot_origin=[0, 0, 0],
                                                         **grid),
            "cross": sarracen.interpolate_3d_cross(sdf, "u", z_slice=0.0, **grid),
            "cross_vec": np.array(interpolate_3d_cross_vec(sdf, "vx", "vy", "vz", z_slice=0.0, **grid)),
            "vec": np.array(sarracen.interpolate.interpolate_3d_vec(sdf, "vx", "vy", "vz", **grid)),
            "line": interpolate_3d_line(sdf, "rho", pixels=200, xlim=(-2, 2), ylim=(-1, 1), zlim=(0, 0)),
            "grid": interpolate_3d_grid(sdf, "rho", x_pixels=24, y_pixels=24, z_pixels=12, xlim=(-2.2, 2.2),
                                        ylim=(-2.2, 2.2), zlim=(-0.3, 0.3))}


def sarracen_interpolate_2d():
    """sarracen's 2-d SPH interpolation: images (fast and exact), vector
    fields, lines, and the disc's azimuthally averaged surface density and
    angular momentum profiles."""
    import sarracen
    from sarracen.interpolate import interpolate_2d_vec
    sdf = _sarracen_disc(5000, 1, dim=2)
    sdf3 = _sarracen_disc(5000, 2)
    grid = dict(x_pixels=128, y_pixels=128, xlim=(-2.2, 2.2), ylim=(-2.2, 2.2))
    return {"image": sarracen.interpolate_2d(sdf, "u", **grid),
            # not normalised: in the disc's hole and corners the exact image and
            # its normalisation are both rounding noise (sums cancelling to
            # ~1e-17), whose ratio is as likely 0.46 as -inf under either compiler
            # (and a window the particles reach past writes beyond the image)
            "image_exact": sarracen.interpolate_2d(sdf, "u", exact=True, x_pixels=48, y_pixels=48,
                                                   xlim=(-2.2, 2.2), ylim=(-2.2, 2.2), normalize=False),
            "vec": np.array(interpolate_2d_vec(sdf, "vx", "vy", **grid)),
            "line": sarracen.interpolate_2d_line(sdf, "rho", pixels=300, xlim=(-2, 2), ylim=(-2, 2)),
            "sigma": np.asarray(sarracen.disc.surface_density(sdf3, r_in=0.5, r_out=2.0, bins=30)),
            "angmom": np.asarray(sarracen.disc.angular_momentum(sdf3, r_in=0.5, r_out=2.0, bins=30))}


def _dynasor_trajectory(tmpdir, frames, seed):
    """An ASE trajectory of a vibrating fcc aluminium supercell (positions and
    velocities), as an MD code writes one, read back by dynasor."""
    import os
    from ase.build import bulk
    from ase.io import write
    from dynasor import Trajectory
    rng = np.random.default_rng(seed)
    atoms = bulk("Al", "fcc", a=4.05, cubic=True).repeat(4)
    base = atoms.get_positions()
    modes = rng.standard_normal((3, *base.shape))
    omegas = np.array([0.05, 0.11, 0.23])
    images = []
    for t in range(frames):
        image = atoms.copy()
        shift = sum(0.05 * mode * np.sin(w * t) for mode, w in zip(modes, omegas))
        image.set_positions(base + shift)
        image.set_velocities(sum(0.05 * w * mode * np.cos(w * t) for mode, w in zip(modes, omegas)))
        images.append(image)
    path = os.path.join(tmpdir, "md.traj")
    write(path, images, format="traj")
    return atoms, Trajectory(path, trajectory_format="ase", atomic_indices="read_from_trajectory")


def dynasor_structure_factors():
    """dynasor's correlation functions of an MD trajectory: static structure
    factors, dynamic structure factors with currents and the incoherent part
    over time windows, on q-points along a path and on a sphere, and the
    spectral energy density."""
    import tempfile
    from ase.build import bulk
    from dynasor import (compute_dynamic_structure_factors, compute_spectral_energy_density,
                         compute_static_structure_factors, get_spherical_qpoints, get_supercell_qpoints_along_path)
    with tempfile.TemporaryDirectory() as tmp:
        atoms, traj = _dynasor_trajectory(tmp, 60, 0)
        primitive = bulk("Al", "fcc", a=4.05)
        q_path = np.vstack(get_supercell_qpoints_along_path([("G", "X"), ("X", "L")],
                                                             {"G": [0, 0, 0], "X": [0.5, 0, 0.5], "L": [0.5, 0.5, 0.5]},
                                                             primitive.cell, atoms.cell))
        q_sphere = get_spherical_qpoints(atoms.cell, q_max=3.0, max_points=200, seed=0)
        static = compute_static_structure_factors(traj, q_sphere)
        _, traj = _dynasor_trajectory(tmp, 60, 0)
        dynamic = compute_dynamic_structure_factors(traj, q_path, dt=5.0, window_size=20, window_step=5,
                                                    calculate_currents=True, calculate_incoherent=True)
        _, traj = _dynasor_trajectory(tmp, 60, 0)
        omega, sed = compute_spectral_energy_density(traj, atoms, primitive, q_path, dt=5.0)
    out = {"q_sphere": q_sphere, "static_Sq": static.Sq, "sed_omega": omega, "sed": sed}
    for name in dynamic.available_correlation_functions:
        out["dynamic_" + name] = dynamic[name]
    return out



def _qibojit_backend():
    import qibo
    qibo.set_backend("qibojit", platform="numba")
    return qibo.get_backend()


def qibojit_circuits():
    """qibojit's state-vector and density-matrix simulation of circuits
    (qibo's numba platform): one- and two-qubit gates, controlled and
    multi-controlled gates, fSim, SWAP, 3-, 4- and 5-qubit unitaries,
    noise channels on density matrices, and Hamiltonian expectations."""
    from qibo import Circuit, gates, hamiltonians
    _qibojit_backend()
    rng = np.random.default_rng(0)
    n = 12
    c = Circuit(n)
    c.add(gates.H(q) for q in range(n))
    for layer in range(3):
        c.add(gates.RX(q, theta=t) for q, t in enumerate(rng.uniform(0, 2 * np.pi, n)))
        c.add(gates.RY(q, theta=t) for q, t in enumerate(rng.uniform(0, 2 * np.pi, n)))
        c.add(gates.CNOT(q, q + 1) for q in range(layer % 2, n - 1, 2))
        c.add(gates.CZ(q, (q + 3) % n) for q in range(0, n, 3))
    c.add(gates.U3(2, *rng.uniform(0, np.pi, 3)))
    c.add(gates.X(0).controlled_by(3, 5))
    c.add(gates.Y(4).controlled_by(1))
    c.add(gates.Z(7).controlled_by(2, 9, 11))
    c.add(gates.RZ(6, theta=0.3).controlled_by(8))
    c.add(gates.CU1(1, 10, theta=0.7))
    c.add(gates.SWAP(0, 11))
    c.add(gates.SWAP(3, 4).controlled_by(6))
    c.add(gates.fSim(5, 9, theta=0.4, phi=1.1))
    c.add(gates.GeneralizedfSim(2, 8, unitary=np.linalg.qr(rng.standard_normal((2, 2)) + 1j * rng.standard_normal((2, 2)))[0], phi=0.2))
    c.add(gates.TOFFOLI(1, 2, 3))
    for k in (2, 3, 4, 5, 6):
        u = np.linalg.qr(rng.standard_normal((2 ** k, 2 ** k)) + 1j * rng.standard_normal((2 ** k, 2 ** k)))[0]
        c.add(gates.Unitary(u, *rng.choice(n, k, replace=False).tolist()))
    u2 = np.linalg.qr(rng.standard_normal((4, 4)) + 1j * rng.standard_normal((4, 4)))[0]
    c.add(gates.Unitary(u2, 7, 3).controlled_by(0))
    state = c().state()
    probs = c().probabilities(qubits=[0, 3, 7])

    d = Circuit(5, density_matrix=True)
    d.add(gates.H(q) for q in range(5))
    d.add(gates.CNOT(q, q + 1) for q in range(4))
    d.add(gates.RY(q, theta=0.2 * (q + 1)) for q in range(5))
    d.add(gates.DepolarizingChannel((0, 1), 0.1))
    d.add(gates.PauliNoiseChannel(2, [("X", 0.05), ("Y", 0.02), ("Z", 0.1)]))
    d.add(gates.AmplitudeDampingChannel(3, 0.2))
    d.add(gates.PhaseDampingChannel(4, 0.3))
    d.add(gates.ThermalRelaxationChannel(1, [1.0, 0.8, 0.1, 0.05]))
    d.add(gates.SWAP(0, 4))
    d.add(gates.fSim(1, 3, theta=0.3, phi=0.6))
    d.add(gates.Y(2))
    rho = d().state()

    ham = hamiltonians.TFIM(8, h=0.7, dense=False)
    e = Circuit(8)
    e.add(gates.RY(q, theta=0.1 * q + 0.2) for q in range(8))
    e.add(gates.CNOT(q, q + 1) for q in range(7))
    psi = e().state()
    xxz = hamiltonians.XXZ(6, delta=0.5)
    return {"state": state, "probs": probs, "rho": rho, "tfim": ham.expectation(psi),
            "xxz_ground": np.linalg.eigvalsh(np.asarray(xxz.matrix))[:4]}


def qibojit_quantum_info():
    """qibojit's compiled quantum-information routines (qibo.quantum_info on
    the numba platform): seeded random states, density matrices, unitaries,
    Hermitian matrices and channels, vectorisation of superoperators, Pauli
    bases, and Choi/Liouville/Kraus conversions."""
    from qibo import quantum_info as qi
    backend = _qibojit_backend()
    out = {"statevector": qi.random_statevector(16, seed=1, backend=backend),
           "statevector_real": qi.random_statevector(8, seed=2, backend=backend),
           "rho_hs": qi.random_density_matrix(8, rank=4, metric="ginibre", seed=3, backend=backend),
           "rho_bures": qi.random_density_matrix(8, metric="bures", seed=4, backend=backend),
           "hermitian": qi.random_hermitian(6, seed=6, backend=backend),
           "unitary_haar": qi.random_unitary(8, measure="haar", seed=8, backend=backend),
           }
    rho = out["rho_hs"]
    for order in ("row", "column"):
        v = qi.vectorization(rho, order=order, backend=backend)
        out["vec_" + order] = v
        out["unvec_" + order] = qi.unvectorization(v, order=order, backend=backend)
    out["pauli_basis"] = qi.pauli_basis(2, normalize=True, backend=backend)
    out["pauli_basis_vec"] = qi.pauli_basis(2, vectorize=True, order="row", backend=backend)
    elements, indices = qi.pauli_basis(2, vectorize=True, sparse=True, order="column", backend=backend)
    out["pauli_sparse"], out["pauli_sparse_idx"] = elements, indices
    kraus = [(tuple(range(2)), qi.random_unitary(4, seed=10 + k, backend=backend) * np.sqrt(0.5)) for k in range(2)]
    for order in ("row",):
        choi = qi.kraus_to_choi(kraus, order=order, backend=backend)
        out["choi_" + order] = choi
        out["liouville_" + order] = qi.kraus_to_liouville(kraus, order=order, backend=backend)
        out["choi_to_liouville_" + order] = qi.choi_to_liouville(choi, order=order, backend=backend)
        kr, _ = qi.choi_to_kraus(choi, order=order, backend=backend)
        # Kraus operators are unique up to a unitary mix: compare the channel they make
        out["kraus_channel_" + order] = qi.kraus_to_choi([((0, 1), k) for k in kr], order=order, backend=backend)
    out["channel_bcsz"] = qi.random_quantum_channel(4, rank=2, measure="bcsz", order="row", seed=20, backend=backend)
    return out



def pyqmc_molecule():
    """pyqmc's quantum Monte Carlo wave function of a water molecule (6-31G,
    restricted Hartree-Fock orbitals from PySCF): a Slater-Jastrow wave
    function whose atomic orbitals, their gradients and Laplacians pyqmc's
    compiled Gaussian basis and spherical harmonics evaluate; its values,
    gradients, Laplacians, moved-electron ratios and parameter derivatives
    at electron configurations, and the local energies there."""
    from pyscf import gto, scf
    from pyqmc.api import EnergyAccumulator, generate_wf, initial_guess
    mol = gto.M(atom="O 0 0 0; H 0 -1.43 1.11; H 0 1.43 1.11", basis="6-31g", unit="B", verbose=0)
    mf = scf.RHF(mol).run()
    np.random.seed(0)
    configs = initial_guess(mol, 60)
    wf, _ = generate_wf(mol, mf, slater_kws={"evaluate_orbitals_with": "numba"})
    sign, logval = wf.recompute(configs)
    grad, lap = wf.gradient_laplacian(1, configs.electron(1))
    moved = configs.make_irreducible(2, configs.configs[:, 2] + 0.1)
    energy = EnergyAccumulator(mol)(configs, wf)
    return {"sign": sign, "logval": logval, "grad": grad, "lap": lap, "testvalue": wf.testvalue(2, moved)[0],
            "pgrad_det": wf.pgradient()["wf1mo_coeff_alpha"], "energy_total": energy["total"],
            "energy_ke": energy["ke"], "energy_ee": energy["ee"]}


def taurex_forward_models():
    """TauREx 3's exoplanet atmosphere forward models: transmission and
    emission spectra of a hot Jupiter (Guillot temperature profile, constant
    H2O and CH4 abundances on an H2/He fill) with molecular absorption from
    cross-section grids interpolated bilinearly in temperature and pressure
    (TauREx's compiled interpolation; its test opacities, seeded), Rayleigh
    scattering, and the compiled Planck function of each layer and the star;
    cross sections interpolated at off-grid points in both modes."""
    from taurex.cache import OpacityCache
    from taurex.chemistry import ConstantGas, TaurexChemistry
    from taurex.contributions import AbsorptionContribution, RayleighContribution
    from taurex.model import EmissionModel, TransmissionModel
    from taurex.opacity.fakeopacity import FakeOpacity
    from taurex.planet import Planet
    from taurex.stellar import BlackbodyStar
    from taurex.temperature import Guillot2010
    from taurex.util.emission import black_body
    cache = OpacityCache()
    cache.clear_cache()
    np.random.seed(0)
    opacities = {m: FakeOpacity(m, wn_res=2000, wn_size=(500, 15000)) for m in ("H2O", "CH4")}
    for opacity in opacities.values():
        opacity._xsec_grid *= 1e-22
        cache.add_opacity(opacity)
    wngrid = np.sort(10000 / np.logspace(np.log10(0.7), np.log10(12), 300))
    out = {}
    for name, model_class in (("transmission", TransmissionModel), ("emission", EmissionModel)):
        chemistry = TaurexChemistry(fill_gases=["H2", "He"], ratio=0.172)
        chemistry.addGas(ConstantGas("H2O", 1e-4))
        chemistry.addGas(ConstantGas("CH4", 3e-5))
        model = model_class(planet=Planet(planet_radius=1.2, planet_mass=0.9),
                            temperature_profile=Guillot2010(T_irr=1400.0), chemistry=chemistry,
                            star=BlackbodyStar(temperature=5800.0, radius=1.1), atm_min_pressure=1e-2,
                            atm_max_pressure=1e6, nlayers=40)
        model.add_contribution(AbsorptionContribution())
        model.add_contribution(RayleighContribution())
        model.build()
        _, spectrum, tau, _ = model.model(wngrid=wngrid)
        out[name], out[name + "_tau"] = spectrum, tau
    grid = opacities["H2O"].wavenumberGrid
    for mode in ("linear", "exp"):
        opacities["CH4"].set_interpolation_mode(mode)
        out["xsec_" + mode] = np.array([opacities["CH4"].opacity(t, p) for t, p in
                                        ((733.0, 2.3e3), (2150.0, 0.7), (150.0, 4.1e5))])
    out["planck"] = np.array([black_body(grid, t) for t in (300.0, 1500.0, 5800.0)])
    return out



def _radis_hitran_lines(path, n, seed):
    """A HITRAN 160-character line list of n CO lines (seeded), as RADIS
    reads a .par file."""
    rng = np.random.default_rng(seed)
    nu = np.sort(rng.uniform(2000.0, 2250.0, n))
    strength, einstein_a = 10 ** rng.uniform(-24, -19, n), rng.uniform(1, 30, n)
    gamma_air, gamma_self = rng.uniform(0.04, 0.08, n), rng.uniform(0.05, 0.09, n)
    lower_energy, n_air = rng.uniform(0, 3000, n), rng.uniform(0.6, 0.8, n)
    with open(path, "w") as f:
        for i in range(n):
            j = i % 40
            f.write(f"{5:2d}{1:1d}{nu[i]:12.6f}{strength[i]:10.3E}{einstein_a[i]:10.3E}{('%6.4f' % gamma_air[i])[1:]}"
                    f"{gamma_self[i]:5.3f}{lower_energy[i]:10.4f}{n_air[i]:4.2f}{0.0:8.6f}{1:15d}{0:15d}"
                    f"{'':10s}P{j:3d} {'':15s}445211     7     7 {2 * j + 1:7.1f}{2 * j + 3:7.1f}\n")
    return path


def radis_spectra():
    """RADIS' line-by-line spectra of hot CO (a seeded HITRAN line list): the
    LDM lineshape database with its compiled sparse accumulation (simple and
    min-RMS weights), Voigt lineshapes convolved line by line, the compiled
    pseudo-continuum of weak lines, absorption and emission quantities, and
    spectra resampled on another grid."""
    import os
    import tempfile
    import radis
    from radis import SpectrumFactory
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        par = _radis_hitran_lines(os.path.join(tmp, "co.par"), 2000, 0)
        runs = {"ldm_simple": dict(optimization="simple", broadening_method="voigt_poly"),
                "ldm_minrms": dict(optimization="min-RMS", broadening_method="voigt_poly"),
                "convolve": dict(optimization=None, broadening_method="convolve"),
                "continuum": dict(optimization=None, broadening_method="voigt_poly", pseudo_continuum_threshold=0.01)}
        for name, options in runs.items():
            sf = SpectrumFactory(wavenum_min=2000, wavenum_max=2250, molecule="CO", isotope="1", pressure=1.0,
                                 wstep=0.01, truncation=5, verbose=0, **options)
            sf.load_databank(path=par, format="hitran", db_use_cached=False)
            s = sf.eq_spectrum(Tgas=650, mole_fraction=0.1, path_length=10)
            out[name] = s.get("abscoeff")[1]
        out["wavenumber"], out["radiance"] = s.get("radiance_noslit", wunit="cm-1")
        out["transmittance"] = s.get("transmittance_noslit")[1]
        s.resample(np.linspace(2010.0, 2240.0, 3000), unit="cm-1", energy_threshold=None)
        out["resampled"] = s.get("abscoeff")[1]
    return out



def autoarray_inversion_operators():
    """PyAutoArray's compiled CPU path of pixelized inversions (PyAutoLens'
    source reconstructions) through its util namespace: an imaging dataset
    masked and given its sparse PSF precision operator, the dense operator,
    PSF-weighted data, unique data-to-pixelization mappings, data vectors
    and curvature matrices from them and from a blurred mapping matrix,
    regularization's finite-difference triplets on the mask, and coarse
    interpolation's binned images and masks."""
    import autoarray as aa
    rng = np.random.default_rng(0)
    shape, pixel_scales = (24, 24), 0.1
    mask = aa.Mask2D.circular(shape_native=shape, radius=0.9, pixel_scales=pixel_scales)
    data = aa.Array2D.no_mask(values=rng.standard_normal(shape), pixel_scales=pixel_scales)
    noise = aa.Array2D.no_mask(values=rng.uniform(0.5, 1.5, shape), pixel_scales=pixel_scales)
    psf = aa.Convolver.from_gaussian(shape_native=(5, 5), pixel_scales=pixel_scales, sigma=0.12, normalize=True)
    imaging = aa.Imaging(data=data, noise_map=noise, psf=psf).apply_mask(mask).apply_sparse_operator_cpu()
    op = imaging.sparse_operator
    noise_native = np.array(imaging.noise_map.native.array, dtype=np.float64)
    kernel = np.array(psf.kernel.native.array, dtype=np.float64)
    slim_to_native = np.array(imaging.mask.derive_indexes.native_for_slim).astype(int)
    numba_util = aa.util.inversion_imaging_numba
    dense = numba_util.psf_precision_operator_from(noise_native, kernel, slim_to_native)
    weighted = numba_util.psf_weighted_data_from(np.array(imaging.data.native.array, dtype=np.float64), noise_native,
                                                 kernel, slim_to_native)
    # each masked pixel's 4 sub-pixels mapped to 3 of 40 source pixels with weights
    n_data, pix_pixels, sub = len(slim_to_native), 40, 4
    pix_indexes = rng.integers(0, pix_pixels, (n_data * sub, 3))
    pix_sizes = np.full(n_data * sub, 3)
    pix_weights = rng.dirichlet(np.ones(3), n_data * sub)
    unique, weights, lengths = aa.util.mapper_numba.data_slim_to_pixelization_unique_from(
        n_data, pix_indexes, pix_sizes, pix_weights, pix_pixels, np.full(n_data, 2))
    unique, lengths = unique.astype(int), lengths.astype(int)  # as autoarray's mappers take them
    curvature = numba_util.curvature_matrix_via_sparse_operator_from(
        op.psf_precision_operator_sparse, op.indexes, op.lengths, unique, weights, lengths, pix_pixels)
    blurred = rng.uniform(0, 1, (n_data, pix_pixels))
    image, noise_slim = np.array(imaging.data.array), np.array(imaging.noise_map.array)
    mask_native = np.array(mask, dtype=bool)
    cleaned, diff_types = aa.util.derivative.clean_mask_iteration_from(mask_native)
    fine = rng.standard_normal((24, 24))
    coarse = aa.util.coarse_interp.binned_mask_from(mask_native, 2)
    return {"sparse_operator": op.psf_precision_operator_sparse, "indexes": op.indexes, "lengths": op.lengths,
            "dense": dense, "weighted": weighted, "unique": unique, "weights": weights, "pix_lengths": lengths,
            "data_vector": numba_util.data_vector_via_psf_weighted_data_from(weighted, unique, weights, lengths,
                                                                             pix_pixels),
            "curvature": numba_util.curvature_matrix_mirrored_from(curvature),
            "curvature_diag": numba_util.curvature_matrix_with_added_to_diag_from(curvature, 1e-3, [0, 5]),
            "data_vector_blurred": numba_util.data_vector_via_blurred_mapping_matrix_from(blurred, image, noise_slim),
            "cleaned": cleaned, "diff_types": diff_types,
            "forward_diff": np.concatenate([np.asarray(t, dtype=float).ravel() for t in
                                            aa.util.derivative.forward_difference_triplets_from(mask_native, 0.1)]),
            "binned": aa.util.coarse_interp.binned_image_from(fine, 2),
            "binned_mask": coarse, "box_mask": aa.util.coarse_interp.interp_box_mask_from(coarse)}



def piquasso_fock():
    """Piquasso's photonic quantum circuits in the Fock basis: a three-mode
    program (squeezing, displacement, beam splitters, phase shifts, Kerr and
    cross-Kerr gates, a random interferometer) simulated on pure and mixed
    Fock states with a photon cutoff, their Fock probabilities, density
    matrices, mean photon numbers and reduced states, and a two-mode
    passive interferometer's occupation-number marginals."""
    import piquasso as pq
    rng = np.random.default_rng(0)
    unitary = np.linalg.qr(rng.standard_normal((3, 3)) + 1j * rng.standard_normal((3, 3)))[0]
    with pq.Program() as program:
        pq.Q(0, 1, 2) | pq.Vacuum()
        pq.Q(0) | pq.Squeezing(r=0.2, phi=0.3)
        pq.Q(1) | pq.Displacement(r=0.4, phi=0.7)
        pq.Q(0, 1) | pq.Beamsplitter(theta=np.pi / 5, phi=0.4)
        pq.Q(2) | pq.Phaseshifter(phi=0.9)
        pq.Q(1, 2) | pq.Beamsplitter(theta=0.3, phi=1.2)
        pq.Q(0) | pq.Kerr(xi=0.15)
        pq.Q(0, 2) | pq.CrossKerr(xi=0.1)
        pq.Q(0, 1, 2) | pq.Interferometer(unitary)
    pure = pq.PureFockSimulator(d=3, config=pq.Config(cutoff=7)).execute(program).state
    mixed = pq.FockSimulator(d=3, config=pq.Config(cutoff=5)).execute(program).state
    with pq.Program() as passive:
        pq.Q() | pq.StateVector([1, 1, 0])
        pq.Q(0, 1, 2) | pq.Interferometer(unitary)
    boson = pq.PureFockSimulator(d=3, config=pq.Config(cutoff=3)).execute(passive).state
    return {"pure_probabilities": pure.fock_probabilities, "pure_density": pure.density_matrix,
            "pure_photons": pure.mean_photon_number(),
            "pure_reduced": pure.reduced((0, 2)).density_matrix, "mixed_probabilities": mixed.fock_probabilities,
            "mixed_density": mixed.density_matrix, "boson_probabilities": boson.fock_probabilities}


def piquasso_sampling():
    """Piquasso's Gaussian and boson-sampling states: a Gaussian program's
    covariance matrix, means, Fock probabilities (hafnians and loop
    hafnians) and fidelity; a boson-sampling interferometer's output state
    probabilities by permanents."""
    import piquasso as pq
    rng = np.random.default_rng(1)
    unitary = np.linalg.qr(rng.standard_normal((4, 4)) + 1j * rng.standard_normal((4, 4)))[0]
    with pq.Program() as program:
        pq.Q(0, 1, 2, 3) | pq.Vacuum()
        for mode, r in enumerate((0.3, 0.2, 0.25, 0.1)):
            pq.Q(mode) | pq.Squeezing(r=r, phi=0.1 * mode)
        pq.Q(1) | pq.Displacement(r=0.2, phi=0.5)
        pq.Q(0, 1, 2, 3) | pq.Interferometer(unitary)
    gaussian = pq.GaussianSimulator(d=4, config=pq.Config(cutoff=5)).execute(program).state
    with pq.Program() as sampling:
        pq.Q() | pq.StateVector([1, 1, 1, 0])
        pq.Q() | pq.Interferometer(unitary)
    boson = pq.SamplingSimulator(d=4).execute(sampling).state
    return {"covariance": gaussian.xpxp_covariance_matrix, "mean": gaussian.xpxp_mean_vector,
            "fock_probabilities": gaussian.fock_probabilities,
            "boson_probabilities": boson.fock_probabilities}



def miepython_scattering():
    """miepython's Mie scattering by spheres on its compiled backend
    (MIEPYTHON_USE_JIT=1, chosen as it is imported): efficiencies of
    dielectric, absorbing, conducting and tiny spheres over size parameters,
    single multipoles, Mie coefficients (outside and inside), the
    logarithmic derivative (Lentz's continued fraction and recurrences),
    scattering amplitudes, phase matrices and angular intensities."""
    import os
    os.environ["MIEPYTHON_USE_JIT"] = "1"
    import miepython as mie
    x = np.linspace(0.05, 40.0, 120)
    mu = np.cos(np.linspace(0.0, np.pi, 91))
    out = {}
    for name, m in (("glass", 1.5), ("absorbing", 1.33 - 0.1j), ("metal", 0.2 - 3.0j), ("conducting", 0 - 1e4j)):
        qext, qsca, qback, g = mie.efficiencies_mx(m, x)
        out[name] = np.stack([qext, qsca, qback, g])
        out[name + "_dipole"] = np.stack(mie.efficiencies_mx(m, x[:20], n_pole=1))
        s1, s2 = mie.S1_S2(m, 7.5, mu)
        out[name + "_S1"], out[name + "_S2"] = s1, s2
        out[name + "_unpolarized"] = mie.i_unpolarized(m, 3.2, mu, norm="wiscombe")
    a, b = mie.an_bn(1.5 - 0.01j, 12.0, 0)
    c, d = mie.cn_dn(1.5 - 0.01j, 12.0, 0)
    out.update({"an": a, "bn": b, "cn": c, "dn": d,
                "D_calc": mie.D_calc(1.5 - 0.2j, 25.0, 40),
                "phase_matrix": mie.phase_matrix(1.5, 4.0, mu[::10]),
                "i_par": mie.i_par(1.33, 2.0, mu, norm="qsca"), "i_per": mie.i_per(1.33, 2.0, mu, norm="one"),
                "efficiencies_d": np.stack(mie.efficiencies(1.5 - 0.001j, np.linspace(0.1, 2.0, 40), 0.5, n_env=1.33)),
                "intensities": np.stack(mie.intensities(1.5, 1.0, 0.6328, mu, n_env=1.0))})
    return out



def _quspin_user_callbacks():
    """The C callbacks of a spin-1/2 chain as QuSpin's user_basis takes them:
    the action of Pauli operators on a bit string, the next state of fixed
    magnetisation, particle counting, and translation and parity maps."""
    from numba import carray, cfunc, int32, uint32
    from quspin.basis.user import count_particles_sig_32, map_sig_32, next_state_sig_32, op_sig_32

    @cfunc(op_sig_32, locals=dict(s=int32, b=uint32))
    def op(op_struct_ptr, op_str, ind, N, args):
        op_struct = carray(op_struct_ptr, 1)[0]
        err = 0
        ind = N - ind - 1  # the site read from the right
        s = (((op_struct.state >> ind) & 1) << 1) - 1
        b = 1 << ind
        if op_str == 120:  # "x"
            op_struct.state ^= b
        elif op_str == 121:  # "y"
            op_struct.state ^= b
            op_struct.matrix_ele *= 1.0j * s
        elif op_str == 122:  # "z"
            op_struct.matrix_ele *= s
        elif op_str == 43:  # "+"
            if s > 0:
                op_struct.matrix_ele = 0
            else:
                op_struct.state ^= b
        elif op_str == 45:  # "-"
            if s < 0:
                op_struct.matrix_ele = 0
            else:
                op_struct.state ^= b
        else:
            op_struct.matrix_ele = 0
            err = -1
        return err

    @cfunc(next_state_sig_32, locals=dict(t=uint32))
    def next_state(s, counter, N, args):
        if s == 0:
            return s
        t = (s | (s - 1)) + 1  # the next integer with as many bits set
        return t | ((((t & (0 - t)) // (s & (0 - s))) >> 1) - 1)

    @cfunc(count_particles_sig_32, locals=dict(s_count=uint32))
    def count_particles(x, p_number_ptr, args):
        p_number = carray(p_number_ptr, 1)
        s_count = x
        s_count = s_count - ((s_count >> 1) & 0x55555555)
        s_count = (s_count & 0x33333333) + ((s_count >> 2) & 0x33333333)
        p_number[0] = (((s_count + (s_count >> 4)) & 0xF0F0F0F) * 0x1010101) >> 24

    @cfunc(map_sig_32, locals=dict(shift=uint32, xmax=uint32, x1=uint32, x2=uint32))
    def translation(x, N, sign_ptr, args):
        shift, xmax = args[0], args[1]
        x1 = x >> (N - shift)
        x2 = (x << shift) & xmax
        return x2 | x1

    @cfunc(map_sig_32, locals=dict(out=uint32, s=uint32))
    def parity(x, N, sign_ptr, args):
        out = 0
        s = args[0]
        out ^= (x & 1)
        x >>= 1
        while x:
            out <<= 1
            out ^= (x & 1)
            x >>= 1
            s -= 1
        out <<= s
        return out

    return op, next_state, count_particles, translation, parity


def quspin_user_basis():
    """QuSpin's user-defined basis of a periodic Heisenberg chain: its C
    callbacks compiled by @cfunc (operator action on bit strings, states of
    fixed magnetisation, particle counting, translation and parity
    symmetries) called by QuSpin's C++ basis construction and operator
    assembly; the symmetry-reduced states, the Hamiltonian's matrix and its
    lowest eigenvalues, and QuSpin's compiled Lanczos iterations on it."""
    from math import comb
    from quspin.basis.user import user_basis
    from quspin.operators import hamiltonian
    from quspin.tools.lanczos import expm_lanczos, lanczos_full
    op, next_state, count_particles, translation, parity = _quspin_user_callbacks()
    N, Np = 12, 6
    op_args = np.array([], dtype=np.uint32)
    next_state_args = np.array([], dtype=np.uint32)
    maps = dict(T_block=(translation, N, 0, np.array([1, (1 << N) - 1], dtype=np.uint32)),
                P_block=(parity, 2, 0, np.array([N - 1], dtype=np.uint32)))
    pcon = dict(Np=Np, next_state=next_state, next_state_args=next_state_args, get_Ns_pcon=comb,
                get_s0_pcon=lambda N, Np: (1 << Np) - 1, count_particles=count_particles,
                count_particles_args=np.array([], dtype=np.int32), n_sectors=1)
    basis = user_basis(np.uint32, N, dict(op=op, op_args=op_args), allowed_ops={"x", "y", "z", "+", "-"}, sps=2,
                       pcon_dict=pcon, **maps)
    bonds = [[1.0, i, (i + 1) % N] for i in range(N)]
    H = hamiltonian([["xx", bonds], ["yy", bonds], ["zz", bonds]], [], basis=basis, dtype=np.float64,
                    check_symm=False, check_herm=False, check_pcon=False)
    dense = H.toarray()
    rng = np.random.default_rng(0)
    v0 = rng.standard_normal(basis.Ns)
    v0 /= np.linalg.norm(v0)
    E, V, Q_T = lanczos_full(H, v0, 20)
    return {"states": basis.states.astype(np.int64), "H": dense, "energies": np.linalg.eigvalsh(dense)[:6],
            "lanczos_E": E, "expm": expm_lanczos(E, V, Q_T, a=-0.1)}



def pyqula_tight_binding():
    """pyqula's tight-binding models of 2-d materials: the honeycomb
    lattice's neighbour search and supercells, Hamiltonians with Haldane and
    Rashba terms, Zeeman fields and sublattice imbalance, band structures,
    the density of states, the Chern number, a Fermi surface, and a Hubbard
    mean-field (self-consistent) antiferromagnet's bands."""
    import os
    import tempfile
    from pyqula import geometry
    cwd = os.getcwd()
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)  # pyqula writes its results' files where it runs
        try:
            g = geometry.honeycomb_lattice()
            h = g.get_hamiltonian()
            h.add_haldane(0.05)
            h.add_sublattice_imbalance(0.1)
            k, e = h.get_bands(nk=60)
            out["bands_k"], out["bands_e"] = np.asarray(k), np.asarray(e)
            hs = g.get_supercell(3).get_hamiltonian(has_spin=True)
            hs.add_rashba(0.1)
            hs.add_zeeman([0.0, 0.0, 0.2])
            k, e = hs.get_bands(nk=30)
            out["rashba_e"] = np.asarray(e)
            energies, dos = h.get_dos(energies=np.linspace(-3.5, 3.5, 200), delta=0.05, nk=40)
            out["dos"] = np.asarray(dos)
            out["chern"] = np.atleast_1d(h.get_chern(nk=12))
            out["fermi_surface"] = np.asarray(h.get_fermi_surface(e=0.5, nk=30, delta=0.1)[-1])
            hsp = g.get_hamiltonian(has_spin=True)
            mf = hsp.get_mean_field_hamiltonian(U=3.0, filling=0.5, mf="antiferro", nk=8)
            k, e = mf.get_bands(nk=20)
            out["meanfield_e"] = np.asarray(e)
            out["neighbors"] = np.asarray(g.get_supercell(4).r)
        finally:
            os.chdir(cwd)
    return out



def _bztetra_bands(n, seed, nbands=2, two_d=False):
    """Tight-binding bands on an n-point grid of the Brillouin zone (simple
    cubic or square nearest- and next-nearest-neighbour hopping, seeded
    shifts), band index last, as bztetra takes eigenvalues."""
    rng = np.random.default_rng(seed)
    axes = np.meshgrid(*([2 * np.pi * np.arange(n) / n] * (2 if two_d else 3)), indexing="ij")
    base = -2 * sum(np.cos(k) for k in axes) + 0.3 * np.cos(axes[0] + axes[1])
    return np.stack([base + shift for shift in rng.uniform(-1.0, 1.0, nbands)], axis=-1)


def bztetra_tetrahedra():
    """bztetra's linear tetrahedron integration over Brillouin zones (the
    libtetrabz method, optimized and plain): density of states and its
    integral, occupations at a Fermi energy and the Fermi energy for a
    filling, static and complex-frequency polarization weights, nesting,
    Fermi's golden rule and phase-space overlaps between bands, on 3-d
    cubic and 2-d square lattices' band structures."""
    import bztetra
    from bztetra import twod
    bvec = 2 * np.pi * np.eye(3)
    eig = _bztetra_bands(8, 0)
    target = _bztetra_bands(8, 1)
    energies = np.linspace(-6.0, 6.0, 25)
    out = {"dos": bztetra.density_of_states_weights(bvec, eig, energies),
           "dos_linear": bztetra.density_of_states_weights(bvec, eig, energies, method="linear"),
           "intdos": bztetra.integrated_density_of_states_weights(bvec, eig, energies),
           "occupation": bztetra.occupation_weights(bvec, eig, fermi_energy=0.3)}
    solution = bztetra.solve_fermi_energy(bvec, eig, 1.1)
    out["fermi_energy"], out["fermi_weights"] = np.array([solution.fermi_energy]), solution.weights
    out["static_pol"] = bztetra.static_polarization_weights(bvec, eig, target)
    out["nesting"] = bztetra.nesting_function_weights(bvec, eig, target)
    out["golden_rule"] = bztetra.fermi_golden_rule_weights(bvec, eig, target, np.linspace(0.1, 3.0, 6))
    out["overlap"] = bztetra.phase_space_overlap_weights(bvec, eig, target)
    out["complex_pol"] = bztetra.complex_frequency_polarization_weights(bvec, eig, target,
                                                                        np.array([0.5j, 1.0 + 0.2j]))
    bvec2 = 2 * np.pi * np.eye(2)
    eig2, target2 = _bztetra_bands(24, 2, two_d=True), _bztetra_bands(24, 3, two_d=True)
    out["dos_2d"] = twod.density_of_states_weights(bvec2, eig2, energies)
    out["occupation_2d"] = twod.occupation_weights(bvec2, eig2, fermi_energy=-0.2)
    out["static_pol_2d"] = twod.static_polarization_weights(bvec2, eig2, target2)
    return out


def _baseflow_streamflow():
    """The daily streamflow records baseflow ships (two gauges, 2001-2010)."""
    import baseflow
    import pandas as pd
    return pd.read_csv(baseflow.example, index_col=0, parse_dates=True)


def baseflow_single():
    """baseflow's twelve separation methods on one gauge's record: the
    digital filters (Lyne-Hollick, Chapman, Chapman-Maxwell, Boughton,
    Furey, Eckhardt, EWMA, Willems) with their parameters calibrated by a
    parallel search over a compiled method passed as an argument, the
    HYSEP graphical methods (fixed and sliding intervals, local minima),
    UKIH's turning points; the recession coefficient, backward filter,
    maximum BFI and the methods' KGE against the strict baseflow."""
    import baseflow
    from baseflow.param_estimate import Backward, maxmium_BFI, recession_coefficient
    df = _baseflow_streamflow()
    b, kge = baseflow.single(df["US_09447000"], area=500.0, ice=([11, 1], [3, 31]), method="all")
    Q = df["US_09447000"].to_numpy(float)
    strict = baseflow.strict_baseflow(Q, baseflow.exist_ice(df.index, ([11, 1], [3, 31])))
    a = recession_coefficient(Q, strict)
    b_lh = baseflow.LH(Q)
    return {"baseflow": b.to_numpy(), "kge": kge.to_numpy(), "a": a, "backward": Backward(Q, b_lh, a),
            "bfi_max": maxmium_BFI(Q, b_lh, a, df.index)}


def baseflow_separation():
    """baseflow's separation of every gauge of a table (areas unknown, no
    ice), with each method's baseflow index and KGE."""
    import baseflow
    dfs, bfi, kge = baseflow.separation(_baseflow_streamflow(), method="all", return_bfi=True, return_kge=True)
    return {**{"b_" + m: d.to_numpy() for m, d in dfs.items()}, "bfi": bfi.to_numpy(float),
            "kge": kge.to_numpy(float)}


def _acoular_setup(duration):
    """A 64-microphone array hearing two white-noise point sources and a
    dipole (sine) over uncorrelated sensor noise, at 25.6 kHz."""
    from pathlib import Path
    import acoular as ac
    ac.config.global_caching = "none"
    mg = ac.MicGeom(file=Path(ac.__file__).parent / "xml" / "array_64.xml")
    fs, n = 25600, int(25600 * duration)
    noise = [ac.WNoiseGenerator(sample_freq=fs, num_samples=n, seed=i + 1, rms=r) for i, r in enumerate((1.0, 0.7))]
    sine = ac.SineGenerator(sample_freq=fs, num_samples=n, freq=2000.0)
    sources = [ac.PointSource(signal=noise[0], mics=mg, loc=(-0.1, -0.1, -0.3)),
               ac.PointSource(signal=noise[1], mics=mg, loc=(0.15, 0.0, -0.3)),
               ac.PointSourceDipole(signal=sine, mics=mg, loc=(0.0, 0.1, -0.3)),
               ac.UncorrelatedNoiseSource(signal=ac.WNoiseGenerator(sample_freq=fs, num_samples=n, seed=9, rms=0.05),
                                          mics=mg)]
    return ac, mg, sources


def acoular_frequency_beamformers():
    """acoular's frequency-domain beamforming of a cross-spectral matrix:
    the conventional beamformer with each steering vector formulation,
    Capon, eigenvalue, MUSIC and functional beamformers, and the point
    spread functions of each formulation."""
    ac, mg, sources = _acoular_setup(0.5)
    spec = ac.PowerSpectra(source=ac.Mixer(source=sources[0], sources=sources[1:]), block_size=128, window="Hanning")
    rg = ac.RectGrid(x_min=-0.2, x_max=0.2, y_min=-0.2, y_max=0.2, z=-0.3, increment=0.02)
    out = {"csm": spec.csm[10]}
    for kind in ("classic", "inverse", "true level", "true location"):
        st = ac.SteeringVector(grid=rg, mics=mg, steer_type=kind)
        out["base_" + kind] = ac.BeamformerBase(freq_data=spec, steer=st).synthetic(4000, 1)
        out["base_no_diag_" + kind] = ac.BeamformerBase(freq_data=spec, steer=st, r_diag=False).synthetic(2000, 3)
        out["psf_" + kind] = ac.PointSpreadFunction(steer=st, grid_indices=np.array([0, 200, 440]), freq=4000.0).psf
    st = ac.SteeringVector(grid=rg, mics=mg)
    for name, cls in (("capon", ac.BeamformerCapon), ("eig", ac.BeamformerEig), ("music", ac.BeamformerMusic),
                      ("functional", ac.BeamformerFunctional)):
        out[name] = cls(freq_data=spec, steer=st).synthetic(4000, 1)
    return out


def acoular_deconvolution():
    """acoular's deconvolution of beamforming maps: DAMAS (Gauss-Seidel
    over the point spread functions), CLEAN, CLEAN-SC and orthogonal
    beamforming."""
    ac, mg, sources = _acoular_setup(0.5)
    spec = ac.PowerSpectra(source=ac.Mixer(source=sources[0], sources=sources[1:]), block_size=128, window="Hanning")
    rg = ac.RectGrid(x_min=-0.2, x_max=0.2, y_min=-0.2, y_max=0.2, z=-0.3, increment=0.02)
    st = ac.SteeringVector(grid=rg, mics=mg)
    return {"damas": ac.BeamformerDamas(freq_data=spec, steer=st, n_iter=50).synthetic(4000, 1),
            "clean": ac.BeamformerClean(freq_data=spec, steer=st).synthetic(4000, 1),
            "cleansc": ac.BeamformerCleansc(freq_data=spec, steer=st).synthetic(4000, 1),
            "orth": ac.BeamformerOrth(freq_data=spec, steer=st, eva_list=np.array([0, 1, 2])).synthetic(4000, 1)}


def acoular_time_beamformers():
    """acoular's time-domain delay-and-sum beamforming (each steering
    vector formulation, squared with the autopower removed, along a
    moving grid) and CLEAN-T, of a mixture with a moving source."""
    ac, mg, sources = _acoular_setup(0.16)
    traj = ac.Trajectory(points={0.0: (-0.1, 0.0, -0.3), 0.08: (0.0, 0.05, -0.3), 0.16: (0.1, 0.0, -0.3)})
    moving = ac.MovingPointSource(signal=sources[1].signal, mics=mg, trajectory=traj)
    mix = ac.Mixer(source=sources[0], sources=[moving, sources[2]])
    rg = ac.RectGrid(x_min=-0.2, x_max=0.2, y_min=-0.2, y_max=0.2, z=-0.3, increment=0.04)

    def collect(gen):
        return np.concatenate(list(gen.result(512)))
    out = {"mix": collect(mix)}
    for kind in ("classic", "inverse", "true level", "true location"):
        out["time_" + kind] = collect(ac.BeamformerTime(source=mix, steer=ac.SteeringVector(grid=rg, mics=mg,
                                                                                            steer_type=kind)))
    st = ac.SteeringVector(grid=rg, mics=mg)
    out["time_sq"] = collect(ac.BeamformerTimeSq(source=mix, steer=st, r_diag=True))
    out["time_sq_traj"] = collect(ac.BeamformerTimeSqTraj(source=mix, steer=st, trajectory=traj, r_diag=True))
    out["cleant_sq"] = collect(ac.BeamformerCleantSq(source=mix, steer=st, n_iter=10))
    return out


def _uxarray_grids():
    """A structured 15-degree grid short of the poles (whose degenerate
    faces leave the dual mesh's node order to the last bit of a sine) and
    the spherical Voronoi grid of 200 random points."""
    import uxarray as ux
    rng = np.random.default_rng(0)
    pts = rng.uniform([-180, -60], [180, 60], (200, 2))
    return (ux.Grid.from_structured(lon=np.linspace(-180, 180, 25), lat=np.linspace(-75, 75, 11)),
            ux.Grid.from_points((pts[:, 0], pts[:, 1]), method="spherical_voronoi"), pts)


def _uxarray_field(grid):
    import uxarray as ux
    import xarray as xr
    data = np.sin(np.deg2rad(grid.face_lat.values)) + np.cos(2 * np.deg2rad(grid.face_lon.values))
    return ux.UxDataArray(xr.DataArray(data, dims=["n_face"]), uxgrid=grid)


def uxarray_geometry():
    """uxarray's geometry of unstructured spherical grids: face areas (and
    their Gaussian quadrature total), latitude-longitude bounds of each
    face, centroids, the connectivity tables built from the face-node one,
    edge lengths and face-to-face distances."""
    out = {}
    for name, grid in zip(("structured", "voronoi"), _uxarray_grids()[:2]):
        out[name + "_areas"] = grid.face_areas.values
        out[name + "_total_area"] = grid.calculate_total_face_area(quadrature_rule="gaussian", order=4)
        out[name + "_bounds"] = grid.bounds.values
        for table in ("face_face", "edge_face", "node_face", "face_edge", "edge_node", "node_edge"):
            out[name + "_" + table] = getattr(grid, table + "_connectivity").values
        for coord in ("face_lon", "face_lat", "face_x", "edge_lon", "edge_lat"):
            out[name + "_" + coord] = getattr(grid, coord).values
        out[name + "_edge_lengths"] = grid.edge_node_distances.values
        out[name + "_face_distances"] = grid.edge_face_distances.values
    return out


def uxarray_dual_calculus():
    """uxarray's dual meshes, the Green-Gauss gradient of a face-centred
    field (over dual cells), its zonal means, integral, and cross sections
    at a constant latitude and longitude."""
    out = {}
    for name, grid in zip(("structured", "voronoi"), _uxarray_grids()[:2]):
        dual = grid.get_dual()
        out[name + "_dual_faces"] = dual.face_node_connectivity.values
        out[name + "_dual_areas"] = dual.face_areas.values
        field = _uxarray_field(grid)
        grad = field.gradient()
        for key in grad.data_vars if hasattr(grad, "data_vars") else ():
            out[name + "_gradient_" + key] = grad[key].values
        out[name + "_zonal_mean"] = field.zonal_mean().values
        out[name + "_integral"] = field.integrate().values
        out[name + "_cross_lat"] = field.cross_section.constant_latitude(30.0).values
        out[name + "_cross_lon"] = field.cross_section.constant_longitude(45.0).values
    return out


def uxarray_remap_locate():
    """uxarray's bilinear and inverse-distance remapping between the two
    grids, and the faces containing query points."""
    structured, voronoi, pts = _uxarray_grids()
    out = {}
    for name, src, dst in (("to_voronoi", structured, voronoi), ("to_structured", voronoi, structured)):
        field = _uxarray_field(src)
        out[name + "_bilinear"] = field.remap.bilinear(destination_grid=dst).values
        out[name + "_idw"] = field.remap.inverse_distance_weighted(destination_grid=dst).values
        faces, counts = src.get_faces_containing_point(pts[:50])
        out[name + "_faces"], out[name + "_counts"] = faces, counts
    return out


def _rtc_run_and_replay():
    """A simulated rat running a 180 cm linear track three times, 19 place
    cells firing as Poisson processes, and a continuous replay event."""
    from replay_trajectory_classification.sorted_spikes_simulation import (make_continuous_replay,
                                                                           make_simulated_run_data)
    np.random.seed(0)
    time, position, _, spikes, _ = make_simulated_run_data(n_runs=3)
    replay_time, replay_spikes = make_continuous_replay()
    return position, spikes, replay_time, replay_spikes


def replay_trajectory_classification_decode():
    """replay_trajectory_classification's decoding of position from place
    cells: place fields by kernel density, the random-walk and uniform
    state transitions, the causal (filter) and acausal (smoother) passes
    over a replay event."""
    from replay_trajectory_classification import Environment, RandomWalk, SortedSpikesDecoder, Uniform
    position, spikes, replay_time, replay_spikes = _rtc_run_and_replay()
    out = {}
    for name, transition in (("random_walk", RandomWalk(movement_var=12.5)), ("uniform", Uniform())):
        decoder = SortedSpikesDecoder(environment=Environment(place_bin_size=np.sqrt(12.5)),
                                      transition_type=transition)
        decoder.fit(position, spikes)
        result = decoder.predict(replay_spikes, time=replay_time)
        out[name + "_place_fields"] = np.asarray(decoder.place_fields_)
        out[name + "_causal"] = result.causal_posterior.values
        out[name + "_acausal"] = result.acausal_posterior.values
    return out


def replay_trajectory_classification_classify():
    """replay_trajectory_classification's classification of a replay event
    into continuous, fragmented and stationary dynamics: three discrete
    states, each with its own movement model, filtered and smoothed."""
    from replay_trajectory_classification import (DiagonalDiscrete, Environment, Identity, RandomWalk,
                                                  SortedSpikesClassifier, Uniform)
    position, spikes, replay_time, replay_spikes = _rtc_run_and_replay()
    movement = [[RandomWalk(movement_var=12.5), Uniform(), Identity()], [Uniform(), Uniform(), Uniform()],
                [RandomWalk(movement_var=12.5), Uniform(), Identity()]]
    classifier = SortedSpikesClassifier(environments=[Environment(place_bin_size=np.sqrt(12.5))],
                                        continuous_transition_types=movement,
                                        discrete_transition_type=DiagonalDiscrete(0.98))
    classifier.fit(position, spikes)
    result = classifier.predict(replay_spikes, time=replay_time,
                                state_names=["continuous", "fragmented", "stationary"])
    return {"causal": result.causal_posterior.values, "acausal": result.acausal_posterior.values,
            "transition": classifier.discrete_state_transition_}


def muon_wnn():
    """muon's weighted nearest neighbours of a two-modality single-cell set
    (300 cells, gene counts and surface proteins): per modality, NN-descent
    over a compiled Jaccard-Euclidean distance passed to UMAP's search with
    its arrays as keyword arguments gives the kernel bandwidths, then the
    cross-modality affinities, modality weights and the joint graph."""
    import anndata as ad
    import muon as mu
    import scanpy as sc
    rng = np.random.default_rng(0)
    groups = rng.integers(0, 4, 300)
    genes = rng.poisson(1.0 + 4.0 * (rng.random((4, 200)) < 0.2)[groups]).astype(np.float32)
    proteins = rng.gamma(2.0, 1.0 + 3.0 * rng.random((4, 30))[groups]).astype(np.float32)
    mods = {"rna": ad.AnnData(np.log1p(genes)), "prot": ad.AnnData(np.log1p(proteins))}
    for name, comps in (("rna", 20), ("prot", 10)):
        sc.pp.pca(mods[name], n_comps=comps, random_state=0)
        sc.pp.neighbors(mods[name], n_neighbors=15, random_state=0)
    mdata = mu.MuData(mods)
    mu.pp.neighbors(mdata, n_neighbors=15, random_state=0)
    return {"connectivities": mdata.obsp["connectivities"].toarray(),
            "distances": mdata.obsp["distances"].toarray(),
            "rna_weight": mdata.obs["rna:mod_weight"].to_numpy(),
            "prot_weight": mdata.obs["prot:mod_weight"].to_numpy()}


def hausdorff_distances():
    """hausdorff's Hausdorff distances between point sets under each of its
    compiled metrics (Manhattan, Euclidean, Chebyshev, cosine, great-circle),
    the metric passed to the compiled loop as a compiled function, and a
    metric of the caller's own."""
    from numba import njit
    from hausdorff import hausdorff_distance
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((400, 3)), rng.standard_normal((300, 3)) + 0.3
    ll_a, ll_b = rng.uniform(-60, 60, (200, 2)), rng.uniform(-60, 60, (250, 2))

    @njit
    def squared(x, y):
        return ((x - y) ** 2).sum()
    out = {name: hausdorff_distance(a, b, distance=name)
           for name in ("manhattan", "euclidean", "chebyshev", "cosine")}
    out["haversine"] = hausdorff_distance(ll_a, ll_b, distance="haversine")
    out["own_metric"] = hausdorff_distance(a, b, distance=squared)
    out["int_points"] = hausdorff_distance(rng.integers(0, 50, (100, 2)), rng.integers(0, 50, (80, 2)))
    return out


def dtwalign_alignments():
    """dtwalign's dynamic time warping: the cumulative cost matrix and the
    backtracked warping path for symmetric, asymmetric and Rabiner-Juang
    step patterns, Sakoe-Chiba and Itakura windows, open-begin and open-end
    alignment and a metric of the caller's own."""
    from dtwalign import dtw
    rng = np.random.default_rng(1)
    t = np.linspace(0, 4 * np.pi, 150)
    x = np.sin(t) + 0.1 * rng.standard_normal(150)
    y = np.sin(np.linspace(0, 4 * np.pi, 120) ** 1.1 / 4 ** 0.1) + 0.1 * rng.standard_normal(120)
    out = {}
    for pattern in ("symmetric1", "symmetric2", "symmetricP05", "symmetricP2", "asymmetric", "asymmetricP1",
                    "typeIa", "typeIc", "typeIIc", "typeIIIc", "typeIVc"):
        res = dtw(x, y, step_pattern=pattern)
        out[pattern + "_cum"] = res.cumsum_matrix
        out[pattern + "_path"] = res.path.astype(np.int64)
        out[pattern + "_dist"] = np.array([res.distance, res.normalized_distance], dtype=float)
    for name, kw in {"sakoechiba": dict(window_type="sakoechiba", window_size=40),
                     "itakura": dict(window_type="itakura"),
                     "open_end": dict(open_end=True),
                     "open_begin_end": dict(step_pattern="asymmetric", open_begin=True, open_end=True),
                     "own_metric": dict(dist=lambda a, b: np.abs(a - b).sum() ** 0.5)}.items():
        res = dtw(x, y, **kw)
        out[name + "_path"] = res.path.astype(np.int64)
        out[name + "_dist"] = np.array([res.distance, res.normalized_distance], dtype=float)
        out[name + "_warp"] = res.get_warping_path()
    return out


def haversine_great_circles():
    """haversine's great-circle distances and destinations: the compiled
    scalar kernel per pair of points in several units, the vectorized kernel
    (a Numba ufunc) pairwise and over all combinations, and the inverse
    problem (the point reached along a bearing), scalar and vectorized."""
    from haversine import Direction, Unit, haversine, haversine_vector, inverse_haversine, inverse_haversine_vector
    rng = np.random.default_rng(2)
    a = np.column_stack([rng.uniform(-80, 80, 500), rng.uniform(-179, 179, 500)])
    b = np.column_stack([rng.uniform(-80, 80, 500), rng.uniform(-179, 179, 500)])
    scalar = np.array([[haversine(tuple(p), tuple(q), unit=u) for p, q in zip(a[:60], b[:60])]
                       for u in (Unit.KILOMETERS, Unit.MILES, Unit.NAUTICAL_MILES, Unit.RADIANS)])
    dist = rng.uniform(10, 3000, 500)
    bearing = rng.uniform(0, 2 * np.pi, 500)
    inverse = np.array([inverse_haversine(tuple(p), d, Direction.NORTHEAST if i % 2 else th)
                        for i, (p, d, th) in enumerate(zip(a[:60], dist, bearing))])
    lat, lon = inverse_haversine_vector(a, dist, bearing)
    return {"scalar": scalar, "vector": haversine_vector(a, b),
            "vector_m": haversine_vector(a, b, Unit.METERS),
            "comb": haversine_vector(a[:40], b[:50], comb=True), "inverse": inverse,
            "inverse_vector": np.column_stack([lat, lon])}


def _sknw_skeleton():
    """A one-pixel-wide skeleton: a grid of crossing lines, a ring, a diagonal
    and an isolated point, as skeletonize leaves one."""
    img = np.zeros((120, 160), np.uint8)
    img[20, 10:150] = img[60, 10:150] = img[100, 30:130] = 1
    img[10:110, 40] = img[10:110, 90] = img[20:101, 130] = 1
    rr = np.arange(360) * np.pi / 180
    img[np.round(40 + 12 * np.sin(rr)).astype(int), np.round(65 + 12 * np.cos(rr)).astype(int)] = 1
    for k in range(25):
        img[70 + k, 5 + k] = 1
    img[115, 155] = 1
    return img


def sknw_graph():
    """sknw's graph of a skeleton image: node marking, junction filling and
    edge tracing (compiled), as a graph and a multigraph, with and without
    isolated points and rings, summarised as sorted node centres and edge
    lengths and pixel counts."""
    import sknw
    img = _sknw_skeleton()
    out = {"marked": sknw.sknw.mark_node(img.copy()).astype(np.int64)}
    for tag, kw in {"graph": dict(), "multi": dict(multi=True), "bare": dict(iso=False, ring=False),
                    "multi_ring": dict(multi=True, iso=False, ring=True)}.items():
        g = sknw.build_sknw(img.copy(), **kw)
        out[tag + "_nodes"] = np.array(sorted(tuple(g.nodes[n]["o"]) for n in g.nodes))
        edges = sorted((min(g.nodes[s]["o"].tolist(), g.nodes[e]["o"].tolist()), d["weight"], len(d["pts"]))
                       for s, e, d in (g.edges(data=True) if not kw.get("multi") else
                                       ((s, e, d) for s, e, k, d in g.edges(keys=True, data=True))))
        out[tag + "_weights"] = np.array([w for _, w, _ in edges])
        out[tag + "_pixels"] = np.array([n for _, _, n in edges])
    return out


def _ohlcv(n, seed):
    rng = np.random.default_rng(seed)
    close = 100 * np.exp(np.cumsum(0.01 * rng.standard_normal(n)))
    spread = close * 0.01 * rng.uniform(0.2, 1.5, n)
    high, low = close + spread * rng.uniform(0, 1, n), close - spread * rng.uniform(0, 1, n)
    return high, low, close, rng.uniform(1e5, 5e5, n)


def _ta_numba_group(groups):
    """Every public bulk indicator of ta-numba's groups (its Numba path: each a
    compiled function of price and volume series) on one synthetic market."""
    import inspect
    import os
    os.environ["TA_NUMBA_DISABLE_RUST"] = "1"
    import ta_numba
    high, low, close, volume = _ohlcv(3000, 5)
    series = {"high": high, "low": low, "close": close, "volume": volume, "data": close}
    out = {}
    for group in groups:
        module = getattr(ta_numba.bulk, group)
        for name, fn in sorted(vars(module).items()):
            if not name.endswith("_numba") or not hasattr(fn, "py_func") or fn.__module__ != module.__name__:
                continue
            params = inspect.signature(fn.py_func).parameters
            result = fn(*(series[p] for p in params if p in series))
            for i, r in enumerate(result if isinstance(result, tuple) else (result,)):
                out[f"{group}_{name}_{i}"] = r
    return out


def ta_numba_trend():
    """ta-numba's trend indicators: moving averages, MACD, ADX, vortex, TRIX,
    mass index, CCI, DPO, KST, Ichimoku, parabolic SAR, Schaff cycle, Aroon."""
    return _ta_numba_group(("trend",))


def ta_numba_momentum():
    """ta-numba's momentum indicators: RSI and stochastic RSI, TSI, ultimate
    and stochastic oscillators, Williams %R, awesome oscillator, KAMA, ROC,
    price and volume oscillators."""
    return _ta_numba_group(("momentum",))


def ta_numba_volatility_volume():
    """ta-numba's volatility (ATR, Bollinger, Keltner, Donchian, ulcer),
    volume (MFI, A/D, OBV, CMF, force index, EoM, VPT, NVI, VWAP, VWEMA) and
    return indicators (daily, log, cumulative, z-scores, regression slopes,
    rolling percentiles)."""
    return _ta_numba_group(("volatility", "volume", "others"))


def hyper_corr_correlations():
    """hyper-corr's rank and linear correlations with their p-values:
    Pearson's r, Spearman's rho, Kendall's tau, Chatterjee's xi and Somers' D,
    on samples with and without ties, through the dispatching entry points
    and the tie/no-tie kernels on presorted input."""
    import hyper_corr as hc
    rng = np.random.default_rng(6)
    out = {}
    for n in (25, 400, 3000):
        x = rng.standard_normal(n)
        y = 0.5 * x + rng.standard_normal(n)
        xt, yt = np.round(x * 2) / 2, np.round(y * 2) / 2
        for name in ("pearsonr", "spearmanr", "kendalltau", "chatterjeexi", "somersd"):
            fn = getattr(hc, name)
            out[f"{name}_{n}"] = np.array(tuple(fn(x, y))[:2], dtype=float)
            out[f"{name}_ties_{n}"] = np.array(tuple(fn(xt, yt))[:2], dtype=float)
        order = np.argsort(x, kind="stable")
        order_t = np.argsort(xt, kind="stable")
        for name in ("spearmanr", "kendalltau", "chatterjeexi", "somersd"):
            out[f"{name}_noties_kernel_{n}"] = np.array(getattr(hc, name + "_noties")(x[order], y[order], n)[:2],
                                                        dtype=float)
            out[f"{name}_ties_kernel_{n}"] = np.array(getattr(hc, name + "_ties")(xt[order_t], yt[order_t], n)[:2],
                                                      dtype=float)
    out["somersd_table"] = hc.somersd(xt[:40], yt[:40]).table
    return out


def _sketchnu_stream(n, seed):
    """n keys (bytes) drawn from a Zipf-like vocabulary of 5000 words."""
    rng = np.random.default_rng(seed)
    ids = np.minimum(rng.zipf(1.3, n), 5000)
    return [f"w{i:05d}".encode() for i in ids]


def sketchnu_hll_hashes():
    """sketchnu's HyperLogLog cardinalities of a stream of byte strings
    (plain, n-grams, merged) and its compiled 64- and 32-bit hashes."""
    import sketchnu
    from sketchnu.hashes import fasthash32, fasthash64, murmur3
    keys, more = _sketchnu_stream(20000, 7), _sketchnu_stream(5000, 8)
    probe = sorted(set(keys))[:200]
    out = {"fasthash64": np.array([fasthash64(k, 3) for k in probe], dtype=np.uint64),
           "fasthash32": np.array([fasthash32(k, 3) for k in probe], dtype=np.uint64),
           "murmur3": np.array([murmur3(k, 3) for k in probe], dtype=np.uint64)}
    hll, hll2 = sketchnu.HyperLogLog(p=12, seed=1), sketchnu.HyperLogLog(p=12, seed=1)
    hll.update(keys)
    hll2.update(more)
    gram = sketchnu.HyperLogLog(p=12)
    gram.add_ngram(b"the quick brown fox jumps over the lazy dog" * 20, 4)
    out["hll"] = np.array([hll.query(), gram.query()])
    hll.merge(hll2)
    out["hll_merged"] = np.array(hll.query())
    return out


def sketchnu_countmin_heavy():
    """sketchnu's count-min frequencies of a stream of byte strings in its
    linear, log16 and log8 variants (plain and n-grams, merged; the log
    counters' random steps drawn from seeded uniforms, refilled by
    np.random.rand in compiled code) and the top-k heavy hitters (Topkapi)."""
    import sketchnu
    keys, more = _sketchnu_stream(20000, 7), _sketchnu_stream(5000, 8)
    probe = sorted(set(keys))[:200]
    out = {}
    from numba import njit

    @njit
    def seed(s):
        np.random.seed(s)
    for kind in ("linear", "log16", "log8"):
        cms, cms2 = sketchnu.CountMin(kind, width=2000), sketchnu.CountMin(kind, width=2000)
        if kind != "linear":  # log counters step by chance: their batches of uniforms seeded, and their refills
            for i, sketch in enumerate((cms, cms2)):
                sketch.rng = np.random.default_rng(20 + i)
                sketch.rand_nums = sketch.rng.random(2048)
            seed(21)
        cms.update(keys)
        cms2.update(more)
        cms.add_ngram(b"abracadabra" * 30, 3)
        out[kind] = np.array([cms.query(k) for k in probe] + [cms.query(b"abr"), cms.n_added(), cms.n_records()],
                             dtype=float)
        cms.merge(cms2)
        out[kind + "_merged"] = np.array([cms.query(k) for k in probe], dtype=float)
    hh = sketchnu.HeavyHitters(width=500, depth=4)
    hh.update(keys)
    top = hh.query(20)
    out["heavy_keys"] = np.array([int(k[1:]) for k, _ in top], dtype=np.int64)  # (the words' numbers)
    out["heavy_counts"] = np.array([c for _, c in top], dtype=np.int64)
    return out

def _option_chain(seed):
    """An option chain: forward, maturities, strikes and a volatility smile."""
    rng = np.random.default_rng(seed)
    ttms = np.array([0.08, 0.25, 0.5, 1.0, 2.0])
    forwards = 100.0 * np.exp(0.02 * ttms)
    strikes = [f * np.exp(np.linspace(-0.4, 0.4, 21) * np.sqrt(t)) for f, t in zip(forwards, ttms)]
    vols = [0.2 + 0.3 * np.log(k / f) ** 2 + 0.01 * rng.standard_normal(21) for k, f in zip(strikes, forwards)]
    types = [np.where(k >= f, "C", "P") for k, f in zip(strikes, forwards)]
    return ttms, forwards, strikes, vols, types


def vanilla_option_pricers_bsm():
    """vanilla-option-pricers' Black-Scholes-Merton prices and greeks (delta,
    gamma, vega, theta, digitals) per option and per smile slice, the Numba
    ufuncs over arrays, and strikes from deltas."""
    import vanilla_option_pricers as vop
    ttms, forwards, strikes, vols, types = _option_chain(10)
    t, f, k, v, o = ttms[2], forwards[2], strikes[2], vols[2], types[2]
    out = {"price": np.array([vop.compute_bsm_vanilla_price(f, kk, t, vv, oo, 0.98) for kk, vv, oo in zip(k, v, o)]),
           "greeks": np.array([[vop.compute_bsm_vanilla_delta(t, f, kk, vv, oo), vop.compute_bsm_vanilla_gamma(t, f, kk, vv),
                                vop.compute_bsm_vanilla_vega(t, f, kk, vv), vop.compute_bsm_vanilla_theta(t, f, kk, vv, oo, 0.98, 0.02),
                                vop.compute_bsm_digital_price(f, kk, t, vv, oo), vop.compute_bsm_digital_delta(f, kk, t, vv, oo)]
                               for kk, vv, oo in zip(k, v, o)]),
           "slice_prices": vop.compute_bsm_vanilla_slice_prices(t, f, k, v, o, 0.98),
           "slice_deltas": vop.compute_bsm_vanilla_slice_deltas(t, f, k, v, o),
           "slice_vegas": vop.compute_bsm_slice_vegas(t, f, k, v, o),
           "grid_prices": vop.compute_bsm_forward_grid_prices(t, np.linspace(80, 120, 41), 100.0, 0.25, "P"),
           "grid_deltas": vop.compute_bsm_vanilla_grid_deltas(t, np.linspace(80, 120, 41), 100.0, 0.25, "C"),
           "strike_from_delta": np.array([vop.compute_bsm_strike_from_delta(t, f, d, 0.25) for d in (-0.25, 0.1, 0.5, 0.9)]),
           "ufunc_price": vop.compute_bsm_vanilla_price_vector(f, k, t, v, o),
           "ufunc_delta": vop.compute_bsm_vanilla_delta_vector(t, f, k, v, o),
           "ufunc_gamma": vop.compute_bsm_vanilla_gamma_vector(t, f, k, v),
           "ufunc_vega": vop.compute_bsm_vanilla_vega_vector(t, f, k, v),
           "ncdf": vop.ncdf(np.linspace(-5, 5, 101)), "npdf": vop.npdf(np.linspace(-5, 5, 101))}
    return out


def vanilla_option_pricers_bsm_implied():
    """vanilla-option-pricers' Black-Scholes-Merton implied volatilities by its
    bracketed Newton solver per option, slice and chain (typed lists of
    slices), and chain deltas and vegas."""
    import vanilla_option_pricers as vop
    from numba.typed import List
    ttms, forwards, strikes, vols, types = _option_chain(10)
    t, f, k, v, o = ttms[2], forwards[2], strikes[2], vols[2], types[2]
    prices = vop.compute_bsm_vanilla_slice_prices(t, f, k, v, o, 0.98)
    out = {}
    out["implied"] = np.array([vop.infer_bsm_implied_vol(f, t, kk, p, 0.98, oo) for kk, p, oo in zip(k, prices, o)])
    out["implied_slice"] = vop.infer_bsm_ivols_from_slice_prices(t, f, 0.98, k, o, prices)
    out["implied_model_slice"] = vop.infer_bsm_ivols_from_model_slice_prices(t, f, k, o, prices, 0.98)
    lk, lv, lo = List(strikes), List(vols), List(types)
    chain_prices = List([vop.compute_bsm_vanilla_slice_prices(tt, ff, kk, vv, oo)
                         for tt, ff, kk, vv, oo in zip(ttms, forwards, strikes, vols, types)])
    out["chain_deltas"] = np.concatenate(list(vop.compute_bsm_vanilla_deltas_ttms(ttms, forwards, lk, lv, lo)))
    out["chain_vegas"] = np.concatenate(list(vop.compute_bsm_vegas_ttms(ttms, forwards, lk, lv, lo)))
    out["chain_implied"] = np.concatenate(list(vop.infer_bsm_ivols_from_model_chain_prices(
        ttms, forwards, np.ones(5), lk, lo, chain_prices)))
    return out


def vanilla_option_pricers_bachelier():
    """vanilla-option-pricers' Bachelier (normal) model: prices, deltas and
    vegas per option, slice and chain, strikes from deltas, deltas from
    lognormal prices, and normal implied volatilities per option, slice and
    chain."""
    import vanilla_option_pricers as vop
    from numba.typed import List
    ttms, forwards, strikes, vols, types = _option_chain(11)
    nvols = [v * f for v, f in zip(vols, forwards)]
    t, f, k, v, o = ttms[3], forwards[3], strikes[3], nvols[3], types[3]
    prices = vop.compute_normal_slice_prices(t, f, k, v, o, 0.97)
    out = {"price": np.array([vop.compute_normal_price(f, kk, t, vv, 0.97, oo) for kk, vv, oo in zip(k, v, o)]),
           "delta": np.array([vop.compute_normal_delta(t, f, kk, vv, oo) for kk, vv, oo in zip(k, v, o)]),
           "slice_prices": prices, "slice_deltas": vop.compute_normal_slice_deltas(t, f, k, v, o),
           "slice_vegas": vop.compute_normal_slice_vegas(t, f, k, v, o),
           "delta_to_strike": np.array([vop.compute_normal_delta_to_strike(t, f, d, 20.0) for d in (-0.3, 0.2, 0.7)]),
           "delta_from_lognormal": np.array([vop.compute_normal_delta_from_lognormal_vol(t, f, kk, p, oo)
                                             for kk, p, oo in zip(k, vop.compute_bsm_vanilla_slice_prices(t, f, k, vols[3], o), o)]),
           "implied": np.array([vop.infer_normal_implied_vol(f, t, kk, p, 0.97, oo) for kk, p, oo in zip(k, prices, o)]),
           "implied_model_slice": vop.infer_normal_ivols_from_model_slice_prices(t, f, k, o, prices, 0.97),
           "implied_slice": np.asarray(vop.infer_normal_ivols_from_slice_prices(t, f, 0.97, k, o, prices))}
    lk, lv, lo = List(strikes), List(nvols), List(types)
    chain_prices = List([vop.compute_normal_slice_prices(tt, ff, kk, vv, oo)
                         for tt, ff, kk, vv, oo in zip(ttms, forwards, strikes, nvols, types)])
    out["chain_deltas"] = np.concatenate(list(vop.compute_normal_deltas_ttms(ttms, forwards, lk, lv, lo)))
    out["chain_vegas"] = np.concatenate(list(vop.compute_normal_vegas_ttms(ttms, forwards, lk, lv, lo)))
    out["chain_implied"] = np.concatenate(list(vop.infer_normal_ivols_from_chain_prices(
        ttms, forwards, np.ones(5), lk, lo, chain_prices)))
    return out


def foostrap_intervals():
    """foostrap's bootstrap confidence intervals (BCa and percentile) of means,
    standard deviations and quantiles of one sample and of differences
    between two, of sparse and binary samples, and of ratios, weighted means
    and correlations of paired data: its samplers draw from one NumPy
    Generator per thread inside prange loops."""
    from foostrap import foostrap
    rng = np.random.default_rng(12)
    a, b = rng.lognormal(0, 1, 300), rng.lognormal(0.2, 1, 250)
    sparse = np.where(rng.uniform(size=400) < 0.7, 0.0, rng.exponential(2.0, 400))
    binary = (rng.uniform(size=300) < 0.3).astype(float)
    pairs, pairs2 = rng.lognormal(0, 0.5, (200, 2)), rng.lognormal(0.1, 0.5, (180, 2))
    out = {}
    runs = {"mean": (a, None, {}), "std": (a, None, dict(statistic="std")),
            "quantile": (a, None, dict(statistic="quantile", q=0.3)),
            "mean_diff": (a, b, {}), "percentile": (a, b, dict(ci_method="percentile", alternative="greater")),
            "sparse": (sparse, None, {}), "sparse_std": (sparse, None, dict(statistic="std")),
            "binary": (binary, None, {}), "ratio": (pairs, None, dict(statistic="ratio")),
            "wmean": (pairs, pairs2, dict(statistic="wmean")), "pearson": (pairs, None, dict(statistic="pearson")),
            "serial": (a, b, dict(parallel=False))}
    for name, (x1, x2, kw) in runs.items():
        res = foostrap(x1, x2, boot_samples=2000, random_state=7, **kw)
        out[name + "_ci"], out[name + "_samples"] = np.array(res.ci, dtype=float), res.boot_samples
    return out


def numba_mwu_tests():
    """numba-mwu's Mann-Whitney U tests (normal approximation with tie
    correction, each alternative): one pair of samples, row and column
    batches, one group against the rest over a dense matrix, and sparse CSR
    matrices by their zero blocks."""
    import scipy.sparse as sp
    import numba_mwu as mwu
    rng = np.random.default_rng(13)
    x, y = rng.normal(0, 1, 80), np.round(rng.normal(0.3, 1, 70), 1)
    X, Y = np.round(rng.exponential(1.0, (120, 30)), 1), np.round(rng.exponential(1.2, (90, 30)), 1)
    X[rng.uniform(size=X.shape) < 0.5] = 0
    Y[rng.uniform(size=Y.shape) < 0.4] = 0
    labels = rng.integers(0, 4, 210)
    out = {}
    for alt in ("two-sided", "less", "greater"):
        out["single_" + alt] = np.array(tuple(mwu.mannwhitneyu(x, y, alternative=alt)), dtype=float)
        out["columns_" + alt] = np.array(tuple(mwu.mannwhitneyu_columns(X, Y, alternative=alt)), dtype=float)
    out["rows"] = np.array(tuple(mwu.mannwhitneyu_rows(X.T, Y[:, 0])), dtype=float)
    out["no_continuity"] = np.array(tuple(mwu.mannwhitneyu_columns(X, Y, use_continuity=False)), dtype=float)
    both = np.vstack([X, Y])
    out["one_vs_rest"] = np.array(tuple(mwu.mannwhitneyu_one_vs_rest(both, labels)), dtype=float)
    out["sparse"] = np.array(tuple(mwu.mannwhitneyu_sparse(sp.csr_matrix(X), sp.csr_matrix(Y))), dtype=float)
    out["one_vs_rest_sparse"] = np.array(tuple(mwu.mannwhitneyu_one_vs_rest_sparse(sp.csr_matrix(both), labels)),
                                         dtype=float)
    return out


def hmmkay_discrete_hmm():
    """hmmkay's discrete hidden Markov models: log-likelihoods (forward
    algorithm), Viterbi decoding with state log-probabilities, and
    Baum-Welch EM fitting of sequences of unequal lengths."""
    from hmmkay import HMM
    from hmmkay.utils import make_observation_sequences, make_proba_matrices
    pi, A, B = make_proba_matrices(n_hidden_states=4, n_observable_states=5, random_state=14)
    rng = np.random.default_rng(14)
    seqs = [rng.integers(0, 5, n) for n in rng.integers(20, 60, 40)]
    even = make_observation_sequences(n_seq=30, n_observable_states=5, n_obs_min=50, n_obs_max=51, random_state=15)
    hmm = HMM(pi, A, B, n_iter=15)
    out = {"loglik": np.atleast_1d(hmm.log_likelihood(seqs)), "loglik_even": np.atleast_1d(hmm.log_likelihood(even))}
    paths, logp = hmm.decode(even, return_log_probas=True)
    out["paths"], out["logp"] = np.asarray(paths), np.asarray(logp)
    out["paths_ragged"] = np.concatenate([np.asarray(p) for p in hmm.decode(seqs)])
    hmm.fit(seqs)
    out["fit_pi"], out["fit_A"], out["fit_B"] = hmm.pi, hmm.A, hmm.B
    return out



def glasbey_palettes():
    """glasbey's categorical palettes: the greedy farthest-colour search over
    a CAM02-UCS grid (compiled with explicit signatures and locals), the
    palette optimizer (closest pairs), colour-blind-safe palettes (the search
    in two colour spaces), extensions of an existing palette, and block
    palettes (new and extended)."""
    import glasbey
    out = {"palette": np.asarray(glasbey.create_palette(24, grid_size=32, as_hex=False)),
           "no_opt": np.asarray(glasbey.create_palette(16, grid_size=24, as_hex=False, optimize_palette=False)),
           "bounded": np.asarray(glasbey.create_palette(12, grid_size=24, as_hex=False, lightness_bounds=(30, 70),
                                                        chroma_bounds=(40, 80), hue_bounds=(20, 250))),
           "cvd": np.asarray(glasbey.create_palette(10, grid_size=24, as_hex=False, colorblind_safe=True)),
           "extended": np.asarray(glasbey.extend_palette(["#1f77b4", "#ff7f0e", "#2ca02c"], 12, grid_size=24,
                                                          as_hex=False)),
           "block": np.asarray(glasbey.create_block_palette([3, 4, 2], grid_size=24, as_hex=False)),
           "block_extended": np.asarray(glasbey.extend_block_palette(["#1f77b4", "#ff7f0e"], [3, 2], grid_size=24,
                                                                      as_hex=False))}
    return out


def timml_steady_flow():
    """TimML's steady multi-aquifer flow: a three-aquifer model with uniform
    flow, wells (discharge and head), head line sinks and leaky
    line-doublet walls of higher order and a circular area sink, solved (its
    compiled Bessel line-element potentials and discharge vectors), then heads
    on a grid, discharge vectors and the flux through a line."""
    import timml
    ml = timml.ModelMaq(kaq=[10, 20, 5], z=[20, 12, 10, 5, 4, 0], c=[100, 200])
    timml.Constant(ml, xr=800, yr=0, hr=18, layer=0)
    timml.Uflow(ml, slope=0.002, angle=30)
    timml.Well(ml, xw=0, yw=0, Qw=500, rw=0.3, layers=0)
    timml.HeadWell(ml, xw=60, yw=-120, hw=14, rw=0.2, layers=1)
    timml.HeadLineSink(ml, x1=-300, y1=-200, x2=-220, y2=0, hls=15, layers=0)
    timml.HeadLineSink(ml, x1=-220, y1=0, x2=-300, y2=200, hls=15.5, res=2, wh=3, order=1, layers=0)
    timml.LeakyLineDoublet(ml, x1=120, y1=-200, x2=160, y2=0, res=50, order=2, layers=[0, 1])
    timml.LeakyLineDoublet(ml, x1=160, y1=0, x2=120, y2=200, res=80, order=1, layers=[0, 1])
    timml.CircAreaSink(ml, xc=-100, yc=120, R=60, N=0.001)
    ml.solve(silent=True)
    xg, yg = np.linspace(-400, 400, 25), np.linspace(-300, 300, 21)
    x, y = np.linspace(-350, 350, 40), np.linspace(-250, 260, 40)
    return {"headgrid": ml.headgrid(xg, yg), "head": np.array([ml.head(a, b) for a, b in zip(x, y)]),
            "disvec": np.array([ml.disvec(a, b) for a, b in zip(x, y)]),
            "flux": ml.intnormflux(np.array([[-50.0, -250.0], [-50.0, 250.0]]), ndeg=10)}


def timml_inhomogeneity():
    """TimML's polygonal inhomogeneity (a zone of other conductivities
    bounded by higher-order line doublets and line sinks) with a well inside
    and a river outside, solved, and heads and discharges across its edge."""
    import timml
    ml = timml.ModelMaq(kaq=[10, 20], z=[20, 12, 10, 0], c=[200])
    timml.Constant(ml, xr=600, yr=0, hr=18, layer=0)
    timml.PolygonInhomMaq(ml, xy=[(-100, -100), (100, -100), (100, 100), (-100, 100)], kaq=[2, 8],
                          z=[20, 12, 10, 0], c=[50], topboundary="conf", order=3, ndeg=2)
    timml.Well(ml, xw=0, yw=0, Qw=200, rw=0.3, layers=0)
    timml.River(ml, x1=-300, y1=-200, x2=-300, y2=200, hls=16, order=2, layers=0)
    ml.solve(silent=True)
    x = np.linspace(-250, 250, 60)
    return {"head": np.array([ml.head(a, 0.3 * a + 5) for a in x]),
            "disvec": np.array([ml.disvec(a, 0.3 * a + 5) for a in x])}


def ttim_transient_flow():
    """TTim's transient multi-aquifer flow: a well switched on and off, a
    head line sinks and a leaky line doublet, solved in the
    Laplace domain (its compiled Bessel line elements) and inverted numerically
    (its compiled De Hoog inversion) for heads and discharges through time."""
    import ttim
    ml = ttim.ModelMaq(kaq=[10, 5], z=[20, 12, 10, 0], c=[100], Saq=[1e-4, 2e-4], Sll=[1e-5], tmin=1e-3, tmax=100)
    w = ttim.Well(ml, xw=0, yw=0, rw=0.3, tsandQ=[(0, 500), (10, 0)], layers=0)
    ttim.HeadLineSink(ml, x1=-200, y1=-100, x2=-150, y2=0, tsandh=[(0, 2)], layers=0)
    ttim.HeadLineSink(ml, x1=-150, y1=0, x2=-200, y2=100, tsandh=[(0, 2), (20, 1)], layers=0)
    ttim.LeakyLineDoublet(ml, x1=100, y1=-150, x2=120, y2=150, res=10, order=1, layers=[0])
    ml.solve(silent=True)
    t = np.logspace(-2, 1.9, 15)
    return {"head_near": ml.head(20, 10, t), "head_far": ml.head(-120, 40, t), "head_wall": ml.head(130, 20, t),
            "disvec": np.asarray(ml.disvec(50, -30, t)), "well_head": w.headinside(t)}


def ttim_wells():
    """TTim's pumping tests: wells with skin resistance and wellbore storage
    in a leaky two-aquifer system and a head-specified well, with
    drawdowns at observation points through time."""
    import ttim
    ml = ttim.ModelMaq(kaq=[25, 10], z=[12, 10, 0, -5, -15], c=[1000, 400], Saq=[1e-4, 1e-4], Sll=[1e-4, 1e-4],
                       topboundary="semi", phreatictop=False, tmin=1e-4, tmax=10)
    w = ttim.Well(ml, xw=0, yw=0, rw=0.2, tsandQ=[(0, 800)], res=0.5, rc=0.25, layers=[0, 1])
    ttim.HeadWell(ml, xw=150, yw=0, rw=0.2, tsandh=[(0, -1)], layers=1)
    ml.solve(silent=True)
    t = np.logspace(-3, 1, 20)
    return {"h10": ml.head(10, 0, t), "h50": ml.head(0, 50, t), "inside": w.headinside(t),
            "discharge": np.asarray(w.discharge(t))}


def covasim_epidemic():
    """Covasim's agent-based epidemic: random and hybrid contact networks,
    the compiled viral loads, susceptibilities and transmissions, and its
    compiled binomial and Poisson draws (seeded inside compiled code), with
    testing and contact tracing interventions; the daily results."""
    import covasim as cv
    out = {}
    for ptype in ("random", "hybrid"):
        sim = cv.Sim(pop_size=4000, pop_type=ptype, n_days=50, rand_seed=3, verbose=0,
                     interventions=[cv.test_prob(symp_prob=0.2, start_day=10), cv.contact_tracing(trace_probs=0.5,
                                                                                                 start_day=15)])
        sim.run()
        for key in ("cum_infections", "new_infections", "n_infectious", "cum_deaths", "cum_tests", "n_quarantined"):
            out[f"{ptype}_{key}"] = np.asarray(sim.results[key].values)
    return out


def starsim_diseases():
    """Starsim's agent-based models: SIR and SIS over random networks and
    SEIR over sexual and hybrid networks with births and deaths (the compiled transmission kernels, network
    shuffles, indexers and counter-based random draws); results per step."""
    import starsim as ss
    out = {}
    for name, pars in (("sir", dict(diseases="sir", networks="random")),
                       ("sis", dict(diseases="sis", networks="random")),
                       ("seir", dict(diseases="seir", networks=["mf", "hybrid"], demographics=True))):
        sim = ss.Sim(n_agents=3000, rand_seed=4, verbose=0, **pars)
        sim.run()
        flat = sim.results.flatten()
        for key in sorted(flat):
            val = np.asarray(flat[key].values if hasattr(flat[key], "values") else flat[key])
            if val.dtype.kind in "fiub" and val.size:
                out[f"{name}_{key}"] = val.astype(np.float64)
    return out


def _ctapipe_camera():
    from ctapipe.image import toymodel
    from ctapipe.instrument import CameraGeometry
    import astropy.units as u
    geom = CameraGeometry.make_rectangular(40, 40, range_x=(-0.5, 0.5), range_y=(-0.5, 0.5))
    model = toymodel.Gaussian(x=0.1 * u.m, y=-0.05 * u.m, width=0.05 * u.m, length=0.15 * u.m, psi="35d")
    image, signal, noise = model.generate_image(geom, intensity=1500, nsb_level_pe=3,
                                                rng=np.random.default_rng(31))
    return geom, image


def _plain(quantity):
    """A number without its unit (ctapipe's containers hold Quantities or floats)."""
    return float(getattr(quantity, "value", quantity))


def ctapipe_waveforms():
    """ctapipe's charge extraction: its compiled generalized ufuncs (sums
    around peaks, sliding windows, adaptive centroids) over float32 and
    float64 waveforms, neighbour-averaged peak finding over a sparse
    neighbour matrix, baseline subtraction and descriptive statistics."""
    from ctapipe.image.extractor import (adaptive_centroid, extract_around_peak, extract_sliding_window,
                                         neighbor_average_maximum, subtract_baseline)
    from ctapipe.image.statistics import arg_n_largest, descriptive_statistics, kurtosis, skewness
    geom, image = _ctapipe_camera()
    rng = np.random.default_rng(32)
    n_pix, n_samples = geom.n_pixels, 40
    t = np.arange(n_samples)
    peak = rng.uniform(10, 30, n_pix)
    waves = (image[:, None] * np.exp(-0.5 * ((t - peak[:, None]) / 2.5) ** 2) / 6
             + rng.normal(0, 0.5, (n_pix, n_samples)))[None]
    out = {}
    for dt in (np.float64, np.float32):
        w = waves.astype(dt)
        idx = np.argmax(w, axis=-1)
        s, p = extract_around_peak(w, idx, 7, 3, 1.0)
        out[f"around_{dt.__name__}"], out[f"around_t_{dt.__name__}"] = s, p
        s, p = extract_sliding_window(w, 6, 1.0)
        out[f"window_{dt.__name__}"], out[f"window_t_{dt.__name__}"] = s, p
        out[f"centroid_{dt.__name__}"] = adaptive_centroid(w, idx, 0.05)
    nb = geom.neighbor_matrix_sparse
    broken = np.zeros((1, n_pix), dtype=bool)
    broken[0, ::97] = True
    out["neighbors"] = neighbor_average_maximum(waves, nb.indices, nb.indptr, 2, broken)
    out["baseline"] = subtract_baseline(waves, 0, 8)
    stats = descriptive_statistics(image)
    out["stats"] = np.array([stats.mean, stats.std, stats.skewness, stats.kurtosis, stats.max, stats.min])
    out["skew_kurt"] = np.array([skewness(image), kurtosis(image), kurtosis(image, fisher=False)])
    out["largest"] = arg_n_largest(5, image)
    return out


def ctapipe_image_parameters():
    """ctapipe's image parametrization of a toy shower: cleaning, island
    counting over the sparse neighbour matrix, timing parameters (compiled
    least squares), Hillas parameters, leakage and concentration."""
    import astropy.units as u
    from ctapipe.image import (concentration_parameters, hillas_parameters, leakage_parameters,
                               number_of_islands, tailcuts_clean, timing_parameters)
    from ctapipe.image.toymodel import obtain_time_image
    from ctapipe.fitting import linear_regression, design_matrix
    geom, image = _ctapipe_camera()
    mask = tailcuts_clean(geom, image, picture_thresh=10, boundary_thresh=5)
    n_islands, labels = number_of_islands(geom, mask)
    hillas = hillas_parameters(geom[mask], image[mask])
    times = obtain_time_image(geom.pix_x, geom.pix_y, 0.1 * u.m, -0.05 * u.m, 35 * u.deg, 10 * u.ns / u.m, 20 * u.ns)
    times = times + np.random.default_rng(33).normal(0, 0.3, geom.n_pixels)
    timing = timing_parameters(geom[mask], image[mask], times[mask], hillas)
    leak = leakage_parameters(geom, image, mask)
    conc = concentration_parameters(geom, image, hillas)
    x = np.linspace(0, 1, 50)
    beta = linear_regression(design_matrix(x), 3 * x + 1 + np.random.default_rng(34).normal(0, 0.1, 50))
    return {"mask": mask, "islands": np.array([n_islands]), "labels": labels,
            "hillas": np.array([_plain(hillas.intensity), _plain(hillas.r), _plain(hillas.phi), _plain(hillas.length),
                                _plain(hillas.width), _plain(hillas.skewness), _plain(hillas.kurtosis)]),
            "timing": np.array([_plain(timing.slope), _plain(timing.intercept), _plain(timing.deviation)]),
            "leakage": np.array([leak.pixels_width_1, leak.intensity_width_2]),
            "concentration": np.array([conc.cog, conc.core, conc.pixel]), "beta": beta}


def momepy_morphology():
    """momepy's urban morphology over a seeded block of buildings and
    streets: street profiles (its compiled perpendicular ticks), weighted
    percentiles over a k-nearest-neighbour graph (its compiled interpolation,
    a list comprehension over a tuple of percentiles into np.interp, one
    specialization per tuple length), and range-limited group statistics
    (pandas' Numba engine running libpysal's compiled range filter)."""
    import geopandas as gpd
    import momepy
    import pandas as pd
    import shapely
    from libpysal import graph
    rng = np.random.default_rng(41)
    xs, ys = np.meshgrid(np.arange(10) * 30.0, np.arange(8) * 30.0)
    cx, cy = xs.ravel() + rng.uniform(-4, 4, xs.size), ys.ravel() + rng.uniform(-4, 4, xs.size)
    w, h = rng.uniform(6, 14, xs.size), rng.uniform(6, 14, xs.size)
    buildings = gpd.GeoDataFrame(geometry=shapely.box(cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2))
    lines = [shapely.LineString([(-10, 15 + 30 * k), (290, 15 + 30 * k + 3 * (k % 2))]) for k in range(7)]
    lines += [shapely.LineString([(15 + 30 * k, -10), (15 + 30 * k, 100), (20 + 30 * k, 220)]) for k in range(9)]
    streets = gpd.GeoDataFrame(geometry=lines)
    height = pd.Series(rng.uniform(5, 30, xs.size))
    profile = momepy.street_profile(streets, buildings, distance=5, tick_length=40, height=height)
    knn = graph.Graph.build_knn(buildings.centroid, k=6)
    area = buildings.area
    key = pd.Series(rng.integers(0, 12, xs.size))
    out = {"profile": profile.to_numpy(), "pct3": momepy.percentile(area, knn, q=[10, 50, 90]).to_numpy(),
           "pct2": momepy.percentile(area, knn, q=[5, 95]).to_numpy(),
           "describe": momepy.describe_agg(area, key, q=(10, 90)).to_numpy(),
           "theil": momepy.theil(area, knn, q=(10, 90)).to_numpy(),
           "gini": momepy.gini(area, knn, q=(5, 95)).to_numpy(),
           "range": momepy.values_range(area, knn, q=(20, 80)).to_numpy()}
    return out


def _superflexpy_forcing(n, seed):
    rng = np.random.default_rng(seed)
    rain = np.where(rng.random(n) < 0.35, rng.gamma(0.8, 8.0, n), 0.0)
    pet = 2.5 + 1.5 * np.sin(np.arange(n) * 2 * np.pi / 365) + rng.uniform(0, 0.3, n)
    return rain, pet


def _superflexpy_hymod(approximation):
    from superflexpy.framework.unit import Unit
    from superflexpy.implementation.elements.hymod import LinearReservoir, UpperZone
    from superflexpy.implementation.elements.structure_elements import Junction, Splitter, Transparent
    upper = UpperZone(parameters={"Smax": 50.0, "m": 0.01, "beta": 2.0}, states={"S0": 10.0},
                      approximation=approximation, id="uz")
    routing = [LinearReservoir(parameters={"k": k}, states={"S0": 10.0}, approximation=approximation, id=f"cr{i}")
               for i, k in enumerate((0.3, 0.2, 0.25))]
    lower = LinearReservoir(parameters={"k": 0.05}, states={"S0": 10.0}, approximation=approximation, id="lz")
    unit = Unit(layers=[[upper], [Splitter(weight=[[0.6], [0.4]], direction=[[0], [0]], id="spl")],
                        [routing[0], lower], [routing[1], Transparent(id="tr1")], [routing[2], Transparent(id="tr2")],
                        [Junction(direction=[[0, 0]], id="jun")]], id="hymod")
    return unit, ["uz", "lz", "cr0", "cr1", "cr2"]


def _superflexpy_explicit():
    """SuperflexPy's compiled explicit root finder, which calls itself
    "python" (a slip in superflexpy 1.3.3) and so is refused by the
    compiled approximators it is written for."""
    from superflexpy.implementation.root_finders.explicit import ExplicitNumba
    finder = ExplicitNumba()
    finder.architecture = "numba"
    return finder


def superflexpy_hymod():
    """SuperflexPy's HYMOD rainfall-runoff model over three years of seeded
    daily rain and evaporation, with each of its compiled solvers: implicit
    Euler with the Pegasus root finder, explicit Euler and fourth-order
    Runge-Kutta (its compiled Newton root finder Numba refuses: starred
    assignment) (compiled loops calling the reservoirs' compiled
    flux functions passed as first-class functions, with star-args); the
    streamflow and every reservoir's storage."""
    from superflexpy.implementation.numerical_approximators.explicit_euler import ExplicitEulerNumba
    from superflexpy.implementation.numerical_approximators.implicit_euler import ImplicitEulerNumba
    from superflexpy.implementation.numerical_approximators.runge_kutta_4 import RungeKutta4Numba
    from superflexpy.implementation.root_finders.pegasus import PegasusNumba
    rain, pet = _superflexpy_forcing(3 * 365, 51)
    out = {}
    for name, approximation in (("pegasus", ImplicitEulerNumba(PegasusNumba())),
                                ("euler", ExplicitEulerNumba(_superflexpy_explicit())),
                                ("rk4", RungeKutta4Numba(_superflexpy_explicit()))):
        unit, stores = _superflexpy_hymod(approximation)
        unit.set_input([rain, pet])
        unit.set_timestep(1.0)
        out[f"{name}_q"] = unit.get_output()[0]
        for store in stores:  # (the unit holds copies of its elements)
            out[f"{name}_{store}"] = unit.get_internal(store, "state_array")[:, 0]
    return out


def superflexpy_gr4j_hbv():
    """SuperflexPy's GR4J production store (behind its interception filter)
    and HBV-like reservoirs (an unsaturated store split into fast and slow
    power-law stores), solved by compiled implicit Euler with Pegasus."""
    from superflexpy.framework.unit import Unit
    from superflexpy.implementation.elements.gr4j import InterceptionFilter, ProductionStore
    from superflexpy.implementation.elements.hbv import PowerReservoir, UnsaturatedReservoir
    from superflexpy.implementation.elements.structure_elements import Junction, Splitter
    from superflexpy.implementation.numerical_approximators.implicit_euler import ImplicitEulerNumba
    from superflexpy.implementation.root_finders.pegasus import PegasusNumba
    approximation = ImplicitEulerNumba(PegasusNumba())
    rain, pet = _superflexpy_forcing(2 * 365, 52)
    production = ProductionStore(parameters={"x1": 50.0, "alpha": 2.0, "beta": 5.0, "ni": 4 / 9},
                                 states={"S0": 10.0}, approximation=approximation, id="ps")
    gr4j = Unit(layers=[[InterceptionFilter(id="ir")], [production]], id="gr4j")
    gr4j.set_input([rain, pet])
    gr4j.set_timestep(1.0)
    out = {f"gr4j_{i}": q for i, q in enumerate(gr4j.get_output())}
    out["gr4j_ps"] = gr4j.get_internal("ps", "state_array")[:, 0]
    soil = UnsaturatedReservoir(parameters={"Smax": 80.0, "Ce": 1.0, "m": 0.01, "beta": 2.0}, states={"S0": 20.0},
                                approximation=approximation, id="ur")
    fast = PowerReservoir(parameters={"k": 0.05, "alpha": 1.5}, states={"S0": 5.0}, approximation=approximation,
                          id="fr")
    slow = PowerReservoir(parameters={"k": 0.01, "alpha": 1.0}, states={"S0": 30.0}, approximation=approximation,
                          id="sr")
    hbv = Unit(layers=[[soil], [Splitter(weight=[[0.7], [0.3]], direction=[[0], [0]], id="spl")], [fast, slow],
                       [Junction(direction=[[0, 0]], id="jun")]], id="hbv")
    hbv.set_input([rain, pet])
    hbv.set_timestep(1.0)
    out["hbv_q"] = hbv.get_output()[0]
    for store in ("ur", "fr", "sr"):  # (the unit holds copies of its elements)
        out[f"hbv_{store}"] = hbv.get_internal(store, "state_array")[:, 0]
    return out


def scikit_gstat_variograms():
    """scikit-gstat's geostatistics on a seeded random field: experimental
    variograms with its compiled estimators (Matheron, Cressie-Hawkins,
    Genton in object mode), fitted compiled models (spherical, exponential,
    Gaussian, cubic, stable, Matern), and ordinary kriging with them."""
    import skgstat as skg
    rng = np.random.default_rng(61)
    coords = rng.uniform(0, 100, (150, 2))
    values = np.sin(coords[:, 0] / 15) + np.cos(coords[:, 1] / 20) + rng.normal(0, 0.2, 150)
    out = {}
    for est in ("matheron", "cressie", "genton", "dowd"):
        v = skg.Variogram(coords, values, estimator=est, n_lags=12, model="spherical")
        out[f"exp_{est}"] = v.experimental
    grid = np.column_stack([np.linspace(5, 95, 30), np.linspace(90, 10, 30)])
    for model in ("spherical", "exponential", "gaussian", "cubic", "stable", "matern"):
        v = skg.Variogram(coords, values, n_lags=12, model=model)
        out[f"params_{model}"] = np.asarray(v.parameters)
        out[f"fitted_{model}"] = v.fitted_model(np.linspace(0, 80, 40))
        if model in ("spherical", "exponential", "gaussian"):
            out[f"krige_{model}"] = skg.OrdinaryKriging(v, min_points=5, max_points=20).transform(grid[:, 0],
                                                                                                   grid[:, 1])
    return out


def tcpypi_potential_intensity():
    """tcpyPI's potential intensity (Bister and Emanuel 2002) of seeded
    tropical soundings: reversible and pseudo-adiabatic ascent, with and
    without dissipative heating, both outflow sources, its compiled CAPE
    and the efficiency/disequilibrium decomposition."""
    import tcpyPI
    rng = np.random.default_rng(53)
    p = np.linspace(1000.0, 50.0, 40)
    rows, capes = [], []
    for k in range(24):
        sst = 26.0 + 4.0 * rng.random()
        msl = 1008.0 + 6.0 * rng.random()
        z = 7.5 * np.log(1000.0 / p)  # km, a scale height's
        tc = np.where(z < 16.0, sst - 1.5 - 6.3 * z + rng.normal(0, 0.4, p.size), -75.0 + 2.0 * (z - 16.0))
        r = np.maximum(18.0 * np.exp(-z / 2.3) * (0.7 + 0.3 * rng.random()), 0.0)
        for ascent, diss, source in ((0, 1, "cape_star"), (1, 1, "cape_star"), (0, 0, "cape_env"), (1, 0, "cape_env")):
            rows.append(tcpyPI.pi(sst, msl, p, tc, r, ascent_flag=ascent, diss_flag=diss, outflow_source=source))
        t_k, r_kg = tc + 273.15, r / 1000.0
        capes.append(tcpyPI.cape(t_k[0], r_kg[0], p[0], t_k, r_kg, p, ascent_flag=k % 2))
    rows = np.array(rows, dtype=np.float64)
    vmax, t0 = rows[:, 0], rows[:, 3]
    sstk = np.repeat(26.0, len(rows)) + 273.15
    return {"pi": rows, "cape": np.array(capes, dtype=np.float64),
            "efficiency": np.array([tcpyPI.pi_efficiency(s, t) for s, t in zip(sstk, t0)]),
            "diseq": np.array([tcpyPI.pi_diseq_resid(v, s, t) for v, s, t in zip(vmax, sstk, t0)]),
            "decompose": np.array([tcpyPI.decompose_pi(v, s, t) for v, s, t in zip(vmax, sstk, t0)])}


def laser_core_sampling():
    """laser-core's agent-based building blocks: its distributions (closures
    drawing from Numba's generator, passed to compiled samplers as
    first-class functions, filled in a prange), Kaplan-Meier years and days
    of death, and its sorted queue's compiled sifts (explicit signatures per
    dtype), on one thread and a fixed seed."""
    import numba
    import laser.core.distributions as dists
    from laser.core import SortedQueue
    from laser.core.demographics import KaplanMeierEstimator
    from laser.core.random import seed
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        out = {}
        floats = {"exponential": dists.exponential(3.0), "logistic": dists.logistic(1.0, 0.5),
                  "lognormal": dists.lognormal(0.5, 0.4), "normal": dists.normal(10.0, 2.0),
                  "uniform": dists.uniform(-2.0, 3.0), "weibull": dists.weibull(1.5, 2.0),
                  "constant_float": dists.constant_float(4.25), "gamma": dists.gamma(2.5, 1.5),
                  "gamma_below_1": dists.gamma(0.4, 3.0), "beta": dists.beta(2.0, 5.0)}
        for k, (name, fn) in enumerate(floats.items()):
            seed(20240917 + k)
            out[name] = dists.sample_floats(fn, np.zeros(2000, dtype=np.float32))
        ints = {"binomial": dists.binomial(20, 0.3), "poisson": dists.poisson(6.5), "constant_int": dists.constant_int(7),
                "negative_binomial": dists.negative_binomial(4, 0.3)}
        for k, (name, fn) in enumerate(ints.items()):
            seed(20241017 + k)
            out[name] = dists.sample_ints(fn, np.zeros(2000, dtype=np.int32))
        rng = np.random.default_rng(5)
        deaths = np.cumsum(np.concatenate([[0], rng.integers(100, 2000, 101)])).astype(np.uint32)
        km = KaplanMeierEstimator(deaths)
        ages = rng.integers(0, 90, 3000).astype(np.int32)
        seed(7)
        out["year_of_death"] = km.predict_year_of_death(ages, max_year=100)
        seed(8)
        out["age_at_death"] = km.predict_age_at_death(ages * 365 + rng.integers(0, 365, ages.size), max_year=100)
        for dtype in (np.float32, np.float64, np.int32, np.uint16):
            values = (rng.random(500) * 1000).astype(dtype)
            queue = SortedQueue(500, values)
            for i in rng.permutation(500)[:400]:
                queue.push(i)
            popped = [queue.popiv() for _ in range(150)]
            out[f"queue_{np.dtype(dtype).name}"] = np.array([(int(i), float(v)) for i, v in popped])
    finally:
        numba.set_num_threads(threads)
    return out


def wildboottest_cluster():
    """wildboottest's wild cluster bootstrap (WCR11/WCU11: its compiled
    bootstrap denominators in a prange, one per call) of an OLS slope
    with seeded data: Rademacher, Webb, normal and Mammen weights, the null imposed
    or not, and its statsmodels front end for one regressor."""
    import pandas as pd
    import statsmodels.api as sm
    from wildboottest.wildboottest import WildboottestCL, wildboottest
    rng = np.random.default_rng(71)
    n, k, g = 600, 3, 14
    x = rng.normal(size=(n, k))
    cluster = rng.integers(0, g, n)
    y = 0.5 + x @ np.array([0.02, 0.6, -0.3]) + rng.normal(size=n) + rng.normal(size=g)[cluster]
    X = np.column_stack([np.ones(n), x])
    out = {}
    for weights, impose in (("rademacher", True), ("rademacher", False), ("webb", True), ("norm", False),
                            ("mammen", True)):
        if True:
            wb = WildboottestCL(X=X, Y=y, cluster=cluster, R=np.array([0, 1, 0, 0]), B=499, seed=12)
            wb.get_scores(bootstrap_type="11", impose_null=impose)
            wb.get_weights(weights_type=weights)
            wb.get_numer()
            wb.get_denom()
            wb.get_tboot()
            wb.get_vcov()
            wb.get_tstat()
            wb.get_pvalue(pval_type="two-tailed")
            key = f"{weights}_{'null' if impose else 'free'}"
            out[key + "_tboot"] = wb.t_boot
            out[key + "_pvalue"] = np.array([wb.pvalue, float(np.asarray(wb.t_stat).ravel()[0])])
    frame = pd.DataFrame(X[:, 1:], columns=["a", "b", "c"])
    model = sm.OLS(y, sm.add_constant(frame))
    table = wildboottest(model, B=399, cluster=cluster, param="b", seed=5, show=False)
    out["statsmodels"] = table.to_numpy(dtype=np.float64)
    return out


def _libfmp_signal(seconds, fs, seed):
    rng = np.random.default_rng(seed)
    t = np.arange(int(seconds * fs)) / fs
    beats = (np.sin(2 * np.pi * 2.0 * t) > 0.995).astype(float)
    x = sum(np.sin(2 * np.pi * f * t) * (0.5 + 0.5 * np.sin(2 * np.pi * m * t))
            for f, m in ((220.0, 0.5), (330.0, 0.75), (440.0, 0.25)))
    return x + 0.3 * np.convolve(beats, np.hanning(64), "same") + 0.05 * rng.normal(size=t.size)


def libfmp_fourier_features():
    """libfmp's (Fundamentals of Music Processing) compiled Fourier code
    and audio features on a seeded signal: DFT matrices, its radix-2 FFT and
    inverse, its STFT and inverse, log-frequency spectrogram pooling to
    pitches, chroma, log compression and feature normalisation (every norm)."""
    import libfmp.c2
    import libfmp.c3
    rng = np.random.default_rng(17)
    x = rng.normal(size=256)
    out = {"dft_matrix": libfmp.c2.generate_matrix_dft(16, 16), "dft_inv": libfmp.c2.generate_matrix_dft_inv(16, 16),
           "dft": libfmp.c2.dft(x[:64].astype(np.complex128)), "fft": libfmp.c2.fft(x.astype(np.complex128)),
           "ifft": libfmp.c2.ifft(libfmp.c2.fft(x.astype(np.complex128))),
           "idft": libfmp.c2.idft(libfmp.c2.dft(x[:32].astype(np.complex128)))}
    fs, n, h = 4000, 512, 256
    sig = _libfmp_signal(3.0, fs, 18)
    w = np.hanning(n)
    spec = libfmp.c2.stft(sig, w, H=h, only_positive_frequencies=True)
    out["stft"] = spec
    full = libfmp.c2.stft(sig, w, H=h)
    out["istft"] = libfmp.c2.istft(full, w, h, sig.size)
    power = np.abs(spec) ** 2
    log_freq, pitches = libfmp.c3.compute_spec_log_freq(power, fs, n)
    out["log_freq"], out["pitches"] = log_freq, pitches
    chroma = libfmp.c3.compute_chromagram(log_freq)
    out["chroma"] = chroma
    out["compressed"] = libfmp.c3.log_compression(chroma, gamma=10.0)
    for norm in ("1", "2", "max", "z"):
        out["norm_" + norm] = libfmp.c3.normalize_feature_sequence(chroma, norm=norm)
    return out


def libfmp_dtw_structure():
    """libfmp's compiled dynamic programming and structure analysis on
    seeded chroma sequences: DTW accumulated costs and optimal warping paths
    (classic and step sizes 2-1), self-similarity path smoothing along
    several tempi, checkerboard novelty, and the audio thumbnail's
    accumulated score matrix and optimal path family."""
    import libfmp.c3
    import libfmp.c4
    rng = np.random.default_rng(23)
    x = np.abs(rng.normal(size=(12, 60)))
    y = np.repeat(x, 2, axis=1)[:, ::3] + 0.1 * np.abs(rng.normal(size=(12, 40)))
    c = libfmp.c3.compute_cost_matrix(x, y, metric="euclidean")
    d = libfmp.c3.compute_accumulated_cost_matrix(c)
    d21 = libfmp.c3.compute_accumulated_cost_matrix_21(c)
    out = {"cost": c, "acc": d, "path": libfmp.c3.compute_optimal_warping_path(d),
           "acc21": d21, "path21": libfmp.c3.compute_optimal_warping_path_21(d21)}
    feats = np.abs(rng.normal(size=(12, 80)))
    feats[:, 40:] = feats[:, :40] + 0.05 * rng.normal(size=(12, 40))
    feats = libfmp.c3.normalize_feature_sequence(feats, norm="2")
    s = libfmp.c4.compute_sm_dot(feats, feats)
    out["ssm"] = s
    out["diag"] = libfmp.c4.filter_diag_sm(s, 6)
    tempi = libfmp.c4.compute_tempo_rel_set(0.66, 1.5, 5)
    out["mult"] = libfmp.c4.filter_diag_mult_sm(s, 6, tempi, direction=0)
    out["mult_back"] = libfmp.c4.filter_diag_mult_sm(s, 6, tempi, direction=1)
    out["novelty"] = libfmp.c4.compute_novelty_ssm(s, L=8, var=0.5)
    seg = s[:, 10:30] - 0.2
    acc, score = libfmp.c4.compute_accumulated_score_matrix(seg)
    out["score_matrix"], out["score"] = acc, np.array([score])
    family = libfmp.c4.compute_optimal_path_family(acc)
    out["family"] = np.concatenate([np.asarray(p) for p in family])
    return out


def libfmp_tempo_hmm():
    """libfmp's compiled tempo and chord-recognition code: local averages of
    a novelty curve, Fourier and autocorrelation tempograms, predominant
    local pulse, and Viterbi decoding (plain, log and log-likelihood) of a
    seeded hidden Markov model."""
    import libfmp.c5
    import libfmp.c6
    rng = np.random.default_rng(29)
    fs = 100
    t = np.arange(1200) / fs
    nov = np.maximum(np.sin(2 * np.pi * 2.1 * t), 0) ** 8 + 0.05 * np.abs(rng.normal(size=t.size))
    out = {"local_average": libfmp.c6.compute_local_average(nov, 10)}
    theta = np.arange(40, 241, 4)
    x, t_coef, f_coef = libfmp.c6.compute_tempogram_fourier(nov, fs, N=300, H=10, Theta=theta)
    out["tempogram"] = x
    out["plp"] = libfmp.c6.compute_plp(x, fs, nov.size, 300, 10, theta)[0]
    autocorr = libfmp.c6.compute_tempogram_autocorr(nov, fs, N=300, H=10, norm_sum=False, Theta=theta)
    out["autocorr"], out["autocorr_cut"] = autocorr[0], autocorr[3]
    out["autocorr_local"] = libfmp.c6.compute_autocorrelation_local(nov, fs, 300, 10, norm_sum=True)[0]
    states, symbols = 6, 8
    trans = rng.random((states, states)) + 4 * np.eye(states)
    trans /= trans.sum(axis=1, keepdims=True)
    init = np.full(states, 1.0 / states)
    emit = rng.random((states, symbols))
    emit /= emit.sum(axis=1, keepdims=True)
    obs = rng.integers(0, symbols, 150)
    out["viterbi"] = np.array(libfmp.c5.viterbi(trans, init, emit, obs)[0])
    out["viterbi_log"] = np.array(libfmp.c5.viterbi_log(trans, init, emit, obs)[0])
    out["viterbi_ll"] = np.array(libfmp.c5.viterbi_log_likelihood(trans, init, emit[:, obs])[0])
    return out


def synctoolbox_mrmsdtw():
    """synctoolbox's music synchronisation: its compiled DTW (accumulated
    cost and step-index matrices, the warping path, with classic and
    weighted step sizes) on a seeded cost matrix, memory-restricted
    multi-scale DTW (MrMsDTW) of two seeded chroma sequences, and its
    compiled peak picking behind pitch onset features of a seeded signal."""
    from synctoolbox.dtw.core import compute_warping_path
    from synctoolbox.dtw.mrmsdtw import sync_via_mrmsdtw
    from synctoolbox.feature.dlnco import pitch_onset_features_to_DLNCO
    from synctoolbox.feature.pitch_onset import audio_to_pitch_onset_features
    rng = np.random.default_rng(37)
    c = rng.random((70, 90))
    out = {}
    d, e, wp = compute_warping_path(c)
    out["acc"], out["steps"], out["path"] = d, e, wp
    d, e, wp = compute_warping_path(c, step_sizes=np.array([[1, 1], [2, 1], [1, 2]], np.int64),
                                    step_weights=np.array([1.0, 2.0, 2.0]))
    out["acc_21"], out["steps_21"], out["path_21"] = d, e, wp
    base = np.abs(rng.normal(size=(12, 400)))
    base = np.repeat(base[:, ::4], 4, axis=1)
    stretched = np.repeat(base, 3, axis=1)[:, ::2] + 0.05 * np.abs(rng.normal(size=(12, 600)))
    out["mrmsdtw"] = sync_via_mrmsdtw(base, stretched, input_feature_rate=50, verbose=False)
    fs = 22050
    t = np.arange(int(1.5 * fs)) / fs
    audio = sum(np.sin(2 * np.pi * f * t) * (t > s) * np.exp(-3 * np.maximum(t - s, 0))
                for f, s in ((261.6, 0.1), (329.6, 0.5), (392.0, 0.9), (523.3, 1.2)))
    audio = audio + 0.01 * rng.normal(size=t.size)
    peaks = audio_to_pitch_onset_features(audio, Fs=fs, verbose=False)
    out["onset_pitches"] = np.array(sorted(peaks))
    out["onsets"] = np.concatenate([np.asarray(peaks[p], dtype=np.float64).ravel() for p in sorted(peaks)])
    out["dlnco"] = pitch_onset_features_to_DLNCO(peaks, feature_rate=50, feature_sequence_length=80,
                                                 visualize=False)
    return out


def _africanus_observation(seed, nsrc=6, nrow=120, nchan=8):
    rng = np.random.default_rng(seed)
    lm = rng.uniform(-0.02, 0.02, (nsrc, 2))
    uvw = rng.normal(0, 800.0, (nrow, 3))
    freq = np.linspace(0.9e9, 1.7e9, nchan)
    return rng, lm, uvw, freq


def _africanus_terms(rng, lm, uvw, freq):
    from africanus.model.shape import gaussian
    from africanus.model.spectral import spectral_model
    from africanus.rime import phase_delay
    nsrc = lm.shape[0]
    shape = np.column_stack([rng.uniform(1e-5, 1e-4, nsrc), rng.uniform(1e-5, 1e-4, nsrc), rng.uniform(0, np.pi, nsrc)])
    stokes = rng.uniform(0.5, 2.0, (nsrc, 4))
    spi = rng.normal(-0.7, 0.2, (nsrc, 3, 4))
    ref = np.full(nsrc, 1.3e9)
    return {"phase": phase_delay(lm, uvw, freq), "phase_casa": phase_delay(lm, uvw, freq, convention="casa"),
            "gaussian": gaussian(uvw, freq, shape), "spectral_std": spectral_model(stokes, spi, ref, freq, base=0),
            "spectral_log": spectral_model(stokes, spi, ref, freq, base=1),
            "spectral_bases": spectral_model(stokes, spi, ref, freq, base=[0, 1, 2]),
            "spectral_bases_str": spectral_model(stokes, spi, ref, freq, base=["log10", "std"])}


def codex_africanus_terms():
    """codex-africanus' radio interferometry terms (each a Numba overload of
    an njit stub, specialised on its arguments' types): phase delays in both
    conventions, feed rotations (linear and circular), Gaussian source
    shapes and spectral models (ordinary and logarithmic, and one base per
    polarisation from a list of numbers or of names)."""
    from africanus.rime import feed_rotation
    rng, lm, uvw, freq = _africanus_observation(61)
    out = _africanus_terms(rng, lm, uvw, freq)
    pa = rng.uniform(-np.pi, np.pi, (10, 3))
    out["feed_linear"] = feed_rotation(pa, feed_type="linear")
    out["feed_circular"] = feed_rotation(pa, feed_type="circular")
    return out


def codex_africanus_predict():
    """codex-africanus' RIME visibility prediction of seeded sources'
    coherencies, its kernel generated for which terms are given: the
    coherencies alone, and with direction-dependent Jones terms,
    direction-independent gains and base visibilities."""
    from africanus.rime import predict_vis
    rng, lm, uvw, freq = _africanus_observation(62)
    terms = _africanus_terms(rng, lm, uvw, freq)
    nsrc, nrow, nchan = lm.shape[0], uvw.shape[0], freq.size
    ntime, nant = 6, 5
    time_index = np.repeat(np.arange(ntime), nrow // ntime)
    pairs = np.array([(a, b) for a in range(nant) for b in range(a + 1, nant)])
    ant = pairs[rng.integers(0, len(pairs), nrow)]
    a1, a2 = ant[:, 0].copy(), ant[:, 1].copy()
    coh = (terms["phase"][:, :, :, None] * terms["spectral_std"][:, None, :, :].astype(np.complex128)
           * terms["gaussian"][:, :, :, None]).reshape(nsrc, nrow, nchan, 2, 2)
    dde = (rng.normal(1, 0.1, (nsrc, ntime, nant, nchan, 2, 2)) + 1j * rng.normal(0, 0.1, (nsrc, ntime, nant, nchan, 2, 2)))
    die = (rng.normal(1, 0.1, (ntime, nant, nchan, 2, 2)) + 1j * rng.normal(0, 0.1, (ntime, nant, nchan, 2, 2)))
    base = rng.normal(size=(nrow, nchan, 2, 2)) + 0j
    return {"coherencies": predict_vis(time_index, a1, a2, source_coh=coh),
            "all": predict_vis(time_index, a1, a2, dde1_jones=dde, source_coh=coh, dde2_jones=dde, die1_jones=die,
                               base_vis=base, die2_jones=die)}


def codex_africanus_coordinates_dft():
    """codex-africanus' coordinate transforms (RA/Dec to direction cosines
    and back, about a phase centre) and its direct Fourier transform of a
    seeded sky model to visibilities and back to an image."""
    from africanus.coordinates import lm_to_radec, radec_to_lm, radec_to_lmn
    from africanus.dft import im_to_vis, vis_to_im
    rng, lm, uvw, freq = _africanus_observation(63)
    radec = np.column_stack([rng.uniform(0, 2 * np.pi, 20), rng.uniform(-1.2, 1.2, 20)])
    centre = np.array([1.0, -0.4])
    lm2 = radec_to_lm(radec, centre)
    out = {"radec_to_lm": lm2, "radec_to_lmn": radec_to_lmn(radec, centre), "lm_to_radec": lm_to_radec(lm2, centre)}
    image = rng.uniform(0, 1, (lm.shape[0], freq.size, 2))
    vis = im_to_vis(image, uvw, lm, freq)
    out["im_to_vis"] = vis
    out["vis_to_im"] = vis_to_im(vis, uvw, lm, freq, np.zeros(vis.shape, dtype=np.bool_))
    return out


def openpmd_viewer_deposition():
    """openPMD-viewer's compiled helpers: cloud-in-cell histograms of
    seeded macroparticles in one and two dimensions (its particle plots'
    deposition), the 3D Cartesian field reconstructed from a seeded
    quasi-cylindrical field's azimuthal modes in both of its memory orders
    (an Enum argument compared with `is`), and the particle tracker's merge
    of sorted particle ids (with and without keeping absent particles)."""
    from openpmd_viewer.openpmd_timeseries.data_order import RZorder
    from openpmd_viewer.openpmd_timeseries.particle_tracker import extract_indices
    from openpmd_viewer.openpmd_timeseries.utilities import (construct_3d_from_circ, histogram_cic_1d,
                                                             histogram_cic_2d)
    rng = np.random.default_rng(47)
    z, x = rng.normal(0, 1.0, 20000), rng.normal(0, 0.5, 20000)
    w = rng.uniform(0.5, 1.5, z.size)
    out = {"cic_1d": histogram_cic_1d(z, w, 64, -3.0, 3.0),
           "cic_2d": histogram_cic_2d(z, x, w, 48, -3.0, 3.0, 32, -2.0, 2.0)}
    nmodes, nr, nz, nx, ny = 2, 24, 20, 16, 14
    fcirc = rng.normal(size=(2 * nmodes - 1, nr, nz))
    rmax = 3.0
    xs, ys = np.linspace(-rmax, rmax, nx), np.linspace(-rmax, rmax, ny)
    for order, field in ((RZorder.mrz, fcirc), (RZorder.mzr, np.ascontiguousarray(fcirc.transpose(0, 2, 1)))):
        f3d = np.zeros((nx, ny, nz))
        construct_3d_from_circ(f3d, field, xs, ys, np.arange(nmodes), nx, ny, nz, nr, nmodes, nr / rmax, rmax, order)
        out[f"circ_{order.name}"] = f3d
    pid = np.sort(rng.choice(5000, 1200, replace=False))
    selected = np.sort(rng.choice(5000, 300, replace=False))
    for keep in (True, False):
        indices = np.zeros(selected.size, dtype=np.int64)
        n = extract_indices(np.arange(pid.size), indices, pid, selected, keep)
        out[f"tracked_{keep}"] = np.append(indices, n)
    return out


def wake_t_plasma_stages():
    """Wake-T's plasma wakefield acceleration: seeded Gaussian driver and
    witness electron bunches tracked through a short plasma stage in its quasi-static 2D (r-z)
    wakefield model (compiled plasma particle pushes, deposition with cubic
    and linear shapes, field solvers and gathering) by its compiled bunch
    pushers, Boris and Runge-Kutta 4; the bunches' phase space afterwards."""
    from wake_t import PlasmaStage
    from wake_t.utilities.bunch_generation import get_gaussian_bunch_from_size
    out = {}
    for name, model, pusher, params in (
            ("boris", "quasistatic_2d", "boris", dict(xi_max=0.0, xi_min=-80e-6, r_max=60e-6, n_xi=80, n_r=40,
                                                       dz_fields=250e-6, ppc=2)),
            ("rk4", "quasistatic_2d", "rk4", dict(xi_max=0.0, xi_min=-80e-6, r_max=60e-6, n_xi=60, n_r=30,
                                                   dz_fields=250e-6, ppc=4, p_shape="linear"))):
        np.random.seed(31)
        driver = get_gaussian_bunch_from_size(2e-6, 2e-6, 4e-6, 4e-6, 2000.0, 0.01, 8e-15, -20e-6, 400e-12, 600,
                                              name="driver")
        witness = get_gaussian_bunch_from_size(1e-6, 1e-6, 3e-6, 3e-6, 200.0, 0.01, 5e-15, -60e-6, 20e-12, 400,
                                               name="witness")
        stage = PlasmaStage(2e-3, 1e23, wakefield_model=model, bunch_pusher=pusher, n_out=1, **params)
        stage.track([driver, witness])
        for bunch in (driver, witness):
            out[f"{name}_{bunch.name}"] = np.stack([bunch.x, bunch.y, bunch.xi, bunch.px, bunch.py, bunch.pz])
    return out



def pynamical_maps():
    """pynamical's iterated maps (logistic, cubic and Singer), compiled,
    and its simulator: a closure compiled per model that takes its
    parameters as the defaults of its arguments and iterates the model over
    a range of growth rates, discarding the first generations; its cobweb
    and function points and its phase-diagram points over the results."""
    import pynamical
    out = {}
    for name, model in (("logistic", pynamical.logistic_map), ("cubic", pynamical.cubic_map),
                        ("singer", pynamical.singer_map)):
        top = {"logistic": 4.0, "cubic": 3.0, "singer": 1.07}[name]
        pops = pynamical.simulate(model=model, num_gens=120, rate_min=top * 0.6, rate_max=top, num_rates=800,
                                  num_discard=200, initial_pop=0.3)
        out[f"{name}_pops"] = pops.to_numpy()
        out[f"{name}_rates"] = pops.columns.to_numpy(dtype=np.float64)
        x, y = pynamical.get_cobweb_points(model, top * 0.9, 0.4, 60)
        out[f"{name}_cobweb"] = np.array([x, y])
        out[f"{name}_function"] = np.array(pynamical.get_function_points(model, top * 0.9, 300, 0.0, 1.0))
        out[f"{name}_scalar"] = np.array([model(0.1 * k, top * 0.95) for k in range(1, 10)])
    small = pynamical.simulate(num_gens=40, rate_min=3.6, rate_max=4.0, num_rates=5, num_discard=50)
    out["phase_points_2d"] = pynamical.get_phase_diagram_points(small, discard_gens=5).to_numpy(dtype=np.float64)
    out["phase_points_3d"] = pynamical.get_phase_diagram_points(small, discard_gens=5,
                                                                dimensions=3).to_numpy(dtype=np.float64)
    return out


def hydrostats_ensembles():
    """hydrostats' ensemble forecast verification: the continuous ranked
    probability score of seeded ensembles by its compiled prange kernel
    (each adjustment: none, an ensemble size, 1 and below 1; and its
    Python twin), and the area under the ROC curve by its compiled ranking
    of tied forecasts."""
    import hydrostats.ens_metrics as em
    rng = np.random.default_rng(83)
    obs = rng.gamma(2.0, 40.0, 365)
    ens = obs[:, None] * rng.lognormal(0.0, 0.3, (365, 52)) + rng.normal(0.0, 5.0, (365, 52))
    out = {}
    for key, adj in (("plain", np.nan), ("adjusted", 100.0), ("adjusted_1", 1.0), ("adjusted_below_1", 0.5)):
        res = em.ens_crps(obs, ens, adj=adj)
        out[f"crps_{key}"] = np.append(res["crps"], res["crpsMean"])
    python = em.ens_crps(obs, ens, llvm=False)
    out["crps_python"] = np.append(python["crps"], python["crpsMean"])
    rounded = np.round(ens, -1)  # ties among the forecasts
    for threshold in (60.0, 100.0):
        out[f"auroc_{threshold:g}"] = np.asarray(em.auroc(fcst_ens=rounded, obs=obs, threshold=threshold))
    return out


def _vectorizers_corpus(seed, docs, length):
    """Seeded token sequences (Zipf-like word choices) and their texts."""
    rng = np.random.default_rng(seed)
    words = np.array(["alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta", "iota", "kappa",
                      "lambda", "mu", "nu", "xi", "omicron", "pi", "rho", "sigma", "tau", "upsilon"])
    weights = 1.0 / np.arange(1, words.size + 1)
    sequences = [list(words[rng.choice(words.size, rng.integers(length // 2, length), p=weights / weights.sum())])
                 for _ in range(docs)]
    return sequences, [" ".join(seq) for seq in sequences]


def vectorizers_tokens():
    """vectorizers' compiled token counting: a token co-occurrence matrix
    in windows over seeded sequences (its window kernels, counted into
    COO arrays), n-gram counts, and its LZ-compression and
    byte-pair-encoding vectorizers of the texts (compiled dictionaries of
    byte sequences, merges counted in compiled loops)."""
    import vectorizers
    sequences, texts = _vectorizers_corpus(91, 60, 40)
    out = {}
    out["cooccurrence"] = vectorizers.TokenCooccurrenceVectorizer(window_radii=3).fit_transform(sequences).toarray()
    out["ngrams"] = vectorizers.NgramVectorizer(ngram_size=2).fit_transform(sequences).toarray()
    lz = vectorizers.LZCompressionVectorizer(max_dict_size=4096, random_state=0)  # (its hashes' seeds)
    out["lz"] = lz.fit_transform(texts).toarray()
    out["bpe"] = vectorizers.BytePairEncodingVectorizer(max_vocab_size=300).fit_transform(texts).toarray()
    return out


def vectorizers_distributions():
    """vectorizers' compiled distances between distributions (Hellinger,
    total variation, Jensen-Shannon, symmetric KL, 1-d and circular
    Kantorovich, and their sparse forms over index/value pairs) of seeded
    histograms, and its histogram vectorizer of seeded samples."""
    import vectorizers
    from vectorizers import distances as d
    rng = np.random.default_rng(37)
    hists = rng.gamma(2.0, 1.0, (40, 30))
    hists /= hists.sum(axis=1, keepdims=True)
    out = {}
    for name in ("hellinger", "total_variation", "jensen_shannon_divergence", "symmetric_kl_divergence",
                 "kantorovich1d", "circular_kantorovich"):
        fn = getattr(d, name)
        out[name] = np.array([[fn(hists[i], hists[j]) for j in range(20)] for i in range(20)])
    out["kantorovich1d_p2"] = np.array([d.kantorovich1d(hists[i], hists[i + 1], 2) for i in range(30)])
    sparse = [np.sort(rng.choice(60, 12, replace=False)) for _ in range(20)]
    values = [rng.gamma(2.0, 1.0, 12) for _ in range(20)]
    values = [v / v.sum() for v in values]
    for name in ("sparse_hellinger", "sparse_total_variation", "sparse_jensen_shannon_divergence",
                 "sparse_symmetric_kl_divergence"):
        fn = getattr(d, name)
        out[name] = np.array([[fn(sparse[i], values[i], sparse[j], values[j]) for j in range(20)]
                              for i in range(20)])
    for name in ("sparse_sum", "sparse_mul", "dense_union"):
        got = [getattr(d, name)(sparse[i], values[i], sparse[i + 1], values[i + 1]) for i in range(19)]
        out[name] = np.concatenate([np.concatenate([np.asarray(a, dtype=np.float64) for a in g]) for g in got])
    samples = [rng.normal(k * 0.1, 1.0, 200) for k in range(25)]
    out["histograms"] = np.asarray(vectorizers.HistogramVectorizer(n_components=16).fit_transform(samples))
    return out


def pyntcloud_voxels():
    """pyntcloud's voxel grids of a seeded point cloud (a noisy sphere and
    plane), at two resolutions, and their feature vectors: per-voxel maxima
    and means of each coordinate by its compiled group-by kernels, with
    binary and density ones."""
    import pandas as pd
    from pyntcloud import PyntCloud
    rng = np.random.default_rng(47)
    sphere = rng.normal(size=(6000, 3))
    sphere /= np.linalg.norm(sphere, axis=1, keepdims=True)
    plane = np.column_stack([rng.uniform(-2, 2, 4000), rng.uniform(-2, 2, 4000), rng.normal(-1.2, 0.02, 4000)])
    points = np.concatenate([sphere + rng.normal(0, 0.01, sphere.shape), plane]).astype(np.float32)
    cloud = PyntCloud(pd.DataFrame(points, columns=["x", "y", "z"]))
    out = {}
    for n in (12, 24):
        grid = cloud.structures[cloud.add_structure("voxelgrid", n_x=n, n_y=n, n_z=n)]
        for mode in ("x_max", "y_max", "z_max", "x_mean", "y_mean", "z_mean", "binary", "density"):
            out[f"{mode}_{n}"] = grid.get_feature_vector(mode=mode)
    return out


def evoc_binary_knn():
    """EVoC's nearest neighbour graph of binary embeddings (uint8 bytes of
    packed bits): its random projection forest and sorted NN-descent under
    the Jaccard distance of bits, counted by popcount intrinsics over words
    an intrinsic loads from the bytes; and its two Jaccard kernels on
    seeded pairs."""
    from evoc.knn_graph import knn_graph
    from evoc.uint8_nndescent import fast_bit_jaccard, fast_bit_jaccard_u64
    rng = np.random.default_rng(97)
    centres = rng.integers(0, 256, (6, 16), dtype=np.uint8)
    flips = rng.random((600, 128)) < 0.08  # each point its centre's bits, 8% of them flipped
    bits = np.unpackbits(centres[rng.integers(0, 6, 600)], axis=1) ^ flips
    data = np.packbits(bits, axis=1)
    indices, distances = knn_graph(data, n_neighbors=10, random_state=42, n_jobs=1)
    pairs = rng.integers(0, 600, (200, 2))
    return {"distances": np.sort(distances, axis=1), "indices_first_column": indices[:, 0].astype(np.int64),
            "jaccard": np.array([fast_bit_jaccard(data[a], data[b]) for a, b in pairs]),
            "jaccard_u64": np.array([fast_bit_jaccard_u64(data[a], data[b]) for a, b in pairs])}



def fast_cindex_bootstrap():
    """fast-cindex's concordance index of seeded survival data (censored
    times, two risk scores): the single index by its compiled binary-tree
    rank counting, its bootstrap and its paired comparison over seeded
    resamples (prange loops)."""
    import fast_cindex
    rng = np.random.default_rng(101)
    risk = rng.standard_normal(400)
    times = np.round(rng.exponential(np.exp(-risk)), 2)  # ties among the times
    observed = (rng.random(400) < 0.7).astype(np.int64)
    scores1, scores2 = risk + rng.normal(0.0, 0.5, 400), np.round(risk + rng.normal(0.0, 1.0, 400), 1)
    one, two = fast_cindex.compare_cindex(times, observed, scores1, scores2, n_bootstraps=300, seed=7)
    return {"cindex": np.array([fast_cindex.cindex(times, scores1, observed), fast_cindex.cindex(times, scores2, observed)]),
            "bootstrap": fast_cindex.bootstrap_cindex(times, scores1, observed, n_bootstraps=300, seed=5),
            "compare_1": one, "compare_2": two}


def lumafit_fits():
    """lumafit's Levenberg-Marquardt fits: a decaying oscillation fitted
    to one noisy curve (finite-difference Jacobian, Marquardt damping;
    Levenberg damping with an analytical Jacobian; weights), and a
    pixel-wise fit of an image's worth of exponential decays (prange)."""
    import lumafit
    from numba import njit

    @njit
    def damped(p, t):
        return p[0] * np.exp(-t / p[1]) * np.cos(p[2] * t) + p[3]

    @njit
    def decay(p, t):
        return p[0] * np.exp(-t / p[1]) + p[2]

    @njit
    def decay_jacobian(p, t):
        jac = np.empty((t.size, 3))
        e = np.exp(-t / p[1])
        jac[:, 0] = e
        jac[:, 1] = p[0] * e * t / p[1] ** 2
        jac[:, 2] = 1.0
        return jac

    rng = np.random.default_rng(103)
    t = np.linspace(0.0, 10.0, 120)
    y = damped(np.array([2.0, 3.0, 1.7, 0.3]), t) + rng.normal(0.0, 0.05, t.size)
    weights = 1.0 / (0.05 + 0.01 * t)
    out = {}
    for key, fit in (("marquardt", lumafit.levenberg_marquardt_core(damped, np.array([1.5, 2.0, 1.6, 0.0]), y,
                                                                     args=(t,))),
                     ("weighted", lumafit.levenberg_marquardt_core(damped, np.array([1.5, 2.0, 1.6, 0.0]), y,
                                                                   weights=weights, args=(t,))),
                     ("levenberg_jacobian", lumafit.levenberg_marquardt_core(
                         decay, np.array([1.0, 1.0, 0.0]), 3.0 * np.exp(-t / 2.5) + 0.5 + rng.normal(0.0, 0.02, t.size),
                         use_marquardt_damping=False, jac_func=decay_jacobian, args=(t,)))):
        p, cov, chi2, iters, converged = fit
        out[key] = np.concatenate([p, cov.ravel(), [chi2, iters, converged]])
    amplitude = rng.uniform(1.0, 3.0, (8, 9))
    tau = rng.uniform(1.0, 4.0, (8, 9))
    cube = amplitude[:, :, None] * np.exp(-t / tau[:, :, None]) + 0.2 + rng.normal(0.0, 0.02, (8, 9, t.size))
    p, cov, chi2, iters, converged = lumafit.levenberg_marquardt_pixelwise(decay, np.array([1.0, 1.0, 0.0]), cube,
                                                                          args_for_each_pixel=(t,))
    out.update(pixel_params=p, pixel_chi2=chi2, pixel_iters=iters.astype(np.int64),
               pixel_converged=converged.astype(np.int64))
    return out


def louvain_numba_partitions():
    """louvain-numba's Louvain community detection of a seeded planted
    partition graph (weighted, CSR): the dendrogram's levels (compiled
    moves of nodes between communities in typed dicts, induced graphs),
    the best partition at two resolutions and its modularity."""
    import louvain_numba
    from scipy import sparse
    rng = np.random.default_rng(107)
    groups = np.repeat(np.arange(6), 25)
    p = np.where(groups[:, None] == groups[None, :], 0.3, 0.02)
    upper = np.triu(rng.random(p.shape) < p, 1)
    weights = np.triu(np.round(rng.uniform(0.5, 2.0, p.shape), 1), 1) * upper
    graph = sparse.csr_matrix(weights + weights.T)
    out = {}
    for resolution in (1.0, 0.5):
        partition, mod = louvain_numba.best_partition(graph, resolution=resolution, return_modularity=True)
        labels = np.array([partition[i] for i in range(len(partition))], dtype=np.int64)
        out[f"best_{resolution:g}"] = labels
        out[f"modularity_{resolution:g}"] = np.array([mod, louvain_numba.modularity(labels, graph, resolution)])
    for level, (partition, mod) in enumerate(louvain_numba.find_partitions(graph, return_modularity=True)):
        out[f"level_{level}"] = np.append([partition[i] for i in range(len(partition))], mod)
    return out


def nbmorph_labels():
    """nbmorph's morphology of a seeded 3-d label image (balls of labels):
    quasi-spherical dilation, erosion, opening, closing and smoothing of
    labels (compiled mode and minimum kernels over boxes and diamonds,
    ping-pong buffers), grey minimum and maximum filters, label edges
    zeroed, labels separated (prange) and each label's Euler
    characteristic."""
    import nbmorph
    rng = np.random.default_rng(109)
    z, y, x = np.mgrid[:24, :28, :32]
    labels = np.zeros((24, 28, 32), np.int32)
    for label, (cz, cy, cx, r) in enumerate(zip(rng.uniform(4, 20, 7), rng.uniform(4, 24, 7),
                                                rng.uniform(4, 28, 7), rng.uniform(3, 7, 7)), start=1):
        labels[(z - cz) ** 2 + (y - cy) ** 2 + (x - cx) ** 2 < r * r] = label
    labels[rng.random(labels.shape) < 0.02] = 0  # pepper
    grey = rng.integers(0, 1000, labels.shape).astype(np.int32)
    return {"dilate": nbmorph.dilate_labels_spherical(labels, radius=3),
            "erode": nbmorph.erode_labels_spherical(labels, radius=2),
            "open": nbmorph.open_labels_spherical(labels, radius=1),
            "close": nbmorph.close_labels_spherical(labels, radius=1),
            "smooth": nbmorph.smooth_labels_spherical(labels, radius=1),
            "mode_box": nbmorph.mode_box(labels), "mode_diamond": nbmorph.mode_diamond(labels),
            "minimum_box": nbmorph.minimum_box(grey), "maximum_diamond": nbmorph.maximum_diamond(grey),
            "edges_box": nbmorph.zero_label_edges_box(labels),
            "edges_diamond": nbmorph.zero_label_edges_diamond(labels),
            "separated": nbmorph.separate_labels_box(labels),
            "euler": nbmorph.euler_characteristic(labels)}


def shapley_numba_games():
    """shapley-numba's values of cooperative games (its example games as
    jitclasses): exact Shapley values by compiled enumeration of
    coalitions, permutation Monte Carlo (plain and antithetic) and
    KernelSHAP estimates from seeds, Owen values for a union structure,
    Harsanyi dividends (all of them, in a typed dict, and one by its naive
    sum), and the Black-Scholes attribution of a price change."""
    from shapley_numba import examples, harsanyi, harsanyi_naive, kernelshap, owen, shapley
    rng = np.random.default_rng(113)
    airport = examples.AirPortGame(np.round(rng.uniform(5.0, 20.0, 8), 1))
    coalition = examples.CoalitionGame(rng.integers(5, 40, 7).astype(np.float64))
    glove = examples.GloveGame(3)
    unions = np.array([[1, 1, 1, 0, 0, 0, 0, 0], [0, 0, 0, 1, 1, 0, 0, 0], [0, 0, 0, 0, 0, 1, 1, 1]], dtype=np.int32)
    dividends = harsanyi.HarsanyiDividends(glove, 6)
    subsets = (rng.random((20, 6)) < 0.5).astype(np.int32)
    option = examples.finance.BlackScholesCallGame(np.array([100.0, 1.0, 0.02, 0.2]),
                                                    np.array([108.0, 0.75, 0.035, 0.26]), 105.0)
    return {"airport": shapley.shapley(airport, 8), "coalition": shapley.shapley(coalition, 7),
            "glove": shapley.shapley(glove, 6), "black_scholes": shapley.shapley(option, 4),
            "perm_mc": shapley.shapley_perm_mc(airport, 8, paths=4000, seed=11, anthithetic=False),
            "perm_mc_antithetic": shapley.shapley_perm_mc(coalition, 7, paths=4000, seed=13),
            "kernelshap": kernelshap.kernelshap(airport, 8, 3000, seed=17),
            "owen": owen.owen(airport, unions),
            "dividends": np.array([dividends(s) for s in subsets]),
            "dividends_naive": np.array([harsanyi_naive.harsanyi_dividends(glove, s) for s in subsets])}


def ndfilters_filters():
    """ndfilters' compiled n-dimensional filters of a seeded image: mean,
    median, trimmed mean and variance over boxes (each boundary mode, a
    mask, one axis of a cube), a convolution whose kernel varies along
    another axis, and a generic filter of a compiled function."""
    import ndfilters
    from numba import njit

    @njit
    def spread(values, args):
        return np.max(values) - np.min(values) + args[0]

    rng = np.random.default_rng(127)
    image = rng.standard_normal((40, 48))
    mask = rng.random(image.shape) > 0.1
    cube = rng.standard_normal((6, 20, 24))
    kernels = rng.random((6, 1, 3, 5))
    out = {f"mean_{mode}": ndfilters.mean_filter(image, size=(3, 5), mode=mode)
           for mode in ("mirror", "nearest", "wrap", "truncate")}
    out.update(median=ndfilters.median_filter(image, size=5, where=mask),
               trimmed_mean=ndfilters.trimmed_mean_filter(image, size=(5, 3), proportion=0.2),
               variance=ndfilters.variance_filter(cube, size=(3, 3), axis=(1, 2)),
               convolve=ndfilters.convolve(cube, kernels, axis=(1, 2)),
               generic=ndfilters.generic_filter(image, spread, size=3, args=(0.5,)))
    return out


def regridding_grids():
    """regridding's resampling between curvilinear grids: multilinear
    interpolation onto a rotated grid (extrapolated and NaN bounds),
    conservative regridding in 1-d and 2-d (its sweep of grid lines
    across a rotated grid, its clipping onto an axis-aligned one), weights
    applied to several arrays, and a Gauss-Seidel fill of missing values."""
    import regridding
    rng = np.random.default_rng(131)
    x, y = np.meshgrid(np.linspace(-1.0, 1.0, 21), np.linspace(-1.0, 1.0, 17), indexing="ij")
    angle = 0.3
    xr, yr = 0.8 * (x * np.cos(angle) - y * np.sin(angle)), 0.8 * (x * np.sin(angle) + y * np.cos(angle))
    points = np.exp(-(x ** 2 + 2 * y ** 2)) + 0.1 * x * y
    cells = rng.random((20, 16))
    out = {"multilinear": regridding.regrid((x, y), (xr, yr), points),
           "multilinear_nan": regridding.regrid((x, y), (1.3 * xr, 1.3 * yr), points, bounds="nan"),
           "conservative_1d": regridding.regrid((np.linspace(-1, 1, 31),), (np.linspace(-0.9, 1.1, 11),),
                                                rng.random(30), method="conservative"),
           "conservative_rotated": regridding.regrid((x, y), (xr[:12, :10], yr[:12, :10]), cells,
                                                     method="conservative"),
           "conservative_aligned": regridding.regrid((x, y), tuple(np.meshgrid(np.linspace(-0.7, 0.9, 9),
                                                                               np.linspace(-0.8, 0.6, 8),
                                                                               indexing="ij")),
                                                     cells, method="conservative")}
    weights = regridding.weights((x, y), (xr, yr))
    out["from_weights"] = np.stack([regridding.regrid_from_weights(*weights, values_input=points * k)
                                    for k in (1.0, -2.0, 0.5)])
    holes = points.copy()
    holes[rng.random(holes.shape) < 0.2] = np.nan
    out["fill"] = regridding.fill(holes, num_iterations=50)
    return out



def numba_extinction_laws():
    """numba-extinction's compiled dust extinction laws over a wavelength
    grid from the far ultraviolet to the infrared (Cardelli-Clayton-Mathis,
    O'Donnell, Fitzpatrick 99 and 07 with their compiled cubic splines,
    Calzetti, Valencic-Clayton-Gordon, Gordon 23), at two R_V each, and a
    seeded spectrum reddened and dereddened by them."""
    import astropy.units as u
    from numba_extinction import numba_extinction as ne
    wave = np.geomspace(1100.0, 29000.0, 400) * u.AA  # (the laws assert 1000 < wave < 33000)
    flux = np.random.default_rng(137).uniform(0.5, 2.0, 400)
    out = {}
    for name, law, ranges in (("ccm89", ne.CCM89, wave), ("od94", ne.OD94, wave), ("fi99", ne.Fi99, wave),
                              ("c00", ne.C00, wave[(wave > 1200 * u.AA) & (wave < 22000 * u.AA)]),
                              ("vcg04", ne.VCG04, wave[wave < 3300 * u.AA]),
                              ("go23", ne.Go23, wave)):
        for r_v in (3.1, 4.05):
            out[f"{name}_{r_v:g}"] = law(ranges, 1.2, r_v)
    out["fm07"] = ne.FM07(wave, 1.2)
    out["reddened"] = ne.redden(out["ccm89_3.1"], flux)
    out["dereddened"] = ne.deredden(out["fi99_3.1"], flux)
    return out


def hampel_filter_outliers():
    """hampel-filter's compiled rolling medians and median absolute
    deviations (serial, and prange) flagging the outliers of a seeded
    signal with spikes, at two window sizes and thresholds."""
    from hampel_filter import hampel_filter as hf
    rng = np.random.default_rng(139)
    signal = np.sin(np.linspace(0.0, 20.0, 3000)) + rng.normal(0.0, 0.1, 3000)
    spikes = rng.choice(3000, 40, replace=False)
    signal[spikes] += rng.choice([-1.0, 1.0], 40) * rng.uniform(0.8, 2.0, 40)
    out = {}
    for window, n in ((5, 3), (12, 2)):
        for parallel in (False, True):
            out[f"outliers_{window}_{n}_{parallel}"] = hf.hampel(signal, window_size=window, n=n,
                                                                  parallel=parallel)[0].astype(np.int64)
    medians, deviations = np.full(3000, np.nan), np.full(3000, np.nan)
    hf.calc_medians_parallel(7, signal, medians)
    hf.calc_medians_std(7, signal, medians, deviations)
    out.update(medians=medians, deviations=deviations)
    return out


def numbasom_maps():
    """numbasom's compiled self-organizing map: a 12x14 lattice trained on
    300 seeded 3-d points (flat and on a torus, np.random seeded in
    compiled code), its U-matrix, the data normalized, projected onto the
    lattice, its activations and each cell's closest data points."""
    import numba
    import numbasom
    rng = np.random.default_rng(141)
    data = np.concatenate([rng.normal(c, 0.15, (100, 3)) for c in (0.0, 1.0, 2.0)])
    seed = numba.njit(lambda s: np.random.seed(s))
    out = {}
    for torus in (False, True):
        seed(5)
        lattice = numbasom.SOM((12, 14), is_torus=torus).train(data, 2000, normalize=True)
        out[f"lattice_{torus}"] = lattice
        out[f"umatrix_{torus}"] = numbasom.u_matrix(lattice)
    lattice = out["lattice_False"]
    out["activations"] = np.asarray(numbasom.lattice_activations(data, lattice, normalize=True, exponent=2))
    projected = numbasom.project_on_lattice(data[:40], lattice, normalize=True)
    out["projected"] = np.array([(k[0], k[1], len(v)) for k, v in sorted(projected.items())])
    closest = numbasom.lattice_closest_vectors(data, lattice, normalized=False)
    out["closest"] = np.array([(k[0], k[1], *np.ravel(v)[:3]) for k, v in sorted(closest.items())], dtype=float)
    return out


def kearsley_numba_superposition():
    """kearsley-numba's compiled Kearsley superposition (quaternion from
    the eigenvectors of its 4x4 matrix, np.linalg.eigh): 50 seeded point
    clouds of 60 points, rotated, shifted and jittered, fitted back; their
    rotations, translations, RMSDs and overlap fractions."""
    from kearsley_numba import fit, fit_transform, transform
    rng = np.random.default_rng(142)
    out = {"rmsd": [], "so": [], "rot": [], "trans": [], "moved": []}
    for _ in range(50):
        u = rng.normal(0.0, 3.0, (60, 3))
        q = rng.normal(size=4)
        q /= np.linalg.norm(q)
        w, x, y, z = q
        r = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                      [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                      [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])
        v = u @ r.T + rng.normal(0.0, 2.0, 3) + rng.normal(0.0, 0.05, (60, 3))
        moved, rmsd, so, rot, trans = fit_transform(u, v, 0.1)
        out["rmsd"].append(rmsd)
        out["so"].append(so)
        out["rot"].append(np.abs(rot))  # (a quaternion and its negative give the same rotation)
        out["trans"].append(trans)
        out["moved"].append(transform(v, rot, trans))
        out["rmsd"].append(fit(u, v)[0])
    return {k: np.array(v) for k, v in out.items()}


def pyakima_splines():
    """pyakima's compiled Akima splines of a seeded noisy curve with a
    corner and a NaN: coefficients for each corner model (non-rounded,
    Akima, makima), evaluated at scalars and sorted, reversed and random
    vectors under each extrapolation rule, by its sorted and per-point
    searches; splines made and called inside a compiled function."""
    import numba
    from pyakima import AkimaSpline, cubic_call, make_akima_coeffs
    rng = np.random.default_rng(143)
    x = np.sort(rng.uniform(0.0, 10.0, 40))
    y = np.sin(x) + np.abs(x - 5.0) + rng.normal(0.0, 0.05, 40)
    y[17] = np.nan
    xs = np.linspace(-1.0, 11.0, 500)
    out = {}
    for model in ("non-rounded", "akima", "makima"):
        for ext in (0, 1, 3, 4):
            for linear in (0, 1):
                s = AkimaSpline(x, y, ext=ext, corner_model=model, linear_vector_calls=linear)
                out[f"{model}_{ext}_{linear}"] = s(xs)
                out[f"{model}_{ext}_{linear}_reversed"] = s(xs[::-1].copy())
                out[f"{model}_{ext}_{linear}_random"] = s(rng.uniform(-1.0, 11.0, (20, 10)))
            out[f"{model}_{ext}_scalars"] = np.array([s(v) for v in (-0.5, 0.0, 3.3, x[5], 10.5)])
    out.update({f"coeffs_{i}": np.asarray(c) for i, c in enumerate(AkimaSpline(x, y).spline)})

    @numba.njit
    def inside(x, y, xs):
        spline = make_akima_coeffs(x, y, 2, 0.0)
        return cubic_call(xs, spline, 0), cubic_call(xs[3], spline, 0)

    out["compiled"], out["compiled_scalar"] = inside(x, np.cos(x), xs)
    return out


def fast_twed_distances():
    """fast-twed's compiled time warp edit distance (its dynamic programme
    and backtracking of the edit path) between seeded 1- and 3-d float32
    series with and without time stamps, at several stiffness and deletion
    penalties and Lp norms, and of pandas frames indexed by time."""
    import pandas as pd
    from twed import twed
    rng = np.random.default_rng(144)
    out = {}
    for i in range(6):
        dim = 1 if i % 2 else 3
        a = np.cumsum(rng.normal(size=(30 + 5 * i, dim)), axis=0).astype("float32")
        b = np.cumsum(rng.normal(size=(25 + 4 * i, dim)), axis=0).astype("float32")
        for p, nu, lam in ((2, 0.001, 1.0), (1, 0.1, 0.5), (3, 1.0, 2.0)):
            out[f"d_{i}_{p}"] = twed(a, b, p=p, nu=nu, lam=lam)
        ta = np.cumsum(rng.uniform(0.5, 1.5, len(a))).astype("float32")
        tb = np.cumsum(rng.uniform(0.5, 1.5, len(b))).astype("float32")
        dist, path = twed(a, b, ts_a=ta, ts_b=tb, path_out=True)
        out[f"stamped_{i}"], out[f"path_{i}"] = dist, np.asarray(path)
    fa = pd.DataFrame(rng.normal(size=(40, 2)), index=np.cumsum(rng.uniform(0.1, 1.0, 40)))
    fb = pd.DataFrame(rng.normal(size=(35, 2)), index=np.cumsum(rng.uniform(0.1, 1.0, 35)))
    out["frames"], out["frames_path"] = twed(fa, fb, nu=0.01, path_out=True)
    out["frames_path"] = np.asarray(out["frames_path"])
    return out


def yennefer_ode():
    """yennefer's compiled Runge-Kutta integrators of compiled right-hand
    sides passed as arguments: fixed-step RK4, adaptive Runge-Kutta-Fehlberg
    4(5) and Dormand-Prince 8(5,3) on a Lorenz system, a damped pendulum
    and a stiffish Van der Pol oscillator, each with seeded parameters."""
    import numba
    from yennefer import DOP853Solver, RK4Solver, RK45Solver

    @numba.njit
    def lorenz(t, y, p):
        return np.array([p[0] * (y[1] - y[0]), y[0] * (p[1] - y[2]) - y[1], y[0] * y[1] - p[2] * y[2]])

    @numba.njit
    def pendulum(t, y, p):
        return np.array([y[1], -p[0] * y[1] - p[1] * np.sin(y[0]) + p[2] * np.cos(t)])

    @numba.njit
    def van_der_pol(t, y, p):
        return np.array([y[1], p[0] * (1.0 - y[0] * y[0]) * y[1] - y[0]])

    rng = np.random.default_rng(145)
    cases = (("lorenz", lorenz, rng.normal(1.0, 0.1, 3), np.array([10.0, 28.0, 8.0 / 3.0]), 2.0),
             ("pendulum", pendulum, np.array([rng.uniform(0.5, 2.0), 0.0]), rng.uniform(0.1, 1.0, 3), 20.0),
             ("vdp", van_der_pol, np.array([2.0, 0.0]), np.array([rng.uniform(2.0, 5.0)]), 15.0))
    out = {}
    for name, f, y0, p, t_max in cases:
        out[f"{name}_rk4_t"], out[f"{name}_rk4_y"] = RK4Solver(f, y0, p).solve(t_max, 1e-3)
        out[f"{name}_rk45_t"], out[f"{name}_rk45_y"] = RK45Solver(f, y0, p).solve(t_max, 1e-2)
        out[f"{name}_dop_t"], out[f"{name}_dop_y"] = DOP853Solver(f, y0, p, rtol=1e-8, atol=1e-10).solve(t_max, 1e-2)
    return out


def threej_symbols():
    """threej's Wigner 3j symbols by the SLATEC recursions (DRC3JJ) in
    Python and, through its numba_extensions entry point's overloads, in
    compiled code: all l1 for 40 seeded (l2, l3, m2, m3) with integer and
    half-integer momenta, into arrays compiled code makes, and the m=0
    family; their sums of squares."""
    import numba
    import threej
    rng = np.random.default_rng(146)

    @numba.njit
    def family(l2, l3, m2, m3):
        out = np.zeros(int(l2 + l3 - max(abs(l2 - l3), abs(m2 + m3)) + 1.1))
        threej.threejj(l2, l3, m2, m3, out)
        return out

    @numba.njit
    def sums(cases):
        total = np.zeros(len(cases))
        for i in range(len(cases)):
            l2, l3, m2, m3 = cases[i]
            total[i] = (family(l2, l3, m2, m3) ** 2).sum()
        return total

    cases = []
    for _ in range(40):
        half = 0.5 * rng.integers(0, 2)
        l2, l3 = rng.integers(1, 30, 2) + half
        m2 = min(rng.integers(-int(l2), int(l2) + 1) + half, l2)
        m3 = max(rng.integers(-int(l3), int(l3) + 1) - half, -l3)
        cases.append((float(l2), float(l3), float(m2), float(m3)))
    out = {}
    for i, (l2, l3, m2, m3) in enumerate(cases):
        out[f"python_{i}"] = np.asarray(threej.threejj(l2, l3, m2, m3)[1])
        out[f"compiled_{i}"] = family(l2, l3, m2, m3)
        out[f"zero_{i}"] = family(float(int(l2)), float(int(l3)), 0.0, 0.0)
    out["sums"] = sums(np.array(cases))
    return out


def ir_eval_numba_metrics():
    """ir-eval-numba's compiled retrieval metrics of 80 seeded queries
    (relevant items and ranked predictions, one of them the first,
    int64 and int32): recall,
    precision, F1, average precision, nDCG and reciprocal rank at cut-offs
    1 to 20, and their means over typed lists."""
    from numba.typed import List
    from ir_eval_numba import metrics
    rng = np.random.default_rng(147)
    actual, predicted = [], []
    for _ in range(80):
        actual.append(rng.choice(200, rng.integers(1, 15), replace=False))
        ranked = rng.choice(200, 30, replace=False)
        ranked[0] = actual[-1][0]  # (an average precision over no relevant item divides by 0)
        predicted.append(ranked)
    out = {}
    for name in ("recall", "precision", "f1_score", "average_precision", "ndcg", "reciprocal_rank"):
        fn = getattr(metrics, name)
        out[name] = np.array([[fn(a, p, k) for k in (1, 3, 5, 10, 20)] for a, p in zip(actual, predicted)])
        out[name + "_32"] = np.array([fn(a.astype(np.int32), p.astype(np.int32), 10)
                                      for a, p in zip(actual, predicted)])
    typed_a, typed_p = List(actual), List(predicted)
    for k in (1, 5, 20):
        out[f"map_{k}"] = metrics.mean_average_precision(typed_a, typed_p, k)
        out[f"mrr_{k}"] = metrics.mean_reciprocal_rank(typed_a, typed_p, k)
    return out


def rapid_roots_solvers():
    """rapid-roots' compiled root finders over 400 seeded problems, each a
    compiled function passed as an argument with a row of parameters:
    Newton-Raphson, Brent (open and bracketed) and bisection, whose prange
    loops it generates as source and compiles; backups taking over where
    the main solver fails; scalar problems."""
    import numba
    from rapid_roots.solvers import RootSolvers

    @numba.njit
    def cubic(x, a, b):
        return x ** 3 + a * x - b

    @numba.njit
    def cubic_prime(x, a, b):
        return 3.0 * x ** 2 + a

    @numba.njit
    def kepler(x, m, e):
        return x - e * np.sin(x) - m

    @numba.njit
    def kepler_prime(x, m, e):
        return 1.0 - e * np.cos(x)

    @numba.njit
    def plain(x):
        return np.exp(x) - 3.0 * x

    @numba.njit
    def plain_prime(x):
        return np.exp(x) - 3.0

    rng = np.random.default_rng(148)
    n = 400
    params = np.column_stack([rng.uniform(0.5, 3.0, n), rng.uniform(-5.0, 5.0, n)])
    orbits = np.column_stack([rng.uniform(0.0, 2 * np.pi, n), rng.uniform(0.0, 0.95, n)])
    out = {}
    for solver in ("newton", "brent", "bisection"):
        kw = dict(func_params=params, main_solver=solver, tol=1e-10)
        if solver == "newton":
            kw.update(x0=rng.uniform(-2.0, 2.0, n), func_prime=cubic_prime)
        else:
            kw.update(a=np.full(n, -4.0), b=np.full(n, 4.0))
        out.update(zip((f"cubic_{solver}_root", f"cubic_{solver}_iter", f"cubic_{solver}_ok"),
                       RootSolvers.get_root(cubic, **kw)))
        kw = dict(func_params=orbits, main_solver=solver, tol=1e-12)
        if solver == "newton":
            kw.update(x0=orbits[:, 0].copy(), func_prime=kepler_prime)
        else:
            kw.update(a=np.zeros(n), b=np.full(n, 2 * np.pi))
        out.update(zip((f"kepler_{solver}_root", f"kepler_{solver}_iter", f"kepler_{solver}_ok"),
                       RootSolvers.get_root(kepler, **kw)))
    out.update(zip(("open_brent_root", "open_brent_iter", "open_brent_ok"),
                   RootSolvers.get_root(cubic, x0=np.full(n, 50.0), func_params=params, main_solver="brent",
                                        a=np.full(n, -4.0), b=np.full(n, 4.0))))
    out["scalar_newton"] = np.array(RootSolvers.get_root(plain, x0=0.2, func_prime=plain_prime,
                                                                 main_solver="newton")[:2], dtype=float)
    out["scalar_brent"] = np.array(RootSolvers.get_root(plain, a=0.0, b=1.0, main_solver="brent")[:2], dtype=float)
    return out


def graspologic_edge_swaps():
    """graspologic's compiled degree-preserving edge swaps (np.random seeded
    in compiled code, two edges drawn by np.random.choice without
    replacement, swaps refused where they would make a loop or a double
    edge) on seeded Erdos-Renyi and stochastic block model graphs as dense
    float and int adjacency matrices; the degrees kept."""
    from graspologic.models import EdgeSwapper
    from graspologic.simulations import er_np, sbm
    np.random.seed(149)  # (graspologic's simulations draw from NumPy's global generator)
    graphs = {"er": er_np(60, 0.1), "sbm": sbm([20, 25, 15], [[0.3, 0.05, 0.02], [0.05, 0.25, 0.04],
                                                               [0.02, 0.04, 0.4]]),
              "er_int": er_np(40, 0.2).astype(np.int64)}
    out = {}
    for name, adjacency in graphs.items():
        swapper = EdgeSwapper(adjacency, seed=150)
        for n_swaps in (1, 50, 400):
            swapped, edges = swapper.swap_edges(n_swaps)
            out[f"{name}_{n_swaps}"], out[f"{name}_{n_swaps}_edges"] = swapped, edges
        out[f"{name}_degrees"] = swapped.sum(axis=0) - adjacency.sum(axis=0)
    return out


def numba_integrators_solvers():
    """numba-integrators' jitclass Runge-Kutta solvers (RK23, RK45) holding a
    compiled right-hand side in a field of first-class function type and
    read-only Butcher tableaux: its reference problems (Riccati, sine,
    exponential) and a seeded Lotka-Volterra system stepped one by one, fast
    forwarded to times and to a compiled condition; the Advanced solvers,
    whose right-hand sides take parameters and return an auxiliary value,
    with jitclass fields of compiled step functions."""
    import numba as nb
    import numba_integrators as ni
    from numba_integrators import reference

    @nb.njit(nb.float64[:](nb.float64, nb.float64[:]))
    def lotka(t, y):
        return np.array((1.1 * y[0] - 0.4 * y[0] * y[1], 0.1 * y[0] * y[1] - 0.4 * y[1]))

    @nb.njit
    def crossed(solver, level):
        return solver.y[0] > level

    @nb.njit(nb.types.Tuple((nb.float64[:], nb.float64))(nb.float64, nb.float64[:], nb.float64[:]))
    def damped(t, y, p):
        return np.array((y[1], -p[0] * y[1] - p[1] * y[0])), y[0] * y[0] + y[1] * y[1]

    rng = np.random.default_rng(151)
    out = {}
    problems = [(p.name, p.differential, p.x0, p.y0, p.x_end)
                for p in (reference.riccati, reference.sine, reference.exponential)]
    problems.append(("lotka", lotka, 0.0, rng.uniform(5.0, 15.0, 2), 30.0))
    for name, fun, t0, y0, t_end in problems:
        for solver in (ni.RK23, ni.RK45):
            tag = f"{name}_{solver.__name__}"
            s = solver(fun, t0, y0, t_end, rtol=1e-8, atol=1e-10)
            ts, ys = [], []
            while ni.step(s):
                ts.append(s.t)
                ys.append(s.y.copy())
            out[tag + "_t"], out[tag + "_y"] = np.array(ts), np.array(ys)
            s = solver(fun, t0, y0, t_end, max_step=0.5, rtol=1e-6, atol=1e-9, first_step=0.01)
            out[tag + "_ff"] = np.array([(ni.ff2t(s, t0 + (t_end - t0) * f), s.t, *s.y)
                                         for f in (0.25, 0.5, 1.0)], dtype=float)
    s = ni.RK45(lotka, 0.0, problems[-1][3], 30.0)
    out["condition"] = np.array([ni.ff2cond(s, crossed, 12.0), s.t, *s.y], dtype=float)
    advanced = ni.Advanced(nb.float64[:], nb.float64, ni.Solvers.ALL)
    for kind, make in advanced.items():
        s = make(damped, 0.0, np.array((1.0, 0.0)), rng.uniform(0.1, 2.0, 2), 20.0, rtol=1e-7, atol=1e-9)
        states = []
        while ni.step(s):
            t, y, energy = s.state
            states.append((t, *y, energy))
        out[f"advanced_{kind.__name__}"] = np.array(states)
    return out

def fast_mine_statistics():
    """fast-mine's compiled MINE statistics (its equipartition of y, clumps
    and superclumps of x and the dynamic programme over x-axis partitions)
    of seeded pairs of 300 points: linear, parabolic, sinusoidal, circular,
    noisy and independent, with both estimators and two alphas; MIC, MAS,
    MEV, MCN, TIC and GMIC and the characteristic matrices."""
    import fast_mine as fm
    rng = np.random.default_rng(152)
    x = rng.uniform(-1.0, 1.0, 300)
    pairs = {"linear": 2.0 * x + rng.normal(0.0, 0.1, 300), "parabola": x * x + rng.normal(0.0, 0.05, 300),
             "sine": np.sin(6.0 * x) + rng.normal(0.0, 0.2, 300), "circle": np.sqrt(1.0 - x * x) * rng.choice([-1, 1], 300),
             "noise": rng.normal(size=300), "ties": np.round(3.0 * x) + rng.normal(0.0, 0.3, 300)}
    out = {}
    for name, y in pairs.items():
        for est in (fm.EST_MIC_APPROX, fm.EST_MIC_E):
            for alpha in (0.6, 0.75):
                score = fm.mine_compute_score(fm.MineProblem(x, y, len(x)), fm.MineParameter(alpha=alpha, est=est))
                tag = f"{name}_{est}_{alpha}"
                out[tag] = np.array([fm.mine_mic(score), fm.mine_mas(score), fm.mine_mev(score),
                                     fm.mine_mcn(score), fm.mine_mcn_general(score), fm.mine_tic(score),
                                     fm.mine_tic(score, norm=False), fm.mine_gmic(score)])
                out[tag + "_matrix"] = np.concatenate([np.ravel(m) for m in score.M])
    return out


def numbatalib_indicators():
    """numbatalib's compiled TA-Lib indicators on a seeded 800-bar random
    walk of prices and volumes: moving averages of each kind, bands,
    oscillators, directional movement, parabolic SAR, the Hilbert transform
    family, regressions, statistics, volume indicators and candlestick
    patterns, with their default periods and others."""
    import inspect
    import numbatalib as ta
    rng = np.random.default_rng(153)
    close = 100.0 * np.exp(np.cumsum(rng.normal(0.0, 0.01, 800)))
    spread = np.abs(rng.normal(0.0, 0.6, (3, 800)))
    bars = {"open": close + rng.normal(0.0, 0.4, 800), "high": close + spread[0] + 0.2,
            "low": close - spread[1] - 0.2, "close": close, "volume": rng.uniform(1e3, 5e3, 800),
            "real": close, "real0": close, "real1": close * (1.0 + rng.normal(0.0, 0.02, 800)),
            "periods": rng.integers(2, 30, 800).astype(float)}
    bars["high"] = np.maximum(bars["high"], bars["open"] + 0.05)
    bars["low"] = np.minimum(bars["low"], bars["open"] - 0.05)
    names = ("SMA", "EMA", "WMA", "DEMA", "TEMA", "TRIMA", "KAMA", "MAMA", "T3", "MAVP", "BBANDS", "ACCBANDS",
             "MACD", "MACDEXT", "MACDFIX", "PPO", "APO", "RSI", "STOCH", "STOCHF", "STOCHRSI", "CCI", "CMO", "MFI",
             "ADX", "ADXR", "DX", "PLUS_DI", "MINUS_DM", "AROON", "AROONOSC", "ULTOSC", "WILLR", "TRIX", "SAR",
             "SAREXT", "HT_DCPERIOD", "HT_DCPHASE", "HT_PHASOR", "HT_SINE", "HT_TRENDLINE", "HT_TRENDMODE",
             "LINEARREG", "LINEARREG_ANGLE", "TSF", "BETA", "CORREL", "STDDEV", "VAR", "AVGDEV", "MINMAXINDEX",
             "ATR", "NATR", "TRANGE", "AD", "ADOSC", "OBV", "IMI", "BOP", "CDLENGULFING", "CDLHAMMER",
             "CDLDOJISTAR", "CDLMORNINGSTAR", "CDL3WHITESOLDIERS", "CDLHIKKAKE", "CDLABANDONEDBABY")
    out = {}
    for name in names:
        fn = getattr(ta, name)
        params = inspect.signature(fn).parameters
        arrays = [bars[p] for p in params if p in bars]
        for tag, kw in (("default", {}), ("short", {"timeperiod": 7} if "timeperiod" in params else None),
                        ("matype", {"matype": 3} if "matype" in params else None)):
            if kw is None:
                continue
            result = fn(*arrays, **kw)
            for i, r in enumerate(result if isinstance(result, tuple) else (result,)):
                out[f"{name}_{tag}_{i}"] = np.asarray(r)
    return out


def robust_fourier_bases():
    """robust-fourier's compiled Vandermonde matrices of Hermite functions
    (their three-term recurrence with logarithmic scaling, which stays
    finite at high orders) and of Chebyshev polynomials of both kinds, at
    seeded points, orders up to 200, scaled and centred; its basis classes;
    a least squares fit of a noisy signal by the compiled Hermite basis."""
    import robust_fourier as rf
    rng = np.random.default_rng(154)
    x = np.sort(rng.uniform(-12.0, 12.0, 400))
    out = {}
    for n in (0, 1, 7, 60, 200):
        for alpha, centre in ((1.0, None), (2.5, 0.7), (0.4, -3.0)):
            out[f"hermite_{n}_{alpha}"] = rf.hermite_function_vander(x, n, alpha=alpha, x_center=centre, jit=True)
            for kind in ("first", "second"):
                out[f"chebyshev_{n}_{alpha}_{kind}"] = rf.chebyshev_polyvander(
                    x / 12.0, n, alpha=alpha, x_center=centre and centre / 12.0, jit=True, kind=kind)
    out["single"] = rf.single_hermite_function(x, 33, alpha=1.5)
    out["basis"] = rf.HermiteFunctionBasis(25, alpha=2.0, x_center=0.3, jit=True)(x)
    out["cheb_basis"] = np.asarray(rf.ChebyshevPolynomialBasis(25, alpha=12.0, jit=True)(x))
    signal = np.exp(-0.1 * x * x) * np.cos(2.0 * x) + rng.normal(0.0, 0.05, 400)
    vander = rf.hermite_function_vander(x, 40, alpha=2.0, jit=True)
    out["fit"] = np.linalg.lstsq(vander, signal, rcond=None)[0]
    return out


def mrg32k3a_numba_streams():
    """mrg32k3a-numba's jitclass MRG32k3a generator (tuples of int64 state,
    3x3 jump matrices raised to powers modulo 2^32 - 209): variates of its
    distributions (normal by its Beasley-Springer-Moro inverse, exponential,
    triangular, Weibull, Pareto, Poisson, binomial, multivariate normal,
    simplex vectors) on streams, substreams and subsubstreams it jumps to,
    advances and resets, called from Python and from a compiled loop."""
    import numba
    from mrg32k3a_numba import MRG32k3a_numba

    @numba.njit
    def draws(gen, n):
        out = np.empty((n, 3))
        for i in range(n):
            out[i, 0] = gen.random()
            out[i, 1] = gen.normalvariate(1.0, 2.0)
            out[i, 2] = gen.poissonvariate(3.0)
        return out

    out = {}
    for triplet in ((0, 0, 0), (3, 1, 2), (17, 40, 5)):
        gen = MRG32k3a_numba(np.array(triplet, dtype=np.int64))
        tag = "_".join(map(str, triplet))
        out[f"state_{tag}"] = np.array(gen.get_current_state())
        out[f"draws_{tag}"] = draws(gen, 300)
        out[f"variates_{tag}"] = np.array([
            gen.expovariate(1.5), gen.uniform(-2.0, 3.0), gen.gauss(0.0, 1.0), gen.lognormalvariate(0.1, 0.5),
            gen.triangular(0.0, 4.0, 1.0), gen.weibullvariate(2.0, 1.5), gen.paretovariate(2.5),
            gen.poissonvariate(4.0), gen.poissonvariate(60.0), gen.gumbelvariate(0.0, 2.0),
            gen.binomialvariate(30, 0.3)])
        out[f"mvn_{tag}"] = gen.mvnormalvariate(np.array([1.0, -1.0, 0.5]),
                                                np.array([[2.0, 0.3, 0.1], [0.3, 1.0, 0.2], [0.1, 0.2, 0.5]]))
        out[f"simplex_{tag}"] = np.concatenate([gen.continuous_random_vector_from_simplex(5, 3.0, True),
                                                gen.continuous_random_vector_from_simplex(5, 3.0, False)])
        states = []
        for move in ("advance_subsubstream", "advance_substream", "advance_stream", "reset_subsubstream",
                     "reset_substream", "reset_stream"):
            getattr(gen, move)()
            states.append((*gen.get_current_state(), *gen.s_ss_sss_index, gen.random()))
        out[f"moves_{tag}"] = np.array(states, dtype=float)
    return out


def mrg32k3a_numba_gamma_beta():
    """mrg32k3a-numba's gamma and beta variates (shapes below and above 1),
    whose methods hand the generator's bound methods (self.random,
    self.normalvariate) to a recursive compiled helper."""
    from mrg32k3a_numba import MRG32k3a_numba
    gen = MRG32k3a_numba(np.array((2, 0, 1), dtype=np.int64))
    return {"gamma": np.array([gen.gammavariate(a, 2.0) for a in (0.3, 0.7, 1.0, 3.5, 9.0) for _ in range(40)]),
            "beta": np.array([gen.betavariate(a, b) for a, b in ((0.5, 0.5), (2.0, 5.0), (7.0, 1.5))
                              for _ in range(40)])}

def spectres_resample():
    """SpectRes' Numba resampler: fluxes and errors onto coarser, finer and
    partly overlapping wavelength grids (the fill value outside)."""
    import spectres
    rng = np.random.default_rng(201)
    wavs = np.sort(rng.uniform(4000.0, 7000.0, 800))
    flux, errs = rng.uniform(0.5, 2.0, 800), rng.uniform(0.01, 0.1, 800)
    out = {}
    for name, new in (("coarse", np.linspace(4100.0, 6900.0, 120)), ("fine", np.linspace(4500.0, 5000.0, 1500)),
                      ("overlap", np.linspace(3500.0, 6000.0, 300))):
        f, e = spectres.spectres(new, wavs, flux, spec_errs=errs, fill=-1.0, verbose=False)
        out[name], out[name + "_errs"] = f, e
    return out


def lppls_fits():
    """LPPLS' compiled model and its linear parameters' least squares
    (matrix_equation) over a grid of critical times, exponents and
    frequencies, on a synthetic bubble."""
    from lppls import lppls
    t = np.arange(500.0)
    price = np.log(100 + 0.2 * t + 5 * np.sin(t / 20)) + 0.01 * np.random.default_rng(202).standard_normal(500)
    obs = np.array([t, price])
    model = lppls.LPPLS(observations=obs)
    abcc, costs = [], []
    for tc in (520.0, 560.0, 640.0):
        for m in (0.2, 0.5, 0.8):
            for w in (6.0, 9.0, 12.0):
                abcc.append(model.matrix_equation(obs, tc, m, w)[:, 0])
                costs.append(model.func_restricted(np.array([tc, m, w]), obs))
    return {"abcc": np.array(abcc), "costs": np.array(costs),
            "curve": model.lppls(t, 560.0, 0.5, 9.0, 5.0, -0.1, 0.01, 0.02)}


def _elmd_formulas():
    return ["CaTiO3", "SrTiO3", "NaCl", "Li7La3Zr2O12", "LiFePO4", "Fe2O3", "YBa2Cu3O7", "Al2O3", "MgSiO3",
            "Cu2ZnSnS4"]


def elmd_pettifor():
    """ElMD's Earth Mover's Distances between chemical compositions on the
    modified Pettifor scale (its compiled cumulative-sum distance)."""
    from ElMD import ElMD
    comps = [ElMD(f) for f in _elmd_formulas()]
    return {"mod_petti": np.array([[a.elmd(b) for b in comps] for a in comps], dtype=float)}


def elmd_network_simplex():
    """ElMD's compiled network simplex: distances between compositions
    under element embeddings, and a transport between random demands.
    Numba 0.68 fails typing it (an assertion in its type inference)."""
    from ElMD import ElMD, EMD
    out = {}
    for metric in ("magpie_sc", "oliynyk_sc"):
        comps = [ElMD(f, metric=metric) for f in _elmd_formulas()]
        out[metric] = np.array([[a.elmd(b) for b in comps] for a in comps], dtype=float)
    rng = np.random.default_rng(203)
    src, snk = rng.dirichlet(np.ones(6)), rng.dirichlet(np.ones(9))
    out["emd"] = np.array([EMD(src, snk, rng.uniform(0, 5, (6, 9)))[0]])
    return out

def cyrk_nbsolve():
    """CyRK's pure-Numba Runge-Kutta integrator (nbsolve_ivp) with RK23,
    RK45 and DOP853 on a predator-prey system, with t_eval and extra args."""
    from CyRK import nbsolve_ivp
    from numba import njit

    @njit
    def lotka(t, y, a, b):
        dy = np.empty_like(y)
        dy[0] = (a - 0.01 * y[1]) * y[0]
        dy[1] = (0.02 * y[0] - b) * y[1]
        return dy

    y0 = np.array([20.0, 20.0])
    out = {}
    for method in (0, 1, 2):
        r = nbsolve_ivp(lotka, (0.0, 20.0), y0, args=(1.0, 1.0), rk_method=method, rtol=1e-7, atol=1e-8)
        out[f"t{method}"], out[f"y{method}"] = r.t, r.y
    r = nbsolve_ivp(lotka, (0.0, 10.0), y0, args=(1.2, 0.8), t_eval=np.linspace(0.0, 10.0, 51), rtol=1e-6)
    out["t_eval"] = r.y
    return out


def cyrk_nbsolve2():
    """CyRK's C++ solver called from Numba (nbsolve2_ivp): a diffeq compiled
    to a C callback by nb_diffeq_addr, its results read through a jitclass."""
    from CyRK import nb_diffeq_addr, nbsolve2_ivp

    def lorenz(dy, t, y, args):
        dy[0] = 10.0 * (y[1] - y[0])
        dy[1] = y[0] * (28.0 - y[2]) - y[1]
        dy[2] = y[0] * y[1] - 8.0 / 3.0 * y[2]

    addr = nb_diffeq_addr(lorenz)
    out = {}
    for method in ("RK23", "RK45", "DOP853"):
        r = nbsolve2_ivp(addr, (0.0, 2.0), np.array([1.0, 1.0, 1.0]), method=method, rtol=1e-8, atol=1e-10)
        out[method + "_t"], out[method + "_y"] = r.t, r.y
    return out


def _flexsolve_cubic():
    from numba import njit

    @njit
    def f(x, a):
        return x ** 3 - a * x - 5.0
    return f


def flexsolve_bounded():
    """flexsolve's register_jitable bracketing root finders (bisection,
    false position) called from a compiled function with a compiled
    function and its arguments' tuple."""
    import flexsolve as flx
    from numba import njit
    f = _flexsolve_cubic()

    @njit
    def roots(a):
        return (flx.bisection(f, 0.0, 5.0, args=(a,), xtol=1e-12, ytol=0.0, maxiter=200),
                flx.false_position(f, 0.0, 5.0, args=(a,), xtol=1e-12, ytol=0.0, maxiter=200))

    return {"roots": np.array([roots(a) for a in (1.0, 2.0, 3.5, -0.5)])}


def flexsolve_open():
    """flexsolve's inverse quadratic interpolation and secant solvers from
    a compiled function. Numba 0.68 fails typing them (a variable of
    IQ_interpolation's undefined on a path: an UnsupportedError)."""
    import flexsolve as flx
    from numba import njit
    f = _flexsolve_cubic()

    @njit
    def roots(a):
        return (flx.IQ_interpolation(f, 0.0, 5.0, args=(a,), xtol=1e-12, ytol=0.0, maxiter=200),
                flx.secant(f, 1.0, 2.0, args=(a,), xtol=1e-12, ytol=0.0, maxiter=200))

    return {"roots": np.array([roots(a) for a in (1.0, 2.0, 3.5, -0.5)])}

def gsply_roundtrip():
    """gsply's Numba paths: PlayCanvas-compressed PLY bytes packed and
    unpacked (chunked quantisation, bit packing), uncompressed PLY written
    and read, activations and their inverses."""
    import os
    import tempfile
    import gsply
    from gsply import utils
    rng = np.random.default_rng(204)
    n = 2000
    means = rng.standard_normal((n, 3)).astype(np.float32)
    scales = rng.uniform(-5, 0, (n, 3)).astype(np.float32)
    quats = rng.standard_normal((n, 4)).astype(np.float32)
    quats /= np.linalg.norm(quats, axis=1, keepdims=True)
    opac = rng.uniform(-3, 3, n).astype(np.float32)
    sh0 = rng.uniform(-1, 1, (n, 3)).astype(np.float32)
    shn = rng.uniform(-0.5, 0.5, (n, 15, 3)).astype(np.float32)
    data = gsply.decompress_from_bytes(gsply.compress_to_bytes(means, scales, quats, opac, sh0, shn))
    out = {"c_means": data.means, "c_scales": data.scales, "c_quats": data.quats, "c_opacities": data.opacities,
           "c_sh0": data.sh0, "c_shN": data.shN}
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "g.ply")
        gsply.plywrite(path, means, scales, quats, opac, sh0, shn)
        back = gsply.plyread(path)
        out.update(means=back.means, shN=back.shN, sh0=back.sh0)
    out["sigmoid"], out["logit"] = utils.sigmoid(opac), utils.logit(utils.sigmoid(opac))
    return out


def z7py_cells():
    """z7py's IGEO7 grid indices: encoding, parents at each resolution,
    neighbours, the monotonic integer order, and geodetic/authalic
    latitudes."""
    from z7py import latitudes, z7
    rng = np.random.default_rng(205)
    base = rng.integers(0, 12, 40).astype(np.uint8)
    digits = rng.integers(0, 7, (40, 20)).astype(np.uint8)
    cells = np.array([z7.encode_z7int(b, d) for b, d in zip(base, digits)], dtype=np.uint64)
    out = {"cells": cells.astype(np.float64),
           "decoded": np.array([np.concatenate(([z7.decode_z7int(c)[0]], z7.decode_z7int(c)[1])) for c in cells],
                               dtype=np.float64),
           "parents": np.array([[z7.get_parent(c, r) for r in (3, 8, 15)] for c in cells], dtype=np.float64),
           "monotonic": np.array([z7.z7_to_monotonic_int(c, 12) for c in cells], dtype=np.float64),
           "neighbours": np.array([np.asarray(z7.get_neighbours(c), dtype=np.float64) for c in cells[:20]]),
           "authalic": np.array([latitudes.geodetic_to_authalic(p) for p in np.linspace(-89.0, 89.0, 101)]),
           "geodetic": np.array([latitudes.authalic_to_geodetic(p) for p in np.linspace(-89.0, 89.0, 101)])}
    return out


def enstop_plsa():
    """EnsTop's probabilistic latent semantic analysis (compiled E and M
    steps, the log likelihood, refitting for transform) on a sparse
    document-term matrix, in memory and block-parallel."""
    import scipy.sparse
    from enstop import PLSA, BlockParallelPLSA
    rng = np.random.default_rng(206)
    topics = rng.dirichlet(np.full(120, 0.1), 4)
    docs = rng.dirichlet(np.full(4, 0.3), 150)
    if not hasattr(np, "float"):  # enstop 0.2.6's standardize_input names np.float, which NumPy 1.24 removed
        np.float = float
    X = scipy.sparse.csr_matrix(rng.poisson(docs @ topics * 60).astype(np.float64))
    plsa = PLSA(n_components=4, n_iter=40, random_state=1).fit(X)
    block = BlockParallelPLSA(n_components=4, n_iter=40, random_state=1).fit(X)
    return {"topics": plsa.components_, "docs": plsa.embedding_, "transform": plsa.transform(X[:20]),
            "block_topics": block.components_}


def napari_graph_edges():
    """napari-graph's compiled graph buffers: nodes and edges added and
    removed in (un)directed graphs, edges iterated per node, and the
    conversion to and from networkx."""
    from napari_graph import DirectedGraph, UndirectedGraph
    rng = np.random.default_rng(207)
    coords = rng.uniform(0, 100, (300, 3))
    edges = rng.integers(0, 300, (900, 2))
    edges = edges[edges[:, 0] != edges[:, 1]]
    edges = np.unique(np.sort(edges, axis=1), axis=0)
    out = {}
    for name, cls in (("undirected", UndirectedGraph), ("directed", DirectedGraph)):
        g = cls(edges=edges, coords=coords)
        g.remove_edges(edges[::7])
        g.remove_node(5)
        g.add_nodes(indices=np.arange(300, 310), coords=rng.uniform(0, 100, (10, 3)))
        g.add_edges(np.array([[300, 1], [301, 2], [1, 302]]))
        per_node = [np.asarray(e, dtype=np.float64).reshape(-1, 2) for e in g.get_edges()]
        out[name + "_edges"] = np.concatenate(per_node)
        out[name + "_of_10"] = np.asarray(g.get_edges(10), dtype=np.float64).reshape(-1, 2)
        out[name + "_count"] = np.array([g.n_nodes, g.n_edges], dtype=np.float64)
    return out


def chemcoord_zmat():
    """chemcoord's compiled coordinate transformations on ethanol: bonds,
    the Z-matrix and back to Cartesian coordinates, and Wilson's B matrix.
    (Its get_grad_zmat indexes its arrays with the absolute references'
    keys, about -2**63, where it writes zeros: out of bounds, which Numba
    does not check and ruchey raises an IndexError for.)"""
    import pandas as pd
    import chemcoord as cc
    xyz = np.array([[0.0, 0.0, 0.0], [1.52, 0.0, 0.0], [2.0, 1.34, 0.0], [-0.37, -1.03, 0.0], [-0.37, 0.51, 0.89],
                    [-0.37, 0.51, -0.89], [1.89, -0.51, 0.89], [1.89, -0.51, -0.89], [2.96, 1.3, 0.0]])
    xyz = xyz + 0.02 * np.random.default_rng(208).standard_normal(xyz.shape)
    frame = pd.DataFrame({"atom": ["C", "C", "O", "H", "H", "H", "H", "H", "H"],
                          "x": xyz[:, 0], "y": xyz[:, 1], "z": xyz[:, 2]})
    mol = cc.Cartesian(frame)
    table = mol.get_construction_table()
    zmat = mol.get_zmat(table)
    back = zmat.get_cartesian()
    return {"zmat": zmat.loc[:, ["bond", "angle", "dihedral"]].to_numpy(dtype=float),
            "back": back.loc[:, ["x", "y", "z"]].to_numpy(dtype=float),
            "wilson_b": np.asarray(mol.get_Wilson_B(), dtype=float),
            "bonds": np.array(sorted((i, j) for i, js in mol.get_bonds().items() for j in js), dtype=float)}


def baderkit_bader():
    """BaderKit's charge partitioning of a rock-salt density (a sum of
    periodic Gaussians on its atoms) by steepest ascent on the grid and by
    its default method (near the grid, with weights): maxima, basins, their
    charges, volumes and surface distances."""
    from pymatgen.core import Lattice, Structure
    from baderkit.bader import Bader
    from baderkit.toolkit import Grid
    fcc = np.array([[0, 0, 0], [0.5, 0.5, 0], [0.5, 0, 0.5], [0, 0.5, 0.5]])
    structure = Structure(Lattice.cubic(5.64), ["Na"] * 4 + ["Cl"] * 4, np.concatenate([fcc, fcc + 0.5]) % 1.0)
    n = 28
    frac = np.stack(np.meshgrid(*(np.arange(n) / n,) * 3, indexing="ij"), -1)
    rho = np.zeros((n, n, n))
    for site in structure:
        d = frac - site.frac_coords
        d -= np.round(d)
        r2 = ((d @ structure.lattice.matrix) ** 2).sum(-1)
        amp, width = (2.0, 0.5) if site.specie.symbol == "Na" else (8.0, 0.9)
        rho += amp * np.exp(-r2 / width)
    grid = Grid(structure, {"total": rho * structure.volume})
    out = {}
    for method in ("ongrid", "neargrid-weight"):
        bader = Bader(charge_grid=grid, method=method)
        out[method + "_charges"] = bader.atom_charges
        out[method + "_volumes"] = bader.atom_volumes
        out[method + "_min_dist"] = bader.atom_min_surface_distances
        out[method + "_maxima"] = bader.maxima_frac
    return out


def nucs_problems():
    """NuCS' constraint solver (propagators and heuristics reached through
    tables of first-class functions): all solutions of 8 queens, a magic
    square, Golomb rulers minimised and an all-interval series."""
    from nucs.examples.queens.queens_problem import QueensProblem
    from nucs.examples.golomb.golomb_problem import GolombProblem
    from nucs.examples.all_interval_series.all_interval_series_problem import AllIntervalSeriesProblem
    from nucs.solvers.backtrack_solver import BacktrackSolver
    queens = BacktrackSolver(QueensProblem(8))
    solutions = list(queens.solve())
    golomb = GolombProblem(6)
    best = BacktrackSolver(golomb).minimize(golomb.length_idx)
    series = BacktrackSolver(AllIntervalSeriesProblem(8))
    return {"queens": np.array(solutions, dtype=float), "golomb": np.asarray(best, dtype=float),
            "series": np.array(list(series.solve()), dtype=float)}


def tigramite_cmi():
    """Tigramite's conditional mutual information tests, whose nearest
    neighbour counts and restricted permutations are object-mode
    compiled methods: CMIknn's estimate and shuffle test on a chain
    X -> Z -> Y, and CMIsymb's on its symbolised version."""
    from tigramite.independence_tests.cmiknn import CMIknn
    from tigramite.independence_tests.cmisymb import CMIsymb
    rng = np.random.default_rng(209)
    x = rng.standard_normal(300)
    z = 0.8 * x + 0.5 * rng.standard_normal(300)
    y = 0.8 * z + 0.5 * rng.standard_normal(300)
    array, xyz = np.vstack([x, y, z]), np.array([0, 1, 2])
    knn = CMIknn(knn=0.1, shuffle_neighbors=5, sig_samples=40, seed=3, workers=1)
    value = knn.get_dependence_measure(array, xyz)
    pvalue = knn.get_shuffle_significance(array, xyz, value)
    symbols = np.vstack([np.digitize(v, np.quantile(v, [0.33, 0.66])) for v in (x, y, z)])
    symb = CMIsymb(sig_samples=40, seed=4)
    svalue = symb.get_dependence_measure(symbols, xyz)
    return {"cmiknn": np.array([value, pvalue]),
            "cmisymb": np.array([svalue, symb.get_shuffle_significance(symbols, xyz, svalue)])}


def lsdnumbatools_drainage():
    """lsdnumbatools' flow routing (a jitclass iterating a raster's
    neighbours, steepest-descent receivers and donors, the recursive
    stack, multiple-flow receivers), depressions carved through, drainage
    areas accumulated, and an implicit stream-power erosion step."""
    import lsdnumbatools as lsdnb
    from lsdnumbatools import quick_lem
    rng = np.random.default_rng(210)
    ny, nx = 40, 50
    yy, xx = np.mgrid[0:ny, 0:nx]
    topo = (0.5 * yy + 0.2 * np.abs(xx - nx / 2) + rng.uniform(0, 2, (ny, nx))).astype(np.float64)
    node_type = np.ones((ny, nx), dtype=np.int16)
    node_type[0, :] = node_type[-1, :] = node_type[:, 0] = node_type[:, -1] = 0
    g = lsdnb.graph()
    g.initiatialise(nx, ny, 30.0, 30.0, node_type, topo)
    g.compute_D8S_graph()
    g.correct_D8S_depressions()
    g.compute_D8S_graph()
    area = g.accumulate_down_constant_D8S(900.0)
    g.compute_D8M_graph()
    elevation = g.ds["topography"].values.copy()
    erosion = np.zeros_like(elevation)
    quick_lem.SPIL_Srec(erosion, elevation, g.ds["SStack"].values, g.ds["D8Srec"].values,
                        g.ds["D8Sdist"].values.astype(np.float64), area, np.full(nx * ny, 1e-4), 0.45, 1.0, 1000.0,
                        1e-6, nx * ny)
    return {"receivers": g.ds["D8Srec"].values.astype(float), "stack": g.ds["SStack"].values.astype(float),
            "area": area, "mstack": g.ds["D8MStack"].values.astype(float), "erosion": erosion,
            "elevation": elevation}


def fast_ivf_search():
    """fast-ivf's inverted-file indexes: mini-batch k-means (compiled
    assignment updates in prange), the approximate search over the nearest
    lists with its top-k selection, and the product-quantised variant."""
    from fast_ivf import FastIVF, FastIVFPQ
    rng = np.random.default_rng(211)
    centres = rng.standard_normal((12, 16))
    data = (centres[rng.integers(0, 12, 3000)] + 0.3 * rng.standard_normal((3000, 16))).astype(np.float32)
    queries = data[:25] + 0.05 * rng.standard_normal((25, 16)).astype(np.float32)
    np.random.seed(5)
    ivf = FastIVF(16, nlist=10, nprobe=3, kmeans_max_steps=50)
    ivf.train(data)
    scores, indices = ivf.search(queries, k=10)
    np.random.seed(6)
    pq = FastIVFPQ(16, nlist=10, pq_num_centroids=16, pq_num_subvectors=4, nprobe=3, kmeans_max_steps=50,
                   kmeans_pq_max_steps=50)
    pq.train(data)
    pq_scores, pq_indices = pq.search(queries, k=10)
    return {"scores": np.asarray(scores), "indices": np.asarray(indices, dtype=float),
            "pq_scores": np.asarray(pq_scores), "pq_indices": np.asarray(pq_indices, dtype=float)}


def numba_quaternion_rotations():
    """numba-quaternion's quaternions as pairs of complex numbers: products
    and matrix products (np.stack of conjugates), rotation matrices there
    and back, inverses, rotations of vectors, azimuthal equidistant
    projections and pairwise spherical distances (an overload choosing
    complex64 or complex128 by the array's dtype)."""
    import numba_quaternion as nq
    rng = np.random.default_rng(212)
    raw = rng.standard_normal((40, 4))
    raw /= np.linalg.norm(raw, axis=1)[:, None]
    p = nq.float_to_complex(nq.lastcol_quat_to_canonical(raw))
    q = nq.float_to_complex(rng.standard_normal((40, 4)))
    m = nq.quat_to_rotation_matrix(p)
    v = nq.float_to_complex(np.concatenate([np.zeros((40, 1)), rng.standard_normal((40, 3))], 1))
    pm = nq.float_to_complex(rng.standard_normal((6, 6, 4)))
    return {"mul": nq.complex_to_float(nq.mul(p, q)),
            "matmul": nq.complex_to_float(nq.matmul(pm, pm)),
            "matrix": m, "back": nq.complex_to_float(nq.rotation_matrix_to_quat(m)),
            "inverse": nq.complex_to_float(nq.inverse(q)), "norm": nq.norm(q), "abs": nq.abs(q),
            "rotate": nq.complex_to_float(nq.rotate(p, v)),
            "projection": nq.quat_to_azimuthal_equidistant_projection_polar_with_orientation(p),
            "projection2": nq.quat_to_azimuthal_equidistant_projection_with_orientation(p),
            "pairwise": nq.dist_spherical_pairwise(p),
            "f32": nq.complex_to_float(nq.mul(p.astype(np.complex64), q.astype(np.complex64))).astype(np.float64)}


def noblegasmd_argon():
    """noblegasmd's Lennard-Jones molecular dynamics (velocity Verlet with
    cached forces, reflecting walls, pressure from wall impulses; fastmath):
    a lattice of 64 argon atoms run 200 steps, with and without its
    trajectory."""
    from noblegasmd import engine
    rng = np.random.default_rng(213)
    pos = engine.initialize_lattice(64, 6.0)
    vel = engine.initialize_velocities(64, 1.2, rng)
    t, p, ke, pe, pos1, vel1 = engine.simulate(pos, vel, 6.0, 0.001, 200)
    traj = engine.simulate_with_trajectory(pos, vel, 6.0, 0.001, 50)[-1]
    return {"T": t, "P": p, "KE": ke, "PE": pe, "pos": pos1, "vel": vel1, "traj": traj,
            "naive": np.array([engine.vv_step_naive(pos.copy(), vel.copy(), 64, 6.0, 0.001)])}


def modifiedotsu_masks():
    """modifiedOtsu's local modified Otsu thresholds (a symmetric 3-d pad,
    a histogram threshold per window in prange) on a noisy movie of blobs,
    with a 2-d+time and a volumetric window."""
    from modifiedOtsu import getMask, getThreshold
    rng = np.random.default_rng(214)
    zz, yy, xx = np.mgrid[0:6, 0:32, 0:32]
    img = (60 * np.exp(-((yy - 12) ** 2 + (xx - 18) ** 2) / 40.0) + rng.integers(0, 25, (6, 32, 32))).astype(np.uint16)
    t1, m1 = getMask(img, (1, 7, 7), 0.2)
    t2, m2 = getMask(img, (3, 5, 5), 0.0)
    return {"t1": t1, "m1": m1, "t2": t2, "m2": m2,
            "threshold": np.array([getThreshold(img[0].ravel().astype(np.int64), 0.2)])}


def otsu2d_binary():
    """otsu2D's local 2-d Otsu thresholds (local means by cumulative sums
    along each axis, a reflected pad, a joint intensity and mean histogram
    per window in prange) on a noisy volume of blobs."""
    from otsu2D import getBinary
    rng = np.random.default_rng(215)
    zz, yy, xx = np.mgrid[0:5, 0:28, 0:28]
    img = (80 * np.exp(-((yy - 10) ** 2 + (xx - 16) ** 2 + (zz - 2) ** 2) / 30.0)
           + rng.integers(0, 30, (5, 28, 28))).astype(np.uint8)
    return {"binary": getBinary(img, (3, 5, 5), (3, 3, 3)).astype(np.int64),
            "binary2": getBinary(img.astype(np.uint16), (1, 7, 7), (1, 3, 3)).astype(np.int64)}


def cubic_spline_interpolation():
    """cubic-spline's interpolation gufuncs (grid search, robust search,
    tridiagonal solve for the coefficients, evaluation at arrays and points)
    on one and on stacked grids, and its njit point evaluations."""
    import cubic_spline as cs
    rng = np.random.default_rng(216)
    x = np.sort(rng.uniform(0, 10, 30))
    y = np.sin(x) + 0.1 * x
    xq = rng.uniform(-1, 11, 50)
    xs = np.sort(rng.uniform(0, 5, (4, 20)), axis=1)
    ys = np.cos(xs)
    xqs = rng.uniform(0, 5, (4, 15))
    a, b = cs.cubic_coef(x, y)
    xqi = cs.cubic_index(x, xq)
    point = np.array([cs.cubic_vfi(x, v, y, a, b) for v in xq[:10]])
    i = int(xqi[3])
    egm = cs.cubic_egm(xq[3], x[i], x[i + 1], y[i], y[i + 1], a[i], b[i])
    return {"yq": cs.cubic_y(x, xq, y), "robust": cs.cubic_y(x, xq, y, robust=True), "a": a, "b": b,
            "index": np.asarray(xqi, dtype=float), "stacked": cs.cubic_y(xs, xqs, ys),
            "stacked_robust": cs.cubic_y(xs, xqs, ys, robust=True), "point": point, "egm": np.array([egm])}


def zsom_maps():
    """zsom's self-organising map trained on clusters with its Numba kernels
    (best-matching units of a batch in prange, the batch update of the
    weights by a Gaussian neighbourhood), then its BMUs and U-matrix."""
    from zsom import SOM
    rng = np.random.default_rng(217)
    centres = rng.uniform(0, 1, (4, 3))
    data = centres[rng.integers(0, 4, 300)] + 0.05 * rng.standard_normal((300, 3))
    som = SOM(8, 6, 3, np.random.default_rng(5), use_numba=True)
    som.fit(data, epochs=6, learning_rate=0.5)
    bmus = som.get_bmus(data)
    return {"weights": som.weights, "bmus": np.asarray(bmus, dtype=float), "umatrix": som.get_u_matrix()}


def nufftcf_correlations():
    """nufftcf's correlation functions of irregularly sampled series: the
    real-space Gaussian and rectangular kernel sums (prange, fastmath) for
    auto- and cross-correlations."""
    import nufftcf
    rng = np.random.default_rng(218)
    t = np.sort(rng.uniform(0, 100, 400))
    s = np.sort(rng.uniform(0, 100, 350))
    x = np.sin(t / 5) + 0.3 * rng.standard_normal(400)
    y = np.sin(s / 5 + 0.5) + 0.3 * rng.standard_normal(350)
    lags = np.linspace(-20, 20, 41)
    pos = np.linspace(0, 20, 21)
    return {"acf_g": np.asarray(nufftcf.compute_acf_gaussian_realspace(pos, t, x, 0.8), dtype=float),
            "acf_r": np.asarray(nufftcf.compute_acf_rectangle_realspace(pos, t, x, 0.8), dtype=float),
            "ccf_g": np.asarray(nufftcf.compute_ccf_gaussian_realspace(lags, t, x, s, y, 0.8), dtype=float),
            "ccf_r": np.asarray(nufftcf.compute_ccf_rectangle_realspace(lags, t, x, s, y, 0.8), dtype=float)}


def numba_morph_operations():
    """numba-morph's grey-level morphology on 2-d and 3-d images (dilation,
    erosion, opening, closing, gradient, Laplace, top hats, chamfer
    distances, h-maxima, local extrema, reconstruction, watershed from
    markers, Welford statistics under a mask), parallel over an axis."""
    import numba_morph as nm
    rng = np.random.default_rng(219)
    yy, xx = np.mgrid[0:40, 0:48]
    img = (100 * np.exp(-((yy - 12) ** 2 + (xx - 14) ** 2) / 50.0) + 80 * np.exp(-((yy - 28) ** 2 + (xx - 34) ** 2) / 30.0)
           + rng.uniform(0, 10, (40, 48))).astype(np.float32)
    vol = rng.uniform(0, 1, (6, 16, 16)).astype(np.float32)
    binary = img > 30
    markers = np.zeros((40, 48), dtype=np.int32)
    markers[12, 14], markers[28, 34], markers[0, 0] = 1, 2, 3
    seed = img.copy()
    seed[1:-1, 1:-1] = img.min()
    fp = np.ones((3, 3), dtype=np.bool_)
    out = {"dilation": nm.dilation(img, size=(3, 3)), "erosion": nm.erosion(img, size=(5, 3)),
           "opening": nm.opening(img, size=(3, 3)), "closing": nm.closing(img, size=(3, 3)),
           "gradient": nm.morphological_gradient(img, size=(3, 3)),
           "laplace": nm.morphological_laplace(img, size=(3, 3)),
           "white": nm.white_tophat(img, size=(5, 5)), "black": nm.black_tophat(img, size=(5, 5)),
           "dilation3": nm.dilation(vol, size=(3, 3, 3)), "erosion3": nm.erosion(vol, size=(3, 3, 3)),
           "cdt": nm.distance_transform_cdt(binary).astype(float),
           "cdt3": nm.distance_transform_cdt(vol > 0.3, weights=(3, 4, 5)).astype(float),
           "hmax": nm.h_maxima(img, 20.0, footprint=fp).astype(float),
           "maxima": nm.local_maxima(img, footprint=fp).astype(float),
           "minima": nm.local_minima(img, footprint=fp).astype(float),
           "reconstruction": nm.reconstruction(img, seed, method="dilation", footprint=fp),
           "watershed": nm.watershed(-img, markers, footprint=fp).astype(float),
           "sphere": nm.generate_sphere_structure((2, 3)).astype(float)}
    out["welford"] = np.array(nm.welford_mean_std_w_mask(img, binary), dtype=float)
    return out


def chimeraboost_boosting():
    """ChimeraBoost's gradient-boosted oblivious trees (quantile binning,
    histogram builds and split searches, ordered target statistics of a
    categorical column, leaf values, tree application): a regressor and a
    three-class classifier, fitted and predicting, all kernels Numba's."""
    from chimeraboost import ChimeraBoostClassifier, ChimeraBoostRegressor
    rng = np.random.default_rng(220)
    X = rng.standard_normal((400, 5))
    X[:, 4] = rng.integers(0, 6, 400)
    y = np.sin(X[:, 0]) + 0.5 * X[:, 1] ** 2 + 0.3 * X[:, 4] + 0.1 * rng.standard_normal(400)
    labels = (X[:, 0] + X[:, 2] > 0).astype(int) + (X[:, 1] > 1).astype(int)
    common = dict(n_estimators=30, depth=4, random_state=0, thread_count=1, early_stopping=False, n_ensembles=1)
    reg = ChimeraBoostRegressor(**common, cat_features=[4]).fit(X, y)
    clf = ChimeraBoostClassifier(**common).fit(X[:, :4], labels)
    return {"regression": reg.predict(X[:50]), "proba": clf.predict_proba(X[:50, :4])}


def plonk_sph():
    """Plonk's smoothed-particle kernels: splash's projection and cross-
    section interpolation to a grid (an integrated kernel table), SPH
    gradients, divergences and curls over typed-List neighbour lists with
    the kernel functions passed as arguments, and a gravitational
    potential."""
    from numba.typed import List
    from plonk.analysis import sph
    from plonk.analysis.sinks import _potential
    from plonk.utils import kernels
    from plonk.visualize import splash
    rng = np.random.default_rng(221)
    n = 300
    pos = rng.uniform(-1, 1, (n, 3))
    h = np.full(n, 0.25)
    mass = np.full(n, 1.0 / n)
    dens = mass / h ** 3
    itype = np.ones(n, dtype=np.int32)
    itype[:5] = -1
    dat = np.sin(pos[:, 0]) + pos[:, 1]
    args = (pos[:, 0], pos[:, 1])
    proj = splash.interpolate_projection(*args, h, mass / (dens * h ** 3), dat, itype, n, -1.0, -1.0, 32, 32,
                                         2 / 32, 2 / 32, False)
    cut = splash.interpolate_slice(*args, pos[:, 2], h, mass / (dens * h ** 3), dat, itype, n, -1.0, -1.0, 32, 32,
                                   2 / 32, 2 / 32, True)
    d2 = ((pos[:, None, :] - pos[None, :, :]) ** 2).sum(-1)
    neighbours = List()
    for i in range(n):
        neighbours.append(np.nonzero(d2[i] < (2 * h[i]) ** 2)[0])
    indices, type_indices = np.arange(n), np.arange(n)
    vec = np.stack([pos[:, 1], -pos[:, 0], pos[:, 2] ** 2], 1)
    out = {"projection": proj, "slice": cut, "potential": np.array([_potential(pos, mass)])}
    for name, fn, quantity, width in (("grad", sph._compute_grad_over_neighbours, dat, 3),
                                      ("div", sph._compute_div_over_neighbours, vec, 1),
                                      ("curl", sph._compute_curl_over_neighbours, vec, 3)):
        out[name] = sph._compute_derivative(indices, neighbours, type_indices, pos, h, mass, kernels.kernel_cubic,
                                            kernels.kernel_gradient_cubic, dens, quantity, fn, width, False)
    q = np.linspace(0, 3, 31)
    for kname in ("cubic", "quintic", "wendland_c4"):
        out[kname] = np.array([getattr(kernels, "kernel_" + kname)(v) for v in q])
        out[kname + "_grad"] = np.array([getattr(kernels, "kernel_gradient_" + kname)(v) for v in q])
    return out


def exo_k_radiation():
    """Exo_k's radiative transfer kernels: Planck functions and their band
    integrals (series), optical depths of layers, transmission path
    integrals, rebinning, the Toon two-stream solver over wavenumbers, and
    a dry convective adjustment mixing tracers (fastmath)."""
    from exo_k.atm_evolution.convection import dry_convective_adjustment_numba
    from exo_k.two_stream.two_stream_toon import solve_2stream_nu_xsec
    from exo_k.util import interp, radiation
    rng = np.random.default_rng(222)
    nlay, nw = 20, 30
    nu_edges = np.linspace(100.0, 3000.0, nw + 1)
    nu = 0.5 * (nu_edges[1:] + nu_edges[:-1])
    t_lev = np.linspace(200.0, 900.0, nlay + 1)
    opacity = rng.uniform(1e-3, 1e-1, (nlay, nw))
    dcol = np.linspace(1.0, 50.0, nlay)
    tau, dtau = radiation.rad_prop_xsec(dcol, opacity, 0.5)
    source = np.pi * radiation.Bnu_integral_array(nu_edges, t_lev, nw, nlay + 1) / np.diff(nu_edges)
    flux = solve_2stream_nu_xsec(source, tau, dtau, rng.uniform(0, 0.5, (nlay, nw)), rng.uniform(0, 0.3, (nlay, nw)),
                                 np.full(nw, 10.0), np.full(nw, 0.1), np.full(nw, 0.1), mu0=0.5)
    tangent = np.abs(rng.standard_normal((nlay, nlay))) * 1e3
    fine = np.linspace(0, 10, 200)
    t_lay = np.linspace(300.0, 250.0, nlay)
    t_lay[8:12] += 30.0
    exner = np.linspace(0.5, 1.0, nlay)
    H, tracers, top = dry_convective_adjustment_numba(10.0, nlay, t_lay, exner, np.full(nlay, 100.0),
                                                      rng.uniform(0, 1, (2, nlay)), np.full(nlay, 0.029))
    return {"Bnu": radiation.Bnu(nu, 500.0), "dBdT": radiation.dBnudT_array(nu, t_lev, nw, nlay + 1),
            "Bmicron": radiation.Bmicron(np.linspace(1, 20, 30), 800.0), "tau": tau, "dtau": dtau,
            "path": radiation.path_integral_xsec(nlay, nw, tangent, rng.uniform(0, 1, nlay), opacity),
            "rebin": interp.rebin(np.sin(fine), fine, np.linspace(0, 10, 21)),
            "bilinear": np.array([interp.bilinear_interpolation(1.0, 2.0, 3.0, 5.0, 0.3, 0.7)]),
            **{f"flux{i}": np.asarray(f) for i, f in enumerate(flux)},
            "H": H, "tracers": tracers, "top": np.array([top])}


def fastpose_ransac():
    """fastpose's robust pose estimators (RANSAC drivers built from
    closures over jitted solvers: four-point homography, seven-point
    fundamental, five-point essential, P3P; Sampson, transfer and
    reprojection scores, Levenberg-Marquardt refinement) on synthetic
    views with noise and outliers."""
    from fastpose import estimators
    rng = np.random.default_rng(223)
    n = 120
    X = np.column_stack([rng.uniform(-1, 1, n), rng.uniform(-1, 1, n), rng.uniform(4, 8, n)])
    angle = 0.1
    R = np.array([[np.cos(angle), 0, np.sin(angle)], [0, 1, 0], [-np.sin(angle), 0, np.cos(angle)]])
    t = np.array([0.5, 0.05, 0.1])
    X2 = X @ R.T + t
    x1 = X[:, :2] / X[:, 2:] + 1e-4 * rng.standard_normal((n, 2))
    x2 = X2[:, :2] / X2[:, 2:] + 1e-4 * rng.standard_normal((n, 2))
    x2[:15] = rng.uniform(-0.3, 0.3, (15, 2))
    plane = np.column_stack([rng.uniform(0, 640, n), rng.uniform(0, 480, n)])
    H = np.array([[1.1, 0.05, 10.0], [-0.03, 0.95, 5.0], [1e-4, 2e-5, 1.0]])
    ph = np.column_stack([plane, np.ones(n)]) @ H.T
    plane2 = ph[:, :2] / ph[:, 2:] + 0.3 * rng.standard_normal((n, 2))
    plane2[:10] += 50
    out = {}
    for name, (model, info) in (
            ("homography", estimators.estimate_homography(plane, plane2, iterations=200)),
            ("fundamental", estimators.estimate_fundamental(x1 * 500 + 320, x2 * 500 + 240, iterations=200, max_error=1.0)),
            ("relative", estimators.estimate_relative_pose(x1, x2, iterations=200)),
            ("absolute", estimators.estimate_absolute_pose(x2, X, iterations=200))):
        for key, value in model.items():
            out[f"{name}_{key}"] = np.asarray(value, dtype=float)
        out[f"{name}_inliers"] = np.asarray(info["inliers"], dtype=float)
    return out


def pixerise_render():
    """Pixerise's software rasteriser: vertex transforms, back-face culling,
    frustum clipping by bounding spheres, flat and Gouraud shading and
    wireframe lines into colour and depth buffers, and ray casts against
    the transformed triangles, on a scene of two shaded meshes."""
    from pixerise.pixerise import Canvas, Renderer, ShadingMode, ViewPort
    from pixerise.scene import Instance, Model, Scene
    u, v = np.meshgrid(np.linspace(0, np.pi, 7), np.linspace(0, 2 * np.pi, 9), indexing="ij")
    verts = np.stack([np.sin(u) * np.cos(v), np.cos(u), np.sin(u) * np.sin(v)], -1).reshape(-1, 3).astype(np.float32)
    tris = []
    for i in range(6):
        for j in range(8):
            a, b, c, d = i * 9 + j, i * 9 + j + 1, (i + 1) * 9 + j, (i + 1) * 9 + j + 1
            tris += [[a, c, b], [b, c, d]]
    model = Model()
    model.add_group(vertices=verts, triangles=np.array(tris, dtype=np.int32), vertex_normals=verts.copy())
    scene = Scene()
    scene.add_model("sphere", model)
    for name, translation, rotation, color in (("near", (-0.6, 0, 4), (0, 0, 0), (200, 80, 40)),
                                               ("far", (1.2, 0.3, 6), (0.3, 0.5, 0), (40, 160, 220))):
        scene.add_instance(name, Instance.from_dict({"model": "sphere", "color": color, "transform": {
            "translation": translation, "rotation": rotation, "scale": (1, 1, 1)}}))
    out = {}
    for mode in (ShadingMode.WIREFRAME, ShadingMode.FLAT, ShadingMode.GOURAUD):
        canvas = Canvas((96, 72))
        renderer = Renderer(canvas, ViewPort((1.6, 1.2), 1, canvas))
        renderer.render(scene, mode)
        out[mode.value] = canvas.color_buffer.astype(float)
        out[mode.value + "_depth"] = canvas.depth_buffer.astype(float)
    hits = [renderer.cast_ray(x, y, scene) for x, y in ((20, 36), (60, 30), (5, 5), (48, 36))]
    out["rays"] = np.array([-1 if h is None else ["near", "far"].index(h[0]) for h in hits], dtype=float)
    return out


def lanun_transport():
    """lanun's Lagrangian tracer transport in an idealised basin: a bell-
    shaped recirculation velocity field, particles located and weighted on
    the mesh (bilinear), midpoint advection in prange, projection back to
    the mesh, and its diagnostics (pair stretching, areas, perimeters),
    forward and reversed."""
    from lanun import BasinSystem, LagrangianSolver
    basin = BasinSystem(Lx=50e3, Ly=50e3, H=100.0, U0=0.3)
    result = LagrangianSolver(nx=31, ny=31, particles_per_cell=2).solve(basin, total_time=86400.0, dt=1800.0,
                                                                        output_interval=8, verbose=False)
    reverse = LagrangianSolver(nx=21, ny=21, particles_per_cell=2).solve_with_reversal(
        basin, total_time=43200.0, dt=1800.0, output_interval=8, verbose=False)
    out = {"time": result.time, "x": result.particle_x, "y": result.particle_y, "tracer": result.particle_tracer,
           "mesh": result.mesh_tracer}
    for key, value in sorted(result.diagnostics.items()):
        if isinstance(value, (int, float, np.ndarray)) and not isinstance(value, bool):
            out["diag_" + key] = np.asarray(value, dtype=float)
    if isinstance(reverse, tuple):
        reverse = reverse[-1]
    out["reverse_x"] = reverse.particle_x
    return out


def scijit_routines():
    """scijit's SciPy equivalents inside compiled code (overloads choosing a
    route by literal arguments, callbacks made cfuncs for its Fortran
    packs): FITPACK splrep/splev, QUADPACK quad, MINPACK fsolve, BFGS and
    Nelder-Mead minimize, a bracketing root and the linear sum
    assignment."""
    from numba import njit
    from scijit.integrate import quad
    from scijit.interpolate import splev, splrep
    from scijit.optimize import brentq, fsolve, linear_sum_assignment, minimize

    @njit
    def objective(x):
        return (x[0] - 1.0) ** 2 + 10.0 * (x[1] - x[0] ** 2) ** 2

    @njit
    def system(x):
        return np.array([x[0] ** 2 + x[1] ** 2 - 4.0, x[0] - x[1] ** 3])

    @njit
    def integrand(x):
        return np.exp(-x * x) * np.cos(3.0 * x)

    @njit
    def cubic(x):
        return x ** 3 - 2.0 * x - 5.0

    @njit
    def run(x, y, xq, cost):
        tck = splrep(x, y)
        fitted = splev(xq, tck)
        area = quad(integrand, 0.0, 2.0)[0]
        root = fsolve(system, np.array([1.0, 1.0]))
        bfgs = minimize(objective, np.array([-1.0, 2.0]), method='BFGS').x
        nm = minimize(objective, np.array([-1.0, 2.0]), method='Nelder-Mead').x
        r = brentq(cubic, 1.0, 3.0)
        rows, cols = linear_sum_assignment(cost)
        return fitted, area, root, bfgs, nm, r, cols

    rng = np.random.default_rng(224)
    x = np.linspace(0, 6, 25)
    fitted, area, root, bfgs, nm, r, cols = run(x, np.sin(x), rng.uniform(0, 6, 40), rng.uniform(0, 1, (6, 6)))
    return {"splev": fitted, "quad": np.array([area]), "fsolve": root, "bfgs": bfgs, "nelder_mead": nm,
            "brentq": np.array([r]), "assignment": np.asarray(cols, dtype=float)}


WORKLOADS = {
    "stumpy": {"stump": stumpy_stump, "aamp": stumpy_aamp, "more": stumpy_more, "gpu_stump": stumpy_gpu_stump,
               "gpu_aamp": stumpy_gpu_aamp, "gpu_distances_consensus": stumpy_gpu_distances_consensus,
               "gpu_stimp": stumpy_gpu_stimp},
    "pynndescent": {"NNDescent": pynndescent_graph},
    "quantecon": {"markov": quantecon_markov, "brent_max": quantecon_brent_max,
                  "nelder_mead": quantecon_nelder_mead},
    "numbagg": {"nanmean": numbagg_nanmean, "move_mean": numbagg_move_mean,
                "move_exp_nanmean": numbagg_move_exp_nanmean, "group_nanmean": numbagg_group_nanmean,
                "nanquantile": numbagg_nanquantile},
    "numba-stats": {"densities": numba_stats_densities},
    "fastdist": {"distances": fastdist_distances},
    "resampy": {"resample": resampy_resample},
    "tslearn": {"dtw": tslearn_dtw},
    "pvlib": {"spa": pvlib_spa},
    "librosa": {"sequence": librosa_sequence, "onsets_beats": librosa_onsets_beats, "pitch": librosa_pitch,
                "more": librosa_more},
    "sparse": {"products": sparse_products, "reductions": sparse_reductions,
               "elementwise_indexing": sparse_elementwise_indexing},
    "hapsira": {"elements_lambert": hapsira_elements_lambert, "propagators": hapsira_propagators,
                "perturbations_frames": hapsira_perturbations_frames},
    "umap-learn": {"fit_transform": umap_embedding},
    "pandas": {"numba_engine": pandas_numba_engine},
    "antropy": {"entropies": antropy_entropies},
    "aeon": {"pairwise_distances": aeon_distances},
    "fluids": {"fluids_numba": fluids_numba},
    "datashader": {"points": datashader_points, "lines": datashader_lines,
                   "antialiased_lines": datashader_antialiased_lines,
                   "meshes_shading": datashader_meshes_and_shading, "dask": datashader_dask,
                   "bundling": datashader_bundling},
    "shap": {"explainers": shap_explainers},
    "pymatting": {"alpha": pymatting_alpha, "foreground": pymatting_foreground},
    "pyod": {"detectors": pyod_detectors, "sod": pyod_sod},
    "pyts": {"dtw": pyts_dtw, "transforms": pyts_transforms, "classifiers": pyts_classifiers},
    "scanpy": {"preprocessing": scanpy_preprocessing, "metrics_ranking": scanpy_metrics_ranking},
    "decoupler": {"methods": decoupler_methods},
    "chemicals": {"chemicals_numba": chemicals_numba},
    "fast_hdbscan": {"clusters": fast_hdbscan_clusters},
    "trackpy": {"numba_engines": trackpy_numba},
    "stingray": {"timing": stingray_timing},
    "mne": {"stats_ridge_transforms": mne_numba},
    "arch": {"recursions": arch_recursions},
    "lenstronomy": {"epl_solver_convolution": lenstronomy_numba},
    "galois": {"fields_codes": galois_fields},
    "py-pde": {"solvers": py_pde_solvers},
    "thermo": {"thermo_numba": thermo_numba},
    "numpy-groupies": {"reductions": numpy_groupies_reductions, "options": numpy_groupies_options,
                       "cumulative_collect": numpy_groupies_cumulative_collect},
    "ssqueezepy": {"ssq_cwt": ssqueezepy_ssq_cwt, "stft": ssqueezepy_stft, "cwt_ridges": ssqueezepy_cwt_ridges},
    "quimb": {"core": quimb_core, "calc_evo": quimb_calc_evo, "linalg_operators": quimb_linalg_operators},
    "interpolation": {"splines": interpolation_splines},
    "sktime": {"rockets": sktime_rockets, "features": sktime_features, "distances": sktime_distances},
    "dcor": {"statistics": dcor_statistics},
    "hyppo": {"tests": hyppo_tests},
    "vectorbt": {"indicators": vectorbt_indicators, "generic": vectorbt_generic, "signals": vectorbt_signals,
                 "returns": vectorbt_returns, "from_signals": vectorbt_from_signals,
                 "from_order_func": vectorbt_from_order_func},
    "statsforecast": {"models": statsforecast_models, "intermittent": statsforecast_intermittent},
    "window-ops": {"windows": window_ops_windows, "mlforecast": window_ops_mlforecast},
    "clifford": {"products": clifford_products, "multivector_functions": clifford_multivector_functions,
                 "g3c_tools": clifford_g3c_tools, "cuda_kernels": clifford_cuda_kernels,
                 "cuda_matching": clifford_cuda_matching},
    "sgkit": {"counts_hwe": sgkit_counts_hwe, "distance_ld": sgkit_distance_ld, "popgen": sgkit_popgen,
              "pedigree": sgkit_pedigree, "gpu_distance": sgkit_gpu_distance},
    "esda": {"local": esda_local, "significance_shape": esda_significance_shape},
    "porespy": {"images": porespy_images, "network": porespy_network},
    "pysheds": {"flow": pysheds_flow, "priority_flood": pysheds_priority_flood},
    "scoringrules": {"crps": scoringrules_crps, "multivariate": scoringrules_multivariate, "more": scoringrules_more},
    "properscoring": {"scores": properscoring_scores},
    "yasa": {"staging_features": yasa_staging_features},
    "trimap": {"kernels": trimap_kernels, "fit_sd_momentum": trimap_fit_sd_momentum, "fit_dbd": trimap_fit_dbd},
    "pacmap": {"pairs": pacmap_pairs, "embedding": pacmap_embedding, "localmap": pacmap_localmap},
    "numba-kdtree": {"queries": numba_kdtree_queries},
    "numba_celltree": {"queries": numba_celltree_queries},
    "numbalsoda": {"solvers": numbalsoda_solvers},
    "numbakit-ode": {"solvers": nbkode_solvers},
    "cooltools": {"numutils": cooltools_numutils},
    "scvelo": {"velocity": scvelo_velocity},
    "xarray-einstats": {"numba": xarray_einstats_numba},
    "arviz": {"numba": arviz_numba},
    "spectrum_utils": {"processing": spectrum_utils_processing},
    "matchms": {"similarities": matchms_similarities},
    "choclo": {"prism": choclo_prism, "point_dipole": choclo_point_dipole},
    "harmonica": {"forward": harmonica_forward, "tesseroids": harmonica_tesseroids,
                  "equivalent_sources": harmonica_equivalent_sources, "progressbar": harmonica_progressbar},
    "wotan": {"sliders": wotan_sliders, "fits": wotan_fits},
    "pylops": {"radon": pylops_radon, "spread_kirchhoff": pylops_spread_kirchhoff,
               "pwd_nonstationary": pylops_pwd_nonstationary, "cuda_nonstationary": pylops_cuda_nonstationary},
    "sigpy": {"interp_gridding": sigpy_interp_gridding, "nufft_blocks": sigpy_nufft_blocks},
    "thewalrus": {"hafnians": thewalrus_hafnians, "hermite_gates": thewalrus_hermite_gates},
    "py_vollib_vectorized": {"prices_ivs": py_vollib_vectorized_prices_ivs, "greeks": py_vollib_vectorized_greeks},
    "pecanpy": {"sparse_otf": pecanpy_sparse_otf, "dense_otf": pecanpy_dense_otf,
                "precomp_first_order": pecanpy_precomp_first_order},
    "mne-features": {"univariate": mne_features_univariate, "bivariate": mne_features_bivariate,
                     "float32_kernels": mne_features_float32_kernels},
    "tensorpac": {"numba_methods": tensorpac_numba_methods},
    "pynapple": {"core": pynapple_core, "process": pynapple_process},
    "systole": {"detectors": systole_detectors, "hrv": systole_hrv},
    "csrgraph": {"walks": csrgraph_walks, "methods": csrgraph_methods, "embeddings": csrgraph_embeddings},
    "verde": {"spline": verde_spline, "vector_spline_cv": verde_vector_spline_cv},
    "opensimplex": {"arrays": opensimplex_arrays, "points": opensimplex_points},
    "pyfixest": {"demean": pyfixest_demean, "collinear_nested_ritest": pyfixest_collinear_nested_ritest},
    "transitleastsquares": {"exact": transitleastsquares_exact, "approximate": transitleastsquares_approximate,
                            "kernels": tls_kernels, "regular_cadence": tls_regular_cadence},
    "PyMPDATA": {"advection_1d": pympdata_advection_1d, "advection_2d": pympdata_advection_2d,
                 "advection_3d": pympdata_advection_3d},
    "PySDM": {"box_coalescence": pysdm_box_coalescence, "parcel_condensation": pysdm_parcel_condensation},
    "pandapower": {"newton": pandapower_newton, "other_flows": pandapower_other_flows,
                   "sc_se_3ph": pandapower_sc_se_3ph},
    "pybispectra": {"bispectrum": pybispectra_bispectrum, "ppc_aac_tde": pybispectra_ppc_aac_tde,
                    "single": pybispectra_single},
    "financepy": {"analytic": financepy_analytic, "trees_curves": financepy_trees_curves,
                  "monte_carlo": financepy_monte_carlo},
    "pandas-ta-classic": {"overlap_trend": pandas_ta_classic_overlap_trend,
                          "momentum_volatility": pandas_ta_classic_momentum_volatility,
                          "candles": pandas_ta_classic_candles},
    "hendrics": {"histograms": hendrics_histograms, "statistics": hendrics_statistics,
                 "searches": hendrics_searches, "long_double": hendrics_long_double},
    "pytransit": {"models": pytransit_models, "orbits": pytransit_orbits, "more": pytransit_more},
    "xugrid": {"regrid": xugrid_regrid, "interpolate": xugrid_interpolate, "topology": xugrid_topology},
    "pyproximal": {"simplex": pyproximal_simplex, "segment": pyproximal_segment},
    "sarkas": {"yukawa_md": sarkas_yukawa_md},
    "orix": {"conversions": orix_conversions, "misorientation_angles": orix_misorientation_angles,
             "sampling": orix_sampling},
    "kikuchipy": {"processing": kikuchipy_processing, "neighbour_average": kikuchipy_neighbour_average,
                  "simulate_index": kikuchipy_simulate_index},
    "alphatims": {"dda": alphatims_dda, "dia": alphatims_dia, "hdf": alphatims_hdf},
    "quaternionic": {"algebra": quaternionic_algebra, "converters": quaternionic_converters,
                     "interpolation": quaternionic_interpolation},
    "skan": {"summarize": skan_summarize, "graph": skan_graph},
    "squidpy": {"graph": squidpy_graph, "ligrec": squidpy_ligrec, "sepal": squidpy_sepal},
    "xarray-spatial": {"terrain": xrspatial_terrain, "focal_zonal": xrspatial_focal_zonal,
                       "classify": xrspatial_classify},
    "fast-array-utils": {"sparse": fast_array_utils_sparse},
    "libpysal": {"triangulation": libpysal_triangulation, "raster": libpysal_raster, "describe": libpysal_describe},
    "mgwr": {"gwr": mgwr_gwr, "mgwr": mgwr_mgwr},
    "pyxem": {"azimuthal": pyxem_azimuthal, "orientation": pyxem_orientation},
    "diffsims": {"atomic": diffsims_atomic, "patterns": diffsims_patterns, "discretise": diffsims_discretise},
    "skforecast": {"models": skforecast_models, "rolling_features": skforecast_rolling_features},
    "pymoo": {"age": pymoo_age},
    "ffpiv": {"piv": ffpiv_piv, "stack": ffpiv_stack, "transforms": ffpiv_transforms},
    "strax": {"pulses": strax_pulses, "peaks": strax_peaks, "hitlets": strax_hitlets, "intervals": strax_intervals,
              "merging": strax_merging},
    "iminuit": {"costs": iminuit_costs, "fits": iminuit_fits},
    "spatialpandas": {"measures": spatialpandas_measures, "intersections": spatialpandas_intersections},
    "pastas": {"recharge": pastas_recharge, "stats_noise": pastas_stats_noise},
    "sleepecg": {"heartbeats": sleepecg_heartbeats},
    "hotspotsc": {"autocorrelation": hotspotsc_autocorrelation, "local_correlations": hotspotsc_local_correlations},
    "sequence-jacobian": {"krusell_smith": sequence_jacobian_krusell_smith, "hank": sequence_jacobian_hank},
    "econ-ark": {"fast_consumers": hark_fast_consumers},
    "pyflwdir": {"from_dem": pyflwdir_from_dem, "hydrography": pyflwdir_hydrography, "upscale": pyflwdir_upscale,
                 "paths": pyflwdir_paths, "more": pyflwdir_more},
    "numpy-quaternion": {"calculus": numpy_quaternion_calculus},
    "xclim": {"fire_weather": xclim_fire_weather, "drought_factors": xclim_drought_factors,
              "converters_runs": xclim_converters_runs},
    "pointpats": {"centrography": pointpats_centrography},
    "mapclassify": {"fisher_jenks": mapclassify_fisher_jenks},
    "disba": {"dispersion": disba_dispersion, "eigen_sensitivity": disba_eigen_sensitivity},
    "fastjmd95": {"density": fastjmd95_density},
    "csr": {"matrices": csr_matrices, "compiled_api": csr_compiled_api},
    "consav": {"interpolation": consav_interpolation, "optimizers": consav_optimizers},
    "spherical": {"wigner": spherical_wigner, "modes": spherical_modes},
    "sxs": {"fluxes": sxs_fluxes, "utilities": sxs_utilities},
    "vector": {"lorentz": vector_lorentz, "coordinates": vector_coordinates},
    "ht": {"convection": ht_convection, "boiling_condensation": ht_boiling_condensation,
           "exchangers": ht_exchangers},
    "rocket-fft": {"numpy": rocket_fft_numpy, "scipy": rocket_fft_scipy, "dct_dst": rocket_fft_dct_dst,
                   "special": rocket_fft_special},
    "numba-scipy": {"special": numba_scipy_special, "sparse": numba_scipy_sparse},
    "abtem": {"potentials": abtem_potentials, "multislice": abtem_multislice},
    "rosettasciio": {"fei_stream": rosettasciio_fei_stream, "tvips": rosettasciio_tvips},
    "simpeg": {"gravity": simpeg_gravity, "magnetics": simpeg_magnetics},
    "alphabase": {"isotopes": alphabase_isotopes, "fragments": alphabase_fragments, "digest": alphabase_digest},
    "pegasuspy": {"neighbors_csi": pegasuspy_neighbors_csi, "inmf_quantile_norm": pegasuspy_inmf_quantile_norm},
    "spikeinterface": {"postprocessing": spikeinterface_postprocessing, "metrics": spikeinterface_metrics,
                       "comparison": spikeinterface_comparison},
    "frites": {"binning_mi": frites_binning_mi},
    "stardist": {"matching": stardist_matching},
    "pop-tools": {"eos": pop_tools_eos, "fill": pop_tools_fill, "grid": pop_tools_grid},
    "directlfq": {"lfq": directlfq_lfq},
    "fteikpy": {"eikonal2d": fteikpy_eikonal2d, "eikonal3d": fteikpy_eikonal3d},
    "empymod": {"dipole": empymod_dipole, "time_domain": empymod_time_domain},
    "emg3d": {"solve": emg3d_solve, "interpolation": emg3d_interpolation},
    "pythermalcomfort": {"comfort_indices": pythermalcomfort_comfort_indices,
                         "heat_stress": pythermalcomfort_heat_stress},
    "pynucastro": {"cno_network": pynucastro_cno_network, "screening_eos": pynucastro_screening_eos},
    "pyro-hydro": {"compressible": pyro_compressible, "other_solvers": pyro_other_solvers},
    "EMD-signal": {"jitemd": emd_signal_jitemd},
    "spherical_functions": {"wigner": spherical_functions_wigner},
    "scri": {"fluxes": scri_fluxes},
    "xgcm": {"transform": xgcm_transform},
    "openpnm": {"invasion": openpnm_invasion},
    "pysm3": {"emission": pysm3_emission},
    "hyperspy": {"signals": hyperspy_signals},
    "frbb": {"boosting": frbb_boosting},
    "locate-pixelcolor-numbacuda": {"search": locate_pixelcolor_numbacuda_search},
    "aquagrid": {"season": aquagrid_season},
    "numta": {"overlap_momentum": numta_overlap_momentum, "statistics_volume": numta_statistics_volume,
              "cycles_patterns": numta_cycles_patterns},
    "geofast": {"gpu_kernels": geofast_gpu_kernels},
    "skglm": {"regression": skglm_regression, "glm": skglm_glm, "group_multitask": skglm_group_multitask},
    "bm25s": {"retrieve": bm25s_retrieve},
    "ranx": {"evaluate": ranx_evaluate, "fuse": ranx_fuse},
    "claspy": {"segmentation": claspy_segmentation, "streaming_states": claspy_streaming_states},
    "fastnode2vec": {"walks": fastnode2vec_walks},
    "hftbacktest": {"market_making": hftbacktest_market_making},
    "py-fatigue": {"rainflow_damage": py_fatigue_rainflow_damage, "crack_growth": py_fatigue_crack_growth},
    "pyelastica": {"beam": pyelastica_beam, "snake": pyelastica_snake, "contact_knots": pyelastica_contact_knots},
    "swiftsimio": {"projection": swiftsimio_projection, "slices_volumes": swiftsimio_slices_volumes,
                   "ranges": swiftsimio_ranges, "fastmath_sums": swiftsimio_fastmath_sums},
    "xsdba": {"quantile_mapping": xsdba_quantile_mapping, "loess_npdf": xsdba_loess_npdf},
    "segregation": {"indices": segregation_indices},
    "geoana": {"prism_kernels": geoana_prism_kernels},
    "sectionproperties": {"analysis": sectionproperties_analysis},
    "pydsge": {"irfs_filter": pydsge_irfs_filter},
    "aotools": {"turbulence": aotools_turbulence},
    "einsteinpy": {"coordinates": einsteinpy_coordinates},
    "kalepy": {"densities": kalepy_densities},
    "pymc-bart": {"sampling": pymc_bart_sampling, "importance": pymc_bart_importance},
    "scirpy": {"distances": scirpy_distances, "chains_mutations": scirpy_chains_mutations},
    "cellrank": {"velocity_kernel": cellrank_velocity_kernel, "drivers": cellrank_drivers},
    "tacco": {"distances": tacco_distances, "co_occurrence": tacco_co_occurrence, "annotate": tacco_annotate},
    "liana": {"bivariate": liana_bivariate},
    "tsdate": {"variational_gamma": tsdate_variational_gamma, "discrete_time": tsdate_discrete_time},
    "pybaselines": {"polynomial_classification": pybaselines_polynomial_classification,
                    "splines_beads": pybaselines_splines_beads},
    "ctxcore": {"aucell": ctxcore_aucell},
    "tsinfer": {"infer": tsinfer_infer},
    "alphapept": {"fasta_chem": alphapept_fasta_chem, "search_score": alphapept_search_score},
    "pytreegrav": {"gravity": pytreegrav_gravity, "statistics": pytreegrav_statistics},
    "meshoid": {"derivatives": meshoid_derivatives, "gridding": meshoid_gridding, "radiation": meshoid_radiation},
    "sarracen": {"interpolate_3d": sarracen_interpolate_3d, "interpolate_2d": sarracen_interpolate_2d},
    "dynasor": {"structure_factors": dynasor_structure_factors},
    "qibojit": {"circuits": qibojit_circuits, "quantum_info": qibojit_quantum_info},
    "pyqmc": {"molecule": pyqmc_molecule},
    "taurex": {"forward_models": taurex_forward_models},
    "radis": {"spectra": radis_spectra},
    "autoarray": {"inversion_operators": autoarray_inversion_operators},
    "piquasso": {"fock": piquasso_fock, "sampling": piquasso_sampling},
    "miepython": {"scattering": miepython_scattering},
    "quspin": {"user_basis": quspin_user_basis},
    "pyqula": {"tight_binding": pyqula_tight_binding},
    "bztetra": {"tetrahedra": bztetra_tetrahedra},
    "baseflow": {"single": baseflow_single, "separation": baseflow_separation},
    "acoular": {"frequency_beamformers": acoular_frequency_beamformers, "deconvolution": acoular_deconvolution,
                "time_beamformers": acoular_time_beamformers},
    "uxarray": {"geometry": uxarray_geometry, "dual_calculus": uxarray_dual_calculus,
                "remap_locate": uxarray_remap_locate},
    "replay_trajectory_classification": {"decode": replay_trajectory_classification_decode,
                                         "classify": replay_trajectory_classification_classify},
    "muon": {"wnn": muon_wnn},
    "hausdorff": {"distances": hausdorff_distances},
    "dtwalign": {"alignments": dtwalign_alignments},
    "haversine": {"great_circles": haversine_great_circles},
    "sknw": {"graph": sknw_graph},
    "ta-numba": {"trend": ta_numba_trend, "momentum": ta_numba_momentum,
                 "volatility_volume": ta_numba_volatility_volume},
    "hyper-corr": {"correlations": hyper_corr_correlations},
    "sketchnu": {"hll_hashes": sketchnu_hll_hashes, "countmin_heavy": sketchnu_countmin_heavy},
    "vanilla-option-pricers": {"bsm": vanilla_option_pricers_bsm, "bsm_implied": vanilla_option_pricers_bsm_implied,
                               "bachelier": vanilla_option_pricers_bachelier},
    "foostrap": {"intervals": foostrap_intervals},
    "numba-mwu": {"tests": numba_mwu_tests},
    "hmmkay": {"discrete_hmm": hmmkay_discrete_hmm},
    "glasbey": {"palettes": glasbey_palettes},
    "timml": {"steady_flow": timml_steady_flow, "inhomogeneity": timml_inhomogeneity},
    "ttim": {"transient_flow": ttim_transient_flow, "wells": ttim_wells},
    "covasim": {"epidemic": covasim_epidemic},
    "starsim": {"diseases": starsim_diseases},
    "ctapipe": {"waveforms": ctapipe_waveforms, "image_parameters": ctapipe_image_parameters},
    "momepy": {"morphology": momepy_morphology},
    "superflexpy": {"hymod": superflexpy_hymod, "gr4j_hbv": superflexpy_gr4j_hbv},
    "scikit-gstat": {"variograms": scikit_gstat_variograms},
    "tcpyPI": {"potential_intensity": tcpypi_potential_intensity},
    "laser-core": {"sampling": laser_core_sampling},
    "wildboottest": {"cluster": wildboottest_cluster},
    "libfmp": {"fourier_features": libfmp_fourier_features, "dtw_structure": libfmp_dtw_structure,
               "tempo_hmm": libfmp_tempo_hmm},
    "synctoolbox": {"mrmsdtw": synctoolbox_mrmsdtw},
    "codex-africanus": {"terms": codex_africanus_terms, "predict": codex_africanus_predict,
                        "coordinates_dft": codex_africanus_coordinates_dft},
    "openpmd-viewer": {"deposition": openpmd_viewer_deposition},
    "wake-t": {"plasma_stages": wake_t_plasma_stages},
    "pynamical": {"maps": pynamical_maps},
    "hydrostats": {"ensembles": hydrostats_ensembles},
    "vectorizers": {"tokens": vectorizers_tokens, "distributions": vectorizers_distributions},
    "pyntcloud": {"voxels": pyntcloud_voxels},
    "evoc": {"binary_knn": evoc_binary_knn},
    "fast-cindex": {"bootstrap": fast_cindex_bootstrap},
    "lumafit": {"fits": lumafit_fits},
    "louvain-numba": {"partitions": louvain_numba_partitions},
    "nbmorph": {"labels": nbmorph_labels},
    "shapley-numba": {"games": shapley_numba_games},
    "ndfilters": {"filters": ndfilters_filters},
    "regridding": {"grids": regridding_grids},
    "numba-extinction": {"laws": numba_extinction_laws},
    "hampel-filter": {"outliers": hampel_filter_outliers},
    "numbasom": {"maps": numbasom_maps},
    "kearsley-numba": {"superposition": kearsley_numba_superposition},
    "pyakima": {"splines": pyakima_splines},
    "fast-twed": {"distances": fast_twed_distances},
    "yennefer": {"ode": yennefer_ode},
    "threej": {"symbols": threej_symbols},
    "ir-eval-numba": {"metrics": ir_eval_numba_metrics},
    "rapid-roots": {"solvers": rapid_roots_solvers},
    "graspologic": {"edge_swaps": graspologic_edge_swaps},
    "numba-integrators": {"solvers": numba_integrators_solvers},
    "fast-mine": {"statistics": fast_mine_statistics},
    "numbatalib": {"indicators": numbatalib_indicators},
    "robust-fourier": {"bases": robust_fourier_bases},
    "mrg32k3a-numba": {"streams": mrg32k3a_numba_streams, "gamma_beta": mrg32k3a_numba_gamma_beta},
    "spectres": {"resample": spectres_resample},
    "lppls": {"fits": lppls_fits},
    "ElMD": {"pettifor": elmd_pettifor, "network_simplex": elmd_network_simplex},
    "cyrk": {"nbsolve": cyrk_nbsolve, "nbsolve2": cyrk_nbsolve2},
    "flexsolve": {"bounded": flexsolve_bounded, "open": flexsolve_open},
    "gsply": {"roundtrip": gsply_roundtrip},
    "z7py": {"cells": z7py_cells},
    "enstop": {"plsa": enstop_plsa},
    "napari-graph": {"edges": napari_graph_edges},
    "chemcoord": {"zmat": chemcoord_zmat},
    "baderkit": {"bader": baderkit_bader},
    "nucs": {"problems": nucs_problems},
    "tigramite": {"cmi": tigramite_cmi},
    "lsdnumbatools": {"drainage": lsdnumbatools_drainage},
    "fast-ivf": {"search": fast_ivf_search},
    "numba-quaternion": {"rotations": numba_quaternion_rotations},
    "noblegasmd": {"argon": noblegasmd_argon},
    "modifiedotsu": {"masks": modifiedotsu_masks},
    "otsu2d": {"binary": otsu2d_binary},
    "cubic-spline": {"interpolation": cubic_spline_interpolation},
    "zsom": {"maps": zsom_maps},
    "nufftcf": {"correlations": nufftcf_correlations},
    "numba-morph": {"operations": numba_morph_operations},
    "chimeraboost": {"boosting": chimeraboost_boosting},
    "plonk": {"sph": plonk_sph},
    "exo_k": {"radiation": exo_k_radiation},
    "fastpose": {"ransac": fastpose_ransac},
    "pixerise": {"render": pixerise_render},
    "lanun": {"transport": lanun_transport},
    "scijit": {"routines": scijit_routines},
}
