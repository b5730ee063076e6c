#!/usr/bin/env bash
# A real one-node Slurm cluster on 127.0.0.1 for the integration test of `dpclust submit`
# (tests/experiment/slurm_test.cpp), also usable by hand:
#
#   tests/slurm/local_slurm.sh start DIR CTLD_PORT SLURMD_PORT   # then: export SLURM_CONF=DIR/slurm.conf
#   tests/slurm/local_slurm.sh stop DIR
#
# Debian 12's Slurm 22.05 (slurmctld + slurmd) and munge, everything in DIR: a generated munge key and
# its socket, slurm.conf, state, spool, logs and pid files. Nothing outside DIR is read or written and
# no address other than 127.0.0.1 is used. Exit 77 (the test skips, printing the reason) when Slurm or
# munge is not installed, when not root (slurmd must start jobs as the submitting user), or when the
# daemons do not come up; the logs are printed then.
set -u
action="${1:-}"
dir="${2:-}"
[ -n "$action" ] && [ -n "$dir" ] || { echo "usage: $0 start|stop DIR [CTLD_PORT SLURMD_PORT]" >&2; exit 2; }

stop() {
  if [ -f "$dir/slurm.conf" ]; then
    SLURM_CONF="$dir/slurm.conf" timeout 10 scontrol shutdown >/dev/null 2>&1 || true
  fi
  for pidfile in "$dir/slurmctld.pid" "$dir/slurmd.pid" "$dir/munge/munged.pid"; do
    [ -f "$pidfile" ] || continue
    pid=$(cat "$pidfile" 2>/dev/null)
    [ -n "$pid" ] || continue
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 30); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
  done
}

if [ "$action" = stop ]; then
  stop
  exit 0
fi
[ "$action" = start ] || { echo "unknown action '$action'" >&2; exit 2; }
ctld_port="${3:-16817}"
slurmd_port="${4:-16818}"

for tool in slurmctld slurmd munged sbatch squeue scontrol sinfo; do
  command -v "$tool" >/dev/null 2>&1 || { echo "SKIP: $tool is not installed (Debian: apt-get install slurm-wlm munge)"; exit 77; }
done
[ "$(id -u)" -eq 0 ] || { echo "SKIP: the local Slurm cluster needs root (slurmd runs jobs as the submitting user)"; exit 77; }

mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/log"
chmod 700 "$dir/munge"
chmod 755 "$dir"
head -c 1024 /dev/urandom > "$dir/munge/munge.key"
chmod 600 "$dir/munge/munge.key"
munged --force --socket="$dir/munge/munge.sock" --key-file="$dir/munge/munge.key" --log-file="$dir/log/munged.log" \
       --pid-file="$dir/munge/munged.pid" --seed-file="$dir/munge/munged.seed" || {
  echo "SKIP: munged did not start"; cat "$dir/log/munged.log" 2>/dev/null; exit 77; }

host=$(hostname -s)
cpus=$(nproc 2>/dev/null || echo 1)
cat > "$dir/slurm.conf" <<CONF
# Written by tests/slurm/local_slurm.sh: one node on 127.0.0.1, state in $dir.
ClusterName=dpclusttest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.sock
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SchedulerParameters=kill_invalid_depend
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=600
KillWait=5
Waittime=0
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=1000 State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$dir/slurm.conf"
slurmctld -f "$dir/slurm.conf" || { echo "SKIP: slurmctld did not start"; cat "$dir/log/slurmctld.log" 2>/dev/null; stop; exit 77; }
slurmd -f "$dir/slurm.conf" || { echo "SKIP: slurmd did not start"; cat "$dir/log/slurmd.log" 2>/dev/null; stop; exit 77; }
for _ in $(seq 100); do
  state=$(sinfo -h -o %T 2>/dev/null | head -1)
  [ "$state" = idle ] && { echo "local Slurm up: node $host on 127.0.0.1, ports $ctld_port/$slurmd_port, SLURM_CONF=$dir/slurm.conf"; exit 0; }
  sleep 0.2
done
echo "SKIP: the Slurm node did not become idle (state '${state:-none}')"
tail -20 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" 2>/dev/null
stop
exit 77
