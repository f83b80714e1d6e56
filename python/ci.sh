#!/usr/bin/env bash
# Builds and installs the Python package from this folder and runs its tests.
# Usage: python/ci.sh   (from anywhere; PYTHON picks the interpreter, default python3)
# The CLI comparison tests use ../target/release/xcover or ../target/debug/xcover when built.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
py="${PYTHON:-python3}"
start=$(date +%s)

"$py" -m pip install --quiet --disable-pip-version-check "maturin>=1.9,<2" numpy pytest
"$py" -m pip install --quiet --disable-pip-version-check "$here"
# From the tests' folder, so that `import dancelinks` finds the installed package, not the
# source folder beside them (which lacks the native module).
cd "$here/tests"
"$py" -c "import dancelinks; assert dancelinks.count(8) == 92"
"$py" -m pytest -q -p no:cacheprovider
echo "python/ci.sh: passed in $(( $(date +%s) - start )) s"
