"""How the performance model times fewer cores on element-wise suite operators (simulated).

Rewrites `BLOCK_DIM` / `TILE_LENGTH` in a suite operator's host tiling and times its bench case,
then times the operators' baselines against their experts, printing the profile fields that say
why (launch head, per-core time, vector and MTE2 ratios).

    python benchmarks/model_cores.py [--soc Ascend910B4] [--op level1/add] [--experts level1/add ...]
"""

from __future__ import annotations

import argparse
import re
import shutil
import tempfile
from pathlib import Path

from ascend_core import suite
from ascend_core.package import OperatorPackage, load_package
from ascend_core.protocol import DEFAULT_SOC, EvalRequest, Stage, Status
from npu_daemon.backends.sim import SimBackend

SCHEDULES = [(40, 4096), (20, 4096), (40, 16384), (20, 16384), (10, 16384)]


def with_schedule(op: str, cores: int, tile: int, tmp: Path) -> OperatorPackage:
    root = tmp / f"{op.replace('/', '_')}_{cores}_{tile}"
    shutil.copytree(suite.SUITE_ROOT / op, root)
    for host in (root / "op_host").glob("*.cpp"):
        text = re.sub(r"\bBLOCK_DIM = \d+;", f"BLOCK_DIM = {cores};", host.read_text())
        host.write_text(re.sub(r"\bTILE_LENGTH = \d+;", f"TILE_LENGTH = {tile};", text))
    return load_package(root)


def row(label: str, pkg: OperatorPackage, soc: str) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        r = SimBackend().evaluate(EvalRequest(package=pkg, soc=soc, stages=[Stage.TIME]), Path(tmp))
    if r.status is not Status.OK:
        return f"| {label} | {r.status.value}: {r.message} |"
    p = r.profile
    return (
        f"| {label} | {p.block_dim} | {r.latency_us:.2f} | {p.head_us:.1f} | {p.aiv_time_us:.1f} "
        f"| {p.aiv_vec_ratio:.2f} | {p.aiv_mte2_ratio:.2f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--soc", default=DEFAULT_SOC)
    parser.add_argument(
        "--op", default="level1/add", help="suite operator whose schedule is varied"
    )
    parser.add_argument(
        "--experts", nargs="*", default=["level1/add", "level1/gelu", "level1/mish", "level1/relu"]
    )
    args = parser.parse_args()
    print(f"simulated, {args.soc}")
    print("| run | block dim | Task Duration us | head us | aiv_time us | vec ratio | mte2 ratio |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for cores, tile in SCHEDULES:
            print(
                row(
                    f"{args.op} BLOCK_DIM {cores} TILE_LENGTH {tile}",
                    with_schedule(args.op, cores, tile, Path(tmp)),
                    args.soc,
                )
            )
    for op in args.experts:
        print(row(f"{op} baseline", load_package(suite.SUITE_ROOT / op), args.soc))
        print(row(f"{op} expert", suite.load_expert(f"op://{suite.SUITE_NAME}/{op}"), args.soc))


if __name__ == "__main__":
    main()
