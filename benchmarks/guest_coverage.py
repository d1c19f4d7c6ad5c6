"""How much of a suite the guest engine runs (docs/trust_boundary.md): every operator's baseline
evaluated by a `sim` and a `sim-guest` daemon, compile + check + time on every case.

    python benchmarks/guest_coverage.py [--levels 1] [--suite ascend-ops-v1] [--json OUT]

Prints one row per operator (each engine's status, both latencies) and the counts: operators OK
on both, OK natively only, and whether their simulated latencies agree within 2 %.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ascend_core.protocol import EvalRequest, Status, Timeouts
from ascend_core.suite import op_uris, resolve
from ascend_gym.client import DaemonClient, LocalDaemon


def evaluate_all(backend: str, uris: list[str]) -> dict[str, tuple[str, float | None, str]]:
    out = {}
    with LocalDaemon(backend=backend, workers=2) as d:
        client = DaemonClient(d.address)
        for uri in uris:
            r = client.evaluate(
                EvalRequest(
                    run_id=f"coverage-{backend}",
                    package=resolve(uri),
                    timeouts=Timeouts(build_s=300, run_s=600),
                )
            )
            out[uri] = (
                r.status.value,
                r.latency_us,
                r.message.splitlines()[0][:160] if r.message else "",
            )
        client.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--suite", default="ascend-ops-v1")
    ap.add_argument("--levels", default="1")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    uris = op_uris(args.suite, [int(x) for x in args.levels.split(",")])
    native, guest = evaluate_all("sim", uris), evaluate_all("sim-guest", uris)
    both = agree = native_only = 0
    for uri in uris:
        (ns, nl, _), (gs, gl, gm) = native[uri], guest[uri]
        ok = ns == gs == Status.OK.value
        both += ok
        native_only += ns == Status.OK.value and gs != Status.OK.value
        same = ok and abs(gl - nl) <= 0.02 * nl
        agree += same
        print(
            f"{uri:40s} native {ns:14s} {nl or 0:10.2f} | guest {gs:14s} {gl or 0:10.2f} {'' if ok else gm}"
        )
    print(
        f"{len(uris)} operators: OK on both {both}, OK natively only {native_only}, "
        f"latencies within 2 % {agree} (simulated)"
    )
    if args.json:
        args.json.write_text(json.dumps({"native": native, "guest": guest}, indent=1))


if __name__ == "__main__":
    main()
