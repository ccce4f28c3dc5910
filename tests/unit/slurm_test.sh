#!/usr/bin/env bash
# slurm_test.sh: tools/slurm on a real Slurm: a one-node cluster on this machine (munged,
# slurmctld and slurmd of its own, in a temporary folder, on ports of its own), and
# tools/slurm/submit on a small class (lab 08, technique only: no GPU is needed) to the
# gathered gradebook. The node offers one GPU by count (a GRES without a device), so the
# scripts' --gres=gpu:1 is scheduled as on a GPU cluster; without a GPU the technique tests
# are previews, and the gradebook leaves their cells empty. submit runs from another folder
# than the kit, as on a login node: the jobs must still run in the kit (--chdir).
#
# SKIP (exit 0, with the reason) where Slurm or munge is not installed (.ci/run installs
# Debian's slurm-wlm and munge) or without root (slurmd starts jobs as their user).
# Needs the kit's toolchain (nvcc, Check); about two minutes on 2 cores.
set -u
cd "$(dirname "$0")/../.." || exit 2
kit=$(pwd -P)
export LC_ALL=C

skip() { echo "SKIP slurm: $*"; echo "slurm: 0 passed, 0 failed, 1 skipped"; exit 0; }
missing=''
for t in munged slurmctld slurmd sbatch squeue scontrol; do
    command -v "$t" >/dev/null 2>&1 || [ -x "/usr/sbin/$t" ] || missing="$missing $t"
done
[ -z "$missing" ] || skip "not installed:$missing (apt-get install slurm-wlm munge; .ci/run does)"
[ "$(id -u)" = 0 ] || skip "slurmd must run as root to start jobs (CI runs .ci/run as root)"
[ -d solutions ] || skip "no solutions/ here (the student release): the class is made of the references"
PATH=$PATH:/usr/sbin

tmp=$(mktemp -d "${TMPDIR:-/tmp}/slurm-test.XXXXXX") || exit 2
chmod 755 "$tmp"
OUT=build/unit-slurm
pids=()
cleanup() {
    local p
    for p in ${pids[@]+"${pids[@]}"}; do kill "$p" 2>/dev/null; done
    for p in ${pids[@]+"${pids[@]}"}; do wait "$p" 2>/dev/null; done
    [ -n "${KEEP:-}" ] || rm -rf -- "$tmp" "$OUT" build/grade/build_unit-slurm_*
}
trap cleanup EXIT
. tests/unit/lib.sh # passed, failed, result
# a TCP port nobody listens on, from a range of its own
free_port() {
    local p
    for p in $(seq "$1" $(($1 + 200))); do
        (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return; }
    done
    echo "$1"
}

# ---- munge: a key and a socket of its own ----
dd if=/dev/urandom of="$tmp/munge.key" bs=1024 count=1 status=none && chmod 400 "$tmp/munge.key"
mkdir -p "$tmp/munge" && chmod 700 "$tmp/munge"
munged --foreground --force --key-file="$tmp/munge.key" --socket="$tmp/munge/munge.socket" \
    --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/munge/munged.log" \
    --seed-file="$tmp/munge/munged.seed" >"$tmp/munged.out" 2>&1 &
pids+=($!)

# ---- Slurm: one node, its CPUs and memory, one GPU by count ----
node=gpulabs-test
cpus=$(nproc)
mem=$(awk '/^MemTotal:/ { printf "%d", $2 / 1024 * 0.9 }' /proc/meminfo)
ctld_port=$(free_port 16817)
slurmd_port=$(free_port $((ctld_port + 300)))
mkdir -p "$tmp/state" "$tmp/spool"
cat >"$tmp/slurm.conf" <<CONF
# slurm_test.sh: a cluster of one node on this machine
ClusterName=gpulabs-test
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
SchedulerParameters=sched_interval=2
GresTypes=gpu
NodeName=$node NodeAddr=127.0.0.1 NodeHostname=$(hostname) CPUs=$cpus RealMemory=$mem Gres=gpu:1 State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
echo "NodeName=$node Name=gpu File=/dev/null Count=1" >"$tmp/gres.conf"
export SLURM_CONF=$tmp/slurm.conf
slurmctld -D -i -f "$SLURM_CONF" >"$tmp/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -N "$node" -f "$SLURM_CONF" >"$tmp/slurmd.out" 2>&1 &
pids+=($!)

up=''
for _ in $(seq 1 60); do
    state=$(sinfo -h -n "$node" -o '%T' 2>/dev/null)
    case $state in idle* | mixed* | allocated*) up=1; break ;; esac
    sleep 1
done
result "a one-node cluster starts (munged, slurmctld, slurmd)" \
    "$([ -n "$up" ] || { echo "node state '${state:-none}'"; tail -n 5 "$tmp/slurmctld.log" "$tmp/slurmd.log" "$tmp/munged.out" 2>&1; })"
[ -n "$up" ] || { echo "slurm: $passed passed, $failed failed"; exit 1; }

# ---- a small class: the reference, the starting file, nothing ----
C=$tmp/class
mkdir -p "$C/Ana María/labs/08-transpose" "$C/O'Brien, Pat_1234_assignsubmission_file_" "$C/Empty Student"
cp solutions/08-transpose/transpose.cu "$C/Ana María/labs/08-transpose/"
cp labs/08-transpose/transpose.cu "$C/O'Brien, Pat_1234_assignsubmission_file_/"

# submitted from elsewhere, as from a login node's home: the jobs must run in the kit
# (--chdir), where their staged class, graders and gradebook are; their outputs go here
t0=$(date +%s)
(cd "$tmp" && LAB=08 KIND=technique CLASS_OUT=$OUT FRESH=1 MAX_PARALLEL=2 \
    "$kit/tools/slurm/submit" "$C" --partition=test --cpus-per-task=2 --mem=2G \
    --output="$tmp/slurm-%x-%A_%a.out") >"$tmp/submit.log" 2>&1
rc=$?
gather=$(sed -n 's/.*gather job \([0-9]*\).*/\1/p' "$tmp/submit.log")
result "tools/slurm/submit stages the class and submits its three jobs" \
    "$([ $rc = 0 ] && [ -n "$gather" ] || { echo "exit $rc"; cat "$tmp/submit.log"; })"
cat "$tmp/submit.log"

# the gather job ends after every task (afterany): wait for the queue to empty
done_=''
for _ in $(seq 1 600); do
    if [ -z "$(squeue -h -o %i 2>/dev/null)" ]; then done_=1; break; fi
    sleep 1
done
result "every job ends (build, the array, gather) within 10 minutes ($(($(date +%s) - t0)) s)" \
    "$([ -n "$done_" ] || { squeue; tail -n 5 "$tmp/slurmctld.log"; })"

book=$OUT/gradebook.csv
glog=$(ls "$tmp"/slurm-gpulabs-gather-"$gather"_*.out 2>/dev/null | head -n 1)
result "the gather job wrote its output" "$([ -n "$glog" ] || ls "$tmp" | head -n 20)"
result "the gathered gradebook has a row per student" \
    "$([ -f "$book" ] && [ "$(wc -l <"$book")" = 4 ] || { cat "$book" 2>&1; tail -n 20 "$tmp"/slurm-*.out 2>/dev/null; })"
result "a Moodle folder's student is named, the folder kept" \
    "$(grep -q "^\"O'Brien, Pat\",\"[^\"]*\",\"O'Brien, Pat_1234_assignsubmission_file_\"," "$book" || echo 'no such row')"
result "the reference without a GPU: its technique cells empty, not 0, and flagged" \
    "$(grep '^"Ana María",' "$book" | grep -q ',,,0,12,"not run: 12 points' || grep '^"Ana María",' "$book")"
result "a student without the lab's file: 0 and flagged missing" \
    "$(grep '^"Empty Student",' "$book" | grep -q ',0,0,0,0,0,"missing: 08-transpose' || grep '^"Empty Student",' "$book")"
for who in "Ana María" "O'Brien, Pat" "Empty Student"; do
    id=$(awk -F'\t' -v w="$who" '$2 == w { print $1 }' "$OUT/students.tsv" 2>/dev/null)
    result "$who has a feedback.txt" "$([ -n "$id" ] && [ -s "$OUT/$id/feedback.txt" ] || echo 'none')"
done
if [ -n "$glog" ]; then
    echo "-- the gather job's output ($glog) --"
    cat "$glog"
fi

echo "slurm: $passed passed, $failed failed"
[ $failed -eq 0 ]
