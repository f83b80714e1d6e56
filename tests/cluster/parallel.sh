#!/usr/bin/env bash
# GNU parallel with a job log: runs the blocks of docs/cluster.md (read from the docs) for
# `solve pentominoes-6x10.dlx --count` and `queens count 15`, M = 8, with one job killed on
# purpose in the first run; checks that merge then exits 2 naming that shard, that
# `--resume-failed` runs exactly that job again, and the totals 9,356 and 2,279,184. Needs the
# distribution's `parallel` package (installed when missing, as root).
source "$(dirname "$0")/lib.sh"

command -v parallel >/dev/null 2>&1 || need_packages parallel
setup_work
trap 'rc=$?; if [ $rc -eq 0 ]; then rm -rf "$WORK" 2>/dev/null || true; fi; say "done in $((SECONDS - START)) s (exit $rc)"' EXIT

# A stand-in `xcover` first on PATH that kills itself (SIGKILL) the first time it is asked for
# shard 3, and otherwise runs the real one.
real=$(readlink -f "$WORK/bin/xcover")
mkdir -p "$WORK/killer"
cat >"$WORK/killer/xcover" <<SH
#!/bin/bash
case " \$* " in
*" --shard 3/"*)
    mark="$WORK/killed-\$(basename "\$PWD")"
    if [ ! -e "\$mark" ]; then
        touch "\$mark"
        kill -KILL \$\$
    fi
    ;;
esac
exec "$real" "\$@"
SH
chmod +x "$WORK/killer/xcover"

run_case() {
    local name=$1 cmd=$2 want=$3 dir="$WORK/$1"
    mkdir -p "$dir"
    cp "$WORK"/*.dlx "$dir/"
    say "$name: first run (shard 3 is killed)"
    (cd "$dir" && PATH="$WORK/killer:$PATH" M=8 JOBS=2 THREADS=1 NAME=$name CMD=$cmd \
        timeout 120 bash -uo pipefail -c "$(recipe parallel-run)") || true
    awk 'NR > 1 && ($7 != 0 || $8 != 0)' "$dir/$name.joblog" >"$dir/failed"
    [ "$(wc -l <"$dir/failed")" = 1 ] || die "$name: want one failed job in the log: $(cat "$dir/$name.joblog")"
    grep -q -- "--shard 3/8" "$dir/failed" || die "$name: the failed job is not shard 3: $(cat "$dir/failed")"
    [ "$(wc -l <"$dir/$name-records.jsonl")" = 7 ] || die "$name: want 7 records after the first run"
    local rc=0
    (cd "$dir" && xcover merge "$name-records.jsonl" >/dev/null 2>"$dir/merge.err") || rc=$?
    [ $rc = 2 ] || die "$name: merge of 7 shards exited $rc, want 2"
    grep -q "missing shards of 8: 3$" "$dir/merge.err" || die "$name: merge does not name shard 3: $(cat "$dir/merge.err")"
    say "$name: merge refused the incomplete run: $(head -n 1 "$dir/merge.err")"
    say "$name: --resume-failed"
    (cd "$dir" && M=8 JOBS=2 THREADS=1 NAME=$name CMD=$cmd \
        timeout 120 bash -euo pipefail -c "$(recipe parallel-resume)") ||
        die "$name: the resume block failed"
    [ "$(wc -l <"$dir/$name-records.jsonl")" = 8 ] || die "$name: want 8 records after the resume"
    check_total "$dir/$name-total.json" "$want"
}

run_case pento "solve pentominoes-6x10.dlx --count" 9356
run_case pentoq "solve pentominoes-6x10-x-quarter.dlx --count" 2339
run_case q15 "queens count 15" 2279184
say "all totals right"
