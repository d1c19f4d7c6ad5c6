"""Functions a tiling program declares and calls but does not define, read from C++ text.

A repository that builds every operator's tiling sources into one library lets one operator's
tiling call a function another operator's source defines, declared in its own header (ops-math
diag_v2's tiling calls the diag_flat tiling it declares; its build names that operator as a
dependency). The linker resolves such a call in the library; a tiling program built from one
operator's sources leaves it undefined. Here the program's text tells which names it needs from
elsewhere: a free function with a prototype and a call, and no definition among its files. What
defines one is found by the caller (`registry.defining`), as the linker would: a source the
build compiles into the tiling's own target.

The reading is lexical and conservative: a prototype is a statement at the start of a line
naming a return type, a function and a parameter list without nested parentheses; a definition
the same followed by a body. Member functions (`Class::Name`) are neither.
"""

from __future__ import annotations

import collections
import re
from collections.abc import Iterable

# Words that may start a statement ending in `name(...)` without declaring a function.
_NOT_TYPES = {
    *("return", "else", "throw", "delete", "new", "goto", "case", "co_return", "co_yield"),
    *("using", "typedef", "friend", "operator", "sizeof", "decltype", "static_assert"),
}
_KEYWORDS = {"if", "while", "for", "switch", "return", "sizeof", "catch", "alignas", "decltype"}
# `<return type> <name>(<parameters>)` then `;` (a prototype) or `{` (a definition), from the
# start of a line; the return type is words, `::`, template brackets, pointers and references.
_SIGNATURE = re.compile(
    r"^[ \t]*(?P<type>[A-Za-z_][\w:<>, \t]*?[\w>][ \t\*&]*?)[ \t\*&]+(?P<name>[A-Za-z_]\w*)"
    r"[ \t]*\((?P<params>[^;{}()]*)\)\s*(?:const\s*)?(?:noexcept\s*)?(?P<end>[;{])",
    re.M,
)
_STRIP = re.compile(r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"", re.S)
# A member function's out-of-class definition: its name is a class's, not a free function's.
_MEMBER_DEFINED = re.compile(r"\b\w+::(\w+)[ \t]*\([^;{}()]*\)[\s\w]*\{")
# What opens a scope whose declarations are a namespace's: a named namespace, an `extern "C"`
# block (its string stripped). A class body, a function body and an anonymous namespace (its
# functions internal) are not.
_NAMESPACE_HEAD = re.compile(r"(?:\bnamespace\s+\w+(?:\s*::\s*\w+)*|\bextern)\s*$")
_BRACES = re.compile(r"[{};]")


def _blank(text: str) -> str:
    return re.sub(r"[^\n]", " ", text)


def _namespace_level(text: str) -> str:
    """`text` (comments and strings stripped) with everything inside a class body, a function
    body or an anonymous namespace blanked: what is left is declared at namespace scope."""
    out, kept, pos, head = [], [], 0, 0
    for m in _BRACES.finditer(text):
        end = m.end()
        out.append(text[pos:end] if all(kept) else _blank(text[pos:end]))
        pos = end
        if m.group() == "{":
            kept.append(bool(_NAMESPACE_HEAD.search(text[head : m.start()])))
        elif m.group() == "}" and kept:
            kept.pop()
        head = end
    out.append(text[pos:] if all(kept) else _blank(text[pos:]))
    return "".join(out)


def _signatures(text: str) -> Iterable[tuple[str, str, str]]:
    """(return type, name, `;` or `{`) of each free function signature at namespace scope."""
    for m in _SIGNATURE.finditer(_namespace_level(_STRIP.sub(" ", text))):
        words = set(re.findall(r"\w+", m["type"]))
        if words & _NOT_TYPES or m["name"] in _KEYWORDS or m["type"].rstrip().endswith(":"):
            continue
        yield m["type"], m["name"], m["end"]


def defined(text: str, external: bool = False) -> set[str]:
    """The free functions `text` defines (`T Name(params) {`); `external`: only those another
    translation unit can call (not `static`, not `inline`, not in an anonymous namespace)."""
    return {
        name
        for kind, name, end in _signatures(text)
        if end == "{" and not (external and {"static", "inline"} & set(re.findall(r"\w+", kind)))
    }


def unresolved(texts: Iterable[str]) -> set[str]:
    """The functions the files `texts` declare and call but none of them defines: each must come
    from another unit of the library the program is linked into (or from the toolkit's). A call
    through an object (`x.Name(`, `p->Name(`) is a member's, not counted."""
    texts = [_STRIP.sub(" ", t) for t in texts]
    signatures = [(name, end) for t in texts for _, name, end in _signatures(t)]  # read once
    prototypes = collections.Counter(name for name, end in signatures if end == ";")
    wanted = set(prototypes) - {name for name, end in signatures if end == "{"}
    wanted -= {name for t in texts for name in _MEMBER_DEFINED.findall(t)}
    return {
        name
        for name in wanted
        if sum(len(re.findall(rf"(?<!\.)(?<!->)\b{re.escape(name)}\s*\(", t)) for t in texts)
        > prototypes[name]
    }
