"""What the shared offline knowledge offers on a suite, and whether its templates are the operators.

    python benchmarks/knowledge_coverage.py [--suite ascend-real-v1] [--check-templates] [--jobs 2]

Every policy without a model draws its candidates from `agents.knowledge.Knowledge.moves`: the
synthesised template's knob moves (tiling; a suite whose tilings carry `@tune` markers has its
own), the catalogue's rewrites and the bank's transplants (kernel or tiling). An operator with no
kernel move leaves Stage II nothing to try offline, whatever the budget. Prints, per part and
move, the operators it applies to, then how many operators have any kernel and any tiling move.
That reads sources only: 30 s for ascend-real-v1.

`--check-templates` also compiles and checks each operator's template unchanged
(`agents.templates.template`: its real knobs, else its integer constants), through the daemon's
own evaluation (npu_daemon/evaluation.py: acceptance check, compile, every case, no timing): it
must pass as the published tiling does, or every policy's first tiling candidate there fails.
Exit status 1 when one does not. About 12 min for ascend-real-v1 on a 2-core machine.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

from agents import templates
from agents.knowledge import Knowledge
from ascend_core import suite
from ascend_core.protocol import EvalRequest, Stage


def move_kind(name: str, kind: str, motif: str) -> str:
    """A move's family: the knob a template move turns, the rewrite, a transplant's motif."""
    if kind == "transplant":
        return f"transplant: {motif}"
    knob = re.fullmatch(r"(?:template )?(.+):(?:x2|/2|\+step|-step)", name)
    return f"knob {knob[1]}" if knob else name


def check_template(uri: str) -> str:
    """The unchanged template's status ("OK", or the failure and its first line); "" if none."""
    from npu_daemon import evaluation
    from npu_daemon.backends.sim import SimBackend

    package = suite.resolve(uri)
    template = templates.template(package.tiling_source)
    if template is None:
        return ""
    request = EvalRequest(
        run_id="template-check",
        package=package.with_sources(tiling=template.tiling),
        stages=[Stage.COMPILE, Stage.CHECK],
    )
    result = evaluation.evaluate_alone(SimBackend(), request)
    return "OK" if result.ok else f"{result.status.value}: {result.message.splitlines()[0]}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", default=suite.REAL_SUITE)
    parser.add_argument("--check-templates", action="store_true")
    parser.add_argument("--jobs", type=int, default=2, help="templates checked at a time")
    args = parser.parse_args()
    if args.suite not in suite.roots() and args.suite not in suite.DERIVED:
        hint = f"`ascend-gym suite materialise {args.suite} --src DIR` builds it"
        known = ", ".join(sorted(suite.roots()))
        print(
            f"no suite {args.suite!r} here: "
            + (hint if suite.definition_path(args.suite) else f"known: {known}"),
            file=sys.stderr,
        )
        return 2
    uris = suite.op_uris(args.suite)
    applies: Counter[tuple[str, str]] = Counter()
    parts: Counter[str] = Counter()
    for uri in uris:
        moves = Knowledge(operator=uri).moves(suite.resolve(uri))
        for key in {(m.part, move_kind(m.name, m.kind, m.motif)) for m in moves}:
            applies[key] += 1
        for part in {m.part for m in moves}:
            parts[part] += 1
    print(f"{len(uris)} operators of {args.suite}")
    print("| part | move | operators |\n|---|---|---|")
    for (part, kind), n in sorted(applies.items(), key=lambda kv: (kv[0][0], -kv[1])):
        print(f"| {part} | {kind} | {n} |")
    print(", ".join(f"{parts[p]} with a {p} move" for p in sorted(parts)))
    if not args.check_templates:
        return 0
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        statuses = dict(zip(uris, pool.map(check_template, uris)))
    failed = {u: s for u, s in statuses.items() if s not in ("", "OK")}
    for uri, status in failed.items():
        print(f"template of {uri}: {status}")
    done = sum(bool(s) for s in statuses.values())
    print(f"templates: {done - len(failed)} of {done} pass unchanged; {len(uris) - done} without")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
