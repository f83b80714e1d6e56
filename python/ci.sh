#!/usr/bin/env bash
# Builds the Python package from this folder as a wheel (abi3: one wheel for CPython 3.9 and
# later) and an sdist, installs the wheel into a fresh virtual environment without compiling
# anything, and runs the test suite against that installation.
# Usage: python/ci.sh   (from anywhere; PYTHON picks the interpreter, default python3)
# The wheel and the sdist are left in python/dist/. The CLI comparison tests use
# ../target/release/xcover or ../target/debug/xcover when built; the notebook test needs
# Jupyter (nbconvert, nbformat, ipykernel), installed here into the test environment.
# The wheel's install time (numpy's download included) is printed; with WHEEL_INSTALL_LIMIT=S
# set, an install of S seconds or more fails (a measurement on a quiet machine, not a CI gate:
# the download's speed is the network's).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
py="${PYTHON:-python3}"
start=$(date +%s)
work="$(mktemp -d "${TMPDIR:-/tmp}/dancelinks-ci.XXXXXX")"
trap 'rm -rf "$work"' EXIT
quiet=(--quiet --disable-pip-version-check)

echo "python/ci.sh: build environment (maturin)"
"$py" -m venv "$work/build"
"$work/build/bin/python" -m pip install "${quiet[@]}" "maturin>=1.9,<2"

echo "python/ci.sh: wheel and sdist"
rm -rf "$here/dist"
(cd "$here" && "$work/build/bin/maturin" build --release --quiet --out dist)
(cd "$here" && "$work/build/bin/maturin" sdist --out dist)
wheels=("$here"/dist/dancelinks-*-abi3-*.whl)
if [ ! -f "${wheels[0]}" ] || [ ! -f "$(echo "$here"/dist/dancelinks-*.tar.gz)" ]; then
    echo "python/ci.sh: no abi3 wheel or no sdist in $here/dist:" >&2
    ls -l "$here/dist" >&2
    exit 1
fi
ls -l "$here/dist"

echo "python/ci.sh: the wheel into a fresh environment, binaries only (no compiler)"
"$py" -m venv "$work/test"
tpy="$work/test/bin/python"
t0=$(date +%s.%N)
# --only-binary: pip may not build anything (numpy included); no compiler is on the path.
PATH="$work/test/bin:/usr/bin:/bin" CARGO=/bin/false RUSTC=/bin/false \
    "$tpy" -m pip install "${quiet[@]}" --only-binary=:all: "${wheels[0]}"
t1=$(date +%s.%N)
install_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
echo "python/ci.sh: wheel installed in ${install_s} s"
limit="${WHEEL_INSTALL_LIMIT:-}"
if [ -n "$limit" ] && awk -v s="$install_s" -v l="$limit" 'BEGIN { exit !(s >= l) }'; then
    echo "python/ci.sh: installing the wheel took ${install_s} s, not under ${limit} s" >&2
    exit 1
fi

echo "python/ci.sh: test dependencies (pytest; pandas, tqdm and Jupyter for the optional tests)"
"$tpy" -m pip install "${quiet[@]}" pytest pandas tqdm nbconvert nbformat ipykernel

# From the tests' folder, so that `import dancelinks` finds the installed package, not the
# source folder beside them (which lacks the native module).
cd "$here/tests"
"$tpy" -c "import dancelinks, sys; assert dancelinks.count(8) == 92; \
assert dancelinks.__file__.startswith('$work/test'), dancelinks.__file__"
"$tpy" -m pytest -q -p no:cacheprovider
echo "python/ci.sh: passed in $(( $(date +%s) - start )) s"
