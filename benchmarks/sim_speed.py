"""Simulator speed: compile + run of a level-1 candidate at its bench shape, and a repeated candidate.

    python benchmarks/sim_speed.py [--op level1/add] [--repeats 7]

Fresh candidate: the package's kernel and tiling sources get a unique comment, so both compile
(against the prebuilt runtime and precompiled header) and the bench case runs once; the median of
`--repeats` such evaluations is reported, split into compile and run. Repeated candidate: the same
bytes submitted again to a local daemon, which serves it from its run cache.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
import uuid
from pathlib import Path

from ascend_gym.client import DaemonClient, LocalDaemon
from ascend_gym.package import load_package
from ascend_gym.protocol import EvalRequest, Stage, Status
from npu_daemon.backends.sim import SimBackend

SUITE = Path(__file__).resolve().parents[1] / "ascend_gym" / "suite"


def fresh(pkg, tag: str):
    return pkg.with_sources(tiling=pkg.tiling_source + f"\n// bench {tag}\n", kernel=pkg.kernel_source + f"\n// bench {tag}\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--op", default="level1/add")
    ap.add_argument("--repeats", type=int, default=7)
    args = ap.parse_args()
    pkg = load_package(SUITE / args.op)
    backend = SimBackend()
    backend.prepare()  # the runtime library, harness and PCH are built once per simulator version

    total, compile_s, run_s = [], [], []
    for _ in range(args.repeats):
        req = EvalRequest(package=fresh(pkg, uuid.uuid4().hex), stages=[Stage.COMPILE, Stage.TIME])
        with tempfile.TemporaryDirectory() as d:
            t0 = time.perf_counter()
            r = backend.evaluate(req, Path(d))
            total.append(time.perf_counter() - t0)
        assert r.status is Status.OK, r.message
        compile_s.append(r.cost.compile_s)
        run_s.append(r.cost.run_s)
    bench = pkg.spec.bench_case
    print(f"op {args.op}, bench case {bench.name} {bench.shapes}, {args.repeats} fresh candidates")
    print(f"fresh candidate: median {statistics.median(total):.3f} s "
          f"(compile {statistics.median(compile_s):.3f} s, run {statistics.median(run_s):.3f} s), "
          f"min {min(total):.3f} s, max {max(total):.3f} s")

    with LocalDaemon(workers=1) as daemon:
        client = DaemonClient(daemon.address)
        req = EvalRequest(package=fresh(pkg, "repeat"), stages=[Stage.COMPILE, Stage.TIME])
        client.evaluate(req)
        times = []
        for _ in range(args.repeats):
            t0 = time.perf_counter()
            r = client.evaluate(req.model_copy(update={"request_id": uuid.uuid4().hex}))
            times.append(time.perf_counter() - t0)
            assert r.status is Status.OK, r.message
        client.close()
    print(f"repeated identical candidate (daemon run cache): median {statistics.median(times) * 1e3:.1f} ms, "
          f"cache hit {r.cache_hit}")


if __name__ == "__main__":
    main()
