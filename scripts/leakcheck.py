"""Runs a command under LeakSanitizer and fails if a leak comes from ruchey.

CPython itself leaves some objects allocated at exit; those reports are
expected. A leak whose allocation stack passes through ruchey's code (the
extension, libruchey, or memory compiled code allocates) is not.

    python3 scripts/leakcheck.py python3 -m pytest tests -q
"""
import glob
import os
import re
import subprocess
import sys

OURS = re.compile(r"ruchey|_core\.cpython|rt_alloc|fe_read_function|box_array|dispatcher_|add_spec")


def find_lsan():
    for pattern in ("/usr/lib/*-linux-gnu/liblsan.so*", "/usr/lib/gcc/*/*/liblsan.so"):
        found = sorted(glob.glob(pattern))
        if found:
            return found[0]
    return None


def leak_reports(text):
    """The leak reports of an LSan log, one string each."""
    return re.findall(r"(?:Direct|Indirect) leak of .*?(?=\n\n|\Z)", text, re.S)


def main(argv):
    lsan = find_lsan()
    if not lsan:
        print("leakcheck: liblsan not found (Debian: gcc's liblsan0)", file=sys.stderr)
        return 2
    log = os.path.abspath("build/lsan")
    os.makedirs("build", exist_ok=True)
    for old in glob.glob(log + ".*"):
        os.remove(old)
    env = dict(os.environ, LD_PRELOAD=lsan, PYTHONMALLOC="malloc",
               LSAN_OPTIONS=f"malloc_context_size=40:exitcode=0:log_path={log}")
    rc = subprocess.call(argv[1:], env=env)
    ours = [r for path in glob.glob(log + ".*") for r in leak_reports(open(path).read()) if OURS.search(r)]
    for r in ours:
        print(r, "\n")
    print(f"leakcheck: command exit status {rc}; {len(ours)} leak(s) from ruchey")
    return 1 if rc or ours else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
