"""The attributes of a compiled function that Numba users read beside
calling it: ``stats`` ... (the dispatcher's C type finds them here)."""
import collections

Stats = collections.namedtuple("Stats", ("cache_path", "cache_hits", "cache_misses"))


def stats(disp):
    """The on-disk cache's path and its hits and misses per signature
    (empty without ``cache=True``)."""
    cache = disp.__dict__.get("_cache")
    if cache is None:
        return Stats(None, collections.Counter(), collections.Counter())
    return Stats(cache.cache_path, collections.Counter(cache.hits), collections.Counter(cache.misses))
