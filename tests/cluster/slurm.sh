#!/usr/bin/env bash
# A real one-node Slurm cluster on localhost (2 CPUs): runs the job arrays of docs/cluster.md
# (the blocks are read from the docs) for `queens count 15 --shard I/8` and
# `solve pentominoes-6x10.dlx --count --shard I/8` (and the symmetry-broken file), then the
# dependent merge jobs, and checks 2,279,184, 9,356 and 2,339; and the weighted recipe
# (`queens max --shard I/4 --floor F` on a 12×12 board) against one run. Needs root and the
# distribution's packages (slurmctld, slurmd, munge). Prints the daemons' and jobs' logs and
# fails if anything does not come up; never skips.
source "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || die "must run as root (it installs packages and starts daemons)"
need_packages slurmctld slurmd munge slurm-client
setup_work
S=$WORK/slurm
mkdir -p "$S/ctld" "$S/d" "$S/log" "$S/run"
HOST=$(hostname -s)

dump_logs() {
    echo "---- logs ($S/log and the job logs) ----" >&2
    for f in "$S"/log/* /var/log/munge/munged.log "$WORK"/*/logs/*; do
        [ -f "$f" ] && { echo "---- $f" >&2; tail -n 60 "$f" >&2; }
    done
    command -v squeue >/dev/null && squeue >&2 || true
    command -v sinfo >/dev/null && sinfo -N -l >&2 || true
}

MUNGE_STARTED=
cleanup() {
    local rc=$?
    [ $rc -ne 0 ] && dump_logs
    if [ -n "${SLURM_CONF:-}" ]; then
        timeout 10 scancel --partition=xcover >/dev/null 2>&1 || true
        for _ in $(seq 20); do
            squeue -h 2>/dev/null | grep -q . || break
            sleep 0.5
        done
        timeout 20 scontrol shutdown >/dev/null 2>&1 || true
        local pids=()
        for p in "$S"/run/*.pid; do
            [ -f "$p" ] && pids+=("$(cat "$p")")
        done
        [ ${#pids[@]} -gt 0 ] && kill "${pids[@]}" 2>/dev/null || true
        # Wait for the daemons to exit: slurmctld writes its state files while it stops.
        for _ in $(seq 40); do
            local alive=
            for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
            [ -z "$alive" ] && break
            sleep 0.25
        done
    fi
    if [ -n "$MUNGE_STARTED" ] && [ -f /run/munge/munged.pid ]; then
        kill "$(cat /run/munge/munged.pid)" 2>/dev/null || true
    fi
    # Removing the scratch directory is tidying, not part of the test.
    if [ $rc -eq 0 ]; then rm -rf "$WORK" 2>/dev/null || true; fi
    say "done in $((SECONDS - START)) s (exit $rc)"
    exit $rc
}
trap cleanup EXIT

# munge: a key (the package makes one; make one if not), then the daemon.
mkdir -p /run/munge /var/log/munge /var/lib/munge /etc/munge
if [ ! -s /etc/munge/munge.key ]; then
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 2>/dev/null
    chown munge:munge /etc/munge/munge.key 2>/dev/null || true
    chmod 400 /etc/munge/munge.key
fi
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    say "starting munged"
    munged --force || die "munged did not start"
    MUNGE_STARTED=1
    for _ in $(seq 50); do
        munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break
        sleep 0.2
    done
    munge -n | unmunge >/dev/null || die "munge does not work"
fi

cat >"$S/slurm.conf" <<CONF
ClusterName=xcovertest
SlurmctldHost=$HOST(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=${SLURMCTLD_PORT:-6817}
SlurmdPort=${SLURMD_PORT:-6818}
AuthType=auth/munge
StateSaveLocation=$S/ctld
SlurmdSpoolDir=$S/d
SlurmctldPidFile=$S/run/slurmctld.pid
SlurmdPidFile=$S/run/slurmd.pid
SlurmctldLogFile=$S/log/slurmctld.log
SlurmdLogFile=$S/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=xcover Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$S/slurm.conf

say "starting slurmctld and slurmd"
slurmctld -f "$SLURM_CONF" || die "slurmctld did not start"
slurmd -f "$SLURM_CONF" || die "slurmd did not start"
up=
for _ in $(seq 60); do
    if sinfo -h -N -o '%T' 2>/dev/null | grep -qx idle; then
        up=1
        break
    fi
    sleep 0.5
done
[ -n "$up" ] || die "the node did not become idle in 30 s"
say "cluster up: $(sinfo -h -N -o '%N %c CPUs %T')"

# The recipe, as written in the docs.
submit() {
    local dir=$1
    shift
    mkdir -p "$dir"
    cp "$WORK"/*.dlx "$dir/"
    recipe xcover-shard.sbatch >"$dir/xcover-shard.sbatch"
    (cd "$dir" && env "$@" bash -euo pipefail -c "$(recipe slurm-submit)") >"$dir/submit.out" ||
        die "the submit block failed in $dir: $(cat "$dir/submit.out")"
    sed -n 's/.*merge job \([0-9]*\).*/\1/p' "$dir/submit.out"
}
m1=$(submit "$WORK/full" M=8 CPUS=1 N=15 DLX=pentominoes-6x10.dlx)
m2=$(submit "$WORK/quarter" M=8 CPUS=1 N=15 DLX=pentominoes-6x10-x-quarter.dlx)
# A weighted proof split over 4 shards, on a 12×12 board: the floor from a first run given no
# time, the array, the merge.
wd=$WORK/weighted
mkdir -p "$wd"
recipe xcover-shard.sbatch >"$wd/xcover-shard.sbatch"
xcover queens random 12 --seed 1 -o "$wd/board.txt"
(cd "$wd" && env M=4 CPUS=1 FIRST=0 bash -euo pipefail -c "$(recipe slurm-weighted)") \
    >"$wd/submit.out" || die "the weighted block failed: $(cat "$wd/submit.out")"
m3=$(sed -n 's/.*merge job \([0-9]*\).*/\1/p' "$wd/submit.out")
[ -n "$m1" ] && [ -n "$m2" ] && [ -n "$m3" ] || die "no merge job ids"
say "submitted; merge jobs $m1, $m2 and $m3"

# Wait (at most 4 minutes) for the merge jobs to leave the queue.
deadline=$((SECONDS + 240))
while squeue -h -j "$m1,$m2,$m3" -o '%i %T %r' 2>/dev/null | grep -q .; do
    if squeue -h -o '%r' | grep -q DependencyNeverSatisfied; then
        die "an array task failed: the merge job can never run"
    fi
    [ $SECONDS -lt $deadline ] || die "the jobs did not finish in 4 minutes"
    sleep 1
done

check_total "$WORK/full/results/q15-total.json" 2279184
check_total "$WORK/full/results/pento-total.json" 9356
check_total "$WORK/quarter/results/q15-total.json" 2279184
check_total "$WORK/quarter/results/pento-total.json" 2339
n=$(ls "$WORK"/full/results/pento-*-of-8.json | wc -l)
[ "$n" = 8 ] || die "$n pentomino shard records, want 8"
want=$(xcover queens max "$wd/board.txt")
got=$(xcover merge "$wd"/results/weighted-*-of-4.json)
[ "$got" = "$want" ] || die "weighted: merged $got, one run $want"
grep -q '"status":"optimal"' "$wd/results/weighted-total.json" ||
    die "weighted total not optimal: $(cat "$wd/results/weighted-total.json")"
say "weighted 12x12 over 4 shards: $got (ok)"
say "all totals right"
