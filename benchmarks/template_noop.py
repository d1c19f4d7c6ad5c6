"""Is the synthesised template of every operator of a suite the operator itself?

    python benchmarks/template_noop.py [--suite ascend-real-v1] [--jobs 2]

For each operator whose tiling has no markers, `agents.templates.synthesise` marks its knobs; the
unchanged template must compile and pass every case, as the published tiling does, or every
policy's first tiling candidate there is a failure. Each template is compiled and checked through
the daemon's own evaluation (npu_daemon/evaluation.py: acceptance check, compile, every case, no
timing). Prints each operator's knobs and status, then the counts; exit status 1 when a template
fails. About 15 min for ascend-real-v1 on a quiet 2-core machine.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from agents.templates import synthesise
from ascend_core import suite, tune
from ascend_core.protocol import EvalRequest, Stage


def check(uri: str) -> tuple[str, list[str], str]:
    """(uri, the template's knobs, status): "no template" when none is synthesised."""
    from npu_daemon import evaluation
    from npu_daemon.backends.sim import SimBackend

    package = suite.resolve(uri)
    template = synthesise(package.tiling_source)
    if template is None:
        return uri, [], "no template"
    request = EvalRequest(
        run_id="template-noop",
        package=package.with_sources(tiling=template),
        stages=[Stage.COMPILE, Stage.CHECK],
    )
    with tempfile.TemporaryDirectory(prefix="template-") as d:
        result = evaluation.evaluate(SimBackend(), request, Path(d))
    status = result.status.value + ("" if result.ok else f": {result.message.splitlines()[0]}")
    return uri, [t.name for t in tune.find_tunables(template)], status


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", default=suite.REAL_SUITE)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    try:
        uris = suite.op_uris(args.suite)
    except KeyError as e:  # not materialised
        print(e.args[0], file=sys.stderr)
        return 2
    counts: Counter[str] = Counter()
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for uri, knobs, status in pool.map(check, uris):
            print(f"{uri}  [{', '.join(knobs)}]  {status}", flush=True)
            counts[status.split(":")[0] if knobs else status] += 1
    print(", ".join(f"{n} {status}" for status, n in counts.most_common()))
    return 1 if set(counts) - {"OK", "no template"} else 0


if __name__ == "__main__":
    sys.exit(main())
