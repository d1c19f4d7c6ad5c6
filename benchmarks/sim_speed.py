"""Simulator speed: compile + run of a level-1 candidate at its bench shape, and a repeated candidate.

    python benchmarks/sim_speed.py [--op level1/add] [--repeats 7] [--backend sim-guest]

Each evaluation compiles against the prebuilt runtime and precompiled headers and runs the bench
case once (stages compile + time); the median and min of `--repeats` evaluations are reported,
split into compile and run:
- fresh candidate: kernel and tiling sources get a unique comment, so both compile (concurrently);
  the case's inputs and reference come from the case data cache, as for every candidate of an op
  after its first;
- tiling-only / kernel-only change: one unique comment, so the other object is a cache hit;
- first candidate of a case: a fresh candidate with an unused seed, so the inputs and the reference
  are generated and cached too;
- repeated identical candidate: the same bytes submitted again to a local daemon (its run cache);
- tiling / kernel compile alone: one g++ each, one after the other, to show the critical path of
  the concurrent compile.
The load average is printed before and after: the machine may be shared.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
import uuid
from pathlib import Path

from ascend_core.package import OperatorPackage, dtype_macros, load_package
from ascend_core.protocol import EvalRequest, Stage, Status
from ascend_gym.client import DaemonClient, LocalDaemon
from npu_daemon.backends.base import get_backend
from npu_daemon.backends.common import build
from npu_daemon.backends.sim import SimBackend, guest_build
from npu_daemon.backends.sim.kernel_build import build_kernel

SUITE = Path(__file__).resolve().parents[1] / "ascend_core" / "suite"


def tagged(pkg: OperatorPackage, tiling: bool, kernel: bool) -> OperatorPackage:
    tag = f"\n// bench {uuid.uuid4().hex}\n"
    return pkg.with_sources(
        tiling=pkg.tiling_source + tag if tiling else None,
        kernel=pkg.kernel_source + tag if kernel else None,
    )


def measure(backend: SimBackend, make, repeats: int, fresh_seed: bool = False) -> str:
    total, compile_s, run_s = [], [], []
    for _ in range(repeats):
        seed = int.from_bytes(os.urandom(4)) if fresh_seed else 0
        req = EvalRequest(package=make(), stages=[Stage.COMPILE, Stage.TIME], seed=seed)
        with tempfile.TemporaryDirectory() as d:
            t0 = time.perf_counter()
            r = backend.evaluate(req, Path(d))
            total.append(time.perf_counter() - t0)
        assert r.status is Status.OK, r.message
        compile_s.append(r.cost.compile_s)
        run_s.append(r.cost.run_s)
    return (
        f"median {statistics.median(total):.3f} s (compile {statistics.median(compile_s):.3f} s, "
        f"run {statistics.median(run_s):.3f} s), min {min(total):.3f} s, max {max(total):.3f} s"
    )


def compile_alone(pkg: OperatorPackage, repeats: int, engine: str) -> str:
    rt = build.ensure_runtime()
    macros = dtype_macros(pkg.spec, pkg.spec.bench_case)
    tiling, kernel = [], []
    for _ in range(repeats):
        fresh = tagged(pkg, True, True)
        with tempfile.TemporaryDirectory() as d:
            fresh.write_to(Path(d))
            t0 = time.perf_counter()
            build.build_tiling(fresh, Path(d), rt, 120)
            t1 = time.perf_counter()
            if engine == "sim-guest":
                guest_build.build_kernel(fresh, macros, Path(d), rt, 120)
            else:
                build_kernel(fresh, macros, Path(d), rt, 120)
            tiling.append(t1 - t0)
            kernel.append(time.perf_counter() - t1)
    return (
        f"tiling median {statistics.median(tiling):.3f} s (min {min(tiling):.3f} s), "
        f"kernel median {statistics.median(kernel):.3f} s (min {min(kernel):.3f} s)"
    )


def load() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--op", default="level1/add")
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--backend", default="sim", choices=("sim", "sim-guest"), help="the engine")
    args = ap.parse_args()
    pkg = load_package(SUITE / args.op)
    backend = get_backend(args.backend)
    backend.prepare()  # the runtime library, harness and PCHs are built once per simulator version
    bench = pkg.spec.bench_case
    print(
        f"op {args.op}, bench case {bench.name} {bench.shapes}, {args.repeats} evaluations each; {load()}"
    )
    measure(backend, lambda: tagged(pkg, True, True), 1)  # warm: the case data of seed 0
    print(
        f"fresh candidate:            {measure(backend, lambda: tagged(pkg, True, True), args.repeats)}"
    )
    print(
        f"tiling-only change:         {measure(backend, lambda: tagged(pkg, True, False), args.repeats)}"
    )
    print(
        f"kernel-only change:         {measure(backend, lambda: tagged(pkg, False, True), args.repeats)}"
    )
    print(
        f"first candidate of a case:  {measure(backend, lambda: tagged(pkg, True, True), args.repeats, fresh_seed=True)}"
    )

    with LocalDaemon(args.backend, workers=1) as daemon:
        client = DaemonClient(daemon.address)
        req = EvalRequest(package=tagged(pkg, True, True), stages=[Stage.COMPILE, Stage.TIME])
        client.evaluate(req)
        times = []
        for _ in range(args.repeats):
            t0 = time.perf_counter()
            r = client.evaluate(req.model_copy(update={"request_id": uuid.uuid4().hex}))
            times.append(time.perf_counter() - t0)
            assert r.status is Status.OK, r.message
        client.close()
    print(
        f"repeated identical candidate (daemon run cache): median {statistics.median(times) * 1e3:.1f} ms, "
        f"min {min(times) * 1e3:.1f} ms, cache hit {r.cache_hit}"
    )
    print(f"compile alone, one after the other: {compile_alone(pkg, args.repeats, args.backend)}")
    print(load())


if __name__ == "__main__":
    main()
