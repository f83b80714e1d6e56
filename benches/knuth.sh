#!/usr/bin/env bash
# Side by side: xcover's release binary against Knuth's exact-cover programs DLX2, DLX3, SSXCC
# and DLX6, on the benchmark set and on the suite (docs/performance.md, "Against Knuth's
# programs" and "The suite").
#
#   benches/knuth.sh [DIR]
#
# DIR (default: $KNUTH_BIN, else target/knuth) holds the executables `dlx2`, `ssxcc` and,
# optionally, `dlx3` and `dlx6`, built by you from Knuth's published CWEB programs; this
# repository holds none of his code and no recipe for building it. Without DIR, or without
# `dlx2` and `ssxcc` in it, the script says so and exits 0.
#
# The benchmark set (six instances) is written by `xcover model` into target/knuth/instances/;
# the suite by `python3 benches/suite/gen.py` into target/suite/instances/ (its counts, and the
# second method that checked each, are in benches/suite/counts.csv). Every solver counts all
# solutions of the same file (Knuth's programs read it on stdin, as they read any DLX file;
# DLX6 writes its ZDD to /dev/null), one thread, and the runs alternate: round after round,
# each round running every solver once. Solvers: xcover's default, `--knuth`, `--memo off`,
# `--memo on`; Knuth's DLX2, SSXCC and DLX6 on problems without multiplicities, DLX3 on those
# with them (his programs count in 64 bits: on an instance with 2^64 solutions or more they are
# not run). A run that takes longer than KNUTH_TIMEOUT is killed and shown as `>T` (and that
# solver is not run again on that instance).
#
# The table gives the median CPU seconds, user and system, of each run (benches/cputime.py;
# every run is one thread; process start and input included, for every solver alike; an empty
# process timed the same way is printed first, the floor of every time, and the instances where
# it is over 0.8 of SSXCC's are named at the end), the ratio xcover default ÷ each solver's time
# (below 1: xcover is faster) and the search-tree nodes each reports (xcover's with --stats). Every finished count is checked
# against counts.csv (the benchmark set: against each other); a wrong count is printed and the
# script exits 1 at the end. Then a summary, one row per instance: the default ÷ the best of
# `--knuth`, `--memo on` and `--memo off`, and the default ÷ SSXCC, with their medians over the
# instances where both finished, for all instances and for the tuning and the aside set. The
# machine's load (uptime) is printed before and after, and its capacity for two jobs: a spin
# loop timed alone and two at once (2.00: two cores free).
#
# Environment: XCOVER (default target/release/xcover, built if missing), KNUTH_REPS (rounds,
# default 3; five times as many on an instance whose every run of the first round is under
# 0.1 s), KNUTH_WORDS (the word list, default ../shared/reference/words-240x4.txt),
# KNUTH_ONLY (a substring: run only the instances whose name has it), KNUTH_TIMEOUT (seconds
# per run, default 600), KNUTH_SUITE (0: the benchmark set only; `only`: the suite only),
# KNUTH_CLOCK (`wall`: wall-clock seconds instead of CPU seconds).

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
suite=${KNUTH_SUITE:-1}
clock=${KNUTH_CLOCK:-cpu}
counts=benches/suite/counts.csv
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

# run SOLVER FILE: prints "seconds solutions nodes"; seconds ">T" when the run was killed
# after KNUTH_TIMEOUT, "failed" when it ended with an error.
run() {
    local solver=$1 file=$2 err cpu wall rc command
    err=$(mktemp)
    local count=("$xcover" solve --count --stats -t 1)
    case $solver in
        xcover) command=("${count[@]}" "$file") ;;
        xc-knuth) command=("${count[@]}" --knuth "$file") ;;
        xc-memo-off) command=("${count[@]}" --memo off "$file") ;;
        xc-memo-on) command=("${count[@]}" --memo on "$file") ;;
        # An empty process (`true`, run as the others are): the floor of every time here.
        empty) command=(true) ;;
        *) command=("$dir/$solver") ;;
    esac
    read -r cpu wall rc < <(python3 benches/cputime.py "$limit" "$file" /dev/null "$err" -- "${command[@]}")
    local t=$cpu
    [[ $clock == wall ]] && t=$wall
    if ((rc == 124)); then
        echo ">T - -"
    elif ((rc != 0)); then
        echo "failed - -"
    else
        # "Altogether N solutions, ..., M nodes" (DLX6: "M search nodes").
        awk -v t="$t" '/^Altogether/ {
                s = $2; n = "-";
                for (i = 1; i <= NF; i++) if ($i ~ /^nodes/ && $(i-1) ~ /^[0-9]+$/) n = $(i-1);
                for (i = 1; i <= NF; i++) if ($i == "search" && $(i+1) ~ /^nodes/) n = $(i-1);
                print t, s, n; found = 1 }
            END { if (!found) print t, "?", "-" }' "$err"
    fi
    rm -f "$err"
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.4f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# A spin loop of fixed work, timed in seconds.
spin() {
    local start end
    start=$(date +%s.%N)
    awk 'BEGIN { for (i = 0; i < 3e7; i++) s += i; exit }'
    end=$(date +%s.%N)
    awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }'
}

capacity() {
    local one two a b
    one=$(spin)
    a=$(mktemp)
    b=$(mktemp)
    spin >"$a" &
    spin >"$b" &
    wait
    two=$(awk -v x="$(cat "$a")" -v y="$(cat "$b")" 'BEGIN { print (x > y ? x : y) }')
    rm -f "$a" "$b"
    awk -v one="$one" -v two="$two" 'BEGIN { printf "spin loop alone %.3f s, two at once %.3f s: capacity for two jobs %.2f\n", one, two, 2 * one / two }'
}

# ratio A B: A ÷ B; ">X" when A timed out (X = limit ÷ B), "-" when B did.
ratio() {
    if [[ -z $2 || $2 == ">T" ]]; then
        echo -
    elif [[ $1 == ">T" ]]; then
        awk -v a="$limit" -v b="$2" 'BEGIN { printf ">%.2f", a / b }'
    else
        awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'
    fi
}

bad=0
summary=()

# bench NAME FILE EXPECTED KIND: every solver on FILE; EXPECTED the count ("" to check
# against xcover's), KIND `tune`, `aside` or `set` (the benchmark set).
bench() {
    local name=$1 file=$2 expected=$3 kind=$4 s t n k m base best bestname ss
    local solvers=(xcover xc-knuth xc-memo-off xc-memo-on)
    local big=0
    if [[ -n $expected ]] && awk -v c="$expected" 'BEGIN { exit !(length(c) > 20 || (length(c) == 20 && c >= "18446744073709551616")) }'; then
        big=1
    fi
    if ((big)); then
        :
    elif sed -n '/^[[:space:]]*[^|[:space:]]/{p;q}' "$file" | grep -q '[0-9]|[^[:space:]]'; then
        [[ -x "$dir/dlx3" ]] && solvers+=(dlx3)
    else
        solvers+=(dlx2 ssxcc)
        [[ -x "$dir/dlx6" ]] && solvers+=(dlx6)
    fi
    declare -A times=() sols=() nodes=()
    local rounds=$reps
    for ((round = 1; round <= rounds; round++)); do
        for s in "${solvers[@]}"; do
            # A solver killed once is not run again: it is `>T` on this instance.
            [[ ${times[$s]:-} == *">T"* ]] && continue
            read -r t n k < <(run "$s" "$file")
            times[$s]+="$t "
            if [[ $t != ">T" && $t != failed ]]; then
                sols[$s]=$n
                nodes[$s]=$k
            fi
        done
        # Short instances (every run of the first round under 0.1 s, none killed) get five
        # times the rounds: their medians are of a few milliseconds, where one run's noise
        # would decide a ratio, and the extra rounds cost a second or two.
        if ((round == 1)) && tr ' ' '\n' <<<"${times[*]}" | grep -v '^$' |
            awk '$1 == ">T" || $1 == "failed" || $1 >= 0.1 { long = 1 } END { exit long }'; then
            rounds=$((reps * 5))
        fi
    done
    # The benchmark set: the counts are checked equal, against the first solver that finished.
    if [[ -z $expected ]]; then
        for s in "${solvers[@]}"; do
            if [[ -n ${sols[$s]:-} ]]; then
                expected=${sols[$s]}
                break
            fi
        done
    fi
    declare -A med=()
    for s in "${solvers[@]}"; do
        if grep -q failed <<<"${times[$s]}"; then
            printf '%-18s %-12s %34s %12s %10s %8s\n' "$name" "$s" failed - - -
            echo "$name: $s failed" >&2
            bad=$((bad + 1))
            continue
        fi
        if grep -q '>T' <<<"${times[$s]}"; then
            med[$s]=">T"
            printf '%-18s %-12s %34s %12s %10s %8s\n' "$name" "$s" - - ">$limit" -
            continue
        fi
        m=$(tr ' ' '\n' <<<"${times[$s]}" | grep -v '^$' | median)
        med[$s]=$m
        printf '%-18s %-12s %34s %12s %10.3f' "$name" "$s" "${sols[$s]}" "${nodes[$s]}" "$m"
        if [[ ${med[xcover]} == ">T" ]]; then
            printf ' %8s\n' ">T"
        else
            printf ' %8.2f\n' "$(awk -v a="${med[xcover]}" -v b="$m" 'BEGIN { print a / b }')"
        fi
        if [[ "${sols[$s]}" != "$expected" ]]; then
            echo "$name: $s counts ${sols[$s]} solutions, expected $expected" >&2
            bad=$((bad + 1))
        fi
    done
    if ((big)); then
        echo "$name: Knuth's programs not run: $expected solutions do not fit in their 64-bit count"
    fi
    # The default against the best of its options, and against SSXCC.
    best=""
    bestname=-
    for s in xc-knuth xc-memo-off xc-memo-on; do
        m=${med[$s]:-">T"}
        [[ $m == ">T" ]] && continue
        if [[ -z $best ]] || awk -v a="$m" -v b="$best" 'BEGIN { exit !(a < b) }'; then
            best=$m
            bestname=$s
        fi
    done
    base=${med[xcover]:-">T"}
    ss=${med[ssxcc]:-}
    summary+=("$(printf '%-18s %-6s %10s %10s %-12s %8s %10s %8s' "$name" "$kind" "$base" \
        "${best:->T}" "$bestname" "$(ratio "$base" "$best")" "${ss:--}" "$(ratio "$base" "$ss")")")
}

echo "xcover: $xcover ($("$xcover" --version)); Knuth's programs: $dir; $reps rounds; timeout ${limit}s; $clock seconds"
echo "load before: $(uptime)"
capacity
# The floor: an empty process timed as every solver is (21 runs, the median). Where SSXCC's
# time is under floor ÷ 0.8, no program is 0.8 times SSXCC's time in this measurement.
floor=$(for ((i = 0; i < 21; i++)); do run empty /dev/null | awk '{ print $1 }'; done | median)
echo "an empty process (true), timed as the solvers are: $floor s"
printf '%-18s %-12s %34s %12s %10s %8s\n' instance solver solutions nodes median-s "xc/peer"
if [[ $suite != only ]]; then
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
        bench "$name" "$file" "" set
    done
fi
if [[ $suite != 0 ]]; then
    python3 benches/suite/gen.py --xcover "$xcover" --only "$only"
    while IFS=, read -r name family kind count check; do
        [[ $name == instance ]] && continue
        if [[ -n "$only" && "$name" != *"$only"* ]]; then
            continue
        fi
        bench "$name" "target/suite/instances/$name.dlx" "$count" "$kind"
    done <"$counts"
fi
echo
echo "The default ÷ the best of --knuth, --memo off, --memo on (which: 'best'), and ÷ SSXCC;"
echo "'>T' a run killed after ${limit}s, '>x' a ratio bounded by it."
printf '%-18s %-6s %10s %10s %-12s %8s %10s %8s\n' instance set default best which ratio ssxcc ratio
for row in "${summary[@]}"; do
    echo "$row"
done
for which in all tune aside set; do
    printf '%s\n' "${summary[@]}" | awk -v w="$which" '
        w == "all" || $2 == w {
            if ($6 ~ /^[0-9.]+$/) a[++na] = $6
            if ($8 ~ /^[0-9.]+$/) b[++nb] = $8
            n++
        }
        function med(v, k,   i, j, t) {
            for (i = 2; i <= k; i++) { t = v[i]; for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
            return k == 0 ? "-" : (k % 2 ? v[(k + 1) / 2] : sprintf("%.2f", (v[k / 2] + v[k / 2 + 1]) / 2))
        }
        END { if (n) printf "median (%s, %d instances): default ÷ best %s (over %d), default ÷ SSXCC %s (over %d)\n", w, n, med(a, na), na, med(b, nb), nb }'
done
printf '%s\n' "${summary[@]}" | awk -v f="$floor" '$7 ~ /^[0-9.]+$/ && f / $7 > 0.8 {
    printf "%s: an empty process takes %.2f of SSXCC'"'"'s time (%s s of %s): under 0.8 cannot be measured here\n", $1, f / $7, f, $7 }'
echo "load after: $(uptime)"
capacity
if ((bad)); then
    echo "benches/knuth.sh: $bad wrong count(s) or failed run(s)" >&2
    exit 1
fi
