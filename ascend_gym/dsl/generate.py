"""Generation from a specification: spec + numpy reference -> DSL program -> operator package.

Offline, the reference is traced (`trace`) and a category template writes the DSL program
(`templates`). With a model, `model.py` asks for the program instead. Either way the program is
run (`load_program`), checked and lowered (`lower`), so every generated package is the
lowering's AscendC, never text a model wrote directly. The public functions below run the
program and the reference in a confined child (`confined.py`): both are code the researcher did
not write, and the process that calls them goes on to evaluate what they made.
"""

from __future__ import annotations

import re
import traceback
from typing import Any

from pydantic import BaseModel

from ascend_core.package import Case, OperatorPackage, OperatorSpec
from ascend_gym.dsl import confined, variants
from ascend_gym.dsl.lang import DslError, Kernel, Schedule
from ascend_gym.dsl.lowerings import lower
from ascend_gym.dsl.spec_toml import spec_toml
from ascend_gym.dsl.templates import Draft, draft
from ascend_gym.dsl.trace import AttrCondition, Sym, Unsupported, trace

PROGRAM_FILE = "<dsl:{name}>"


def reference_files(pkg: OperatorPackage) -> dict[str, str]:
    """The spec's executable half: the reference module(s) the package carries."""
    module = pkg.spec.reference.split(":")[0]
    path = module.replace(".", "/") + ".py"
    return {path: pkg.files[path]} if path in pkg.files else {}


def spec_only(pkg: OperatorPackage) -> OperatorPackage:
    """The package with every kernel and tiling file removed: what generation starts from."""
    return pkg.model_copy(update={"files": reference_files(pkg)})


def load_program(source: str, filename: str) -> Kernel:
    """Run a DSL program here and return its Kernel; any mistake becomes a DslError at its line.
    Only for a program generation itself wrote, or in the confined child: `build` runs any other."""
    scope: dict[str, object] = {"__name__": "ascend_gym_dsl_program"}
    try:
        code = compile(source, filename, "exec")
        exec(code, scope)
    except DslError:
        raise
    except SyntaxError as e:
        raise DslError(f"{filename}:{e.lineno}", f"syntax error: {e.msg}") from None
    except Exception as e:
        line = 0
        for frame in traceback.extract_tb(e.__traceback__):
            if frame.filename == filename:
                line = frame.lineno or 0
        raise DslError(f"{filename}:{line}", f"{type(e).__name__}: {e}") from None
    kernels = [v for v in scope.values() if isinstance(v, Kernel)]
    if len(kernels) != 1:
        raise DslError(f"{filename}:0", f"the program defines {len(kernels)} Kernels, not one")
    return kernels[0]


def _build(pkg: OperatorPackage, source: str, sched: Schedule | None = None) -> OperatorPackage:
    """Lower a DSL program for `pkg`'s spec into a complete package, here (raises DslError)."""
    filename = PROGRAM_FILE.format(name=pkg.spec.name)
    kernel = load_program(source, filename)
    if kernel.name != pkg.spec.name:
        raise DslError(kernel.where, f"Kernel({kernel.name!r}) but the spec is {pkg.spec.name!r}")
    if sched is not None:
        kernel.sched = sched
    out = lower(kernel, pkg.spec, dsl_source=source, reference=reference_files(pkg))
    return out.model_copy(update={"uri": f"generated:{pkg.uri or pkg.spec.name}"})


GENERATED_DIRS = ("op_host/", "op_kernel/", "dsl/")  # what generation makes: sources and program


def _generated(pkg: OperatorPackage, sent: OperatorPackage) -> OperatorPackage:
    """A package the confined child sent, as data, under the uri generation gives it: its
    sources and DSL program only, under the spec and reference generation was asked for. The
    child runs foreign code, so the spec, op.toml and reference it sends are its own; the
    package's check judges by them."""
    files = {p: t for p, t in sent.files.items() if p.startswith(GENERATED_DIRS)}
    return OperatorPackage(
        spec=pkg.spec,
        files={**files, "op.toml": spec_toml(pkg.spec), **reference_files(pkg)},
        uri=f"generated:{pkg.uri or pkg.spec.name}",
    )


def build(pkg: OperatorPackage, source: str, sched: Schedule | None = None) -> OperatorPackage:
    """Lower a DSL program for `pkg`'s spec into a complete package (raises DslError), with
    `sched` in place of the program's own schedule when given; the program runs confined."""
    made = confined.run(lambda: _build(pkg, source, sched).model_dump(mode="json"), OperatorPackage)
    return _generated(pkg, made)


def program_schedule(pkg: OperatorPackage, source: str) -> Schedule:
    """The schedule a DSL program sets for its kernel, read in the confined child."""

    def schedule() -> dict[str, Any]:
        return load_program(source, PROGRAM_FILE.format(name=pkg.spec.name)).sched.model_dump()

    return confined.run(schedule, Schedule)


def traced_cases(spec: OperatorSpec) -> list[Case]:
    """The cases a reference is traced on: not those whose inputs are handed packed (int4 words,
    `cannbench/run.generation_source`), which the golden unpacks in code no trace follows; the
    program traced from the others serves them, its lowering reading the words as int4b_t."""
    return [c for c in spec.cases if not c.drawn]


def _offline_draft(pkg: OperatorPackage, native: bool = False) -> Draft:
    """The template library's program for an operator: traced on every case, which must agree.
    `native`: element-wise loops in the tensors' dtype (faster on fp16; the simulator judges
    whether it stays within tolerance)."""
    spec = pkg.spec
    if spec.reference_kind == "torch":  # a cann-bench golden, read through a stand-in torch
        from ascend_gym.cannbench.torch_trace import numpy_view

        fn = numpy_view(pkg)
    else:
        fn = pkg.reference()
    attrs = [a.name for a in spec.attrs if a.type == "float"]
    args = [*spec.inputs, *spec.outputs]
    dtypes = {d for a in args for d in a.dtypes}
    if any(c.drawn for c in spec.cases):  # int4 words: the program computes on the values
        dtypes = {spec.arg_dtype(c, a.name) for c in traced_cases(spec) for a in args}
    # tensors whose dtypes differ in some case are typed apart (the lowering's kernel types)
    mixed = len({tuple(spec.arg_dtype(c, a.name) for c in spec.cases) for a in args}) > 1
    drafts: dict[str, Draft] = {}
    for case in traced_cases(spec):
        inputs = {a.name: tuple(spec.arg_shape(case, a.name)) for a in spec.inputs}
        outputs = {
            a.name: tuple(case.shapes[a.name]) if a.name in case.shapes else None
            for a in spec.outputs
        }
        roots = _trace_case(fn, spec, case, inputs, attrs)
        d = draft(
            spec.name,
            spec.description,
            inputs,
            outputs,
            roots,
            attrs,
            dtypes,
            native,
            mixed,
            absent=case.absent,
        )
        drafts[case.name] = d
    sources = {d.source for d in drafts.values()}
    if len(sources) != 1:
        raise Programs(drafts)
    return next(iter(drafts.values()))


class Programs(Unsupported):
    """Cases that trace to different programs (each case's draft): one program alone cannot
    serve them; `generate_offline` joins them under tiling keys (`variants.py`)."""

    def __init__(self, drafts: dict[str, Draft]) -> None:
        super().__init__(
            f"the cases give {len({d.source for d in drafts.values()})} different programs"
        )
        self.drafts = drafts


def build_variants(pkg: OperatorPackage, drafts: dict[str, Draft]) -> tuple[OperatorPackage, Draft]:
    """One package for cases of several programs: each program lowered on its own cases, the
    host choosing among them by the attributes that tell them apart (raises Unsupported when
    none does, DslError when a program does not lower)."""
    spec = pkg.spec
    sources = list(dict.fromkeys(d.source for d in drafts.values()))
    program_of = {name: sources.index(d.source) for name, d in drafts.items()}
    traced = spec.model_copy(update={"cases": traced_cases(spec)})
    keys = variants.program_keys(traced, program_of)
    for c in spec.cases:  # a case not traced takes the program its keys' values pick
        if c.name not in program_of:
            program_of[c.name] = variants.program_for(spec, c, keys, program_of)
    parts, when = [], []
    for i, source in enumerate(sources):
        names = {n for n, p in program_of.items() if p == i}
        part = pkg.model_copy(update={"spec": variants.sub_spec(spec, names)})
        parts.append(_build(part, source))
        when.append({variants.values(spec, c, keys) for c in spec.cases if c.name in names})
    joined = variants.join(spec, parts, keys, when)
    program = "\n\n".join(
        f"# tiling key {i}: {', '.join(f'{k.kind} {k.name}' for k in keys)} in "
        f"{sorted(seen, key=repr)}\n{src}"
        for i, (src, seen) in enumerate(zip(sources, when), 1)
    )
    files = {**joined.files, f"dsl/{spec.name}.py": program, **reference_files(pkg)}
    categories = "+".join(dict.fromkeys(d.category for d in drafts.values()))
    made = joined.model_copy(update={"files": files, "uri": f"generated:{pkg.uri or spec.name}"})
    return made, Draft(f"{categories} by tiling key", program)


def _trace_case(
    fn: Any, spec: OperatorSpec, case: Case, inputs: dict[str, tuple[int, ...]], attrs: list[str]
) -> list[Sym]:
    """Trace one case: float attributes as the kernel's, the others (and a float attribute the
    reference branches on) as the case's values, which must give every case the same program."""
    fixed = {a.name for a in spec.attrs if a.type != "float"}
    while True:
        values = {a.name: case.attrs.get(a.name, a.default) for a in spec.attrs if a.name in fixed}
        try:
            traced = [a for a in attrs if a not in fixed]
            return trace(fn, inputs, traced, values, absent=case.absent)
        except AttrCondition as e:
            if e.attr_name in fixed:
                raise
            fixed.add(e.attr_name)


def _generate_offline(pkg: OperatorPackage) -> tuple[OperatorPackage, Draft]:
    try:
        d = _offline_draft(spec_only(pkg))
    except Programs as e:
        try:
            return build_variants(spec_only(pkg), e.drafts)
        except Unsupported as why:
            raise Unsupported(f"{pkg.spec.name}: outside the offline templates: {why}") from None
    except Unsupported as e:
        raise Unsupported(f"{pkg.spec.name}: outside the offline templates: {e}") from None
    return _build(spec_only(pkg), d.source), d


def offline_draft(pkg: OperatorPackage, native: bool = False) -> Draft:
    """The template library's program for an operator, its reference traced in the confined
    child (raises Unsupported: cases of different programs too)."""

    def drafted() -> list[str]:
        d = _offline_draft(pkg, native)
        return [d.category, d.source]

    category, source = confined.run(drafted, tuple[str, str])
    return Draft(category, source)


class _Generated(BaseModel):
    """generate_offline's answer from the confined child."""

    package: OperatorPackage
    draft: tuple[str, str]


def generate_offline(pkg: OperatorPackage) -> tuple[OperatorPackage, Draft]:
    """Spec and reference -> package, by the template library (raises Unsupported/DslError),
    the reference traced and the program lowered in the confined child."""

    def generated() -> dict[str, Any]:
        made, d = _generate_offline(pkg)
        return {"package": made.model_dump(mode="json"), "draft": [d.category, d.source]}

    answer = confined.run(generated, _Generated)
    return _generated(pkg, answer.package), Draft(*answer.draft)


def dsl_error_line(message: str) -> int | None:
    """The DSL program line a DslError message points at, if any."""
    m = re.match(r"<dsl:[^>]*>:(\d+):", message)
    return int(m.group(1)) if m else None
