"""Wall time and memory of a launch making N scattered scalar accesses, per engine and access kind.

    python benchmarks/access_caps.py [--accesses 10000000] [--engines sim,sim-guest]
        [--kinds raw,api] [--json-out OUT]

level1/add's kernel with block 0 first making N dependent scattered loads of its x slice (each
index follows from the last value, so no compiler vectorises or drops them): `raw` through a
plain `__gm__` pointer (a trapped page fault on the native engine, an import call on the guest's),
`api` through `GlobalTensor::GetValue`. Only the bench case is timed (no check stage). Each
measurement runs in a process of its own after a first run that builds the kernel, so the
harness's peak resident memory (`ru_maxrss` of the children) is the launch's, not a compiler's.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ascend_core.protocol import EvalRequest, Stage, Timeouts
from ascend_core.suite import resolve

LOOP = "    for (uint32_t done = 0; done < blockLength; done += tileLength) {"
LOAD = {
    "raw": "static_cast<uint64_t>(xRaw[idx])",
    "api": "static_cast<uint64_t>(static_cast<float>(xGm.GetValue(idx)) != 0.0f)",
}
ACCESSES = """\
    using XBits = std::conditional_t<sizeof(DTYPE_X) == 2, uint16_t, uint32_t>;
    __gm__ XBits* xRaw = (__gm__ XBits*)xGm.GetPhyAddr();
    (void)xRaw;
    if (GetBlockIdx() == 0) {{
      uint32_t span = 1;
      while (span * 2 <= blockLength) span *= 2;
      uint64_t acc = 0, idx = 0;
      for (uint64_t i = 0; i < {n}ull; ++i) {{
        acc += {load};
        idx = (idx * 5 + 1 + acc) & (span - 1);
      }}
      if (acc == ~0ull) blockLength = 0;  // never: the loads' values are used
    }}
"""


def kernel(kind: str, n: int) -> str:
    text = resolve("level1/add").files["op_kernel/add.cpp"]
    assert LOOP in text
    body = ACCESSES.format(n=n, load=LOAD[kind])
    return "#include <type_traits>\n" + text.replace(LOOP, body + LOOP, 1)


def one(engine: str, kind: str, n: int) -> dict[str, object]:
    """Evaluate the kernel once in this process: status, wall time, the harness's peak memory."""
    from npu_daemon.backends.sim.backend import GuestSimBackend, SimBackend

    backend = GuestSimBackend() if engine == "sim-guest" else SimBackend()
    backend.prepare()
    request = EvalRequest(
        run_id=f"caps-{engine}-{kind}-{n}",
        package=resolve("level1/add").with_sources(kernel=kernel(kind, n)),
        stages=[Stage.COMPILE, Stage.TIME],
        timeouts=Timeouts(build_s=600, run_s=600),
    )
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as work:
        result = backend.evaluate(request, Path(work))
    wall = time.monotonic() - start
    rss_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return {
        "engine": engine,
        "kind": kind,
        "accesses": n,
        "status": result.status.value,
        "wall_s": round(wall, 2),
        "harness_max_rss_mb": round(rss_mb, 1),
        "latency_us": result.latency_us,
        "ran_on_guest": bool(result.profile and getattr(result.profile, "ran_on_guest", "")),
        "message": (result.message or "")[:200],
    }


def measured(engine: str, kind: str, n: int) -> dict[str, object]:
    command = [sys.executable, __file__, "--one", engine, kind, str(n)]
    subprocess.run(command, capture_output=True, check=True)  # builds the kernel (cached)
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--accesses", type=int, default=10_000_000)
    parser.add_argument("--engines", default="sim,sim-guest")
    parser.add_argument("--kinds", default="raw,api")
    parser.add_argument("--json-out", type=Path)
    parser.add_argument("--one", nargs=3, metavar=("ENGINE", "KIND", "N"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(args.one[0], args.one[1], int(args.one[2]))))
        return
    rows = []
    for engine in args.engines.split(","):
        for kind in args.kinds.split(","):
            row = measured(engine, kind, args.accesses)
            rows.append(row)
            print(json.dumps(row), flush=True)
    if args.json_out:
        args.json_out.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
