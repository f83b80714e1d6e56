#!/usr/bin/env bash
# Instructions, not seconds: the instruction counts (valgrind's callgrind, Ir) of two builds of
# xcover on the same searches, and their ratio, which a loaded machine does not disturb.
# Default searches: `solve --count -t 1 --knuth` on 13-queens with organ-pipe items, Langford
# pairs 10 and 12 and 6x10 pentominoes (the refactoring check: within ±1%). Extra xcover arguments may follow `--`.
#
# Usage: bash benches/callgrind.sh OLD_BINARY NEW_BINARY [-- SOLVE_ARGS...]
set -euo pipefail
if [ $# -lt 2 ]; then
    echo "usage: $0 OLD_BINARY NEW_BINARY [-- SOLVE_ARGS...]" >&2
    exit 2
fi
old=$(realpath "$1")
new=$(realpath "$2")
shift 2
[ "${1:-}" = "--" ] && shift
args=("$@")
[ ${#args[@]} -eq 0 ] && args=(--count -t 1 --knuth)
command -v valgrind >/dev/null || { echo "callgrind.sh: valgrind not found, skipped" >&2; exit 0; }
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$old" model pentominoes >"$work/pento6x10.dlx"
"$old" model langford 10 >"$work/langford10.dlx"
"$old" model langford 12 >"$work/langford12.dlx"

instructions() { # BINARY FILE -> Ir
    valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$1" solve "${args[@]}" "$2" \
        >"$work/answer" 2>"$work/log"
    grep -E '^(summary|totals):' "$work/cg.out" | head -1 | awk '{print $2}'
}

printf '%-22s %16s %16s %8s\n' instance old new new/old
for file in "$here/examples/data/queens13.dlx" "$work/langford10.dlx" "$work/langford12.dlx" "$work/pento6x10.dlx"; do
    a=$(instructions "$old" "$file"); answer_old=$(cat "$work/answer")
    b=$(instructions "$new" "$file"); answer_new=$(cat "$work/answer")
    if [ "$answer_old" != "$answer_new" ]; then
        echo "callgrind.sh: the answers differ on $file: $answer_old vs $answer_new" >&2
        exit 1
    fi
    printf '%-22s %16s %16s %8s\n' "$(basename "$file" .dlx)" "$a" "$b" \
        "$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f", b / a }')"
done
