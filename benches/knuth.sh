#!/usr/bin/env bash
# Side by side: xcover's release binary against Knuth's exact-cover programs DLX2, SSXCC and
# DLX6 on the benchmark set (docs/performance.md, "Against Knuth's programs").
#
#   benches/knuth.sh [DIR]
#
# DIR (default: $KNUTH_BIN, else target/knuth) holds the executables `dlx2`, `ssxcc` and,
# optionally, `dlx6`, built by you from Knuth's published CWEB programs; this repository holds
# none of his code and no recipe for building it. Without DIR, or without `dlx2` and `ssxcc`
# in it, the script says so and exits 0.
#
# Each instance is written by `xcover model` into target/knuth/instances/. Every solver counts
# all solutions of the same file (Knuth's programs read it on stdin, as they read any DLX
# file; DLX6 writes its ZDD to /dev/null), one thread, and the runs alternate: round after
# round, each round running every solver once. The table gives the median wall-clock seconds
# (process start and input included, for every solver alike), the ratio xcover default ÷
# each solver's time (below 1: xcover is faster) and the search-tree nodes each reports
# (xcover's with --stats). Counts are checked equal. The machine's load (uptime) is printed
# before and after.
#
# Environment: XCOVER (default target/release/xcover, built if missing), KNUTH_REPS (rounds,
# default 3), KNUTH_WORDS (the word list, default ../shared/reference/words-240x4.txt),
# KNUTH_ONLY (a substring: run only the instances whose name has it), KNUTH_TIMEOUT (seconds
# per run, default 600).

set -euo pipefail
cd "$(dirname "$0")/.."

dir=${1:-${KNUTH_BIN:-target/knuth}}
if [[ ! -x "$dir/dlx2" || ! -x "$dir/ssxcc" ]]; then
    echo "benches/knuth.sh: skipped: no executables dlx2 and ssxcc in '$dir' (give a directory" \
        "holding Knuth's programs built from his CWEB sources: benches/knuth.sh DIR)"
    exit 0
fi
dir=$(cd "$dir" && pwd)
xcover=${XCOVER:-target/release/xcover}
if [[ ! -x "$xcover" ]]; then
    cargo build --release --quiet
fi
reps=${KNUTH_REPS:-3}
words=${KNUTH_WORDS:-../shared/reference/words-240x4.txt}
only=${KNUTH_ONLY:-}
limit=${KNUTH_TIMEOUT:-600}
work=target/knuth/instances
mkdir -p "$work"

# name | model arguments
instances=(
    "queens13|queens 13"
    "langford12|langford 12"
    "pentominoes6x10|pentominoes 6x10"
    "wordsquares240x4|word-squares $words"
    "edgematching7x7|edge-matching 7x7 --colours 7 --seed 1"
    "macmahon4x6|macmahon 4x6"
)
solvers=(xcover xc-knuth xc-memo-off xc-memo-on dlx2 ssxcc)
if [[ -x "$dir/dlx6" ]]; then
    solvers+=(dlx6)
fi

# run SOLVER FILE: prints "seconds solutions nodes" (nodes "-" when not reported).
run() {
    local solver=$1 file=$2 err start end
    err=$(mktemp)
    start=$(date +%s.%N)
    case $solver in
        xcover) timeout "$limit" "$xcover" solve --count --stats -t 1 "$file" >/dev/null 2>"$err" ;;
        xc-knuth) timeout "$limit" "$xcover" solve --count --stats -t 1 --knuth "$file" >/dev/null 2>"$err" ;;
        xc-memo-off) timeout "$limit" "$xcover" solve --count --stats -t 1 --memo off "$file" >/dev/null 2>"$err" ;;
        xc-memo-on) timeout "$limit" "$xcover" solve --count --stats -t 1 --memo on "$file" >/dev/null 2>"$err" ;;
        *) timeout "$limit" "$dir/$solver" <"$file" >/dev/null 2>"$err" ;;
    esac || { echo "failed - -"; rm -f "$err"; return; }
    end=$(date +%s.%N)
    # "Altogether N solutions, ..., M nodes" (DLX6: "M search nodes").
    awk -v t="$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')" '/^Altogether/ {
            s = $2; n = "-";
            for (i = 1; i <= NF; i++) if ($i ~ /^nodes/ && $(i-1) ~ /^[0-9]+$/) n = $(i-1);
            for (i = 1; i <= NF; i++) if ($i == "search" && $(i+1) ~ /^nodes/) n = $(i-1);
            print t, s, n; found = 1 }
        END { if (!found) print t, "?", "-" }' "$err"
    rm -f "$err"
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "xcover: $xcover ($("$xcover" --version)); Knuth's programs: $dir; $reps rounds"
echo "load before: $(uptime)"
printf '%-18s %-12s %12s %12s %10s %8s\n' instance solver solutions nodes median-s "xc/peer"
for entry in "${instances[@]}"; do
    name=${entry%%|*}
    args=${entry#*|}
    if [[ -n "$only" && "$name" != *"$only"* ]]; then
        continue
    fi
    if [[ $name == wordsquares* && ! -f $words ]]; then
        echo "$name: skipped, no word list $words"
        continue
    fi
    file=$work/$name.dlx
    # shellcheck disable=SC2086
    "$xcover" model $args -o "$file"
    declare -A times=() sols=() nodes=()
    for ((round = 1; round <= reps; round++)); do
        for s in "${solvers[@]}"; do
            read -r t n k < <(run "$s" "$file")
            times[$s]+="$t "
            sols[$s]=$n
            nodes[$s]=$k
        done
    done
    base=$(tr ' ' '\n' <<<"${times[xcover]}" | grep -v '^$' | median)
    for s in "${solvers[@]}"; do
        if grep -q failed <<<"${times[$s]}"; then
            printf '%-18s %-12s %12s %12s %10s %8s\n' "$name" "$s" failed - "(or > $limit)" -
            continue
        fi
        m=$(tr ' ' '\n' <<<"${times[$s]}" | grep -v '^$' | median)
        ratio=$(awk -v a="$base" -v b="$m" 'BEGIN { printf "%.2f", a / b }')
        printf '%-18s %-12s %12s %12s %10.3f %8.2f\n' "$name" "$s" "${sols[$s]}" "${nodes[$s]}" "$m" "$ratio"
        if [[ "${sols[$s]}" != "${sols[xcover]}" ]]; then
            echo "$name: $s counts ${sols[$s]} solutions, xcover ${sols[xcover]}" >&2
        fi
    done
    unset times sols nodes
done
echo "load after: $(uptime)"
