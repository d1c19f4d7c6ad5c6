"""A single-core Matmul kernel's blocks given their parts of C (the kernel side of the rewrite
`matmul_multi_core`).

The Matmul samples and the programs written after them come in two single-core forms, both
launched with `SetBlockDim(1)` over a host `MatmulApiTiling`:

- the kernel already places each block's part of C by its block index (offsets of A, B, bias
  and C from `GetBlockIdx()` and the tiling's singleCoreM / singleCoreN), and returns on every
  block past the first: `if (GetBlockIdx() >= 1) return;`. The guard becomes `>=
  tiling.usedCoreNum`, the split's own core count (a split may use fewer cores than it is given);
- the kernel never reads its block index: one Matmul object is given the whole of A, B and the
  bias (`mm.SetTensorA(aGm)`, ...) and computes all of C (`mm.IterateAll(cGm)`). Each block then
  takes its part as the multi-core samples place it: block b covers rows (b % mBlocks) *
  singleCoreM and columns (b / mBlocks) * singleCoreN of C, with mBlocks = ceil(M /
  singleCoreM); A from that row (times Ka), B and the bias from that column, `SetTail` where the
  matrix's edge cuts the part short, and blocks past usedCoreNum return. Only row-major (ND)
  operands that are not transposed are placed so; anything else leaves the kernel alone.

Either form needs the kernel to name one `TCubeTiling`, whose fields the edit reads.
"""

from __future__ import annotations

import re

from ascend_core.cpp import code_view, enclosing_brace, indent_at, matching, split_args
from ascend_gym.block_split import BLOCK_INDEX

_GUARD = re.compile(
    r"\bif\s*\(\s*(?:AscendC::)?GetBlockIdx\s*\(\s*\)\s*(?P<cmp>>=\s*1|>\s*0|!=\s*0)[uU]?\s*\)"
)
_CUBE_TILING = re.compile(r"\bTCubeTiling\s*&?\s*(\w+)\s*[;,)=]")
_MATMUL_CALL = re.compile(
    r"\b(?P<obj>\w+)\s*\.\s*(?P<m>SetTensorA|SetTensorB|SetBias|IterateAll)\s*\("
)
_MATMUL_TYPE = re.compile(r"\bMatmulType\s*<[^;{}]*?>")


def _tiling_name(views: dict[str, str]) -> str | None:
    names = {m.group(1) for v in views.values() for m in _CUBE_TILING.finditer(v)}
    return names.pop() if len(names) == 1 else None


def _guarded(files: dict[str, str], views: dict[str, str], t: str) -> dict[str, str] | None:
    guards = [(p, m) for p, v in views.items() for m in _GUARD.finditer(v)]
    reads = sum(len(BLOCK_INDEX.findall(v)) for v in views.values())
    if len(guards) != 1 or reads < 2:  # the guard alone: no block has a part of its own
        return None
    path, guard = guards[0]
    source = files[path]
    return {path: f"{source[: guard.start('cmp')]}>= {t}.usedCoreNum{source[guard.end('cmp') :]}"}


def _placed(files: dict[str, str], views: dict[str, str], t: str) -> dict[str, str] | None:
    if any(BLOCK_INDEX.search(v) for v in views.values()):
        return None
    types = [m.group(0) for v in views.values() for m in _MATMUL_TYPE.finditer(v)]
    if not types or any(not re.search(r"\bND\b", x) or "true" in x for x in types):
        return None  # a layout other than row-major, or a transposed operand
    calls = [(p, m) for p, v in views.items() for m in _MATMUL_CALL.finditer(v)]
    by_method = {m["m"]: (p, m) for p, m in calls}
    if (
        len(by_method) != len(calls)
        or not {"SetTensorA", "SetTensorB", "IterateAll"} <= set(by_method)
        or len({(p, m["obj"], enclosing_brace(views[p], m.start())) for p, m in calls}) != 1
    ):
        return None
    path, first = min(calls, key=lambda c: c[1].start())
    view, source = views[path], files[path]
    start = {  # where each operand's part begins: A's rows, B's and the bias's columns, C's both
        "SetTensorA": f"ascendGymRow * {t}.Ka",
        "SetTensorB": "ascendGymCol",
        "SetBias": "ascendGymCol",
        "IterateAll": f"ascendGymRow * {t}.N + ascendGymCol",
    }
    edits = []
    for method, (_, m) in by_method.items():
        close = matching(view, m.end() - 1)
        args = split_args(view[m.end() : close])
        if len(args) != 1 or not re.fullmatch(r"[\w.>-]+", args[0]):
            return None  # a transpose flag or an expression: not a whole operand
        edits.append((m.end(), close, f"{args[0]}[{start[method]}]"))
    obj, indent = first["obj"], indent_at(source, first.start())
    iterate = by_method["IterateAll"][1]
    tail = (
        f"{obj}.SetTail({t}.M - ascendGymRow < {t}.singleCoreM ? {t}.M - ascendGymRow : "
        f"{t}.singleCoreM, {t}.N - ascendGymCol < {t}.singleCoreN ? {t}.N - ascendGymCol : "
        f"{t}.singleCoreN);\n{indent_at(source, iterate.start())}"
    )
    edits.append((iterate.start(), iterate.start(), tail))
    block = "static_cast<int32_t>(AscendC::GetBlockIdx())"
    prelude = "\n".join(
        [
            "// matmul_multi_core: this block's part of C, where the tiling's split places it",
            f"if ({block} >= static_cast<int32_t>({t}.usedCoreNum)) {{",
            "  return;",
            "}",
            f"const int32_t ascendGymRows = ({t}.M + {t}.singleCoreM - 1) / {t}.singleCoreM;",
            f"const int32_t ascendGymRow = {block} % ascendGymRows * {t}.singleCoreM;",
            f"const int32_t ascendGymCol = {block} / ascendGymRows * {t}.singleCoreN;",
        ]
    )
    prelude = prelude.replace("\n", f"\n{indent}") + f"\n{indent}"
    edits.append((first.start(), first.start(), prelude))
    for start, end, text in sorted(edits, reverse=True):
        source = source[:start] + text + source[end:]
    return {path: source}


def split(files: dict[str, str]) -> dict[str, str] | None:
    """The kernel-side sources (path -> text) edited so each block computes its part of C, only
    the changed ones; None where neither single-core form is there."""
    views = {p: code_view(s) for p, s in files.items()}
    t = _tiling_name(views)
    if t is None:
        return None
    return _guarded(files, views, t) or _placed(files, views, t)
