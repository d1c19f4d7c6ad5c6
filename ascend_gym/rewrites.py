"""The rewrite catalogue: named, deterministic edits of an operator package.

It is the discrete action space of AscendOp-v0 (action id = index in `CATALOGUE`) and the shared
vocabulary of the offline proposer and Best-of-N. Each `Rewrite` edits the tiling program (the
`@tune` numbers) or the kernel program (structural AscendC rewrites) and returns a new package,
or None when it does not apply to this package. "Does not apply" includes "would change
nothing", so an applied rewrite always yields a different candidate.

Edits are anchored on AscendC syntax found in code only: comments and string literals are blanked
out before matching (`ascend_core.cpp.code_view`), so a commented-out `PipeBarrier<PIPE_ALL>()` is
never touched, and every edit keeps the rest of the file byte for byte. A rewrite that cannot prove its pattern
(an unparsable argument list, a buffer depth that is not a named constant) does not apply rather
than guess. Whether the result is correct and faster is for the evaluation to decide.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Literal

import numpy as np

from ascend_core import tune
from ascend_core.cpp import (
    base_name,
    code_view,
    declared_as,
    indent_at,
    line_bounds,
    matching,
    split_args,
)
from ascend_core.package import OperatorPackage
from ascend_core.protocol import DEFAULT_SOC
from ascend_core.soc import aic_cores, aiv_cores

# Marker slots in the catalogue: tiling programs with more @tune markers expose the first ones.
MAX_TUNE_SLOTS = 4
TUNE_OPS = ("x2", "/2", "+step", "-step")
DTYPE_BYTES = {
    "float16": 2,
    "float32": 4,
    "bfloat16": 2,
    "int8": 1,
    "uint8": 1,
    "int16": 2,
    "int32": 4,
    "int64": 8,
    "bool": 1,
}
DMA_ALIGN_BYTES = 32  # DataCopy moves whole 32-byte blocks


@dataclass(frozen=True)
class Rewrite:
    """One catalogue entry. `edit` does the work; `apply` adds the "changes something" guarantee."""

    name: str  # stable id, e.g. "tune[0]:x2", "double_buffer:on", "remove_pipe_all_barrier"
    part: Literal["tiling", "kernel"]
    description: str
    edit: Callable[..., OperatorPackage | None] = field(repr=False, compare=False)
    # The edit takes the SoC the candidate runs on as well (the core counts differ by part).
    per_soc: bool = False

    def apply(self, package: OperatorPackage, soc: str = DEFAULT_SOC) -> OperatorPackage | None:
        """The rewritten package for `soc`, or None when the rewrite does not apply (or changes
        nothing)."""
        new = self.edit(package, soc) if self.per_soc else self.edit(package)
        if new is None or new.files == package.files:
            return None
        return new


# ---- source helpers -------------------------------------------------------------------------------


def _delete_statement(source: str, view: str, start: int, end: int) -> str:
    """Remove the statement [start, end); drop its line if nothing else of code is on it, else
    leave an empty statement so `if (c) stmt;` keeps its shape."""
    ls, le = line_bounds(source, start, end)
    if not (view[ls:start] + view[end:le]).strip():
        return source[:ls] + source[le:]
    return source[:start] + ";" + source[end:]


def _with_kernel(package: OperatorPackage, kernel: str) -> OperatorPackage:
    return package.with_sources(kernel=kernel)


# ---- tiling mutations over @tune markers -----------------------------------------------------------


def _tune_slot(slot: int, op: str, package: OperatorPackage) -> OperatorPackage | None:
    tunables = tune.find_tunables(package.tiling_source)
    if slot >= len(tunables):
        return None
    t = tunables[slot]
    return package.with_sources(
        tiling=tune.set_value(package.tiling_source, t.name, t.neighbours()[op])
    )


def _tune_named(pattern: str, op: str | int, package: OperatorPackage) -> OperatorPackage | None:
    """Mutate the first marker whose name matches `pattern`: a neighbour op name or a value."""
    t = next(
        (
            t
            for t in tune.find_tunables(package.tiling_source)
            if re.search(pattern, t.name, re.IGNORECASE)
        ),
        None,
    )
    if t is None:
        return None
    value = t.neighbours()[op] if isinstance(op, str) else op
    return package.with_sources(tiling=tune.set_value(package.tiling_source, t.name, value))


def _all_vector_cores(package: OperatorPackage, soc: str) -> OperatorPackage | None:
    return _tune_named(r"block_?dim", aiv_cores(soc), package)


def _all_cube_cores(package: OperatorPackage, soc: str) -> OperatorPackage | None:
    return _tune_named(r"^cube_cores$", aic_cores(soc), package)


# ---- kernel rewrites -----------------------------------------------------------------------------

_BUFFER_NUM = re.compile(
    r"\b(?:constexpr|const)\s+[\w:]+\s+BUFFER_NUM\s*=\s*(\d+)\s*;|#\s*define\s+BUFFER_NUM\s+(\d+)\b"
)


def _set_buffer_num(source: str, depth: int) -> str | None:
    m = _BUFFER_NUM.search(code_view(source))
    if m is None:
        return None
    group = 1 if m.group(1) is not None else 2
    if int(m.group(group)) not in (1, 2):
        return None  # deeper queues are a deliberate design; leave them alone
    return source[: m.start(group)] + str(depth) + source[m.end(group) :]


def _double_buffer(depth: int, package: OperatorPackage) -> OperatorPackage | None:
    """Queue depth via the sample convention `constexpr int32_t BUFFER_NUM = N;`. The tiling
    program's own BUFFER_NUM (its UB budget) follows, so tiles still fit the UB."""
    kernel = _set_buffer_num(package.kernel_source, depth)
    if kernel is None:
        return None
    tiling = _set_buffer_num(package.tiling_source, depth)
    return package.with_sources(kernel=kernel, tiling=tiling or "")


_PIPE_ALL = re.compile(
    r"(?:AscendC::)?PipeBarrier\s*<\s*PIPE_ALL\s*>\s*\(\s*\)\s*;|\bpipe_barrier\s*\(\s*PIPE_ALL\s*\)\s*;"
)


def _remove_pipe_all_barrier(package: OperatorPackage) -> OperatorPackage | None:
    source = package.kernel_source
    view = code_view(source)
    m = _PIPE_ALL.search(view)
    if m is None:
        return None
    return _with_kernel(package, _delete_statement(source, view, m.start(), m.end()))


_PAD_CALL = re.compile(r"\bDataCopyPad\s*(?:<[^;()]*>)?\s*\(")
_PARAMS_TYPE = r"(?:AscendC::)?(?:DataCopyExtParams|DataCopyParams)"
_INLINE_PARAMS = re.compile(rf"^{_PARAMS_TYPE}\s*\{{(.*)\}}$", re.DOTALL)
_BYTES = re.compile(r"^(?P<expr>.+?)\s*\*\s*sizeof\s*\(\s*[\w:]+\s*\)$", re.DOTALL)
_CAST = re.compile(r"^static_cast\s*<\s*[\w:]+\s*>\s*\((.*)\)$", re.DOTALL)


def _params_fields(view: str, before: int, arg: str) -> list[str] | None:
    """Fields of a DataCopy(Ext)Params argument: inline `DataCopyExtParams{...}` or a variable
    declared earlier as `DataCopyExtParams name{...}` / `= {...}`."""
    m = _INLINE_PARAMS.match(arg)
    if m:
        return split_args(m.group(1))
    if not re.fullmatch(r"\w+", arg):
        return None
    decls = list(re.finditer(rf"{_PARAMS_TYPE}\s+{arg}\s*(?:=\s*)?\{{", view[:before]))
    if not decls:
        return None
    open_at = decls[-1].end() - 1
    close_at = matching(view, open_at)
    return None if close_at < 0 else split_args(view[open_at + 1 : close_at])


def _element_count(fields: list[str]) -> str | None:
    """`len` from {1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, ...}: one contiguous block."""
    if len(fields) < 2 or fields[0] != "1" or any(f not in ("0", "") for f in fields[2:4]):
        return None
    length = fields[1]
    cast = _CAST.match(length)
    if cast:
        length = cast.group(1).strip()
    m = _BYTES.match(length)
    return m.group("expr").strip() if m else None


def _cases_aligned(package: OperatorPackage) -> bool:
    """Every tensor of every shape case is a whole number of 32-byte blocks."""
    spec = package.spec
    for case in spec.cases:
        for arg in [*spec.inputs, *spec.outputs]:
            elems = int(np.prod(spec.arg_shape(case, arg.name)))
            if elems * DTYPE_BYTES[spec.arg_dtype(case, arg.name)] % DMA_ALIGN_BYTES:
                return False
    return True


def _pad_to_copy(package: OperatorPackage) -> OperatorPackage | None:
    """DataCopyPad(dst, src, {1, len * sizeof(T), 0, 0}[, pad]) -> DataCopy(dst, src, len), when
    every case's tensors are 32-byte aligned (DataCopy drops a ragged tail)."""
    if not _cases_aligned(package):
        return None
    source = package.kernel_source
    view = code_view(source)
    edits = []
    for m in _PAD_CALL.finditer(view):
        close = matching(view, m.end() - 1)
        if close < 0:
            return None
        args = split_args(source[m.end() : close])
        fields = _params_fields(view, m.start(), args[2]) if len(args) in (3, 4) else None
        count = _element_count(fields) if fields else None
        if count is not None:
            edits.append((m.start(), close + 1, f"DataCopy({args[0]}, {args[1]}, {count})"))
    for start, end, text in reversed(edits):
        source = source[:start] + text + source[end:]
    return _with_kernel(package, source) if edits else None


_SET_GLOBAL = re.compile(r"\b(\w+)\s*\.\s*SetGlobalBuffer\s*\(")
_L2_HINT = "AscendC::CacheMode::CACHE_MODE_DISABLE"


def _l2_bypass_inputs(package: OperatorPackage) -> OperatorPackage | None:
    """After `xGm.SetGlobalBuffer(...)` of each input that the kernel never writes, add
    `xGm.SetL2CacheHint(CACHE_MODE_DISABLE)`: data read once gains nothing from L2 residency."""
    source = package.kernel_source
    view = code_view(source)
    inputs = [a.name for a in package.spec.inputs]
    edits = []
    for m in _SET_GLOBAL.finditer(view):
        tensor = m.group(1)
        close = matching(view, m.end() - 1)
        semi = view.find(";", close)
        if close < 0 or semi < 0:
            continue
        arg = view[m.end() : close]
        is_input = any(re.search(rf"\bDTYPE_{name.upper()}\b|\b{name}\b", arg) for name in inputs)
        written = re.search(rf"\bDataCopy(?:Pad)?\s*(?:<[^;()]*>)?\s*\(\s*{tensor}\b", view)
        hinted = re.search(rf"\b{tensor}\s*\.\s*SetL2CacheHint\b", view)
        if is_input and not written and not hinted:
            indent = indent_at(source, m.start())
            edits.append((semi + 1, f"\n{indent}{tensor}.SetL2CacheHint({_L2_HINT});"))
    for at, text in reversed(edits):
        source = source[:at] + text + source[at:]
    return _with_kernel(package, source) if edits else None


_FOR = re.compile(r"\bfor\s*\(")
_MASK_STMT = re.compile(
    r"(?:AscendC::)?\b(?:SetMaskNorm|SetMaskCount|ResetMask|SetVectorMask)\s*(?:<[^;()]*>)?\s*\(([^;]*)\)\s*;"
)
_ASSIGNED = re.compile(
    r"\b(\w+)\s*(?:[-+*/%&|^]|<<|>>)?=(?!=)|\b(\w+)\s*(?:\+\+|--)|(?:\+\+|--)\s*(\w+)"
)
_DECLARED = re.compile(r"\b[\w:]+(?:\s*<[^;()]*>)?[\s&*]+(\w+)\s*(?:[=;{(\[]|$)")


def _hoist_mask(package: OperatorPackage) -> OperatorPackage | None:
    """Move a loop-invariant group of mask settings (SetVectorMask / SetMaskNorm / SetMaskCount /
    ResetMask) from the top level of a `for` body to just before the loop. Applies only when the
    group is contiguous and is the body's only mask setting, so no later reset is reordered."""
    source = package.kernel_source
    view = code_view(source)
    for loop in _FOR.finditer(view):
        header_close = matching(view, loop.end() - 1)
        brace = re.compile(r"\s*\{").match(view, header_close + 1) if header_close >= 0 else None
        if brace is None:
            continue  # a single-statement body has no group to hoist from
        body_open = brace.end() - 1
        body_close = matching(view, body_open)
        body = view[body_open + 1 : body_close]
        stmts = list(_MASK_STMT.finditer(body))
        if not stmts or view[body_open + 1 : body_open + 1 + stmts[0].start()].count("{") != view[
            body_open + 1 : body_open + 1 + stmts[0].start()
        ].count("}"):
            continue  # none, or nested inside an inner block
        if any(body[a.end() : b.start()].strip() for a, b in zip(stmts, stmts[1:])):
            continue
        header = view[loop.end() : header_close]
        variant = {n for m in _ASSIGNED.finditer(header + body) for n in m.groups() if n}
        variant |= {m.group(1) for m in _DECLARED.finditer(header + ";" + body)}
        used = {n for s in stmts for n in re.findall(r"\b[A-Za-z_]\w*\b", s.group(1))}
        if used & variant:
            continue
        first, last = body_open + 1 + stmts[0].start(), body_open + 1 + stmts[-1].end()
        hoisted = source[first:last]
        ls, _ = line_bounds(source, loop.start(), loop.start())
        indent = indent_at(source, ls)
        new = _delete_statement(source, view, first, last)
        return _with_kernel(package, new[:ls] + indent + hoisted + "\n" + new[ls:])
    return None


# ---- rewrites of real kernels' idioms --------------------------------------------------------------
# Real kernels (hicann/ops-math, ops-nn, cann-ops) keep their code in op_kernel headers as often as
# in the kernel file: these rewrites edit every kernel-side source of the package.

_KERNEL_SIDE = (".cpp", ".h", ".hpp")


def _kernel_side(package: OperatorPackage) -> list[str]:
    """The kernel file, then the other op_kernel sources (and shared inc/ headers), in path order."""
    others = sorted(
        p
        for p in package.files
        if p.startswith(("op_kernel/", "inc/"))
        and p.endswith(_KERNEL_SIDE)
        and p != package.kernel_path
    )
    return [package.kernel_path, *others]


def _each_kernel_source(
    package: OperatorPackage, edit: Callable[[str], str | None]
) -> OperatorPackage | None:
    """`edit` applied to every kernel-side source; None when it changes none."""
    files = dict(package.files)
    for path in _kernel_side(package):
        new = edit(files[path])
        if new is not None:
            files[path] = new
    return package.model_copy(update={"files": files}) if files != package.files else None


VECTOR_CALLS = frozenset(
    "Add Sub Mul Div Max Min Adds Muls Maxs Mins Abs Exp Ln Sqrt Rsqrt Reciprocal Relu LeakyRelu "
    "Duplicate Cast Not And Or Axpy Compare CompareScalar Select ShiftLeft ShiftRight ReduceSum "
    "ReduceMax ReduceMin WholeReduceSum WholeReduceMax WholeReduceMin BlockReduceSum BlockReduceMax "
    "BlockReduceMin PairReduceSum Brcb".split()
)
_SYNC_CALLS = re.compile(r"\b(?:PipeBarrier|pipe_barrier|SetFlag|WaitFlag|EnQue|DeQue|SyncAll)\b")
_NO_PIPE_CALLS = re.compile(
    r"^[^()]*=\s*[\w.\->]*\b(?:Get|AllocTensor|GetWithOffset)\s*<[^;()]*>\s*\("
)
_CALL_HEAD = re.compile(r"^(?:AscendC::)?(\w+)\s*(?:<[^;()]*>)?\s*\(")
_CONTROL = re.compile(r"^(?:if|for|while|do|else|switch|return|case|break|continue)\b")


def _flat(view: str) -> str:
    """`view` with everything inside parentheses blanked (braced initialisers in call arguments
    then end no statement)."""
    out, depth = list(view), 0
    for i, ch in enumerate(view):
        if ch == ")":
            depth -= 1
        if depth > 0 and ch != "\n":
            out[i] = " "
        if ch == "(":
            depth += 1
    return "".join(out)


def _pipe_of(view: str, stmt: str) -> str | None:
    """The pipe a call statement runs on (V, MTE2, MTE3), "" for a statement no pipe runs (scalar
    arithmetic, a buffer Get or AllocTensor), None when it cannot be told."""
    if not stmt:
        return ""
    m = _CALL_HEAD.match(stmt)
    if m is None:
        return "" if "(" not in stmt or _NO_PIPE_CALLS.match(stmt) else None
    if m.group(1) in VECTOR_CALLS:
        return "V"
    if m.group(1) in ("DataCopy", "DataCopyPad"):
        close = matching(stmt, m.end() - 1)
        args = split_args(stmt[m.end() : close]) if close > 0 else []
        if len(args) < 3:
            return None
        # Which side is in GM, by the declarations in the same file (members and locals alike).
        gm = tuple(declared_as(view, base_name(a), ("GlobalTensor",)) is not None for a in args[:2])
        return {(False, True): "MTE2", (True, False): "MTE3"}.get(gm)
    return None


def _producers(flat: str, at: int) -> list[tuple[int, int]] | None:
    """The statements before offset `at` back to the last synchronising statement or the start of
    the block, nearest first; None where a nested block comes first (its pipes are not read)."""
    spans, end = [], at
    while True:
        stripped = flat[:end].rstrip()
        if stripped.endswith("}"):
            return None
        if not stripped.endswith(";"):
            return spans  # the block's opening brace
        start = max(stripped.rfind(c, 0, len(stripped) - 1) for c in ";{}") + 1
        if _SYNC_CALLS.search(flat[start : len(stripped)]):
            return spans
        spans.append((start, len(stripped)))
        end = start


def _precise_barrier(source: str) -> str | None:
    """Each `PipeBarrier<PIPE_ALL>()` whose producers (the statements since the last
    synchronisation in its block) and consumer (the next statement) run on known pipes becomes the
    waits those pipes need: `PipeBarrier<PIPE_V>()` between vector instructions, an event pair
    (`SetFlag`/`WaitFlag<HardEvent::MTE2_V>` on an id the pipe hands out) across pipes."""
    view = code_view(source)
    flat = _flat(view)
    edits = []
    for m in _PIPE_ALL.finditer(view):
        rest = flat[m.end() :]
        after = rest.lstrip()
        nxt = after[: after.find(";") + 1] if ";" in after else ""
        if not nxt or _CONTROL.match(nxt) or nxt.startswith(("{", "}")):
            continue
        at = m.end() + len(rest) - len(after)  # where the next statement starts
        consumer = _pipe_of(view, view[at : at + len(nxt)].strip())
        spans = _producers(flat, m.start())
        if not consumer or spans is None:
            continue
        pipes = [_pipe_of(view, view[a:b].strip()) for a, b in spans]
        if None in pipes or not any(pipes):
            continue
        indent = indent_at(source, m.start())
        waits = []
        for producer in sorted(set(filter(None, pipes))):
            if producer == consumer:
                waits.append(f"AscendC::PipeBarrier<PIPE_{consumer}>();")
                continue
            event = f"AscendC::HardEvent::{producer}_{consumer}"
            waits.append(
                f"{{ event_t id = static_cast<event_t>(AscendC::GetTPipePtr()->FetchEventID({event})); "
                f"AscendC::SetFlag<{event}>(id); AscendC::WaitFlag<{event}>(id); }}"
            )
        edits.append((m.start(), m.end(), f"\n{indent}".join(waits)))
    for start, end, text in reversed(edits):
        source = source[:start] + text + source[end:]
    return source if edits else None


_LITERAL_QUE = re.compile(
    r"\bTQue\s*<\s*(?:AscendC::)?(?:QuePosition|TPosition)::VEC(?:IN|OUT)\s*,\s*(1)\s*>\s*(\w+)\s*;"
)


def _literal_double_buffer(source: str) -> str | None:
    """`TQue<QuePosition::VECIN, 1> q;` and its `pipe.InitBuffer(q, 1, bytes)` -> depth 2: the
    copy of the next tile overlaps the compute of this one. Only queues whose InitBuffer gives
    the depth as the literal 1 (so the two stay in step)."""
    view = code_view(source)
    edits = []
    for m in _LITERAL_QUE.finditer(view):
        init = list(re.finditer(rf"\bInitBuffer\s*\(\s*{m.group(2)}\s*,\s*(1)\s*,", view))
        if len(init) != 1:
            continue
        edits += [m.span(1), init[0].span(1)]
    for start, end in sorted(edits, reverse=True):
        source = source[:start] + "2" + source[end:]
    return source if edits else None


# ---- cube rewrites -------------------------------------------------------------------------------

_MATMUL_CFG = re.compile(r"\bMatmul\s*<[^;{}]*?\b(CFG_NORM|CFG_MDL)\b")
_MIX_TYPE = re.compile(r"\bKERNEL_TYPE_MIX_AIC_1_[12]\b")


def _matmul_template(cfg: str, package: OperatorPackage) -> OperatorPackage | None:
    """Every Matmul object's template config (the last template argument) to `cfg`: CFG_MDL
    loads stepK base blocks of K per GM -> L1 copy, double-buffered; CFG_NORM one per copy."""
    source = package.kernel_source
    spans = [m.span(1) for m in _MATMUL_CFG.finditer(code_view(source))]
    for start, end in reversed(spans):
        source = source[:start] + cfg + source[end:]
    return _with_kernel(package, source) if spans else None


def _mix_ratio(ratio: str, package: OperatorPackage) -> OperatorPackage | None:
    """The AIC:AIV ratio of a mixed kernel (KERNEL_TYPE_MIX_AIC_1_1 / _1_2)."""
    source = package.kernel_source
    m = _MIX_TYPE.search(code_view(source))
    if m is None:
        return None
    return _with_kernel(
        package, source[: m.start()] + f"KERNEL_TYPE_MIX_AIC_{ratio}" + source[m.end() :]
    )


def _cube_rewrites() -> list[Rewrite]:
    """The cube levers: the Matmul base block (M, N, K), K base blocks per L1 load, the cube cores,
    the Matmul template (L1 loading) and the AIC:AIV ratio of mixed kernels."""
    tiling = [
        Rewrite(
            f"cube_{name}:{op}",
            "tiling",
            f"{'double' if op == 'x2' else 'halve'} the {what} @tune marker ({name})",
            partial(_tune_named, rf"^{name}$", op),
        )
        for name, what in (
            ("base_m", "Matmul base block M"),
            ("base_n", "Matmul base block N"),
            ("base_k", "Matmul base block K"),
            ("step_k", "K base blocks per GM -> L1 copy"),
        )
        for op in ("x2", "/2")
    ]
    return [
        *tiling,
        Rewrite(
            "cube_cores:all",
            "tiling",
            "set the cube_cores @tune marker to the SoC's cube core count",
            _all_cube_cores,
            per_soc=True,
        ),
        Rewrite(
            "matmul_template:mdl",
            "kernel",
            "Matmul template CFG_NORM -> CFG_MDL (stepK base blocks of K per L1 load, double-buffered)",
            partial(_matmul_template, "CFG_MDL"),
        ),
        Rewrite(
            "matmul_template:norm",
            "kernel",
            "Matmul template CFG_MDL -> CFG_NORM (one base block of K per L1 load)",
            partial(_matmul_template, "CFG_NORM"),
        ),
        Rewrite(
            "mix_ratio:1_2",
            "kernel",
            "mixed kernel with two AIVs per AIC (KERNEL_TYPE_MIX_AIC_1_2)",
            partial(_mix_ratio, "1_2"),
        ),
        Rewrite(
            "mix_ratio:1_1",
            "kernel",
            "mixed kernel with one AIV per AIC (KERNEL_TYPE_MIX_AIC_1_1)",
            partial(_mix_ratio, "1_1"),
        ),
    ]


# ---- the catalogue ---------------------------------------------------------------------------------


def _tune_rewrites() -> list[Rewrite]:
    return [
        Rewrite(
            f"tune[{slot}]:{op}",
            "tiling",
            f"@tune marker #{slot} of the tiling program: {op} (clamped to its range)",
            partial(_tune_slot, slot, op),
        )
        for slot in range(MAX_TUNE_SLOTS)
        for op in TUNE_OPS
    ]


CATALOGUE: tuple[Rewrite, ...] = (
    *_tune_rewrites(),
    Rewrite(
        "block_dim:cores",
        "tiling",
        "set the block-dim @tune marker to the SoC's vector core count",
        _all_vector_cores,
        per_soc=True,
    ),
    Rewrite(
        "tile:larger",
        "tiling",
        "double the tile-length @tune marker",
        partial(_tune_named, r"tile", "x2"),
    ),
    Rewrite(
        "tile:smaller",
        "tiling",
        "halve the tile-length @tune marker",
        partial(_tune_named, r"tile", "/2"),
    ),
    Rewrite(
        "double_buffer:on",
        "kernel",
        "queue depth BUFFER_NUM 1 -> 2 (kernel and the tiling's UB budget)",
        partial(_double_buffer, 2),
    ),
    Rewrite(
        "double_buffer:off",
        "kernel",
        "queue depth BUFFER_NUM 2 -> 1 (kernel and the tiling's UB budget)",
        partial(_double_buffer, 1),
    ),
    Rewrite(
        "remove_pipe_all_barrier",
        "kernel",
        "delete the first PipeBarrier<PIPE_ALL>() / pipe_barrier(PIPE_ALL)",
        _remove_pipe_all_barrier,
    ),
    Rewrite(
        "datacopypad_to_datacopy",
        "kernel",
        "single-block DataCopyPad -> DataCopy when every case is 32-byte aligned",
        _pad_to_copy,
    ),
    Rewrite(
        "l2_bypass:inputs",
        "kernel",
        "SetL2CacheHint(CACHE_MODE_DISABLE) on input GlobalTensors the kernel never writes",
        _l2_bypass_inputs,
    ),
    Rewrite(
        "hoist_mask",
        "kernel",
        "move loop-invariant mask settings out of the first loop that has them",
        _hoist_mask,
    ),
    # Appended, so the ids of the entries above stay the same.
    *_cube_rewrites(),
    Rewrite(
        "pipe_all_to_precise",
        "kernel",
        "every PipeBarrier<PIPE_ALL> between calls on known pipes -> the PIPE_V barrier or event "
        "flags those pipes need (kernel file and op_kernel headers)",
        partial(_each_kernel_source, edit=_precise_barrier),
    ),
    Rewrite(
        "double_buffer:literal",
        "kernel",
        "VECIN/VECOUT queues of literal depth 1 (TQue<..., 1> with InitBuffer(q, 1, ...)) -> 2",
        partial(_each_kernel_source, edit=_literal_double_buffer),
    ),
)

# AscendOp-v0's discrete action space is Discrete(len(CATALOGUE) + 1): the extra id ends the episode.
DONE = len(CATALOGUE)

_BY_NAME = {r.name: r for r in CATALOGUE}
assert len(_BY_NAME) == len(CATALOGUE), "rewrite names must be unique"


def by_name(name: str) -> Rewrite:
    try:
        return _BY_NAME[name]
    except KeyError:
        raise KeyError(f"unknown rewrite {name!r}; catalogue: {list(_BY_NAME)}") from None


def index(name: str) -> int:
    """The discrete action id of a rewrite."""
    return CATALOGUE.index(by_name(name))


def applicable_mask(package: OperatorPackage, soc: str = DEFAULT_SOC) -> np.ndarray:
    """Bool per CATALOGUE entry: does it apply to (and change) this package on `soc`."""
    return np.array([r.apply(package, soc) is not None for r in CATALOGUE], dtype=bool)


def applicable(package: OperatorPackage, soc: str = DEFAULT_SOC) -> list[Rewrite]:
    return [r for r, ok in zip(CATALOGUE, applicable_mask(package, soc)) if ok]
