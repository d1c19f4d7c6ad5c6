"""A kernel that never reads its block index, its tile loops shared out between the blocks (the
rewrite `split_tile_loops`).

Real kernels written for one core (`context->SetBlockDim(1)`) or with every block doing the whole
job (cann-ops' reshape: each block copies all of x to y) never call `GetBlockIdx()`, so launching
more blocks buys nothing. Their `Process()` walks the tiles in a loop,
`for (int32_t i = 0; i < loopCount; i++) { CopyIn(i); Compute(i); CopyOut(i); }`; where each
iteration is a tile of its own, block b taking iterations b, b + n, b + 2n, ... of n blocks splits
the work without changing what any tile computes:
`for (int32_t i = GetBlockIdx(); i < loopCount; i += GetBlockNum())`, and the tiling then
launches every vector core (`ascend_gym.rewrites`: a literal block dim or the block-dim `@tune`
marker set to the SoC's vector core count, a core cap lifted).

Only the outermost `for` loops of the methods the kernel entry (`__global__`) calls on its
operator object with no arguments (`op.Process()`, `MyReshape<...>(...).exec()`) change, and only
loops of the canonical form (one counter declared in the header, `<` its bound, a step of one)
with no `break`, `return` or `goto` in the body. Whether the iterations really are independent is
for the check to decide: a loop that carries state from one tile to the next computes the wrong
tiles (WRONG_ANSWER), and blocks that write the same output differently are a RACE_DETECTED.
"""

from __future__ import annotations

import re

from ascend_core.cpp import code_view, is_function_body, loops, matching

BLOCK_INDEX = re.compile(r"\bGetBlockIdx\s*\(")
_ENTRY = re.compile(r"\b__global__\b[^;{]*\{")
_MEMBER_CALL = re.compile(r"(?:\.|->)\s*(\w+)\s*\(\s*\)")
_TEMPLATE_ARGS = r"(?:<[^;{}]*>)?"
_TILE_LOOP = re.compile(
    r"for\s*\(\s*(?P<type>(?:unsigned\s+|signed\s+)?[A-Za-z_][\w:]*)\s+(?P<i>\w+)\s*=\s*"
    r"(?P<init>[^;]+?)\s*;\s*(?P=i)\s*<\s*(?P<bound>[^;]+?)\s*;\s*"
    r"(?:\+\+\s*(?P=i)|(?P=i)\s*\+\+|(?P=i)\s*\+=\s*1)\s*\)"
)
_LEAVES = re.compile(r"\b(?:break|return|goto)\b")


def _class_of(before: str) -> str | None:
    """The class of the object a member call is made on, `before` being the entry's code up to the
    call's `.`: a temporary's `Class<...>(args)`, or a named object's declaration in the entry."""
    if before.endswith(")"):
        m = re.search(rf"(\w+)\s*{_TEMPLATE_ARGS}\s*$", before[: matching(before, len(before) - 1)])
        return m and m.group(1)
    obj = re.search(r"(\w+)\s*$", before)
    if obj is None:
        return None
    declared = (
        rf"(?:^|[;{{}}])\s*(?:\w+\s*::\s*)*(\w+)\s*{_TEMPLATE_ARGS}\s+{obj.group(1)}\s*[;({{=]"
    )
    found = [m.group(1) for m in re.finditer(declared, before)]
    return found[-1] if found else None


def _entry_methods(view: str) -> set[tuple[str, str]]:
    """(class, method) of each argument-less member call in the kernel entries of `view`."""
    out = set()
    for entry in _ENTRY.finditer(view):
        if not is_function_body(view, entry.end() - 1):
            continue
        body, end = entry.end(), matching(view, entry.end() - 1)
        for call in _MEMBER_CALL.finditer(view, body, end):
            cls = _class_of(view[body : call.start()].rstrip())
            if cls is not None:
                out.add((cls, call.group(1)))
    return out


def _definitions(view: str, cls: str, method: str) -> list[int]:
    """The `{` of each argument-less definition of cls::method, in its class body or outside."""
    braces = []
    own = re.compile(rf"\b{method}\s*\(\s*(?:void\s*)?\)[^;{{}}]*\{{")
    for body in re.finditer(rf"\b(?:class|struct)\s+{cls}\b[^;{{}}]*\{{", view):
        start, end = body.end() - 1, matching(view, body.end() - 1)
        braces += [m.end() - 1 for m in own.finditer(view, start, end)]
    braces += [
        m.end() - 1 for m in re.finditer(rf"\b{cls}\s*{_TEMPLATE_ARGS}\s*::\s*" + own.pattern, view)
    ]
    return [b for b in braces if is_function_body(view, b)]


def _split(source: str, view: str, methods: set[tuple[str, str]]) -> str | None:
    """`source` (its code view `view`) with the outermost canonical loops of those methods strided
    by block."""
    edits: list[tuple[int, int, str]] = []
    for brace in sorted({b for cls, method in methods for b in _definitions(view, cls, method)}):
        spans = loops(view, brace, matching(view, brace))
        for span in spans:
            if any(o.head < span.head <= o.end for o in spans):
                continue  # nested in another loop of the function
            loop = _TILE_LOOP.match(view, span.head)
            if (
                loop is None
                or _LEAVES.search(view, loop.end(), span.end)
                or loop.group("type") == "auto"
            ):
                continue
            t, i, init = loop.group("type"), loop.group("i"), loop.group("init")
            first = f"static_cast<{t}>(AscendC::GetBlockIdx())"
            if init != "0":
                first = f"{source[loop.start('init') : loop.end('init')]} + {first}"
            header = (
                f"for ({t} {i} = {first}; "
                f"{i} < {source[loop.start('bound') : loop.end('bound')]}; "
                f"{i} += static_cast<{t}>(AscendC::GetBlockNum()))"
            )
            edits.append((loop.start(), loop.end(), header))
    if not edits:
        return None
    for start, end, text in sorted(edits, reverse=True):
        source = source[:start] + text + source[end:]
    return source


def split(sources: dict[str, str]) -> dict[str, str] | None:
    """The kernel-side `sources` (path -> text) with their tile loops split between the blocks,
    or None when a source reads the block index (the kernel splits its work already) or no loop
    has the form."""
    views = {path: code_view(text) for path, text in sources.items()}
    if any(BLOCK_INDEX.search(view) for view in views.values()):
        return None
    methods = {m for view in views.values() for m in _entry_methods(view)}
    out = {path: _split(text, views[path], methods) for path, text in sources.items()}
    changed = {path: text for path, text in out.items() if text is not None}
    return changed or None
