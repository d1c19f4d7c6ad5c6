"""The device's 64-bit `long` on the guest engine (docs/trust_boundary.md, The guest's data model).

The device compiler is LP64: `long` and `unsigned long` are 64 bits, and real kernels rely on it
(ops-nn scatter_elements_v2 instantiates its kernel with `long` indices and takes the int64 branch
by `std::is_same<U, int32_t>`). wasm32 is ILP32 and clang has no option to widen `long` alone. So a
kernel whose files spell `long` is preprocessed first, and in the text of the kernel's own files
(not the toolchain's headers, whose `long` is the sysroot's ABI, nor the API's, written for this
data model) every type naming exactly one `long` becomes a 64-bit integer type of the same
signedness, and every integer literal with one `l` suffix an `ll` one; the result is compiled as
preprocessed C++. It is text the kernel could have written itself: no reach is added.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ascend_core.cpp import code_view

LONG, ULONG = "__ascendc_lp64_long", "__ascendc_lp64_ulong"
# One name each, so that a functional cast `long(x)` stays one (`long long(x)` is ill-formed).
PRELUDE = f"typedef long long {LONG};\ntypedef unsigned long long {ULONG};\n"

_SPELLS = re.compile(
    r"\blong\b(?!\s+(?:long|double)\b)|\b(?:0[xX][\da-fA-F']+|\d[\d']*)[uU]?[lL][uU]?\b"
)
_MARKER = re.compile(r'^# \d+ "((?:[^"\\]|\\.)*)"((?: \d)*)$', re.MULTILINE)
_TOKEN = re.compile(
    r"""(?P<text>(?:u8|[uUL])?R"(?P<d>[^()\\\s]{0,16})\((?s:.*?)\)(?P=d)"
    |(?:u8|[uUL])?"(?:[^"\\\n]|\\.)*"|(?:u8|[uUL])?'(?:[^'\\\n]|\\.)*'
    |^\#.*$)
    |(?P<num>\.?\d(?:[eEpP][+-]|'[\w.]|[\w.])*)
    |(?P<id>[A-Za-z_]\w*)
    |(?P<gap>\s+)
    |(?P<other>.)""",
    re.VERBOSE | re.MULTILINE,
)
# Words a run of declaration specifiers around `long` may hold besides the type's own
# (`static const unsigned long`, `long const int`).
_TYPE_WORDS = {"long", "unsigned", "signed", "int", "double"}
_AROUND = {"const", "volatile", "static", "constexpr", "inline", "extern", "mutable", "register"}
_AROUND |= {"thread_local", "typedef", "friend", "virtual"}
_INTEGER = re.compile(r"(0[xX][\da-fA-F']+|0[bB][01']+|\d[\d']*)([uU]?)([lL])([uU]?)")


def spells_long(texts: list[str]) -> bool:
    """Whether any of these files spells a `long` type or an `l`-suffixed literal (then the kernel
    is built through `widen`)."""
    return any(_SPELLS.search(re.sub(r"\blong\s+long\b", "", code_view(t))) for t in texts)


def widen(preprocessed: str, own: Callable[[str], bool]) -> str:
    """clang's preprocessed output with the device's `long` in the regions of files `own(path)`
    says are the kernel's (its line markers name each region's file; flag 3 marks a system
    header)."""
    out, at, rewriting = [PRELUDE], 0, False
    for m in _MARKER.finditer(preprocessed):
        region = preprocessed[at : m.start()]
        out.append(_widen_region(region) if rewriting else region)
        out.append(m.group(0))
        at = m.end()
        rewriting = " 3" not in m.group(2) and own(m.group(1))
    region = preprocessed[at:]
    out.append(_widen_region(region) if rewriting else region)
    return "".join(out)


def _widen_region(text: str) -> str:
    tokens = [(m.lastgroup, m.group(0)) for m in _TOKEN.finditer(text)]
    out: list[str] = []
    run: list[int] = []  # indices in `out` of the current run of specifier words
    for kind, tok in tokens:
        if kind == "gap":
            out.append(tok)
            continue
        if kind == "id" and (tok in _TYPE_WORDS or tok in _AROUND):
            run.append(len(out))
            out.append(tok)
            continue
        _settle(out, run)
        run = []
        out.append(_literal(tok) if kind == "num" else tok)
    _settle(out, run)
    return "".join(out)


def _settle(out: list[str], run: list[int]) -> None:
    """A run naming one `long` (not `long long`, not `long double`) gets its
    type words replaced by one 64-bit name, at the first of them."""
    words = [out[i] for i in run]
    if words.count("long") != 1 or "double" in words:
        return
    typed = [i for i in run if out[i] in _TYPE_WORDS]
    name = ULONG if "unsigned" in words else LONG
    out[typed[0]] = name
    for i in typed[1:]:
        out[i] = ""


def _literal(tok: str) -> str:
    """An integer literal with one `l` suffix (`1L`, `2ul`, `0x10LU`) with two; any other token
    (a float's `1.0L`, `1LL`) as it is."""
    m = _INTEGER.fullmatch(tok)
    if m is None:
        return tok
    return f"{m.group(1)}{m.group(2)}{m.group(3) * 2}{m.group(4)}"
