"""cann-bench on the simulator: a candidate per task, every case evaluated and timed, HAP scored.

A task's candidate is a submission's operator (`submission`) or a generated package (the tile
DSL's offline templates or a model, `ascend-gym generate`'s path). Each case is evaluated on its
own as the bench case (compiled once: builds are cached by content), through the daemon's one
in-process evaluation, so every case has a simulated latency for its score_i. The table per
level gives compile rate, correct rate, mean HAP and cann-bench's operator score (`hap`), beside
our speedup (GM over operators, 1.0 where no correct candidate) and fast_p.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel

from ascend_core.package import OperatorPackage, OperatorSpec
from ascend_core.protocol import DEFAULT_BACKEND, EvalRequest
from ascend_gym.cannbench.hap import CaseScore, OperatorScore, case_score
from ascend_gym.cannbench.importer import Floor, Manifest
from ascend_gym.cannbench.tasks import Task

# Statuses that end an operator: its sources do not build or the acceptance check refuses them.
# A case whose golden (or its get_input) fails is REJECTED too, but the golden is the task's, not
# the candidate's: that case fails alone, and the operator's other cases still count.
WHOLE = ("COMPILE_ERROR", "REJECTED", "BUILD_TIMEOUT")
# What the tile DSL lowers: any of these per tensor (a bool as its bytes, 0 or 1)
DSL_DTYPES = ("float16", "float32", "bfloat16", "int32", "int64", "int8", "uint8", "bool")
FAST_P = (1.0, 1.2, 1.4, 2.0)


def int4_words(spec: OperatorSpec, case) -> bool:
    """Whether each input of the case drawn at another shape is int4 values packed eight to an
    int32 along the last axis (cann-bench's INT4 layout: element 8j + i in bits 4i..4i+3 of word
    j, so its bytes are int4b_t's, element 2k in the low nibble of byte k)."""

    def packed(arg: str, drawn: list[int]) -> bool:
        given = spec.arg_shape(case, arg)
        return (
            spec.arg_dtype(case, arg) == "int32"
            and len(drawn) == len(given) > 0
            and drawn[:-1] == given[:-1]
            and drawn[-1] == 8 * given[-1]
        )

    return all(packed(a, d) for a, d in case.drawn.items())


def generation_source(task: OperatorPackage) -> OperatorPackage:
    """The task as the tile DSL can take it: its cases whose tensors each hold a dtype the DSL
    lowers, handed to the kernel as drawn, or with int4 inputs packed eight to an int32 (the
    lowering reads such an input as int4b_t; it is traced from the other cases, where the same
    input must never be int32), each tensor's dtypes those of the cases kept. The other cases
    still score the generated kernel, which fails them if it cannot serve them."""
    spec = task.spec

    def lowered(c) -> bool:
        return all(spec.arg_dtype(c, a.name) in DSL_DTYPES for a in [*spec.inputs, *spec.outputs])

    cases = [c for c in spec.cases if lowered(c) and not c.drawn]
    # an input int32 in a traced case could not tell its int4 words by dtype
    words = {
        a.name
        for c in cases
        for a in spec.inputs
        if a.name not in c.absent and spec.arg_dtype(c, a.name) == "int32"
    }
    cases += [
        c
        for c in spec.cases
        if c.drawn and lowered(c) and int4_words(spec, c) and not words & set(c.drawn) and cases
    ]
    if not cases:
        packed = "; none handed as drawn" if any(c.drawn for c in spec.cases) else ""
        raise ValueError(f"no case whose tensors are each {'/'.join(DSL_DTYPES)}{packed}")
    bench = max(
        (c for c in cases if not c.drawn),
        key=lambda c: sum(math.prod(s) for s in c.shapes.values()),
    )
    cases = [c.model_copy(update={"bench": c is bench}) for c in cases]

    def narrow(args):
        return [
            a.model_copy(update={"dtypes": sorted({spec.arg_dtype(c, a.name) for c in cases})})
            for a in args
        ]

    narrowed = spec.model_copy(
        update={"cases": cases, "inputs": narrow(spec.inputs), "outputs": narrow(spec.outputs)}
    )
    return task.model_copy(update={"spec": OperatorSpec.model_validate(narrowed.model_dump())})


def candidate(task: OperatorPackage, generated: OperatorPackage) -> OperatorPackage:
    """A generated package's sources under the task's own spec and golden."""
    fields = ("kernel", "host_file", "tiling_header", "kernel_file", "host_sources")
    spec = task.spec.model_copy(update={f: getattr(generated.spec, f) for f in fields})
    sources = {p: t for p, t in generated.files.items() if p.startswith(("op_host/", "op_kernel/"))}
    return OperatorPackage(spec=spec, files={**task.files, **sources}, uri=generated.uri)


def generate(
    task: OperatorPackage, soc: str, model: Callable[..., tuple] | None = None
) -> tuple[OperatorPackage | None, str]:
    """A generated candidate for the task, or None and why not."""
    from ascend_gym.dsl.confined import GenerationFailed
    from ascend_gym.dsl.generate import generate_offline
    from ascend_gym.dsl.lang import DslError
    from ascend_gym.dsl.trace import Unsupported

    try:
        source = generation_source(task)
        if model is not None:
            made, how = model(source)
            return (candidate(task, made), how) if made is not None else (None, how)
        made, draft = generate_offline(source)
    except (Unsupported, DslError, ValueError, SyntaxError, NameError, GenerationFailed) as e:
        return None, str(e).splitlines()[0][:300] if str(e) else type(e).__name__
    except RecursionError:  # a golden whose graph is deeper than a walk of it can go
        return None, "the golden's expression graph is too deep to generate from"
    return candidate(task, made), f"offline {draft.category} template"


def score(
    pkg: OperatorPackage | None,
    task: Task,
    floors: dict[str, Floor],
    soc: str,
    message: str = "",
    protocol: Literal["cold", "warm"] = "warm",
) -> OperatorScore:
    """Evaluate every case of `pkg` as its own bench case and score it (cann-bench Eq. 3-4).
    `protocol`: warm by default, as cann-bench times a kernel after warm-up launches (its L2
    flush between launches is not modelled)."""
    from npu_daemon import evaluation
    from npu_daemon.backends.base import get_backend
    from npu_daemon.references import REFERENCE_FAILED as golden_failed

    n = len(task.case_ids) + len(task.skipped)
    result = OperatorScore(op=task.name, level=task.level, built=False, n_cases=n, message=message)
    if pkg is None:
        return result.model_copy(update={"generated": False})
    backend = get_backend(DEFAULT_BACKEND)
    for case in pkg.spec.cases:
        cases = [c.model_copy(update={"bench": c.name == case.name}) for c in pkg.spec.cases]
        one = pkg.model_copy(update={"spec": pkg.spec.model_copy(update={"cases": cases})})
        answer = evaluation.evaluate_alone(
            backend,
            EvalRequest(package=one, cases=[case.name], soc=soc, timing_protocol=protocol),
        )
        status = answer.status.value
        if status in WHOLE and not answer.message.startswith(f"case {case.name}: {golden_failed}"):
            return result.model_copy(update={"cases": [], "message": answer.message[:300]})
        cid = task.case_ids[case.name]
        floor = floors.get(cid, Floor())
        latency = answer.latency_us if status == "OK" else None
        result.built = True
        result.cases.append(
            CaseScore(
                case=case.name,
                case_id=cid,
                status=status,
                latency_us=latency,
                baseline_us=floor.baseline_perf_us,
                t_hw_us=floor.t_hw_us,
                hap=None
                if latency is None
                else case_score(latency, floor.baseline_perf_us, floor.t_hw_us),
            )
        )
        if status != "OK" and not result.message:
            result.message = f"{case.name}: {status}: {answer.message}"[:300]
    return result


class LevelRow(BaseModel):
    level: str
    ops: int
    compile_rate: float
    correct_rate: float
    mean_hap: float | None  # over operators with metadata for every passing case
    score: float | None  # cann-bench's level score: the sum of operator scores
    gm_speedup: float
    fast_p: dict[str, float]


def level_rows(scores: list[OperatorScore]) -> list[LevelRow]:
    """One row per level and one for all."""
    groups = {
        f"level{lv}": [s for s in scores if s.level == lv]
        for lv in sorted({s.level for s in scores})
    }
    groups["all"] = scores
    rows = []
    for name, group in groups.items():
        haps = [s.mean_hap for s in group if s.mean_hap is not None]
        op_scores = [s.score for s in group]
        ups = [s.speedup or 1.0 for s in group]
        rows.append(
            LevelRow(
                level=name,
                ops=len(group),
                compile_rate=sum(s.built for s in group) / len(group),
                correct_rate=sum(s.correct for s in group) / len(group),
                mean_hap=sum(haps) / len(haps) if haps else None,
                score=None if any(x is None for x in op_scores) else sum(op_scores),
                gm_speedup=math.exp(sum(math.log(u) for u in ups) / len(ups)),
                fast_p={f"{p:g}": sum(u > p for u in ups) / len(ups) for p in FAST_P},
            )
        )
    return rows


def below_floor(scores: list[OperatorScore]) -> list[tuple[str, CaseScore]]:
    """Passing cases simulated faster than their hardware floor T_HW (model or integrity alarms)."""
    return [(s.op, c) for s in scores for c in s.cases if c.below_floor]


def table(scores: list[OperatorScore], manifest: Manifest, hw: str, soc: str) -> str:
    """The per-level table and the alarms, as printed and written to docs/cann_bench.md."""

    def num(v: float | None, fmt: str = ".3f") -> str:
        return "n/a" if v is None else format(v, fmt)

    lines = [
        f"Simulated on {soc} (latencies: the sim backend's performance model, not NPU "
        f"measurements); T_baseline and T_HW: cann-bench metadata/{hw}.json (NPU).",
        "",
        "| level | ops | compile rate | correct rate | mean HAP | score (sum) | GM speedup | "
        + " | ".join(f"fast_{p:g}" for p in FAST_P)
        + " |",
        "|---" * (7 + len(FAST_P)) + "|",
    ]
    for row in level_rows(scores):
        lines.append(
            f"| {row.level} | {row.ops} | {row.compile_rate:.2f} | {row.correct_rate:.2f} | "
            f"{num(row.mean_hap)} | {num(row.score, '.1f')} | {row.gm_speedup:.3f} | "
            + " | ".join(f"{v:.2f}" for v in row.fast_p.values())
            + " |"
        )
    alarms = below_floor(scores)
    lines += ["", f"Passing cases simulated faster than T_HW: {len(alarms)}"]
    lines += [
        f"- {op} {c.case} (case_id {c.case_id}): {c.latency_us:.2f} us < T_HW {c.t_hw_us:.2f} us"
        for op, c in alarms
    ]
    if manifest.failed:
        lines += ["", f"Tasks not imported: {len(manifest.failed)}"]
        lines += [f"- {path}: {why}" for path, why in sorted(manifest.failed.items())]
    return "\n".join(lines)
