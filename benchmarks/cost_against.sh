#!/usr/bin/env bash
# The cost of a fresh evaluation against an earlier tree, in one run (issue 50's bar: 127bd6d):
# a warm-up of each, then daemon_throughput twice in turn, then sim_speed twice in turn, each
# tree with its own build cache and its own code on PYTHONPATH. Run it as the daemon runs (root:
# sandboxed, each compile in its view) on a quiet machine; the load average is printed.
#
#   git worktree add --detach ../old 127bd6d
#   benchmarks/cost_against.sh ../old [BACKEND]      # BACKEND of this tree: sim-guest (default)
set -euo pipefail
old=$(cd "${1:?usage: benchmarks/cost_against.sh OLD_CHECKOUT [BACKEND]}" && pwd)
new=$(cd "$(dirname "$0")/.." && pwd)
backend=${2:-sim-guest}
py=${PYTHON:-python}
# The daemon, as root, refuses a cache its sandbox users cannot reach (/root is not traversable).
cache=${ASCEND_GYM_CACHE:-${TMPDIR:-/tmp}/ascend_gym-cost}
load() { cut -d' ' -f1-3 /proc/loadavg; }
# The old tree names no backend (it had one); this one runs BACKEND.
# A failing benchmark stops the script with its last lines on stderr (the warm-up's output is
# otherwise discarded); a run that prints no figure line is not a failure.
run() {  # TREE LABEL SCRIPT ARGS...
  local tree=$1 label=$2 args=("${@:4}") out rc=0
  [ "$tree" = "$new" ] && args+=(--backend "$backend")
  out=$(cd "$tree" && ASCEND_GYM_CACHE="$cache-$(basename "$tree")" PYTHONPATH="$tree" \
    "$py" "benchmarks/$3" "${args[@]}" 2>&1) || rc=$?
  if [ "$rc" -ne 0 ]; then
    printf '%s\n' "$out" | tail -n 20 | sed "s/^/$label failed ($rc): /" >&2
    exit "$rc"
  fi
  printf '%s\n' "$out" | { grep -E '^\{|fresh candidate|only change' || true; } | sed "s/^/$label: /"
}
echo "== warm-up $(date -u +%T) load $(load)"
run "$old" old daemon_throughput.py --workers 2 --n 8 >/dev/null
run "$new" new daemon_throughput.py --workers 2 --n 8 >/dev/null
for round in 1 2; do
  echo "== daemon_throughput round $round $(date -u +%T) load $(load)"
  run "$old" old daemon_throughput.py --workers 2 --n 24
  run "$new" new daemon_throughput.py --workers 2 --n 24
done
for round in 1 2; do
  echo "== sim_speed round $round $(date -u +%T) load $(load)"
  run "$old" old sim_speed.py --op level1/add --repeats 7
  run "$new" new sim_speed.py --op level1/add --repeats 7
done
echo "== end $(date -u +%T) load $(load)"
