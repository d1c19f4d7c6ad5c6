"""Code out of a model's reply, in the forms models actually use:

1. labelled fenced blocks, one per part: ```cpp kernel ... ``` / ```cpp tiling ... ```
   (also the label on the line before the fence: "Kernel:" or "### tiling");
2. SEARCH/REPLACE edit blocks applied to the current source (exact match first, then a match
   that ignores trailing whitespace and indentation);
3. one unlabelled fenced block, taken as the whole file of the part asked for;
4. no fence at all but a reply that is itself a C++ file.
"""

from __future__ import annotations

import re

PARTS = ("tiling", "kernel")
_FENCE = re.compile(r"```[ \t]*(?P<info>[^\n`]*)\n(?P<body>.*?)```", re.DOTALL)
_EDIT = re.compile(
    r"<{5,}[ \t]*SEARCH[^\n]*\n(?P<search>.*?)\n?={5,}[ \t]*\n(?P<replace>.*?)\n?>{5,}[ \t]*REPLACE",
    re.DOTALL,
)
_CPP_MARKERS = ("#include", 'extern "C"', "__aicore__", "TilingFunc")


def _label(info: str, before: str) -> str | None:
    """Which part a fence holds: from its info string ("cpp kernel") or the line before it."""
    for text in (info, before.rstrip().rsplit("\n", 1)[-1][-80:]):
        words = set(re.findall(r"[a-z_]+", text.lower()))
        hits = [
            p
            for p in PARTS
            if p in words or f"op_{'host' if p == 'tiling' else 'kernel'}" in text.lower()
        ]
        if len(hits) == 1:
            return hits[0]
    return None


def apply_edits(source: str, edits: list[tuple[str, str]]) -> str | None:
    """Apply SEARCH/REPLACE edits in order; None if any SEARCH text is not found."""
    for search, replace in edits:
        if search and search in source:
            source = source.replace(search, replace, 1)
            continue
        loose = _loose_find(source, search)
        if loose is None:
            return None
        start, end = loose
        source = source[:start] + replace + source[end:]
    return source


def _loose_find(source: str, search: str) -> tuple[int, int] | None:
    """Span of the lines of `source` equal to `search`'s lines up to surrounding whitespace."""
    want = [line.strip() for line in search.strip("\n").split("\n")]
    if not want or not any(want):
        return None
    lines = source.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    for i in range(len(lines) - len(want) + 1):
        if all(lines[i + j].strip() == w for j, w in enumerate(want)):
            return offsets[i], offsets[i + len(want)] - 1
    return None


def extract_parts(reply: str, sources: dict[str, str]) -> dict[str, str]:
    """New full sources for the parts the reply changes (keys of `sources`: "tiling", "kernel").
    A part absent from the result was not (validly) changed."""
    out: dict[str, str] = {}
    fences = list(_FENCE.finditer(reply))
    edits = [(m["search"], m["replace"]) for m in _EDIT.finditer(reply)]
    for m in fences:
        part = _label(m["info"], reply[: m.start()])
        if part in sources and not _EDIT.search(m["body"]):
            out[part] = m["body"]
    if out:
        return out
    if edits:
        # Edit blocks name no file: give each part the edits whose SEARCH text it contains.
        for part, source in sources.items():
            mine = [e for e in edits if e[0] in source or _loose_find(source, e[0]) is not None]
            new = apply_edits(source, mine) if mine else None
            if new is not None and new != source:
                out[part] = new
        return out
    if len(sources) == 1:
        ((part, _),) = sources.items()
        whole = [m["body"] for m in fences if not _EDIT.search(m["body"])]
        if len(whole) == 1:
            return {part: whole[0]}
        if not fences and any(marker in reply for marker in _CPP_MARKERS):
            return {part: reply.strip() + "\n"}
    return out


def extract_source(reply: str, source: str, part: str) -> str | None:
    """The new source of one part, or None when the reply holds no usable code for it."""
    new = extract_parts(reply, {part: source}).get(part)
    return new if new and new.strip() and new != source else None
