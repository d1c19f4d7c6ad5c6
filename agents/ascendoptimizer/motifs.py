"""Optimisation motifs: each pairs an inverse (de-optimising) rewrite, used by the rewind, with its
forward rewrite, used by offline refinement, plus the text the offline distiller fills in.

An inverse keeps the kernel correct and (usually) makes it slower: double buffer -> single,
vector instruction -> scalar GetValue/SetValue loop, whole-tile vector instruction -> short
chunks, aligned DataCopy -> DataCopyPad, L2 hint removed, a PIPE_ALL barrier that serialises the
pipes, smaller tiles, and "revert one hunk of the expert's own change" (the expert version against
the suite baseline, which names motifs no fixed list has). Whether a step really is slower is for
the evaluation to decide; the rewind keeps only pairs above its threshold.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from agents.llm.extract import apply_edits
from ascend_core import cpp
from ascend_core.package import OperatorPackage
from ascend_gym import rewrites

FLOAT_DTYPES = {"float16", "float32", "bfloat16"}
CHUNK_ELEMS = 64  # 128 B of fp16 / 256 B of fp32: a multiple of the 32 B UB alignment either way

BINARY = {"Add": "+", "Sub": "-", "Mul": "*", "Div": "/", "Max": "max", "Min": "min"}
SCALAR = {"Adds": "+", "Muls": "*", "Maxs": "max", "Mins": "min"}
UNARY = {"Abs": "abs", "Relu": "relu"}
TRANSCENDENTAL = ("Exp", "Ln", "Sqrt", "Rsqrt", "Reciprocal", "Tanh", "Sigmoid")
Variant = tuple[str, OperatorPackage]
# Index variables of the loops the inverses emit: calls inside such a loop are not rewritten again.
_GENERATED = re.compile(r"\b[ic]_\b")


@dataclass(frozen=True)
class Origin:
    """Where a rewind started: the expert version and the suite baseline it improves on."""

    expert: OperatorPackage
    baseline: OperatorPackage | None


@dataclass(frozen=True)
class Motif:
    name: str
    part: Literal["tiling", "kernel"]
    title: str
    description: str
    symptom: str  # what the slow version shows, for the distilled Bottleneck
    inverse: Callable[[OperatorPackage, Origin | None], list[Variant]]
    rewrite: str | None  # the knowledge-base rewrite that restores the motif (`REWRITES`)

    @property
    def forward(self) -> Callable[[OperatorPackage], OperatorPackage | None] | None:
        return REWRITES[self.rewrite].apply if self.rewrite else None


def _catalogue(name: str) -> Callable[[OperatorPackage, Origin | None], list[Variant]]:
    rewrite = rewrites.by_name(name)

    def inverse(package: OperatorPackage, _origin: Origin | None) -> list[Variant]:
        new = rewrite.apply(package)
        return [(name, new)] if new is not None else []

    return inverse


def _no_inverse(_package: OperatorPackage, _origin: Origin | None) -> list[Variant]:
    """A motif no expert shows in a removable form: the rewind learns it by adding it (a probe)."""
    return []


def _float_only(package: OperatorPackage) -> bool:
    spec = package.spec
    return all(set(a.dtypes) <= FLOAT_DTYPES for a in [*spec.inputs, *spec.outputs])


def _tensor_type(source: str, name: str) -> str | None:
    m = re.search(
        rf"\b(?:LocalTensor|GlobalTensor)\s*<\s*([\w:]+)\s*>[^;(){{}}]*\b{re.escape(name)}\b",
        cpp.code_view(source),
    )
    return m.group(1) if m else None


def _replace(source: str, call: cpp.Call, text: str) -> str:
    return source[: call.start] + text + source[call.end :]


# ---- PIPE_ALL barrier after the first GM -> UB copy ---------------------------------------------


def _insert_barrier(package: OperatorPackage, _origin: Origin | None) -> list[Variant]:
    source = package.kernel_source
    for call in cpp.calls(source, ("DataCopy", "DataCopyPad")):
        if len(call.args) >= 3 and cpp.declared_as(
            source, cpp.base_name(call.args[1]), ("GlobalTensor",)
        ):
            new = (
                source[: call.end] + f"\n{call.indent}PipeBarrier<PIPE_ALL>();" + source[call.end :]
            )
            return [("insert_pipe_all_barrier", package.with_sources(kernel=new))]
    return []


# ---- aligned DataCopy -> DataCopyPad -------------------------------------------------------------


def _paren(expr: str) -> str:
    return expr if re.fullmatch(r"[\w.]+", expr) else f"({expr})"


def _copy_to_pad(package: OperatorPackage, _origin: Origin | None) -> list[Variant]:
    source = package.kernel_source
    edits = []
    for call in cpp.calls(source, ("DataCopy",)):
        if len(call.args) != 3 or re.search(r"Params|\{", call.args[2]):
            continue  # the strided DataCopyParams form is not a plain element count
        dst, src, count = call.args
        gm_src = cpp.declared_as(source, cpp.base_name(src), ("GlobalTensor",)) is not None
        local = cpp.base_name(dst if gm_src else src)
        dtype = _tensor_type(source, local)
        if dtype is None:
            continue
        params = f"DataCopyExtParams{{1, static_cast<uint32_t>({_paren(count)} * sizeof({dtype})), 0, 0, 0}}"
        pad = f", DataCopyPadExtParams<{dtype}>{{false, 0, 0, 0}}" if gm_src else ""
        edits.append((call, f"DataCopyPad({dst}, {src}, {params}{pad});"))
    for call, text in reversed(edits):
        source = _replace(source, call, text)
    return [("datacopy_to_datacopypad", package.with_sources(kernel=source))] if edits else []


# ---- L2 cache hints removed ----------------------------------------------------------------------


def _remove_l2_hints(package: OperatorPackage, _origin: Origin | None) -> list[Variant]:
    source = package.kernel_source
    view = cpp.code_view(source)
    spans = [
        m.span()
        for m in re.finditer(r"[ \t]*\b\w+\s*\.\s*SetL2CacheHint\s*\([^;]*\)\s*;[ \t]*\n?", view)
    ]
    for start, end in reversed(spans):
        source = source[:start] + source[end:]
    return [("remove_l2_hint", package.with_sources(kernel=source))] if spans else []


# ---- vector instruction -> scalar GetValue/SetValue loop -----------------------------------------


def _get(tensor: str) -> str:
    return f"static_cast<float>({tensor}.GetValue(i_))"


def _scalar_expr(name: str, args: list[str]) -> str | None:
    if name in BINARY and len(args) == 4:
        a, b, op = _get(args[1]), _get(args[2]), BINARY[name]
    elif name in SCALAR and len(args) == 4:
        a, b, op = _get(args[1]), f"static_cast<float>({args[2]})", SCALAR[name]
    elif name in UNARY and len(args) == 3:
        a = _get(args[1])
        return (
            f"({a} < 0.0f ? -{a} : {a})" if UNARY[name] == "abs" else f"({a} > 0.0f ? {a} : 0.0f)"
        )
    else:
        return None
    if op == "max":
        return f"({a} > {b} ? {a} : {b})"
    if op == "min":
        return f"({a} < {b} ? {a} : {b})"
    return f"{a} {op} {b}"


def _devectorise(package: OperatorPackage, _origin: Origin | None) -> list[Variant]:
    """The first convertible vector instruction becomes a scalar loop. Scalar UB access is not
    ordered against the DMA and vector pipes by the queues, hence the PIPE_ALL barriers."""
    if not _float_only(package):
        return []  # float arithmetic in the loop would not be exact for integers
    source = package.kernel_source
    for call in cpp.calls(source, (*BINARY, *SCALAR, *UNARY)):
        expr = _scalar_expr(call.name, call.args)
        if expr is None or any(_GENERATED.search(a) for a in call.args):
            continue
        i = call.indent
        loop = (
            f"PipeBarrier<PIPE_ALL>();\n{i}for (uint32_t i_ = 0; i_ < {call.args[-1]}; ++i_) {{\n"
            f"{i}  {call.args[0]}.SetValue(i_, {expr});\n{i}}}\n{i}PipeBarrier<PIPE_ALL>();"
        )
        return [
            (
                f"vector_to_scalar:{call.name}",
                package.with_sources(kernel=_replace(source, call, loop)),
            )
        ]
    return []


_SCALAR_LOOP = re.compile(
    r"PipeBarrier<PIPE_ALL>\(\);\s*for \(uint32_t i_ = 0; i_ < (?P<count>[^;]+); \+\+i_\) \{\s*"
    r"(?P<dst>[^\n]+?)\.SetValue\(i_, (?P<expr>[^\n]+)\);\s*\}\s*PipeBarrier<PIPE_ALL>\(\);"
)


def _revectorise(package: OperatorPackage) -> OperatorPackage | None:
    """Forward of `_devectorise`: a scalar loop of that form back to the vector instruction."""
    source = package.kernel_source
    for m in _SCALAR_LOOP.finditer(source):
        for name in (*BINARY, *SCALAR, *UNARY):
            # Try each operand split the instruction could have had: the expression is rebuilt from
            # candidate arguments and must match exactly.
            for args in _operand_candidates(name, m["dst"], m["count"], m["expr"]):
                if _scalar_expr(name, args) == m["expr"]:
                    return package.with_sources(
                        kernel=source[: m.start()]
                        + f"{name}({', '.join(args)});"
                        + source[m.end() :]
                    )
    return None


def _operand_candidates(name: str, dst: str, count: str, expr: str) -> list[list[str]]:
    """Argument lists the instruction may have had, read off the `static_cast<float>(...)` operands."""
    tensors, scalars = [], []
    for m in re.finditer(r"static_cast<float>\(", expr):
        close = cpp.matching(expr, m.end() - 1)
        inner = expr[m.end() : close] if close > 0 else ""
        if inner.endswith(".GetValue(i_)"):
            tensors.append(inner[: -len(".GetValue(i_)")])
        elif inner:
            scalars.append(inner)
    if not tensors:
        return []
    if name in UNARY:
        return [[dst, tensors[0], count]]
    if name in BINARY:
        return [[dst, tensors[0], tensors[1 if len(tensors) > 1 else 0], count]]
    return [[dst, tensors[0], s, count] for s in scalars[:1]]


# ---- whole-tile vector instruction -> short chunks ----------------------------------------------


def _chunk(package: OperatorPackage, _origin: Origin | None) -> list[Variant]:
    """The first vector instruction over a whole tile is issued in CHUNK_ELEMS pieces, so each
    instruction pays its issue overhead on a short vector."""
    source = package.kernel_source
    for call in cpp.calls(source, (*BINARY, *SCALAR, *UNARY, *TRANSCENDENTAL)):
        n_tensors = {**dict.fromkeys(BINARY, 3), **dict.fromkeys(SCALAR, 2)}.get(call.name, 2)
        if len(call.args) != n_tensors + (call.name in SCALAR) + 1 or any(
            _GENERATED.search(a) for a in call.args
        ):
            continue
        count = _paren(call.args[-1])
        args = [f"{a}[c_]" for a in call.args[:n_tensors]] + call.args[n_tensors:-1]
        args.append(f"{count} - c_ < {CHUNK_ELEMS} ? {count} - c_ : {CHUNK_ELEMS}")
        i = call.indent
        loop = (
            f"for (uint32_t c_ = 0; c_ < {call.args[-1]}; c_ += {CHUNK_ELEMS}) {{\n"
            f"{i}  {call.name}({', '.join(args)});\n{i}}}"
        )
        return [
            (f"chunk_vector:{call.name}", package.with_sources(kernel=_replace(source, call, loop)))
        ]
    return []


_CHUNK_LOOP = re.compile(
    rf"for \(uint32_t c_ = 0; c_ < (?P<count>[^;]+); c_ \+= {CHUNK_ELEMS}\) \{{\s*"
    rf"(?P<name>\w+)\((?P<args>[^\n]*), [^\n]*? - c_ < {CHUNK_ELEMS} \? [^\n]*? - c_ : {CHUNK_ELEMS}\);\s*\}}"
)


def _unchunk(package: OperatorPackage) -> OperatorPackage | None:
    """Forward of `_chunk`: one instruction over the whole count."""
    source = package.kernel_source
    m = _CHUNK_LOOP.search(source)
    if m is None:
        return None
    args = [a[: -len("[c_]")] if a.endswith("[c_]") else a for a in cpp.split_args(m["args"])]
    call = f"{m['name']}({', '.join([*args, m['count']])});"
    return package.with_sources(kernel=source[: m.start()] + call + source[m.end() :])


# ---- revert one hunk of the expert's change ------------------------------------------------------


def _hunks(a: list[str], b: list[str], gap: int = 2) -> list[list[tuple[str, int, int, int, int]]]:
    """Change groups of a -> b, merging changes fewer than `gap` equal lines apart."""
    groups: list[list[tuple[str, int, int, int, int]]] = []
    last_end = -gap - 1
    for op in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op[0] == "equal":
            continue
        if groups and op[1] - last_end < gap:
            groups[-1].append(op)
        else:
            groups.append([op])
        last_end = op[2]
    return groups


def _revert_expert_hunks(package: OperatorPackage, origin: Origin | None) -> list[Variant]:
    """The expert's own edit (suite baseline -> expert kernel) undone: all of it while the kernel
    is still the expert's, and one variant per hunk, put back as the baseline had it wherever the
    expert's lines still stand in `package`.
    Hunks that only work together fail to compile or check, and the rewind discards them."""
    if (
        origin is None
        or origin.baseline is None
        or origin.baseline.kernel_source == origin.expert.kernel_source
    ):
        return []
    expert = origin.expert.kernel_source.splitlines()
    base = origin.baseline.kernel_source.splitlines()
    out = []
    # The whole restructuring first: hunks of one rewrite often only work together.
    if package.kernel_source == origin.expert.kernel_source:
        out.append(
            ("revert_expert_all", package.with_sources(kernel=origin.baseline.kernel_source))
        )
    for n, group in enumerate(_hunks(base, expert)):
        lo, hi = min(op[3] for op in group), max(op[4] for op in group)
        b_lo, b_hi = min(op[1] for op in group), max(op[2] for op in group)
        if hi == lo:
            continue  # a pure deletion by the expert: nothing of its own to search for
        new = apply_edits(
            package.kernel_source, [("\n".join(expert[lo:hi]), "\n".join(base[b_lo:b_hi]))]
        )
        if new is not None and new != package.kernel_source:
            out.append((f"revert_expert_hunk[{n}]", package.with_sources(kernel=new)))
    return out


def transplant(
    package: OperatorPackage, diff: str, part: str = "kernel"
) -> tuple[OperatorPackage, str] | None:
    """Apply a recorded slow -> fast diff to another package: each hunk whose old lines are found
    (up to indentation) is applied, the others are skipped (a sibling operator shares the
    structure but not the arithmetic). Returns the package and "k of n hunks", or None."""
    edits = cpp.diff_edits(diff)
    source = package.kernel_source if part == "kernel" else package.tiling_source
    new, applied = source, 0
    for edit in edits:
        moved = apply_edits(new, [edit])
        if moved is not None and moved != new:
            new, applied = moved, applied + 1
    if not applied:
        return None
    return package.with_sources(**{part: new}), f"{applied} of {len(edits)} hunks"


MOTIFS: tuple[Motif, ...] = (
    Motif(
        "double_buffering",
        "kernel",
        "Double-buffer the queues",
        "Give the TQue queues depth 2 (BUFFER_NUM = 2) so MTE2 copies the next tile in while the vector unit "
        "computes this one and MTE3 writes the previous one out.",
        "copy-in, compute and copy-out run one after another: little overlap between MTE2, vector and MTE3",
        _catalogue("double_buffer:off"),
        "double_buffer:on",
    ),
    Motif(
        "no_pipe_all_barrier",
        "kernel",
        "Drop the PIPE_ALL barrier",
        "Remove PipeBarrier<PIPE_ALL>(): the queues' EnQue/DeQue already order each tile's stages, and a "
        "full barrier stalls every pipe, destroying the copy/compute overlap.",
        "every pipe waits at a full barrier each tile; pipes are serialised",
        _insert_barrier,
        "remove_pipe_all_barrier",
    ),
    Motif(
        "aligned_datacopy",
        "kernel",
        "Use aligned DataCopy",
        "When the lengths are whole 32-byte blocks, plain DataCopy moves data without DataCopyPad's padding "
        "bookkeeping.",
        "DMA copies carry DataCopyPad overhead though the data are 32-byte aligned",
        _copy_to_pad,
        "datacopypad_to_datacopy",
    ),
    Motif(
        "l2_cache_hint",
        "kernel",
        "Bypass L2 for read-once inputs",
        "SetL2CacheHint(CACHE_MODE_DISABLE) on inputs that are read once keeps them from evicting useful "
        "lines from L2.",
        "read-once inputs stream through L2",
        _remove_l2_hints,
        "l2_bypass:inputs",
    ),
    Motif(
        "vector_intrinsics",
        "kernel",
        "Vectorise the scalar loop",
        "Replace an element-by-element GetValue/SetValue loop on the scalar unit by one vector instruction "
        "over the whole tile, and drop the PIPE_ALL barriers the scalar UB access needed.",
        "scalar-bound: element-wise work runs on the scalar unit one element at a time",
        _devectorise,
        "vectorise_scalar_loop",
    ),
    Motif(
        "whole_tile_instructions",
        "kernel",
        "Issue vector instructions over the whole tile",
        "Issue one vector instruction per tile instead of a loop of short ones, amortising each "
        "instruction's issue overhead over many repeats.",
        "vector-bound by instruction issue: many short vector instructions per tile",
        _chunk,
        "whole_tile_instruction",
    ),
    Motif(
        "large_tiles",
        "tiling",
        "Use larger tiles",
        "Larger tiles mean fewer, longer DMA transfers and vector instructions, amortising their start-up "
        "cost, as long as the tile still fits the UB.",
        "short transfers: many small DMA copies, low UB use",
        _catalogue("tile:smaller"),
        "tile:larger",
    ),
    Motif(
        "expert_structure",
        "kernel",
        "Expert restructuring",
        "A change the expert version makes over the straightforward kernel (see the diff).",
        "the straightforward kernel structure the expert rewrote",
        _revert_expert_hunks,
        None,
    ),
    Motif(
        "hoisted_masks",
        "kernel",
        "Hoist loop-invariant mask settings",
        "Set the vector mask once before the loop instead of on every iteration: mask settings are "
        "scalar instructions that stall vector issue.",
        "mask settings repeated inside the tile loop",
        _no_inverse,
        "hoist_mask",
    ),
    Motif(
        "all_vector_cores",
        "tiling",
        "Use every vector core",
        "Set the block dim to the vector core count, so every AI vector core takes a share of the "
        "data.",
        "only part of the vector cores are used",
        _no_inverse,
        "block_dim:cores",
    ),
)
BY_NAME = {m.name: m for m in MOTIFS}

# Kernel rewrites beyond the catalogue: they restore the forms the rewind's own inverses produce.
MOTIF_REWRITES: tuple[rewrites.Rewrite, ...] = (
    rewrites.Rewrite(
        "vectorise_scalar_loop",
        "kernel",
        "a GetValue/SetValue loop fenced by PIPE_ALL barriers -> one vector instruction",
        _revectorise,
    ),
    rewrites.Rewrite(
        "whole_tile_instruction",
        "kernel",
        "a loop of 64-element vector instructions -> one instruction over the whole count",
        _unchunk,
    ),
)
# Every named rewrite of the offline knowledge: the catalogue and the motifs' own.
REWRITES: dict[str, rewrites.Rewrite] = {
    **{r.name: r for r in rewrites.CATALOGUE},
    **{r.name: r for r in MOTIF_REWRITES},
}
# Catalogue rewrites that restore a motif in real kernels' form of it, besides the motif's own
# rewrite of the rewind's form: Stage II ranks them by the same retrieved experiences.
_ALSO_RESTORES = {"scalar_loops_to_vector": "vector_intrinsics"}
_MOTIF_OF = {m.rewrite: m.name for m in MOTIFS if m.rewrite} | _ALSO_RESTORES


def motif_of(rewrite: str) -> str:
    """The motif a rewrite restores; a catalogue entry no motif names is its own motif."""
    return _MOTIF_OF.get(rewrite, rewrite)
