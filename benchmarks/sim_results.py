"""Every result field the simulator produces for every suite op and sim test package, to show that
a change (for speed, say) leaves results alone.

    python benchmarks/sim_results.py OUT.json     # then: cmp OUT.json benchmarks/sim_results.golden.json

The golden file is main's output, checked in; tests/sim/test_golden.py (slow tier) compares with it.
A change meant to move results regenerates it and explains every move in its commit.

Each package is evaluated with stages compile + check + time. Left out: what is expected to differ
between two simulator versions or two runs (wall-clock costs, the request id, the simulator digest
of the fingerprint, the model's own wall time).
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from ascend_core.package import load_package
from ascend_core.protocol import EvalRequest, Stage
from npu_daemon.backends.sim import SimBackend

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = [
    *sorted((ROOT / "ascend_core" / "suite").glob("level*/*/op.toml")),
    *sorted((ROOT / "tests" / "sim" / "packages").glob("*/op.toml")),
]


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("out", type=Path)
    args = ap.parse_args()
    backend = SimBackend()
    backend.prepare()
    results = {}
    for spec in PACKAGES:
        name = spec.parent.relative_to(ROOT).as_posix()
        request = EvalRequest(
            package=load_package(spec.parent), stages=[Stage.COMPILE, Stage.CHECK, Stage.TIME]
        )
        with tempfile.TemporaryDirectory() as d:
            result = backend.evaluate(request, Path(d)).model_dump(
                mode="json", exclude={"cost", "request_id"}
            )
        result["fingerprint"].pop("simulator", None)
        if result.get("profile"):
            result["profile"].pop("model_wall_s", None)
        results[name] = result
        print(f"{name}: {result['status']} {result['latency_us']}", flush=True)
    args.out.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
