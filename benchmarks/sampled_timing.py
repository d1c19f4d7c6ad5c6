"""The error of sampled timing (EvalRequest.timing = "sampled") against full simulation.

    python benchmarks/sampled_timing.py [--ops level1/add level2/softmax ...] [--out OUT.json]

Each suite operator's bench case is checked and timed twice: every block simulated, then a
sample of its blocks with the rest derived (docs/simulator.md, Large shapes), its outputs checked
where the simulated blocks stored them. Prints per operator the two verdicts and simulated
latencies, the relative error, the blocks simulated of the block dim (or why the sampled run could
not vouch for the launch and ran whole), and the run cost (wall) of each; then the largest error
and the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path

from ascend_core.package import load_package
from ascend_core.protocol import EvalRequest, EvalResult
from npu_daemon.backends.sim import SimBackend

SUITE = Path(__file__).resolve().parents[1] / "ascend_core" / "suite"


def timed(backend: SimBackend, op: str, timing: str) -> EvalResult:
    pkg = load_package(SUITE / op)
    request = EvalRequest(package=pkg, cases=[pkg.spec.bench_case.name], timing=timing)
    with tempfile.TemporaryDirectory() as d:
        return backend.evaluate(request, Path(d))


def load() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--ops", nargs="*", help="suite operators (default: all)")
    ap.add_argument("--out", type=Path, help="also write the rows as JSON")
    args = ap.parse_args()
    ops = args.ops or sorted(
        p.parent.relative_to(SUITE).as_posix() for p in SUITE.glob("*/*/op.toml")
    )
    backend = SimBackend()
    backend.prepare()
    print(load())
    rows = []
    for op in ops:
        full, sampled = timed(backend, op, "full"), timed(backend, op, "sampled")
        if full.latency_us is None or sampled.latency_us is None:
            print(f"{op}: {full.status.value} / {sampled.status.value} {sampled.message[:200]}")
            rows.append({"op": op, "full": full.status.value, "sampled": sampled.status.value})
            continue
        error = (sampled.latency_us - full.latency_us) / full.latency_us
        profile = sampled.profile
        simulated = profile.blocks_simulated or profile.block_dim  # a mixed launch runs whole
        rows.append(
            {
                "op": op,
                "full": full.status.value,
                "sampled": sampled.status.value,
                "ran_whole": profile.sampled_unchecked,
                "full_us": full.latency_us,
                "sampled_us": sampled.latency_us,
                "error": error,
                "block_dim": profile.block_dim,
                "blocks_simulated": simulated,
                "full_run_s": full.cost.run_s,
                "sampled_run_s": sampled.cost.run_s,
            }
        )
        print(
            f"{op:40s} full {full.latency_us:11.3f} us  sampled {sampled.latency_us:11.3f} us  "
            f"error {error * 100:+.4f} %  blocks {simulated}/{profile.block_dim}  "
            f"run {full.cost.run_s:.2f} s -> {sampled.cost.run_s:.2f} s"
            + (f"  ({profile.sampled_unchecked})" if profile.sampled_unchecked else "")
        )
    timed_rows = [r for r in rows if "error" in r]
    if timed_rows:
        worst = max(timed_rows, key=lambda r: abs(r["error"]))
        sampled_ops = [r for r in timed_rows if r["blocks_simulated"] < r["block_dim"]]
        whole = [r for r in timed_rows if r["ran_whole"]]
        differ = [r["op"] for r in rows if r["full"] != r["sampled"]]
        print(
            f"{len(rows)} operators, verdicts differ on {len(differ)} {differ}; "
            f"{len(sampled_ops)} checked on a sample of their blocks, {len(whole)} ran whole; "
            f"largest error {worst['error'] * 100:+.4f} % ({worst['op']})"
        )
    if args.out:
        args.out.write_text(json.dumps(rows, indent=1) + "\n")
    print(load())


if __name__ == "__main__":
    main()
