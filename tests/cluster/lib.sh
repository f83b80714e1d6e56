# Shared by tests/cluster/slurm.sh and tests/cluster/parallel.sh (sourced, not run).

set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
DOC="$REPO/docs/cluster.md"
START=$SECONDS

say() { echo "== $(basename "$0"): $*"; }
die() {
    echo "FAIL $(basename "$0"): $*" >&2
    exit 1
}

# The fenced block after `<!-- cluster-test: NAME -->` in docs/cluster.md, as written.
recipe() {
    local out
    out=$(awk -v tag="<!-- cluster-test: $1 -->" '
        $0 == tag { armed = 1; next }
        armed && !inside && /^```/ { inside = 1; next }
        inside && /^```/ { exit }
        inside { print }
    ' "$DOC")
    [ -n "$out" ] || die "no block '$1' in $DOC"
    printf '%s\n' "$out"
}

# Installs Debian packages that are missing (apt-get update only when needed).
need_packages() {
    local missing=()
    for p in "$@"; do
        dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    say "installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    if ! timeout 300 apt-get install -y -q "${missing[@]}" >/tmp/xcover-apt.log 2>&1; then
        timeout 300 apt-get update -q >>/tmp/xcover-apt.log 2>&1 || true
        timeout 300 apt-get install -y -q "${missing[@]}" >>/tmp/xcover-apt.log 2>&1 ||
            { cat /tmp/xcover-apt.log >&2; die "cannot install ${missing[*]}"; }
    fi
}

# A work directory with `xcover` on PATH and the pentomino files; sets WORK.
setup_work() {
    local bin=${XCOVER:-$REPO/target/release/xcover}
    if [ ! -x "$bin" ]; then
        say "building the release binary"
        (cd "$REPO" && cargo build --release -q) || die "cargo build --release failed"
    fi
    WORK=$(mktemp -d /tmp/xcover-cluster.XXXXXX)
    mkdir -p "$WORK/bin"
    ln -s "$bin" "$WORK/bin/xcover"
    export PATH="$WORK/bin:$PATH"
    cp "$REPO"/tests/data/pentominoes-6x10*.dlx "$WORK/"
}

# Checks that the merged total record in FILE says WANT solutions.
check_total() {
    local file=$1 want=$2 got
    [ -s "$file" ] || die "no total in $file"
    got=$(sed -n 's/.*"solutions":\([0-9]*\).*/\1/p' "$file" | head -n 1)
    [ "$got" = "$want" ] || die "$file: $got solutions, want $want ($(cat "$file"))"
    say "$file: $got solutions (ok)"
}
