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

A class is read alike (`unbuilt_classes`): one the program constructs whose body declares member
functions it does not define, with none of them defined out of line (`Class::Name(...) {`) in the
program's files, needs the unit that defines them, its virtual table's with them (an A2 tiling
that constructs another SoC's tiling class under a run-time check links only with that class's
source, as the repository's one library of every SoC's sources holds it).
"""

from __future__ import annotations

import collections
import re
from collections.abc import Iterable
from dataclasses import dataclass

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


# A class or struct with a body: its name, and the bases its head names.
_CLASS_HEAD = re.compile(
    r"\b(?:class|struct)\s+(?P<name>[A-Za-z_]\w*)\s*(?:final\s*)?(?::(?P<bases>[^;{}()]*))?\{"
)
# A member function a class body declares without defining it, not pure, defaulted or deleted:
# one unit defines it out of line.
_MEMBER_DECLARED = re.compile(
    r"~?\b[A-Za-z_]\w*\s*\([^;{}()]*\)\s*(?:const\s*)?(?:noexcept\s*)?(?:override\s*|final\s*)*;"
)
_ACCESS = {"public", "protected", "private", "virtual"}


def _body_end(text: str, start: int) -> int:
    """The index just past the brace that closes the one opened at `start`."""
    depth = 0
    for m in _BRACES.finditer(text, start):
        depth += {"{": 1, "}": -1}.get(m.group(), 0)
        if depth == 0:
            return m.end()
    return len(text)


def _own_level(body: str) -> str:
    """A class body with its nested bodies (inline member functions, nested classes) blanked."""
    out, depth, pos = [], 0, 0
    for m in _BRACES.finditer(body):
        if m.group() == ";":
            continue
        out.append(body[pos : m.start()] if depth <= 1 else _blank(body[pos : m.start()]))
        depth += 1 if m.group() == "{" else -1
        out.append(m.group())
        pos = m.end()
    out.append(body[pos:])
    return "".join(out)


# A named namespace's opening, up to its brace.
_NAMESPACE_NAME = re.compile(r"\bnamespace\s+(\w+(?:\s*::\s*\w+)*)\s*$")
# What a parameter list has and an argument list lacks: a type before a name, a qualifier, a
# fundamental type alone (an unnamed parameter).
_PARAMETERS = re.compile(
    r"\bconst\b|[\w>][\s*&]+[A-Za-z_]\w*\s*(?:,|=|$)"
    r"|^\s*(?:void|bool|char|short|int|long|float|double|unsigned|signed|size_t|u?int\d+_t)\b"
)


@dataclass(frozen=True)
class _Class:
    """One body of a class in one file: where it sits, the namespaces and classes around it."""

    text: int
    start: int
    end: int
    scopes: frozenset[str]


def _classes(texts: list[str]) -> dict[str, list[_Class]]:
    """Each class body of `texts` by its name, with the names of the scopes enclosing it."""
    found: dict[str, list[_Class]] = collections.defaultdict(list)
    for i, t in enumerate(texts):
        heads = {m.end() - 1: m for m in _CLASS_HEAD.finditer(t)}
        stack: list[list[str]] = []
        for m in _BRACES.finditer(t):
            if m.group() == "}" and stack:
                stack.pop()
            if m.group() != "{":
                continue
            scopes = frozenset(n for names in stack for n in names)
            if head := heads.get(m.start()):
                found[head["name"]].append(_Class(i, head.start(), _body_end(t, m.start()), scopes))
                stack.append([head["name"]])
            elif named := _NAMESPACE_NAME.search(t[max(0, m.start() - 200) : m.start()]):
                stack.append(re.findall(r"\w+", named[1]))
            else:
                stack.append([])
    return found


def _constructions(name: str, text: str, scopes: frozenset[str]) -> Iterable[int]:
    """Where `text` (class heads blanked) constructs class `name`: a temporary or an object of
    it, `new`, or a template argument (`make_unique<C>`), named bare or through one of the scopes
    `scopes` that enclose it (`gert::Shape` is not another namespace's `Shape`); a pointer or a
    reference to it needs no definition, and `C f(params)` declares a function."""
    spelled = re.compile(
        rf"(?<![\w~])(?:{name}\s*[({{]|{name}\s+\w+\s*(?P<call>\()?(?(call)|[{{;=])"
        rf"|<\s*{name}\s*>)"
    )
    for m in spelled.finditer(text):
        qualifier = re.search(r"(\w+)\s*::\s*$", text[max(0, m.start() - 200) : m.start()])
        if qualifier and qualifier[1] not in scopes:
            continue
        if m["call"]:
            arguments = re.match(r"[^()]*", text[m.end() :])
            if not arguments[0].strip() or _PARAMETERS.search(arguments[0]):
                continue
        yield m.start()


def unbuilt_classes(texts: Iterable[str]) -> set[str]:
    """The classes the files `texts` construct (or derive a constructed class from, or hold in a
    constructed class) whose bodies there declare member functions that none of `texts` defines
    out of line: each needs the unit of the library that defines them (its virtual table is
    emitted there too). A construction outside every class body is the program's own; one inside
    a class's body (a member, a base's initializer, an inline member function) is that class's,
    and counts where that class is constructed."""
    texts = [_STRIP.sub(" ", t) for t in texts]
    classes = _classes(texts)
    bases: dict[str, set[str]] = collections.defaultdict(set)
    out_of_line: set[str] = set()
    for t in texts:
        for m in _CLASS_HEAD.finditer(t):
            end = _body_end(t, m.end() - 1)
            if _MEMBER_DECLARED.search(_own_level(t[m.end() - 1 : end])):
                out_of_line.add(m["name"])
            for part in (m["bases"] or "").split(","):
                words = [w for w in re.findall(r"\w+", part.split("<")[0]) if w not in _ACCESS]
                if words:
                    bases[m["name"]].add(words[-1])
    heads = [_CLASS_HEAD.sub(lambda m: _blank(m.group()[:-1]) + "{", t) for t in texts]
    # Each class body by file, innermost last, to tell whose a construction is.
    spans = sorted(
        ((c.text, c.start, c.end, name) for name, cs in classes.items() for c in cs),
        key=lambda s: (s[0], s[1]),
    )
    used: set[str] = set()
    holds: dict[str, set[str]] = collections.defaultdict(set)  # class -> what it constructs
    for name, bodies in classes.items():
        scopes = frozenset().union(*(c.scopes for c in bodies))
        for i, t in enumerate(heads):
            if name not in t:
                continue
            for at in _constructions(name, t, scopes):
                owner = [n for j, a, b, n in spans if j == i and a <= at < b]
                if not owner:
                    used.add(name)
                elif owner[-1] != name:
                    holds[owner[-1]].add(name)
    todo = list(used)
    while todo:  # a constructed class constructs its bases and what it holds
        for other in bases.get(todo[-1], set()) | holds.pop(todo.pop(), set()):
            if other in classes and other not in used:
                used.add(other)
                todo.append(other)
    return {
        name
        for name in used & out_of_line
        if not any(re.search(member_definition(name), t) for t in texts)
    }


def member_definition(name: str) -> str:
    """The pattern of an out-of-line definition of a member function of class `name`."""
    return rf"\b{re.escape(name)}::~?\w+\s*\([^;{{}}()]*\)[^;{{}}]*\{{"
