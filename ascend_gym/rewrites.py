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
from collections import OrderedDict
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
    enclosing_brace,
    indent_at,
    is_function_body,
    line_bounds,
    loops,
    matching,
    split_args,
)
from ascend_core.package import DTYPE_BYTES, OperatorPackage
from ascend_core.protocol import DEFAULT_SOC
from ascend_core.soc import aic_cores, aiv_cores
from ascend_gym import block_split, matmul_split, vector_loops

# Marker slots in the catalogue: tiling programs with more @tune markers expose the first ones.
MAX_TUNE_SLOTS = 4
TUNE_OPS = ("x2", "/2", "+step", "-step")
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


_BLOCK_DIM_KNOB = r"block_?dim"  # the name of a block-dim @tune marker


def _all_vector_cores(package: OperatorPackage, soc: str) -> OperatorPackage | None:
    # A Matmul tiling's core split (agents.templates' matmul_dim) counts vector cores too.
    return _tune_named(rf"{_BLOCK_DIM_KNOB}|^matmul_dim$", aiv_cores(soc), package)


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


def kernel_side(package: OperatorPackage) -> list[str]:
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
    for path in kernel_side(package):
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


# ---- scalar GM reads -> one DataCopy into UB -------------------------------------------------------

# UB a kernel may give up for staged tensors: small index / weight / parameter tensors only, so the
# kernel's own buffers (sized by its tiling from the whole UB) keep their room.
STAGE_UB_BYTES = 8 * 1024
_ASSIGNS_AFTER = re.compile(r"\s*(?:(?:[-+*/%&|^]|<<|>>)?=(?!=)|\+\+|--)")
_COPY_CALL = re.compile(r"\b(DataCopy|DataCopyPad)\s*(?:<[^;()]*>)?\s*\(")
_GM_TYPED = re.compile(r"\bGlobalTensor\s*<\s*([\w:]+)\s*>\s*(\w+(?:\s*,\s*\w+)*)\s*;")
_PIPE_INIT = re.compile(r"((?:this\s*->\s*)?\w+)\s*(\.|->)\s*InitBuffer\s*\(")


def _statement_end(flat: str, body: int, pos: int) -> int:
    """Past the end of the statement of the block opened at `body` that holds `pos`; -1 if none."""
    depth = flat.count("{", body + 1, pos) - flat.count("}", body + 1, pos)
    for i in range(pos, len(flat)):
        if flat[i] == "{":
            depth += 1
        elif flat[i] == "}":
            depth -= 1
            if depth < 0:
                return -1
            if depth == 0 and not re.match(r"\s*(?:else\b|;|,)", flat[i + 1 :]):
                return i + 1
        elif flat[i] == ";" and depth == 0:
            return i + 1
    return -1


def _arg_spans(view: str, open_paren: int) -> list[tuple[int, int]]:
    """[start, end) of each top-level argument of the call whose `(` is at `open_paren`."""
    close = matching(view, open_paren)
    spans, depth, start = [], 0, open_paren + 1
    for i in range(open_paren + 1, close):
        depth += (view[i] in "([{") - (view[i] in ")]}")
        if view[i] == "," and depth == 0:
            spans.append((start, i))
            start = i + 1
    return [*spans, (start, close)]


def _copy_sources(view: str) -> list[tuple[int, int]]:
    """The source argument of every DataCopy / DataCopyPad call: where a GM tensor is only read."""
    spans = []
    for m in _COPY_CALL.finditer(view):
        args = _arg_spans(view, m.end() - 1)
        if len(args) >= 2:
            spans.append(args[1])
    return spans


@dataclass(frozen=True)
class _GmReads:
    """A GlobalTensor the kernel only reads, and where: its scalar reads and its one SetGlobalBuffer."""

    name: str
    dtype: str
    declaration_end: int  # past the `;` of its declaration
    set_buffer: int  # where `name.SetGlobalBuffer(` starts
    buffer_arg: str  # the pointer it is set to
    size_arg: str  # the element count it is set with
    reads: list[tuple[int, int, bool]]  # [start, end) of the name, and whether it is `name(i)`


def _gm_reads(view: str, name: str) -> _GmReads | None:
    """`name`'s uses when it is a GlobalTensor declared once, set once with a size, read by scalar
    code, read by DMA and written nowhere; None otherwise."""
    decls = list(
        re.finditer(
            rf"\b(?:AscendC::)?GlobalTensor\s*<\s*([\w:]+)\s*>\s*(?:\w+\s*,\s*)*\b{name}\b\s*[,;]",
            view,
        )
    )
    if len(decls) != 1:
        return None
    decl = decls[0]
    decl_end = view.find(";", decl.start()) + 1
    copy_sources = _copy_sources(view)
    sets, reads = [], []
    for m in re.finditer(rf"\b{name}\b", view):
        if decl.start() <= m.start() < decl_end:
            continue
        after = view[m.end() :]
        member = re.match(r"\s*\.\s*(\w+)\s*\(", after)
        if member and member.group(1) == "SetGlobalBuffer":
            sets.append(m.start())
        elif member and member.group(1) == "GetValue":
            reads.append((m.start(), m.end(), False))
        elif member and member.group(1) in ("SetL2CacheHint", "GetSize"):
            continue
        elif member is None and after.lstrip().startswith("("):
            close = matching(view, m.end() + len(after) - len(after.lstrip()))
            if _ASSIGNS_AFTER.match(view[close + 1 :]) or re.search(
                r"(?:\+\+|--)\s*$", view[: m.start()]
            ):
                return None  # `name(i) = v`: a scalar write
            reads.append((m.start(), m.end(), True))
        elif not any(a <= m.start() < b for a, b in copy_sources):
            return None  # written by a copy, passed on, or its address taken
    if len(sets) != 1 or not reads:
        return None
    open_paren = view.find("(", sets[0])
    args = split_args(view[open_paren + 1 : matching(view, open_paren)])
    if len(args) != 2:
        return None  # no size: the range is not known in the kernel
    return _GmReads(name, decl.group(1), decl_end, sets[0], args[0], args[1], reads)


def _input_bytes(package: OperatorPackage) -> dict[str, int]:
    """Each input's largest size in bytes over the spec's cases."""
    spec = package.spec
    sizes: dict[str, int] = {}
    for case in spec.cases:
        for arg in spec.inputs:
            dtype = spec.arg_dtype(case, arg.name)
            itemsize = DTYPE_BYTES[dtype]
            size = int(np.prod(spec.arg_shape(case, arg.name))) * itemsize
            sizes[arg.name] = max(sizes.get(arg.name, 0), size)
    return sizes


def _staging(tensors: list[_GmReads], pipe: str, indent: str) -> str:
    """The copies of `tensors` into their UB buffers, then one MTE2 -> S wait before the scalar
    unit reads them."""
    i, event = indent, "AscendC::HardEvent::MTE2_S"
    names = ", ".join(gm.name for gm in tensors)
    text = f"\n{i}// {names} staged in UB once: their element reads below are scalar UB reads, not GM ones."
    for gm in tensors:
        g, t = gm.name, gm.dtype
        text += (
            f"\n{i}const uint32_t {g}UbBytes = static_cast<uint32_t>(({g}.GetSize() * sizeof({t}) + 31) / 32 * 32);"
            f"\n{i}{pipe}InitBuffer({g}UbBuf, {g}UbBytes);"
            f"\n{i}{g}Ub = {g}UbBuf.Get<{t}>();"
            f"\n{i}if ({g}UbBytes > 0) {{"
            f"\n{i}  AscendC::DataCopy({g}Ub, {g}, {g}UbBytes / static_cast<uint32_t>(sizeof({t})));"
            f"\n{i}}}"
        )
    return text + (
        f"\n{i}{{"
        f"\n{i}  const event_t staged = static_cast<event_t>({pipe}FetchEventID({event}));"
        f"\n{i}  AscendC::SetFlag<{event}>(staged);"
        f"\n{i}  AscendC::WaitFlag<{event}>(staged);"
        f"\n{i}}}"
    )


def _changed_after(view: str, expr: str, body: int, at: int) -> bool:
    """Some name in `expr` is assigned other than in the function body opened at `body`, before
    `at`: a size computed after the SetGlobalBuffer that uses it (declarations with an initialiser
    do not count)."""
    for name in set(re.findall(r"\b[A-Za-z_]\w*\b", expr)):
        for m in re.finditer(
            rf"\b{name}\b\s*(?:\[[^\]]*\]\s*)*(?:(?:[-+*/%&|^]|<<|>>)?=(?!=)|\+\+|--)|(?:\+\+|--)\s*{name}\b",
            view,
        ):
            declared = re.search(r"[\w*&>]\s+$", view[: m.start()]) and not m.group(0).startswith(
                ("+", "-")
            )
            if not declared and not body < m.start() < at:
                return True
    return False


def _stage_one(
    source: str, view: str, gm: _GmReads
) -> tuple[int, str, list[tuple[int, int, str]]] | None:
    """Where to stage `gm` in UB (an offset and the pipe), with the edits of its declaration and
    reads, or None when the kernel gives no safe place for the copy:
    after its SetGlobalBuffer and the last InitBuffer of the same function (at that function's top
    level), before every scalar read of it there, in a function without early returns."""
    body = enclosing_brace(view, gm.set_buffer)
    if body < 0 or not is_function_body(view, body):
        return None  # set in a branch, or outside a function
    body_end = matching(view, body)
    inits = list(_PIPE_INIT.finditer(view, body, body_end))
    if not inits or re.search(r"\breturn\b", view[body:body_end]):
        return None  # no pipe set up beside it, or a way out before the copy
    pipe_name = base_name(inits[-1].group(1))
    pipe = inits[-1].group(1) + inits[-1].group(2)
    if re.search(rf"\b{pipe_name}\s*(?:\.|->)\s*(?:Reset|Destroy)\s*\(", view):
        return None  # the pipe's buffers are given back: the staged copy would not survive
    if _changed_after(view, gm.size_arg, body, gm.set_buffer):
        return None  # the size it is set with is not the size it ends up read over
    flat = _flat(view)
    statement_start = max(flat.rfind(c, body, gm.set_buffer) for c in ";{}") + 1
    if view[statement_start : gm.set_buffer].strip() not in ("", "this->"):
        return None  # under an `if` or a loop of its own
    at = _statement_end(flat, body, max(gm.set_buffer, inits[-1].start()))
    if at < 0 or any(body < s < at for s, _, _ in gm.reads):
        return None
    bodies = [(loop.body, loop.end) for loop in loops(view)]
    if not any(a <= s <= b for s, _, _ in gm.reads for a, b in bodies):
        return None  # one read, not a loop of them: nothing to gain
    decl_indent = indent_at(source, gm.declaration_end - 1)
    g, t = gm.name, gm.dtype
    edits = [
        (
            gm.declaration_end,
            gm.declaration_end,
            f"\n{decl_indent}AscendC::TBuf<AscendC::TPosition::VECCALC> {g}UbBuf;"
            f"\n{decl_indent}AscendC::LocalTensor<{t}> {g}Ub;",
        ),
    ]
    for start, end, call in gm.reads:
        edits.append((start, end, f"{g}Ub.GetValue" if call else f"{g}Ub"))
    return at, pipe, edits


def _stage_scalar_reads(source: str, input_bytes: dict[str, int]) -> str | None:
    """Every GlobalTensor of a small input read element by element in a loop (`xGm.GetValue(i)`,
    `xGm(i)`) is copied once into a UB buffer of the kernel's TPipe (one 32 B-aligned DataCopy and
    an MTE2 -> S wait) and its reads become LocalTensor reads. Only for tensors set once with a
    size, never written, whose input is at most STAGE_UB_BYTES (all of them together) in every case."""
    view = code_view(source)
    declared = _GM_TYPED.findall(view)
    names = dict.fromkeys(n.strip() for _, group in declared for n in group.split(","))
    edits, budget = [], STAGE_UB_BYTES
    staged: dict[tuple[int, str], list[_GmReads]] = {}  # (where, pipe) -> tensors copied there
    for name in names:
        gm = _gm_reads(view, name)
        if gm is None or re.search(rf"\b{name}Ub(?:Buf|Bytes)?\b", view):
            continue
        inputs = [a for a in input_bytes if re.search(rf"\b{a}\b", gm.buffer_arg)]
        if len(inputs) != 1 or input_bytes[inputs[0]] > budget:
            continue  # not an input, or too large for the UB it may take
        place = _stage_one(source, view, gm)
        if place is not None:
            at, pipe, own = place
            staged.setdefault((at, pipe), []).append(gm)
            edits += own
            budget -= input_bytes[inputs[0]]
    for (at, pipe), tensors in staged.items():
        edits.append((at, at, _staging(tensors, pipe, indent_at(source, at - 1))))
    for start, end, text in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        source = source[:start] + text + source[end:]
    return source if edits else None


def _scalar_gm_reads_to_ub(package: OperatorPackage) -> OperatorPackage | None:
    return _each_kernel_source(
        package, partial(_stage_scalar_reads, input_bytes=_input_bytes(package))
    )


# ---- per-row copies -> one multi-burst copy --------------------------------------------------------

_ROW_LOOP = re.compile(
    r"\bfor\s*\(\s*(?:[\w:]+\s+)?(?P<i>\w+)\s*=\s*0\s*;\s*(?P=i)\s*<\s*(?P<n>[^;]+?)\s*;\s*"
    r"(?:\+\+\s*(?P=i)|(?P=i)\s*\+\+|(?P=i)\s*\+=\s*1)\s*\)"
)
_INDEXED = re.compile(r"^(?P<name>(?:this->)?\w+)\s*\[(?P<index>.*)\]$", re.DOTALL)
# `(a + i) * pitch`, the sum cast or not (`(uint64_t)(r + k) * L`, `static_cast<uint64_t>(...)`).
_SCALED = re.compile(
    r"(?P<cast>\(\s*(?:u?int(?:8|16|32|64)_t|size_t|int|long|unsigned)\s*\)|static_cast\s*<\s*[\w:]+\s*>)?"
    r"\s*\((?P<inner>.*)\)\s*\*\s*(?P<pitch>[\w.>\-:\s*]+)",
    re.DOTALL,
)
_NO_PAD = re.compile(r"^(?:[\w:]+(?:\s*<[^;]*?>)?)?\s*\{\s*false\s*,[^{}]*\}$")


def _top_terms(expr: str) -> list[str] | None:
    """`a + b * c + d` -> [a, b * c, d]; None where a top-level `-` makes the split unsafe."""
    terms, depth, start = [], 0, 0
    for k, ch in enumerate(expr):
        depth += (ch in "([{") - (ch in ")]}")
        if depth == 0 and ch == "-" and expr[k + 1 : k + 2] != ">":
            return None
        if depth == 0 and ch == "+":
            terms.append(expr[start:k].strip())
            start = k + 1
    return [*terms, expr[start:].strip()]


def _row_walk(arg: str, i: str) -> tuple[str, str, str] | None:
    """`t[base + i * pitch]` (also `(a + i) * pitch`, cast or not, `static_cast<uint64_t>(i) * pitch`) ->
    (t, base, pitch): the tensor, row 0's offset and the row pitch."""
    m = _INDEXED.match(arg.strip())
    index = (
        re.sub(rf"\bstatic_cast\s*<\s*[\w:]+\s*>\s*\(\s*{i}\s*\)", i, m.group("index")) if m else ""
    )
    terms = _top_terms(index) if m else None
    if not terms:
        return None
    base, pitch = [], []
    for term in terms:
        scaled = _SCALED.fullmatch(term)
        whole = scaled is not None and matching(term, scaled.start("inner") - 1) == scaled.end(
            "inner"
        )
        inner = _top_terms(scaled.group("inner")) if whole else None
        if not re.search(rf"\b{i}\b", term):
            base.append(term)
        elif term == i:
            pitch.append("1")
        elif inner and inner.count(i) == 1 and not re.search(rf"\b{i}\b", scaled.group("pitch")):
            rest = [t for t in inner if t != i]  # (a + i) * p = a * p + i * p
            if any(re.search(rf"\b{i}\b", t) for t in rest):
                return None
            if rest:
                cast = scaled.group("cast") or ""
                base.append(f"{cast}({' + '.join(rest)}) * {scaled.group('pitch').strip()}")
            pitch.append(scaled.group("pitch").strip())
        else:
            k = re.fullmatch(rf"{i}\s*\*\s*(.+)|(.+?)\s*\*\s*{i}", term, re.DOTALL)
            stride = k and (k.group(1) or k.group(2)).strip()
            if (
                not stride
                or re.search(rf"\b{i}\b", stride)
                or not re.fullmatch(r"[\w.>\-:()\s*]+", stride)
            ):
                return None
            pitch.append(stride)
    if len(pitch) != 1:
        return None
    return m.group("name"), " + ".join(base) or "0", pitch[0]


def _operand(expr: str) -> str:
    """`expr` as an operand: a name or a number as it is, anything else in parentheses."""
    return expr if re.fullmatch(r"[\w.]+(?:->\w+)*", expr) else f"({expr})"


def _at(tensor: str, offset: str) -> str:
    return tensor if offset == "0" else f"{tensor}[{offset}]"


def _gm_types(package: OperatorPackage) -> dict[str, str]:
    """Element type of every GlobalTensor the kernel-side sources declare (a class's members may be
    declared in one header and used in another); names declared with two types are left out."""
    seen: dict[str, set[str]] = {}
    for path in kernel_side(package):
        for dtype, names in _GM_TYPED.findall(code_view(package.files[path])):
            for name in names.split(","):
                seen.setdefault(name.strip(), set()).add(dtype)
    return {name: types.pop() for name, types in seen.items() if len(types) == 1}


def _burst_copy(
    view: str, at: int, call: str, args: list[str], i: str, n: str, gm_types: dict[str, str]
) -> tuple[str, str] | None:
    """The one copy that moves what `call(args)` moves for rows i = 0 .. n-1, and the condition
    (C++) under which it does ("" when always), or None when the call is not a row copy."""
    walks = [_row_walk(a, i) for a in args[:2]]
    if None in walks or any(re.search(rf"\b{i}\b", a) for a in args[2:]):
        return None
    (dst, dst_base, dst_pitch), (src, src_base, src_pitch) = walks
    dst_pitch, src_pitch = _operand(dst_pitch), _operand(src_pitch)
    gm = [gm_types.get(base_name(t)) for t in (dst, src)]
    if (gm[0] is None) == (gm[1] is None):
        return None  # UB -> UB or GM -> GM: not a burst of this kind
    t = gm[0] or gm[1]
    head = f"{call}({_at(dst, dst_base)}, {_at(src, src_base)}, "
    rows = _operand(n)
    if call == "DataCopy":
        if (
            len(args) != 3
            or args[2].startswith("{")
            or re.search(rf"{_PARAMS_TYPE}\s+{re.escape(args[2])}\b", view)
        ):
            return None
        count = _operand(args[2])
        if dst_pitch == count and src_pitch == count:
            return head + f"{rows} * {count});", ""
        strided = [p for p in dict.fromkeys((src_pitch, dst_pitch)) if p != count]
        gap = {p: f"({p} - {count}) * sizeof({t})" for p in strided}
        guard = " && ".join(
            [f"{rows} >= 1 && {rows} <= 4095", f"{count} > 0 && {count} * sizeof({t}) % 32 == 0"]
            + [f"{p} >= {count} && {gap[p]} % 32 == 0 && {gap[p]} / 32 <= 65535" for p in strided]
        )
        blocks = [f"{gap[p]} / 32" if p in gap else "0" for p in (src_pitch, dst_pitch)]
        params = (
            f"AscendC::DataCopyParams({rows}, {count} * sizeof({t}) / 32, {blocks[0]}, {blocks[1]})"
        )
        return head + f"{params});", guard
    fields = None
    if len(args) in (3, 4):
        brace = re.fullmatch(r"\{(.*)\}", args[2], re.DOTALL)
        fields = split_args(brace.group(1)) if brace else _params_fields(view, at, args[2])
    one = _CAST.match(fields[0]) if fields else None  # `static_cast<uint16_t>(1)` is 1 too
    if (
        not fields
        or (one.group(1).strip() if one else fields[0]) != "1"
        or any(f != "0" for f in fields[2:])
        or len(fields) not in (4, 5)
    ):
        return None
    if len(args) == 4 and not (_NO_PAD.match(args[3]) or _no_pad_variable(view, args[3])):
        return None  # padded rows: their UB length is not the one burst length
    length = _operand(fields[1])
    kind = _params_kind(view, args[2], len(fields))
    ub_pitch, gm_pitch = (src_pitch, dst_pitch) if gm[0] else (dst_pitch, src_pitch)
    ub_row = f"({length} + 31) / 32 * 32"
    ub_gap = f"({ub_pitch} * sizeof({t}) - {ub_row})"
    gm_gap = f"({gm_pitch} * sizeof({t}) - {length})"
    src_gap, dst_gap = (f"{ub_gap} / 32", gm_gap) if gm[0] else (gm_gap, f"{ub_gap} / 32")
    conditions = [
        f"{rows} <= 4095",
        f"{gm_pitch} * sizeof({t}) >= {length}",
        f"{ub_pitch} * sizeof({t}) >= {ub_row}",
        f"{ub_gap} % 32 == 0",
    ]
    if kind == "DataCopyParams":  # 16-bit gaps
        conditions += [f"{gm_gap} <= 65535", f"{ub_gap} / 32 <= 65535"]
    guard = " && ".join(conditions)
    rest = ", 0" if kind == "DataCopyExtParams" else ""
    params = f"AscendC::{kind}({rows}, {length}, {src_gap}, {dst_gap}{rest})"
    return head + params + (f", {args[3]});" if len(args) == 4 else ");"), guard


def _no_pad_variable(view: str, arg: str) -> bool:
    """`arg` is a variable declared `DataCopyPad[Ext]Params<T> arg{false, ...}` (no padding)."""
    return re.fullmatch(r"\w+", arg) is not None and bool(
        re.search(
            rf"\bDataCopyPad(?:Ext)?Params\s*(?:<[^;]*?>)?\s+{arg}\s*(?:=\s*)?[{{(]\s*false\b", view
        )
    )


def _params_kind(view: str, arg: str, n_fields: int) -> str:
    """DataCopyParams or DataCopyExtParams: named, declared, or told by the brace's field count."""
    typed = re.match(r"^(?:AscendC::)?(DataCopy(?:Ext)?Params)\b", arg)
    declared = (
        re.search(rf"\b(DataCopy(?:Ext)?Params)\s+{arg}\b", view)
        if re.fullmatch(r"\w+", arg)
        else None
    )
    if typed or declared:
        return (typed or declared).group(1)
    return "DataCopyExtParams" if n_fields == 5 else "DataCopyParams"


def _loop_body(view: str, loop: re.Match) -> tuple[list[tuple[int, int]], int] | None:
    """The statements of a loop's body ([start, end) each, without the `;`) and where the loop
    ends; None where the body has a nested block."""
    close = matching(view, view.index("(", loop.start()))
    braced = re.match(r"\s*\{", view[close + 1 :])
    if braced is None:
        semi = view.find(";", close)
        return ([(close + 1, semi)], semi + 1) if semi > 0 else None
    open_at = close + braced.end()
    body_end = matching(view, open_at)
    flat = _flat(view[: body_end + 1])
    spans, start, depth = [], open_at + 1, 0
    for k in range(open_at + 1, body_end):
        depth += (flat[k] == "{") - (flat[k] == "}")
        if flat[k] == ";" and depth == 0:
            spans.append((start, k))
            start = k + 1
    if flat[start:body_end].strip() or depth:
        return None
    return spans, body_end + 1


_PARAMS_DECL = re.compile(
    r"(?:AscendC::)?DataCopy(?:Pad)?(?:Ext)?Params\s*(?:<[^;]*?>)?\s+\w+\s*(?:=\s*)?\{[^;]*\}",
    re.DOTALL,
)
_BARRIER = re.compile(r"(?:AscendC::)?PipeBarrier\s*<\s*PIPE_\w+\s*>\s*\(\s*\)")
# Marks the loop kept for the cases one copy cannot take, so the rule does not apply to it again.
_ROWS_ONE_BY_ONE = "// the rows one by one: their gaps do not fit one copy"
_COPY_HEAD = re.compile(r"(?:AscendC::)?(DataCopy|DataCopyPad)\s*(?:<[^;()]*>)?\s*\(")


def _row_bursts(source: str, gm_types: dict[str, str]) -> str | None:
    """A loop `for (i = 0; i < n; ++i)` whose body is one row's copy between GM and UB,
    `DataCopy(dst[a + i * p], src[b + i * q], count)` or a one-burst `DataCopyPad` (`{1, len, 0, 0}`,
    no padding), with at most the declarations of its copy parameters and pipe barriers around
    it, becomes one copy of n bursts: a DataCopy of n * count elements where both pitches are the
    count, else DataCopyParams / DataCopy(Ext)Params with the gaps between rows, taken when the gaps
    are whole 32 B blocks and the counts fit their fields (the loop stays for the other cases)."""
    view = code_view(source)
    # A GlobalTensor declared in this file has this file's type; others, the package's.
    own = {n.strip(): t for t, names in _GM_TYPED.findall(view) for n in names.split(",")}
    gm_types = {**gm_types, **own}
    edits = []
    for loop in _ROW_LOOP.finditer(view):
        parsed = _loop_body(view, loop)
        if parsed is None or source[: loop.start()].rstrip().endswith(_ROWS_ONE_BY_ONE):
            continue  # not a plain row loop, or the fallback of an earlier rewrite
        spans, loop_end = parsed
        i, n = loop.group("i"), loop.group("n").strip()
        if re.search(r"&&|\|\||\?", n):
            continue  # a condition, not a row count
        copies = [(a, b) for a, b in spans if _COPY_HEAD.match(view[a:b].strip())]
        others = [view[a:b].strip() for a, b in spans if (a, b) not in copies]
        if len(copies) != 1 or not all(
            (_PARAMS_DECL.fullmatch(t) and not re.search(rf"\b{i}\b", t)) or _BARRIER.fullmatch(t)
            for t in others
        ):
            continue
        statement = view[slice(*copies[0])]
        at = copies[0][0] + len(statement) - len(statement.lstrip())
        call = _COPY_HEAD.match(view, at)
        args = split_args(view[call.end() : matching(view, call.end() - 1)])
        merged = _burst_copy(view, at, call.group(1), args, i, n, gm_types)
        if merged is None:
            continue
        copy, guard = merged
        indent = indent_at(source, loop.start())
        inner = indent + "  " if guard else indent
        # In the body's order: the parameters' declarations and the barriers stay, once.
        lines = [
            copy if span == copies[0] else source[slice(*span)].strip() + ";" for span in spans
        ]
        text = f"\n{inner}".join(lines)
        if guard:
            original = source[loop.start() : loop_end].replace("\n", "\n  ")
            text = (
                f"if ({guard}) {{\n{inner}{text}\n{indent}}} else {{  {_ROWS_ONE_BY_ONE}\n"
                f"{inner}{original}\n{indent}}}"
            )
        edits.append((loop.start(), loop_end, text))
    for start, end, text in reversed(edits):
        source = source[:start] + text + source[end:]
    return source if edits else None


def _row_copies_to_burst(package: OperatorPackage) -> OperatorPackage | None:
    return _each_kernel_source(package, partial(_row_bursts, gm_types=_gm_types(package)))


# ---- cube rewrites -------------------------------------------------------------------------------

_MATMUL_CFG = re.compile(r"\bMatmul\s*<[^;{}]*?\b(CFG_NORM|CFG_MDL)\b")
_MIX_TYPE = re.compile(r"\bKERNEL_TYPE_MIX_AIC_1_[12]\b")


# A literal block dim, its argument with any suffix (agents.templates marks the same calls).
BLOCK_DIM_ARG = re.compile(r"\bSetBlockDim\s*\(\s*(?P<arg>(?P<num>\d+)[uUlL]*)\s*\)")


def _raise_block_dims(tiling: str, blocks: int) -> str:
    """Each literal `SetBlockDim(n)` of `tiling` with n below `blocks` launching `blocks`."""
    for m in reversed(list(BLOCK_DIM_ARG.finditer(code_view(tiling)))):
        if int(m["num"]) < blocks:
            tiling = tiling[: m.start("arg")] + str(blocks) + tiling[m.end("arg") :]
    return tiling


def _split_tile_loops(package: OperatorPackage, soc: str) -> OperatorPackage | None:
    """`block_split` on the kernel side, and every vector core launched: a core-cap `@tune`
    marker lifted to its top, a block-dim marker set to the core count, and each literal
    `SetBlockDim(n)` below the count raised to it."""
    changed = block_split.split({p: package.files[p] for p in kernel_side(package)})
    if changed is None:
        return None
    cores, tiling = aiv_cores(soc), package.tiling_source
    for t in tune.find_tunables(tiling):
        if t.name == "core_cap":
            tiling = tune.set_value(tiling, t.name, t.hi)
        elif re.search(_BLOCK_DIM_KNOB, t.name, re.IGNORECASE):
            tiling = tune.set_value(tiling, t.name, t.clamp(cores))
    new = package.model_copy(update={"files": {**package.files, **changed}})
    return new.with_sources(tiling=_raise_block_dims(tiling, cores))


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


# A single-core Matmul program's host side: its MatmulApiTiling (the kernel side: matmul_split).
_SINGLE_CORE_TILING = re.compile(r"\bMatmulApiTiling(?P<decl>\s+(?P<obj>\w+)\s*(?:\([^;]*\))?\s*;)")


def _matmul_multi_core(package: OperatorPackage, soc: str) -> OperatorPackage | None:
    """A single-core Matmul program split over every core: the host's MatmulApiTiling becomes a
    MultiCoreMatmulTiling with `SetDim(<vector cores>)` (the split counts AIVs, as the samples'
    SetDim(2) beside SetBlockDim(1) does), each literal `SetBlockDim(1)` launches every cube core,
    and the kernel gives each block its part of C (`ascend_gym/matmul_split.py`)."""
    aiv, aic = aiv_cores(soc), aic_cores(soc)
    view = code_view(package.tiling_source)
    tiling_obj = _SINGLE_CORE_TILING.search(view)
    blocks = list(BLOCK_DIM_ARG.finditer(view))
    if tiling_obj is None or not blocks or any(int(b["num"]) != 1 for b in blocks) or aiv % aic:
        return None
    changed = matmul_split.split({p: package.files[p] for p in kernel_side(package)})
    if changed is None:
        return None
    tiling = _raise_block_dims(package.tiling_source, aic)  # each one is 1
    end, indent = tiling_obj.end(), indent_at(tiling, tiling_obj.start())
    tiling = (
        f"{tiling[: tiling_obj.start()]}MultiCoreMatmulTiling{tiling[tiling_obj.start('decl') : end]}"
        f"\n{indent}{tiling_obj['obj']}.SetDim({aiv});{tiling[end:]}"
    )
    new = package.model_copy(update={"files": {**package.files, **changed}})
    return new.with_sources(tiling=tiling)


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
        "set the block-dim @tune marker (or a Matmul tiling's core split, matmul_dim) to the "
        "SoC's vector core count",
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
    Rewrite(
        "scalar_gm_reads_to_ub",
        "kernel",
        "a small input read element by element from GM in a loop (xGm.GetValue(i)) -> one DataCopy "
        "into a UB buffer and LocalTensor reads (kernel file and op_kernel headers)",
        _scalar_gm_reads_to_ub,
    ),
    Rewrite(
        "row_copies_to_burst",
        "kernel",
        "a loop of one DataCopy / DataCopyPad per row between GM and UB -> one multi-burst copy "
        "(kernel file and op_kernel headers)",
        _row_copies_to_burst,
    ),
    Rewrite(
        "scalar_loops_to_vector",
        "kernel",
        "an element-wise scalar loop over UB tensors (d.SetValue(i, s.GetValue(i)), a + b, a - b, "
        "a * b) -> one Muls / Cast / Add / Sub / Mul where the element types have it (kernel file "
        "and op_kernel headers; ascend_gym/vector_loops.py)",
        partial(_each_kernel_source, edit=vector_loops.rewrite),
    ),
    Rewrite(
        "split_tile_loops",
        "kernel",
        "a kernel that never reads GetBlockIdx(): the outermost tile loops of the methods its "
        "entry calls (op.Process()) strided by block (i = GetBlockIdx(); i += GetBlockNum()) and "
        "every vector core launched (ascend_gym/block_split.py)",
        _split_tile_loops,
        per_soc=True,
    ),
    Rewrite(
        "matmul_multi_core",
        "kernel",
        "a single-core Matmul program (MatmulApiTiling, SetBlockDim(1); a kernel that returns past "
        "block 0, or one Matmul over all of A, B and C) -> a MultiCoreMatmulTiling split over "
        "every vector core, every cube core launched, each block on its part of C "
        "(ascend_gym/matmul_split.py)",
        _matmul_multi_core,
        per_soc=True,
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


_MASKS: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()  # (content hash, soc) -> mask
_MASKS_KEPT = 4096  # a search revisits its candidates (duplicate draws, rewinds): keep theirs


def applicable_mask(package: OperatorPackage, soc: str = DEFAULT_SOC) -> np.ndarray:
    """Bool per CATALOGUE entry: does it apply to (and change) this package on `soc`. Every
    entry is a pure function of the package and the SoC, so the mask is kept per content hash."""
    key = (package.content_hash(), soc)
    mask = _MASKS.get(key)
    if mask is None:
        mask = np.array([r.apply(package, soc) is not None for r in CATALOGUE], dtype=bool)
        _MASKS[key] = mask
        if len(_MASKS) > _MASKS_KEPT:
            _MASKS.popitem(last=False)
    else:
        _MASKS.move_to_end(key)
    return mask.copy()


def applicable(package: OperatorPackage, soc: str = DEFAULT_SOC) -> list[Rewrite]:
    return [r for r, ok in zip(CATALOGUE, applicable_mask(package, soc)) if ok]
