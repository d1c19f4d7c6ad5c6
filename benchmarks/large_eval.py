"""An element-wise fp16 operator of ours at a benchmark size, evaluated as a user would.

    python benchmarks/large_eval.py --gib 3

Copies level1/add into a temporary directory as the client's own operator `add_large` whose bench
case is x, y and z of GIB GiB each (fp16, rows of 2048 elements), and runs `ascend-gym eval DIR
--json --run-timeout 600` (timing auto: the operator is element-wise, so every block is simulated,
the reference is computed a piece at a time and the output is checked as a stream). Prints the
status, the simulated latency, the bench case's check, the wall time and the peak resident memory
of the largest process of the evaluation (the harness, the daemon or its worker). The case's
inputs (2 x GIB GiB) are generated into the build cache (ASCEND_GYM_CACHE) first.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
from pathlib import Path

from eval_as_user import evaluate  # benchmarks/, beside this script

from ascend_core import suite

ADD = suite.SUITE_ROOT / "level1" / "add"
ROW = 2048


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--gib", type=float, default=3.0, help="GiB per tensor (default 3)")
    args = ap.parse_args()
    rows = int(args.gib * 2**30) // (2 * ROW)
    with tempfile.TemporaryDirectory(prefix="large_eval-") as tmp:
        root = Path(tmp) / "add_large"
        shutil.copytree(ADD, root, ignore=shutil.ignore_patterns("expert"))
        toml = (root / "op.toml").read_text()
        bench = "shapes = { x = [4096, 2048], y = [4096, 2048] }\nbench = true"
        assert bench in toml, "level1/add's bench case moved: update this script"
        toml = toml.replace(bench, bench.replace("4096,", f"{rows},"))
        toml = toml.replace(
            'name = "add"', 'name = "add_large"\nop_type = "Add"\nkernel = "add"', 1
        )
        (root / "op.toml").write_text(toml)
        print(
            f"add_large: bench case x, y, z of [{rows}, {ROW}] fp16 "
            f"({rows * ROW * 2 / 2**30:.2f} GiB each); load average {os.getloadavg()[0]:.2f}"
        )
        result, wall, peak_gib = evaluate(root)
    bench = next(c for c in result["cases"] if c["name"] == result["bench_case"])
    print(
        f"{result['status']} {result['latency_us']:.1f} us (simulated); bench case "
        f"{'passed' if bench['passed'] else 'FAILED'} (max_abs_error {bench['max_abs_error']:g}); "
        f"timing {result['profile'].get('timing', 'full')}; wall {wall:.1f} s; "
        f"peak RSS {peak_gib:.2f} GiB; load average {os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main()
