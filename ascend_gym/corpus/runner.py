"""Evaluate every custom op of a corpus directory on the simulator and tabulate the outcome."""

from __future__ import annotations

import functools
import re
import tempfile
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from pydantic import BaseModel

from ascend_core.package import OperatorPackage, OperatorSpec
from ascend_core.protocol import DEFAULT_BACKEND, EvalRequest, Stage, Status
from ascend_gym.corpus import (
    OWN_SPEC,
    OpSource,
    OutsideCheckout,
    find_ops,
    host_sources_text,
    op_host_text,
    packaged,
    spec_for,
)
from ascend_gym.corpus.opdef import opdef_spec
from ascend_gym.validation import check_draws, draw_failure

NO_SPEC = "NO_SPEC"  # no spec of ours for this operator name: not tried
# The OpDef registers only SoCs without the simulated AI core (AICore().AddConfig): the toolchain
# builds no kernel of it for an A2, so it is not tried unless asked for.
OTHER_SOC = "OTHER_SOC"
SPEC_ERROR = "SPEC_ERROR"  # our spec or reference raised: a fault of ours, not of the operator
# Input draws an operator must pass to enter a suite (`suite materialise`, `suite import`): one
# draw can pass an answer right only where it put the extreme, or a spec tighter than the
# kernel's own error.
QUALIFY_DRAWS = 4
# AddConfig names of the SoCs with the AI core the presets model (A2's dav-c220, which the A3,
# ascend910_93, shares).
A2_CONFIGS = {"ascend910b", "ascend910_93"}
_ADD_CONFIG = re.compile(r"\bAddConfig\(\s*\"(\w+)\"")


class OpOutcome(BaseModel):
    op: str
    path: str
    status: str  # a protocol Status value, NO_SPEC or OTHER_SOC
    message: str = ""
    cases: int = 0
    cases_passed: int = 0
    latency_us: float | None = None  # the bench case's, simulated, when timed
    head_us: float | None = None  # the model's launch head in it
    opdef: bool = False  # built against the arguments its OpDef declares (no spec of ours)

    @property
    def tried(self) -> bool:
        return self.status not in (NO_SPEC, OTHER_SOC)

    @property
    def compiled(self) -> bool:
        return self.tried and self.status not in (
            Status.COMPILE_ERROR.value,
            Status.BUILD_TIMEOUT.value,
        )

    @property
    def passed(self) -> bool:
        return self.status == Status.OK.value


def registered_socs(package: OperatorPackage) -> set[str]:
    """The SoCs the OpDef adds configs for (none found: the op does not say)."""
    return set(_ADD_CONFIG.findall(host_sources_text(package.files)))


def evaluate(
    source: OpSource,
    soc: str = "Ascend910B4",
    any_soc: bool = False,
    accept_only: bool = False,
    draws: int = 1,
    include_dirs: Sequence[str] = (),
    backend: str = DEFAULT_BACKEND,
    adapt: Callable[[OperatorSpec], OperatorSpec] | None = None,
    timed: bool = False,
    compile_only: bool = False,
) -> OpOutcome:
    """Compile and check one implementation on every case of our spec (no timing stage), through
    the daemon's own evaluation (npu_daemon/evaluation.py: the acceptance check included), on the
    inputs of seeds 0..draws-1 until one fails. `accept_only`: the acceptance check alone
    (`evaluation.accept`: every unit preprocessed and read, nothing compiled or run; `corpus
    check`). `include_dirs`: include roots the build files do not give (paths from the
    repository's root); a failure whose sources include headers found nowhere says so.
    `backend`: the simulator engine, `sim` or `sim-guest` (the daemon's --backend). `adapt`: an
    edit of our spec (a suite definition's own bench case). `timed`: the first draw also times
    the bench case (the outcome's latency and the model's launch head in it). `compile_only`:
    the build alone (`corpus compile`), with the arguments the OpDef declares where we have no
    spec (opdef.py). REJECTED, with nothing packaged or sent, where a file it would take leaves
    the checkout (a link out of it: `corpus.checkout_text`)."""
    try:
        return _evaluate(
            source,
            soc,
            any_soc,
            accept_only,
            draws,
            include_dirs,
            backend,
            adapt,
            timed,
            compile_only,
        )
    except OutsideCheckout as e:  # nothing of it packaged, nothing sent
        return OpOutcome(
            op=source.op, path=source.rel, status=Status.REJECTED.value, message=str(e)
        )


def _evaluate(
    source: OpSource,
    soc: str,
    any_soc: bool,
    accept_only: bool,
    draws: int,
    include_dirs: Sequence[str],
    backend: str,
    adapt: Callable[[OperatorSpec], OperatorSpec] | None,
    timed: bool,
    compile_only: bool,
) -> OpOutcome:
    """`evaluate`, where a file of the checkout whose real path leaves it raises OutsideCheckout."""
    from npu_daemon import evaluation  # the simulator only when running
    from npu_daemon.backends.base import get_backend

    try:
        spec = spec_for(source)
    except OutsideCheckout:
        raise
    except ValueError as e:  # its own op.toml does not parse or validate
        message = f"{source.root / OWN_SPEC}: {' '.join(str(e).split())[:300]}"
        return OpOutcome(op=source.op, path=source.rel, status=SPEC_ERROR, message=message)
    opdef = spec is None and compile_only
    if opdef:
        spec = opdef_spec(source.op, op_host_text(source))
    if spec is None:
        message = f"no {OWN_SPEC} beside its op_host/ and no spec of ours for {source.op!r}"
        if compile_only:
            message += ", and no OpDef argument types the simulator has"
        return OpOutcome(op=source.op, path=source.rel, status=NO_SPEC, message=message)
    package, unfound = packaged(source, adapt(spec) if adapt else spec, include_dirs)
    socs = registered_socs(package)
    if socs and not socs & A2_CONFIGS and not any_soc:
        return OpOutcome(
            op=source.op,
            path=source.rel,
            status=OTHER_SOC,
            message=f"its OpDef registers {', '.join(sorted(socs))} only",
        )

    def draw(seed: int) -> EvalRequest:
        stages = [Stage.COMPILE, Stage.CHECK] + ([Stage.TIME] if timed and seed == 0 else [])
        stages = [Stage.COMPILE] if compile_only else stages
        return EvalRequest(run_id="corpus", package=package, soc=soc, seed=seed, stages=stages)

    run = functools.partial(evaluation.evaluate_alone, get_backend(backend))
    if accept_only:
        with tempfile.TemporaryDirectory(prefix="corpus-") as d:
            result = evaluation.accept(draw(0), Path(d))
    else:
        result = run(draw(0))
    latency_us, head = result.latency_us, None
    if result.profile is not None:
        head = (result.profile.model_extra or {}).get("head_us")
    message = result.message
    if result.ok and not (accept_only or compile_only):
        checked, failed = check_draws(run, draw, range(1, draws))
        if failed is not None:
            result, message = failed, draw_failure(checked[-1], draws, failed.message)
    if result.status in (Status.DAEMON_ERROR, Status.REJECTED) and not compile_only:
        fault = spec_fault(package)  # ours, or the daemon's (DAEMON_ERROR) or the operator's
        if fault:
            return OpOutcome(op=source.op, path=source.rel, status=SPEC_ERROR, message=fault)
    if result.status is Status.COMPILE_ERROR and (note := package_note(message, unfound)):
        message = note
    elif unfound and not result.ok:
        message = f"{message}\n{unfound_note(unfound)}"
    return OpOutcome(
        op=source.op,
        path=source.rel,
        status=result.status.value,
        message=message,
        cases=len(package.spec.cases),
        cases_passed=sum(c.passed for c in result.cases),
        latency_us=latency_us if result.ok else None,
        head_us=head if result.ok else None,
        opdef=opdef,
    )


def unfound_note(unfound: Sequence[str]) -> str:
    """The one line for includes the build files gave no directory for, naming the override."""
    names = ", ".join(f'"{n}"' for n in unfound[:4]) + (" ..." if len(unfound) > 4 else "")
    return (
        f"the repository's build files, as read, give no include directory holding {names}: "
        "name it with include_dirs in the spec's op.toml or `corpus run --include-dir DIR` "
        "(a path from the repository's root)"
    )


# Packages of CANN whose headers operators include by these prefixes and which a repository's
# build files find outside it (an install, or a variable naming another checkout): none is
# emulated whole, so a header of theirs not found is that package missing, not the build files'.
_OPBASE = (
    "CANN's op base package (opbase: the atvoss templates of its pkg_inc; the simulator "
    "emulates atvoss/util and the elementwise tiling alone)"
)
_HCCL = "CANN's HCCL communication API (MC2, across chips: the simulator models one chip)"
_C_API = "asc-devkit's C API (the asc_* intrinsics of c_api/asc_simd.h; the simulator emulates the C++ API)"
_PACKAGES = {
    "atvoss/": _OPBASE,
    "op_common/atvoss/": _OPBASE,
    "tiling/hccl/": _HCCL,
    "hccl/": _HCCL,
    "lib/hccl/": _HCCL,
    "c_api/": _C_API,
}
# The compilers' one line for an include not found: g++ `path:l:c: fatal error: NAME: No such file
# or directory`, clang `path:l:c: fatal error: 'NAME' file not found`.
_NOT_FOUND = re.compile(
    r"^(?P<at>.*?): fatal error: (?:'(?P<c>[^']+)' file not found|(?P<g>[^:\s]+): No such file or directory)"
)


def package_note(message: str, unfound: Sequence[str] = ()) -> str:
    """The one-line COMPILE_ERROR for a header of a package outside the repository that the
    simulator does not provide ("" when the message's first line is not such a header, or names
    one the repository holds: `unfound`, its build files' miss)."""
    m = _NOT_FOUND.match(message.splitlines()[0] if message else "")
    if not m:
        return ""
    name = m.group("c") or m.group("g")
    prefix = next((p for p in _PACKAGES if name.startswith(p)), None)
    if prefix is None or name in unfound:
        return ""
    return f"{m.group('at')}: {name} is {_PACKAGES[prefix]}, not provided by the simulator"


def spec_fault(package: OperatorPackage) -> str:
    """Why our spec or reference fails on its own, every case's inputs drawn and its reference
    computed without the operator ("" when they do not). A daemon fault or a rejection reads the
    same whoever caused it; this tells ours apart."""
    from npu_daemon import checker

    for case in package.spec.cases:
        try:
            checker.reference_outputs(package, case, checker.make_inputs(package, case, 0))
        except Exception as e:  # any error of our spec or reference module
            return f"case {case.name}: our spec or reference failed: {type(e).__name__}: {e}"
    return ""


def run(
    src: Path,
    jobs: int = 1,
    soc: str = "Ascend910B4",
    progress: Callable[[OpOutcome], None] | None = None,
    any_soc: bool = False,
    accept_only: bool = False,
    include_dirs: Sequence[str] = (),
    backend: str = DEFAULT_BACKEND,
    only: Sequence[str] = (),
    compile_only: bool = False,
) -> list[OpOutcome]:
    """Every custom op under `src`, evaluated `jobs` at a time, in path order; with `only`, those
    named there (by operator name or by directory relative to `src`) alone, so that part of a
    repository is run with the include roots of the whole checkout."""

    def one(source: OpSource) -> OpOutcome:
        outcome = evaluate(
            source,
            soc,
            any_soc,
            accept_only,
            include_dirs=include_dirs,
            backend=backend,
            compile_only=compile_only,
        )
        if progress:
            progress(outcome)
        return outcome

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        sources = [s for s in find_ops(src) if not only or s.op in only or s.rel in only]
        return list(pool.map(one, sources))


_NOISE = [
    (re.compile(r"case \w+(, output \w+)?: "), ""),
    (re.compile(r"block \d+: "), ""),
    (re.compile(r"\S*(op_host|op_kernel)/\S+?:(\d+:)*\s*"), ""),  # where, in which file
    (re.compile(r"\S+\.(cpp|h):\d+"), "kernel code"),
    (re.compile(r"(first at flat index|got|expected) .*"), ""),
    (re.compile(r"‘[^’]*’"), "‘…’"),  # g++'s quoted names
    (re.compile(r"(?<=\s)'[^'\n]*'"), "'…'"),  # clang's (the guest engine's compiler)
    (re.compile(r"\b\w+\+\d+"), "X+N"),  # GM name+offset
    (re.compile(r"\d+(\.\d+)?"), "N"),
]


def none_tried(outcomes: list[OpOutcome]) -> str:
    """Why no operator found was run ("" when one was): one line for the user. A spec that fails
    on its own runs no operator either."""
    if any(o.tried and o.status != SPEC_ERROR for o in outcomes):
        return ""
    reasons = "; ".join(f"{o.path}: {o.message}" for o in outcomes[:3])
    more = f" (and {len(outcomes) - 3} more)" if len(outcomes) > 3 else ""
    return f"found {len(outcomes)} operator(s), tried none: {reasons}{more}"


def cause(outcome: OpOutcome) -> str:
    """The failure's message with files, positions, names and numbers taken out, so the same
    cause in different operators counts together."""
    text = outcome.message.splitlines()[0] if outcome.message else ""
    for pattern, repl in _NOISE:
        text = pattern.sub(repl, text)
    return f"{outcome.status}: {' '.join(text.split())[:150]}"


def source(outcome: OpOutcome) -> str:
    """Where the operator comes from: the first directory of its path under the corpus root
    (one directory per repository)."""
    return outcome.path.split("/", 1)[0]


def summary(outcomes: list[OpOutcome], top: int = 12) -> str:
    """The table: operators found, tried (have a spec), compiled, all cases correct, statuses, the
    counts per source and the most frequent failure causes."""
    tried = [o for o in outcomes if o.tried]
    n = len(tried)

    def pct(k: int) -> str:
        return f"{k} ({100 * k / n:.0f} %)" if n else "0"

    lines = [
        "| corpus | count |",
        "|---|---|",
        f"| custom-op directories found | {len(outcomes)} |",
        f"| registered for other SoCs only (not tried) | {sum(o.status == OTHER_SOC for o in outcomes)} |",
        f"| tried (a spec, its own or ours; registered for the A2) | {n} |",
        f"| compiled | {pct(sum(o.compiled for o in tried))} |",
        f"| all cases correct | {pct(sum(o.passed for o in tried))} |",
        "",
        "| status | operators |",
        "|---|---|",
    ]
    for status, k in Counter(o.status for o in tried).most_common():
        lines.append(f"| {status} | {k} |")
    sources = sorted({source(o) for o in tried})
    if len(sources) > 1:
        lines += ["", "| source | tried | compiled | all cases correct |", "|---|---|---|---|"]
        for name in sources:
            mine = [o for o in tried if source(o) == name]
            passed = sum(o.passed for o in mine)
            lines.append(
                f"| {name} | {len(mine)} | {sum(o.compiled for o in mine)} | "
                f"{passed} ({100 * passed / len(mine):.0f} %) |"
            )
    return "\n".join(lines + _causes(tried, "top failure causes", top))


def _causes(tried: list[OpOutcome], title: str, top: int) -> list[str]:
    """The table of the most frequent causes among the operators that did not pass."""
    failures = Counter(cause(o) for o in tried if not o.passed)
    if not failures:
        return []
    rows = [f"| {text.replace('|', '/')} | {k} |" for text, k in failures.most_common(top)]
    return ["", f"| {title} | operators |", "|---|---|", *rows]


def acceptance(outcomes: list[OpOutcome]) -> str:
    """`corpus check`'s table: of the operators tried that preprocess, how many the acceptance
    check lets through; every rejection with its message."""
    tried = [o for o in outcomes if o.tried and o.status != SPEC_ERROR]
    judged = [o for o in tried if o.compiled]
    rejected = [o for o in judged if o.status == Status.REJECTED.value]
    n, k = len(judged), len(judged) - len(rejected)
    lines = [
        "| acceptance | count |",
        "|---|---|",
        f"| custom-op directories found | {len(outcomes)} |",
        f"| tried (a spec, its own or ours; registered for the A2) | {len(tried)} |",
        f"| did not preprocess (not judged) | {len(tried) - n} |",
        f"| judged | {n} |",
        f"| accepted | {k} ({100 * k / n:.1f} %) |" if n else "| accepted | 0 |",
        f"| rejected | {len(rejected)} |",
    ]
    if rejected:
        lines += ["", "| rejected operator | rule |", "|---|---|"]
        lines += [f"| {o.path} | {o.message.splitlines()[0].replace('|', '/')} |" for o in rejected]
    return "\n".join(lines)


def compilation(outcomes: list[OpOutcome], top: int = 12) -> str:
    """`corpus compile`'s table: of the operators found for the A2, how many build (the tiling
    program and the kernel, through the acceptance check), with our spec or their OpDef's
    arguments; per source and the most frequent causes of the rest."""
    tried = [o for o in outcomes if o.tried]

    def built(group: list[OpOutcome]) -> str:
        k = sum(o.passed for o in group)
        return f"{k} of {len(group)} ({100 * k / len(group):.0f} %)" if group else "0"

    lines = [
        "| compile | count |",
        "|---|---|",
        f"| custom-op directories found | {len(outcomes)} |",
        f"| registered for other SoCs only (not built) | {sum(o.status == OTHER_SOC for o in outcomes)} |",
        f"| no spec and no OpDef types the simulator has (not built) | {sum(o.status == NO_SPEC for o in outcomes)} |",
        f"| built, every one | {built(tried)} |",
        f"| built, with a spec (its own or ours) | {built([o for o in tried if not o.opdef])} |",
        f"| built, with its OpDef's arguments | {built([o for o in tried if o.opdef])} |",
    ]
    sources = sorted({source(o) for o in tried})
    if len(sources) > 1:
        lines += ["", "| source | built |", "|---|---|"]
        lines += [
            f"| {name} | {built([o for o in tried if source(o) == name])} |" for name in sources
        ]
    return "\n".join(lines + _causes(tried, "top causes", top))
