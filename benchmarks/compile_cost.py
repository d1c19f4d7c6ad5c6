"""Instructions a fresh candidate's compiles execute, per program, counted by callgrind.

    python benchmarks/compile_cost.py [--op level1/add]

Wall-clock compile times swing with the machine's load (it is shared); executed instructions do
not. A fresh candidate (a unique comment in its tiling and kernel sources) is compiled the way the
sim backend compiles it (tiling.so and the bench case's kernel.so), with g++ run under
`valgrind --tool=callgrind --trace-children=yes`; the instructions of each program g++ starts
(cc1plus, as, the linker) are summed per compile. Each compile is then counted again with its
sources replaced by an empty file (same command: flags, precompiled header, link): what every
compile pays before a line of the candidate is read. Needs valgrind; takes about two minutes.
"""

from __future__ import annotations

import argparse
import collections
import re
import subprocess
import tempfile
import uuid
from pathlib import Path

from ascend_core.package import dtype_macros, load_package
from npu_daemon.backends.common import build
from npu_daemon.backends.sim import kernel_build

SUITE = Path(__file__).resolve().parents[1] / "ascend_core" / "suite"


def counted(out_dir: Path) -> dict[str, int]:
    """Instructions per program of the callgrind files in out_dir."""
    per_program: dict[str, int] = collections.Counter()
    for f in out_dir.glob("cg.*"):
        text = f.read_text(errors="replace")
        cmd = re.search(r"^cmd:\s+(\S+)", text, re.M)
        total = re.search(r"^summary: (\d+)", text, re.M)
        if cmd and total:
            per_program[Path(cmd.group(1)).name] += int(total.group(1))
    return dict(per_program)


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--op", default="level1/add")
    args = ap.parse_args()
    pkg = load_package(SUITE / args.op)
    tag = f"\n// cost {uuid.uuid4().hex}\n"
    pkg = pkg.with_sources(tiling=pkg.tiling_source + tag, kernel=pkg.kernel_source + tag)
    rt = build.ensure_runtime()
    with tempfile.TemporaryDirectory() as d:
        work = Path(d)
        pkg.write_to(work / "pkg")
        sandboxed = build.compile_candidate

        def under_callgrind(
            cmd: list[str], cwd: Path, out: Path, what: str, timeout_s: float, sees: list[Path]
        ) -> None:
            if phase.endswith("empty source"):
                (cwd / "empty.cpp").write_text("")
                cmd = [
                    *(a for a in cmd if not (a.endswith(".cpp") and not a.startswith("-"))),
                    "empty.cpp",
                ]
            # The same command outside the sandbox (whose address-space limit valgrind exceeds).
            done = subprocess.run(
                [
                    "valgrind",
                    "--tool=callgrind",
                    "--trace-children=yes",
                    f"--callgrind-out-file={work / phase}/cg.%p",
                    *cmd,
                ],
                cwd=cwd,
                capture_output=True,
                text=True,
            )
            if done.returncode != 0 or not out.exists():
                raise RuntimeError(f"{what}: {done.stderr[-2000:]}")

        build.compile_candidate = under_callgrind
        try:
            empty = pkg.with_sources(
                tiling=pkg.tiling_source + tag + "// empty\n",
                kernel=pkg.kernel_source + tag + "// empty\n",
            )
            for phase, compile_one in [
                ("tiling", lambda: build.build_tiling(pkg, work / "pkg", rt, 600)),
                (
                    "kernel",
                    lambda: kernel_build.build_kernel(
                        pkg, dtype_macros(pkg.spec, pkg.spec.bench_case), work / "pkg", rt, 600
                    ),
                ),
                (
                    "tiling, empty source",
                    lambda: build.build_tiling(empty, work / "pkg", rt, 600),
                ),
                (
                    "kernel, empty source",
                    lambda: kernel_build.build_kernel(
                        empty, dtype_macros(pkg.spec, pkg.spec.bench_case), work / "pkg", rt, 600
                    ),
                ),
            ]:
                (work / phase).mkdir()
                compile_one()
                programs = counted(work / phase)
                detail = ", ".join(f"{k} {v / 1e6:.0f} M" for k, v in sorted(programs.items()))
                print(f"{phase}: {sum(programs.values()) / 1e6:.0f} M instructions ({detail})")
        finally:
            build.compile_candidate = sandboxed


if __name__ == "__main__":
    main()
