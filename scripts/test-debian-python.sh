#!/usr/bin/env bash
# The whole test suite on a Python this machine's distribution does not ship
# (3.14 by default), taken from Debian unstable: a minimal Debian unstable
# system made with debootstrap under build/debian-<suite>/, with that
# Python, LLVM 19 and a compiler from Debian's packages; ruchey (the
# committed HEAD) is built and tested inside it with chroot. Needs root and
# Debian's package mirror; about 1 GB of disk.
#
# VERSION is the Python (3.14); SUITE the Debian suite that has it (sid);
# NUMPY the NumPy requirement (numpy>=2); MIRROR the Debian mirror.
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=${VERSION:-3.14}
SUITE=${SUITE:-sid}
NUMPY=${NUMPY:-numpy>=2}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
root=$PWD/build/debian-$SUITE
# a mirror frozen at a date serves Release files past their Valid-Until
apt="apt-get -q -o Acquire::Check-Valid-Until=false"

if [ "$(id -u)" != 0 ]; then
  echo "test-debian-python.sh makes a chroot: run it as root" >&2
  exit 1
fi
command -v debootstrap >/dev/null 2>&1 || $apt install -y debootstrap

if [ ! -x "$root/usr/bin/apt-get" ]; then
  rm -rf "$root"
  debootstrap --variant=minbase "$SUITE" "$root" "$MIRROR"
fi

mounted=()
unmount_all() { for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount "${mounted[i]}" || true; done; }
trap unmount_all EXIT
for m in proc dev dev/pts; do  # /dev/pts: the REPL tests' pseudo-terminals
  mountpoint -q "$root/$m" || { mount --bind "/$m" "$root/$m"; mounted+=("$root/$m"); }
done
# the host's certificate authorities (a proxy's among them) and resolver;
# the folder is made here, before ca-certificates is installed
cp /etc/resolv.conf "$root/etc/resolv.conf"
mkdir -p "$root/usr/local/share/ca-certificates"
cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/" 2>/dev/null || true

# pip trusts the system's authorities (its own bundle lacks the host's)
in_root() { chroot "$root" env -i PATH=/venv/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
  PIP_CERT=/etc/ssl/certs/ca-certificates.crt bash -c "$1"; }

in_root "$apt update && DEBIAN_FRONTEND=noninteractive $apt install -y --no-install-recommends \
  python$VERSION python$VERSION-venv python$VERSION-dev llvm-19-dev libzstd-dev zlib1g-dev \
  build-essential ca-certificates && update-ca-certificates >/dev/null"

rm -rf "$root/src" && mkdir "$root/src"
git archive HEAD | tar -x -C "$root/src"
[ -x "$root/venv/bin/python" ] || in_root "python$VERSION -m venv /venv"
in_root "pip install -q --disable-pip-version-check '$NUMPY' scipy pytest pytest-xdist hypothesis \
  meson-python meson ninja"
in_root "cd /src && pip install -q --disable-pip-version-check --no-build-isolation -Cbuild-dir=/build . &&
  python -c 'import numpy, sys; print(\"   Python\", sys.version.split()[0], \"NumPy\", numpy.__version__)'"
# the tests that failed run once more, alone, as make test does
in_root "cd /src && { python -m pytest -q -n auto --dist loadfile tests ||
  python -m pytest -q --last-failed --last-failed-no-failures none tests; } &&
  python -m pytest -q -p no:cacheprovider docs"
