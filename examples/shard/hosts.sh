#!/usr/bin/env bash
# One search on several hosts with GNU parallel: split, run the shards over
# ssh, rerun what failed, merge.
#
#   HOSTS="8/alpha,8/beta,2/:" ./hosts.sh problem.dlx 10000
#
# HOSTS is parallel's --sshlogin list: N/host runs N jobs on host, ":" is
# this machine. Every host needs `cover` on its PATH and ssh without a
# password; the problem file (a path relative to here) is copied to each
# with --basefile. The shard count (default 10000) should be a hundred or
# more per job slot, so that no slot waits long for the last shards.
set -euo pipefail
problem=${1:?usage: hosts.sh PROBLEM [SHARDS]}
shards=${2:-10000}
hosts=${HOSTS:-:}

cover shard split --shards "$shards" "$problem" > shards.jsonl
: > results.jsonl
todo=shards.jsonl
left=-1
while :; do
  # 20 shards per job: a job is one process, and a killed job loses only the
  # shards it had not finished (results are written as they are found).
  parallel --will-cite --pipe -N 20 --sshlogin "$hosts" --basefile "$problem" \
    cover shard run -j 1 "$problem" < "$todo" >> results.jsonl || true  # failures: see below
  status=0
  cover shard merge results.jsonl --remaining shards.jsonl > todo.jsonl || status=$?
  case $status in
    0) break ;;                                   # every shard has a result
    1)
      # Rerun what is left, as long as each round finishes some of it.
      now=$(wc -l < todo.jsonl)
      if [ "$now" -eq "$left" ]; then
        echo "$now shards fail every time: see the errors above" >&2
        exit 1
      fi
      left=$now; todo=todo.jsonl; echo "rerunning $now shards" >&2 ;;
    *) exit 2 ;;                                  # results from elsewhere, doubled, ...
  esac
done
cover shard merge --stats results.jsonl
