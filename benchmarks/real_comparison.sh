#!/usr/bin/env bash
# The paper's comparison on ascend-real-v1 (docs/real_suite.md): AscendOptimizer, Best-of-N and
# OpenEvolve at budget 40 over 3 seeds, AscendOptimizer's stage1-only and stage2-only ablations,
# and Best-of-N at N = 5 (the paper's two sample counts), timed warm: at the suite's bench sizes a
# cold launch's head is most of every latency, and what the policies found by launching fewer
# cores was slower warm (docs/real_suite.md, The comparison). About 22 hours on a 2-core machine,
# so it runs at the lowest CPU priority and every bench resumes: after an interruption, run the
# same command again. Run it from a checkout that does not change while it runs (the daemon
# builds the simulator from the tree it is started from), with the suite materialised
# (`ascend-gym suite materialise ascend-real-v1 --src SRC`).
#
#   benchmarks/real_comparison.sh OUT [SUITE [PROTOCOL]]
#   python benchmarks/comparison_tables.py OUT   # Table 3 and the ablations, as it stands
#
# SUITE and PROTOCOL default to ascend-real-v1 and warm (the run above); ascend-real-v2 is timed
# as real benchmarks time (`ascend-real-v2 flushed-repeated`, docs/real_suite.md). LEVELS and
# SEEDS in the environment (1,2,3 and 3) take a slice first: a v2 evaluation runs a case about
# fifteen times v1's size.
set -euo pipefail
out=${1:?usage: benchmarks/real_comparison.sh OUT [SUITE [PROTOCOL]]}
mkdir -p "$out"
common=(--suite "${2:-ascend-real-v1}" --levels "${LEVELS:-1,2,3}" --seeds "${SEEDS:-3}"
  --timing-protocol "${3:-warm}" --parallel 2 --daemon-workers 2 --report)
# A bench whose tasks failed (exit 1: counted as 1.0 and reported) does not stop the others, and the
# script then exits 1; a usage or environment error (2) or an interrupt (130) stops it.
status=0
run_bench() {
  local rc=0
  nice -n 19 ascend-gym bench "${common[@]}" "$@" || rc=$?
  if [ "$rc" -eq 1 ]; then status=1; elif [ "$rc" -ne 0 ]; then exit "$rc"; fi
}
echo '{"ascendoptimizer": {"ablation": "stage1-only"}}' >"$out/stage1.json"
echo '{"ascendoptimizer": {"ablation": "stage2-only"}}' >"$out/stage2.json"
run_bench --budget 40 --policies ascendoptimizer,bon,openevolve --out "$out/full"
run_bench --budget 5 --policies bon --out "$out/bon-n5"
run_bench --budget 40 --policies ascendoptimizer --policy-config "$out/stage1.json" --out "$out/stage1-only"
run_bench --budget 40 --policies ascendoptimizer --policy-config "$out/stage2.json" --out "$out/stage2-only"
exit "$status"
