"""How often a fresh input draw exposes a kept best: the bench's recheck, one seed at a time.

    python benchmarks/recheck_rate.py OUT [--seeds 24]

OUT is an `ascend-gym optimize --out` directory (result.json and its candidates/). Its best is
checked (not timed) on input seeds 1..N, each alone, through a local daemon as `bench` rechecks
it (`ascend_gym.validation.recheck`). A best right only for the search's fixed inputs fails on a
share of the draws; that share says how many recheck seeds (`bench.RECHECK_SEEDS`) catch it.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ascend_core.package import OperatorPackage
from ascend_gym.client import DaemonClient, LocalDaemon
from ascend_gym.validation import Claim, recheck


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--seeds", type=int, default=24)
    args = parser.parse_args()
    result = json.loads((args.out / "result.json").read_text())
    if not result.get("best_file"):
        parser.error(f"{args.out}/result.json keeps no best candidate")
    package = OperatorPackage.model_validate_json((args.out / result["best_file"]).read_text())
    claim = Claim(operator=result["operator"], package=package, best_us=result["best_us"])
    with LocalDaemon(workers=2) as daemon:
        client = DaemonClient(daemon.address)
        failed = [
            seed
            for seed in range(1, args.seeds + 1)
            if not recheck(claim, client, f"recheck-rate-{seed}", [seed]).ok
        ]
        client.close()
    print(
        f"{result['operator']}: {len(failed)} of {args.seeds} fresh draws expose the best "
        f"({result['best_us']:.2f} us against {result['baseline_us']:.2f} us)"
        + (f"; failing seeds {failed}" if failed else "")
    )


if __name__ == "__main__":
    main()
