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
#   benchmarks/real_comparison.sh OUT
#   python benchmarks/comparison_tables.py OUT   # Table 3 and the ablations, as it stands
set -euo pipefail
out=${1:?usage: benchmarks/real_comparison.sh OUT}
mkdir -p "$out"
common=(--suite ascend-real-v1 --levels 1,2,3 --seeds 3 --timing-protocol warm --parallel 2 --daemon-workers 2 --report)
echo '{"ascendoptimizer": {"ablation": "stage1-only"}}' >"$out/stage1.json"
echo '{"ascendoptimizer": {"ablation": "stage2-only"}}' >"$out/stage2.json"
nice -n 19 ascend-gym bench "${common[@]}" --budget 40 --policies ascendoptimizer,bon,openevolve --out "$out/full"
nice -n 19 ascend-gym bench "${common[@]}" --budget 5 --policies bon --out "$out/bon-n5"
nice -n 19 ascend-gym bench "${common[@]}" --budget 40 --policies ascendoptimizer --policy-config "$out/stage1.json" --out "$out/stage1-only"
nice -n 19 ascend-gym bench "${common[@]}" --budget 40 --policies ascendoptimizer --policy-config "$out/stage2.json" --out "$out/stage2-only"
