#!/usr/bin/env bash
# Two builds of xcover give the same answers: a fixed set of commands (every subcommand, every
# format, errors included) run with both binaries, stdout, stderr and the exit code compared
# byte for byte once timings are masked (every decimal fraction becomes F, a shard record's
# check sum, which covers its seconds, becomes H; a command whose output varies between two runs
# of the old binary is compared with every number masked). For a refactoring that must change
# nothing.
#
# Usage: bash benches/same_outputs.sh OLD_BINARY NEW_BINARY
# Prints one line per differing command and the tally; exits 1 when any differs.
set -uo pipefail
if [ $# -ne 2 ]; then
    echo "usage: $0 OLD_BINARY NEW_BINARY" >&2
    exit 2
fi
old=$(realpath "$1")
new=$(realpath "$2")
here=$(cd "$(dirname "$0")/.." && pwd)
data=$here/examples/data
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

# Inputs made once, by the old binary (both read the same files).
"$old" model langford 7 >langford7.dlx
"$old" model pentominoes 3x20 >pento3x20.dlx
"$old" model queens 8 >queens8.dlx
"$old" model matchings 8 >k8.dlx
"$old" model word-squares "$data/words3.txt" >words3.dlx
"$old" model edge-matching 3x3 --colours 3 --seed 2 >edge3.dlx
"$old" model dominoes 4 4 >dominoes.dlx 2>/dev/null || cp "$data/multiplicity.dlx" dominoes.dlx
"$old" queens random 8 --boards 3 --seed 1 >boards3.txt
"$old" queens random 10 --boards 1 --seed 4 --min -9 --max 9 >board10.txt
printf 'p q\np\nq\np q\nq r\n' >unknown.dlx
printf 'p q | x\np x:A\nq x:B\nq x:A\n' >colour.dlx
printf '2\n1 2\n3 4\n' >badweights.txt

commands=(
    # solve: counting
    "solve --count $data/queens13.dlx"
    "solve --count --knuth $data/queens13.dlx"
    "solve --count --memo off $data/queens13.dlx"
    "solve --count --memo on $data/queens13.dlx"
    "solve --count --stats -t 1 $data/queens13.dlx"
    "solve --count --stats -t 1 --knuth $data/queens13.dlx"
    "solve --count --stats -t 1 --memo on langford7.dlx"
    "solve --count --stats -t 1 --memo off langford7.dlx"
    "solve --count -t 2 pento3x20.dlx"
    "solve --count -t 2 --memo off pento3x20.dlx"
    "solve --count --preprocess pento3x20.dlx"
    "solve --count --format json --stats -t 1 langford7.dlx"
    "solve --count --format csv langford7.dlx"
    "solve --count --nodes 100 -t 1 $data/queens13.dlx"
    "solve --count --mems 100000 -t 1 $data/queens13.dlx"
    "solve --count --stats --nodes 1000 -t 1 --memo off pento3x20.dlx"
    "solve --count k8.dlx"
    "solve --count --memo-mem 64K k8.dlx"
    "solve --count words3.dlx"
    "solve --count --knuth words3.dlx"
    "solve --count edge3.dlx"
    "solve --count $data/taocp-colour.dlx"
    "solve --count $data/multiplicity.dlx"
    "solve --count dominoes.dlx"
    "solve --count colour.dlx"
    # solve: the diagram, samples, marginals and estimates
    "solve --zdd zdd.txt --stats langford7.dlx"
    "solve --zdd - queens8.dlx"
    "solve --zdd - $data/taocp-colour.dlx"
    "solve --sample 3 --seed 5 pento3x20.dlx"
    "solve --sample 4 --seed 1 --format csv queens8.dlx"
    "solve --sample 2 --seed 2 --format json edge3.dlx"
    "solve --marginals queens8.dlx"
    "solve --marginals --format csv langford7.dlx"
    "solve --marginals --format json words3.dlx"
    "solve --estimate pento3x20.dlx"
    "solve --count --stats -t 1 pento3x20.dlx"
    "solve --count --stats -t 1 k8.dlx"
    "solve --count --stats -t 1 dominoes.dlx"
    "solve --count --stats -t 1 edge3.dlx"
    "solve --count --stats -t 1 --knuth langford7.dlx"
    "solve --count --stats -t 1 $data/multiplicity.dlx"
    # solve: listing
    "solve $data/taocp-colour.dlx"
    "solve --format csv $data/taocp-colour.dlx"
    "solve --format json $data/taocp-colour.dlx"
    "solve --limit 3 langford7.dlx"
    "solve --limit 3 --format csv langford7.dlx"
    "solve --limit 3 --format json --stats langford7.dlx"
    "solve --limit 5 -t 2 queens8.dlx"
    "solve -t 2 --format csv queens8.dlx"
    "solve --knuth --limit 4 queens8.dlx"
    "solve --preprocess --limit 4 queens8.dlx"
    "solve --stats --limit 2 words3.dlx"
    "solve --limit 2 edge3.dlx"
    "solve $data/multiplicity.dlx"
    "solve --format json $data/multiplicity.dlx"
    "solve colour.dlx"
    "solve --nodes 50 queens8.dlx"
    # solve: costs
    "solve --minimize $data/costs.dlx"
    "solve --maximize $data/costs.dlx"
    "solve --minimize --top 3 $data/costs.dlx"
    "solve --minimize --format csv --top 2 $data/costs.dlx"
    "solve --minimize --format json --stats $data/costs.dlx"
    "solve --maximize -t 2 --format json $data/costs.dlx"
    # solve: shards and merge
    "solve --count --shard 1/3 --format json pento3x20.dlx"
    "solve --count --shard 2/3 --format csv pento3x20.dlx"
    "solve --count --shard 3/3 pento3x20.dlx"
    "solve --minimize --shard 1/2 --format json $data/costs.dlx"
    "merge $data/q8-shard-1-of-3.json $data/q8-shard-2-of-3.json $data/q8-shard-3-of-3.json"
    "merge --format json $data/q8-shard-1-of-3.json $data/q8-shard-2-of-3.json $data/q8-shard-3-of-3.json"
    "merge --format csv $data/q8-shard-1-of-3.json $data/q8-shard-2-of-3.json $data/q8-shard-3-of-3.json"
    "merge $data/q8-shard-1-of-3.json $data/q8-shard-2-of-3.json"
    "queens merge $data/q8-shard-1-of-3.json $data/q8-shard-1-of-3.json $data/q8-shard-2-of-3.json $data/q8-shard-3-of-3.json"
    # solve: errors
    "solve --count $data/unknown-item.dlx"
    "solve --count unknown.dlx"
    "solve --count missing.dlx"
    "solve --memo on --shard 1/2 --count queens8.dlx"
    "solve --memo on queens8.dlx"
    "solve --count --memo-mem 1 queens8.dlx"
    "solve --minimize --count queens8.dlx"
    "solve --shard 4/3 --count queens8.dlx"
    # queens count
    "queens count 8"
    "queens count 12"
    "queens count 12 --unique"
    "queens count 10 --engine dlx"
    "queens count 10 --engine dlx --unique"
    "queens count 11 --format json --stats"
    "queens count 11 --format csv"
    "queens count 9 --symmetry none"
    "queens count 13 -t 2"
    "queens count 14 --estimate"
    "queens count 10 --shard 1/2 --format json"
    "queens count 10 --shard 2/2 --format csv"
    "queens count 0"
    "queens count 1"
    "queens count 3"
    "queens count 40"
    # queens list
    "queens list 6"
    "queens list 8 --limit 3"
    "queens list 8 --limit 3 --format csv"
    "queens list 8 --limit 3 --format json"
    "queens list 8 --unique"
    "queens list 8 --unique --format csv"
    "queens list 8 --order lex --limit 5"
    "queens list 8 --engine dlx --limit 5"
    "queens list 9 -t 2 --limit 7 --format csv"
    "queens list 5 --format svg"
    "queens list 2"
    # queens heatmap
    "queens heatmap 6"
    "queens heatmap 8 --format csv"
    "queens heatmap 8 --format json"
    "queens heatmap 8 --unique"
    "queens heatmap 6 --format svg"
    # queens max
    "queens max boards3.txt"
    "queens max --board boards3.txt"
    "queens max --board --format csv boards3.txt"
    "queens max --board --format json --stats boards3.txt"
    "queens max --all-optimal --format csv boards3.txt"
    "queens max --top 3 --format csv boards3.txt"
    "queens max --method assignment boards3.txt"
    "queens max --method lagrangian boards3.txt"
    "queens max --method maxima --format csv boards3.txt"
    "queens max --method generic boards3.txt"
    "queens max --method enumerate boards3.txt"
    "queens max --method bb boards3.txt"
    "queens max -n 10 board10.txt"
    "queens max -n 10 --board --format json board10.txt"
    "queens max --shard 1/2 --format json board10.txt"
    "queens max --shard 2/2 board10.txt"
    "queens max --shard 1/2 --format json boards3.txt"
    "queens max --format svg --board boards3.txt"
    "queens max $data/boards-8.txt"
    "queens max --board $data/board-1-64.txt"
    "queens max badweights.txt"
    # queens random
    "queens random 8"
    "queens random 5 --boards 3 --seed 9 --min -5 --max 5"
    # model
    "model langford 7"
    "model langford 4"
    "model pentominoes 3x20"
    "model queens 6"
    "model matchings 6"
    "model sudoku ..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9"
    "model word-squares $data/words3.txt"
    "model macmahon 2x3 --colours 2"
    "model dominoes 2 4"
    "model sudoku ..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9 --solve"
    "model langford 7 --solve --limit 2"
    "model pentominoes 3x20 --solve --limit 2"
    "model edge-matching 3x3 --colours 3 --seed 2 --solve"
    "model macmahon 2x3 --colours 2 --solve --limit 3"
    "model word-squares $data/words3.txt --solve --limit 2"
    "model macmahon 2x2 --colours 3"
    "model macmahon 2x3 --colours 2 --solve --format svg --limit 2"
    "model edge-matching 4x4 --colours 4 --seed 7"
    "model edge-matching 4x4 --colours 4 --seed 7 --solve --limit 2"
    "model edge-matching 3x3 --colours 3 --seed 2 --sample 2 --sample-seed 3"
    "model queens 8 --sample 2 --seed 4"
    "model queens 6 --marginals"
    "model queens 6 --marginals --format csv"
    "model langford 7 --marginals --format json"
    "model pentominoes 3x20 --sample 1 --seed 1"
    "model pentominoes 3x20 --sample 2 --seed 1 --format svg"
    "model langford 7 --sample 2 --seed 2 --format svg"
    # help and manual
    "--help"
    "solve --help"
    "queens max --help"
    "model --help"
    "man"
    "completions bash"
)

differ=0
same=0
varies=0
mask() { # FILES...: timings, check sums and the binaries' names masked
    sed -E -i 's/[0-9]+\.[0-9]+(e-?[0-9]+)?/F/g; s/"check":"[0-9a-f]+"/"check":H/g; s/check=[0-9a-f]+/check=H/g; s/,[0-9a-f]{16}$/,H/; s/xcover-[A-Za-z0-9_.-]+/xcover/g' "$@"
    sed -E -i "s#$(basename "$old")|$(basename "$new")#xcover#g" "$@"
}
for c in "${commands[@]}"; do
    # The old binary runs twice: a command whose output varies between two runs of one binary
    # (the default count's portfolio hands out its turns by the clock, so its node count in
    # --stats depends on the machine's speed at the time) is compared with its numbers masked.
    for side in old new again; do
        bin=$old
        [ "$side" = new ] && bin=$new
        # shellcheck disable=SC2086
        (timeout 120 "$bin" $c </dev/null >"$side.out" 2>"$side.err"; echo "exit $?" >>"$side.err")
        if [ -n "${SAME_OUTPUTS_SHOW:-}" ] && [ "$side" = old ]; then echo "$(tail -1 old.err): xcover $c"; fi
        mask "$side.out" "$side.err"
    done
    if ! cmp -s old.out again.out || ! cmp -s old.err again.err; then
        varies=$((varies + 1))
        echo "VARIES between runs of the old binary: xcover $c"
        sed -E -i 's/[0-9]+/N/g' old.out old.err new.out new.err
    fi
    if cmp -s old.out new.out && cmp -s old.err new.err; then
        same=$((same + 1))
    else
        differ=$((differ + 1))
        echo "DIFFERS: xcover $c"
        diff old.out new.out | head -5
        diff old.err new.err | head -5
    fi
done
echo "same_outputs: ${#commands[@]} commands, $same identical ($varies of them vary between two runs of the old binary and were compared with their numbers masked), $differ differ"
[ "$differ" -eq 0 ]
