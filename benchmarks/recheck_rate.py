"""How often a fresh input draw fails a package: the bench's recheck, one seed at a time.

    python benchmarks/recheck_rate.py OUT|OPERATOR [--seeds 24]

OUT is an `ascend-gym optimize --out` directory (result.json and its candidates/): its best is
checked. OPERATOR is a suite address: its baseline is. The package is checked (not timed) on
input seeds 1..N, each alone, through a local daemon as `bench` rechecks a best
(`ascend_gym.validation.recheck`). A best right only for the search's fixed inputs fails on a
share of the draws, which says how many recheck seeds (`bench.RECHECK_SEEDS`) catch it; a
baseline that fails on some draws has a spec tolerance tighter than its own error.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ascend_core import suite
from ascend_core.package import OperatorPackage
from ascend_gym.client import DaemonClient, LocalDaemon
from ascend_gym.validation import Claim, recheck


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("target", help="an optimize --out directory, or a suite operator")
    parser.add_argument("--seeds", type=int, default=24)
    args = parser.parse_args()
    out = Path(args.target)
    if out.is_dir():
        result = json.loads((out / "result.json").read_text())
        if not result.get("best_file"):
            parser.error(f"{out}/result.json keeps no best candidate")
        package = OperatorPackage.model_validate_json((out / result["best_file"]).read_text())
        operator = result["operator"]
        what = f"the best ({result['best_us']:.2f} us against {result['baseline_us']:.2f} us)"
    else:
        package = suite.resolve(args.target)
        operator, what = package.uri, "the baseline"
    claim = Claim(operator=operator, package=package, best_us=0.0)
    with LocalDaemon(workers=2) as daemon:
        client = DaemonClient(daemon.address)
        checks = {
            s: recheck(claim, client, f"recheck-rate-{s}", [s]) for s in range(1, args.seeds + 1)
        }
        client.close()
    failed = {seed: check for seed, check in checks.items() if not check.ok}
    print(
        f"{operator}: {len(failed)} of {args.seeds} fresh draws fail {what}"
        + (f"; failing seeds {list(failed)}" if failed else "")
    )
    for seed, check in failed.items():
        print(f"  seed {seed}: {check.status}: {' '.join(check.message.split())[:300]}")


if __name__ == "__main__":
    main()
