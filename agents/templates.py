"""Template synthesis for real tiling programs: the knobs real tilings have, as `@tune` markers.

Real tiling programs (hicann/ops-math, cann-ops, the competition operators) carry no markers and
derive their numbers from the platform at run time, so marking their integer constants tunes
`BUFFER_NUM` or an index. The knobs they do have, each exposed so that every value of its range
keeps the program valid (the tiling still derives everything else from it):

- cores: every core count the tiling reads from the platform (`ascendcPlatform.GetCoreNumAiv()`,
  wherever the call stands: a declaration, a const, a struct member, an argument) capped by a
  `@tune` constant declared after the includes, a power of two in [1, 64]; the big/small core
  split and the block dim follow from it. The cap starts above every part's core count, so the
  unchanged template is the program itself on every SoC. A small input gains from fewer cores:
  each core's launch head is paid whatever its share (docs/performance_model.md);
- UB budget: the UB size the tiling reads (`GetCoreMemSize(CoreMemType::UB, ubSize)`, also into
  a member or through a pointer) scaled to k/8 of itself, k in 1, 2, 4, 8: smaller tiles, more
  loop trips, more overlap of copy and compute;
- a literal block dim (`SetBlockDim(8)`, `constexpr uint32_t BLOCK_DIM = 8;`), in [1, cores];
- the core split of a Matmul tiling (`cubeTiling.SetDim(2)` on a `MultiCoreMatmulTiling`, the
  Matmul samples' form): the cores the Matmul API splits M and N over, with every literal block
  dim following it in the ratio the program wrote (`SetBlockDim(1)` beside `SetDim(2)`: one AIC
  per two AIVs), so the launch always matches the split. A Matmul tiling's literal block dim is
  no knob by itself: alone it launches blocks the split gives no work, or that overrun it;
- a literal tile size or tile count (`TILE_LENGTH`, `TILE_NUM`, `tileNum = 8`, ...), powers of
  two from a quarter to four times the written value (the loop count follows).

A tiling with none of these (one driven by its own constants alone, as ops-math roll's) gets
markers on its integer `constexpr` constants instead (`template`): a blunter search, some of whose
values the evaluation rejects, but the same for every policy.

Each knob is found in code only (comments and strings blanked, `ascend_core.cpp.code_view`).
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable
from typing import NamedTuple

from ascend_core import tune
from ascend_core.cpp import code_view, indent_at, matching
from ascend_core.soc import aiv_cores, socs
from ascend_gym.rewrites import BLOCK_DIM_ARG

MAX_CORES = max(aiv_cores(s) for s in socs())  # a literal block dim's top
# The cap's top, a power of two above every part's core count: the unchanged template is a
# no-op everywhere, and halving it walks 32, 16, ... 1.
CORE_CAP = 1 << (MAX_CORES - 1).bit_length()
UB_EIGHTHS = 8

# A core count read from the platform: a call of PlatformAscendC's, not its declaration.
_CORE_CALL = re.compile(r"\bGetCoreNum(?:Aiv|Aic)?\s*\(\s*\)(?!\s*(?:const\b|\{))")
# `auto coreNum = ` / `const uint32_t n = `: a declaration whose initialiser follows.
_DECLARED = re.compile(r"[\w:<>]+\s+(?P<var>\w+)\s*=\s*$")
_INCLUDE = re.compile(r"^[ \t]*#\s*include\b.*$", re.M)
_UB_READ = re.compile(  # into a variable, a member or through a pointer (an out parameter)
    r"\bGetCoreMemSize\s*\(\s*(?:platform_ascendc::)?CoreMemType::UB\s*,\s*"
    r"(?P<var>\*?\s*\w+(?:\s*(?:\.|->)\s*\w+)*)\s*\)\s*;"
)
# A literal block dim as a whole statement (the argument pattern is the catalogue's).
_BLOCK_DIM_LITERAL = re.compile(BLOCK_DIM_ARG.pattern + r"\s*;")
# A host Matmul tiling object (matmul_tiling::...), and its literal core split.
_MATMUL_TILING = re.compile(
    r"\b(?:MultiCoreMatmulTiling|BatchMatmulTiling|MatmulApiTiling)\s+(?P<obj>\w+)\s*[({;]"
)
_SET_DIM = r"\b{obj}\s*(?:\.|->)\s*SetDim\s*\(\s*(?P<arg>(?P<num>\d+)[uUlL]*)\s*\)"
_NAMED = (
    r"(?:constexpr|const)\s+(?:static\s+)?[\w:]+\s+(?P<name>{names})\s*=\s*(?P<num>\d+)[uUlL]*\s*;"
)
_DEFINE = r"#\s*define\s+(?P<name>{names})\s+\(?(?P<num>\d+)[uUlL]*\)?[ \t]*$"
_BLOCK_DIM_NAMES = r"BLOCK_DIM|CORE_NUM|USE_CORE_NUM|BLOCK_NUM|NUM_BLOCKS|USED_CORE_NUM"
_TILE_NAMES = (
    r"TILE_NUM|TILE_LENGTH|TILE_LEN|TILE_SIZE|TILE_NUMBER|TILING_NUM|\w*tile(?:Num|Length|Size)"
)


def _marked(line: str) -> bool:
    return "@tune" in line


def _line_end(source: str, pos: int) -> int:
    """Where the line holding `pos` ends (before its newline)."""
    end = source.find("\n", pos)
    return len(source) if end < 0 else end


def _after_read(source: str, read: re.Pattern[str], lines: Callable[[str], list[str]]) -> str:
    """`lines(var)` after the first statement `read` matches (that reads the platform into
    `var`), each on its own line at the statement's indent; `source` itself if none does."""
    m = read.search(code_view(source))
    if m is None:
        return source
    at, indent = _line_end(source, m.end()), indent_at(source, m.end())
    return source[:at] + "".join(f"\n{indent}{line}" for line in lines(m["var"])) + source[at:]


def _operand_start(view: str, at: int) -> int:
    """Where the postfix expression whose member call starts at `at` begins: back over names,
    `.`, `->`, `::`, and a bracketed group that a member access follows (`Platform(ctx).`)."""
    i = at
    while i > 0:
        if view[i - 1].isalnum() or view[i - 1] in "_.:":
            i -= 1
        elif view.startswith("->", i - 2):
            i -= 2
        elif view[i - 1] in ")]" and view.startswith((".", "->"), i):
            i = max(0, matching(view, i - 1))
        else:
            break
    return i


def _dead(view: str, start: int, end: int) -> bool:
    """Whether the read at view[start:end] initialises a variable nothing reads afterwards (a
    vector tiling that also reads the cube core count and never uses it): a cap there tunes
    nothing."""
    decl = _DECLARED.search(view, view.rfind("\n", 0, start) + 1, start)
    return bool(
        decl and re.match(r"\s*;", view[end:]) and not re.search(rf"\b{decl['var']}\b", view[end:])
    )


def _cap_cores(source: str) -> str:
    """Every platform core count the tiling uses wrapped in `TuneCapCores(...)`, which a `@tune`
    constant after the includes bounds; `source` itself if it uses none."""
    view = code_view(source)
    calls = [(_operand_start(view, m.start()), m.end()) for m in _CORE_CALL.finditer(view)]
    calls = [(start, end) for start, end in calls if not _dead(view, start, end)]
    if not calls:
        return source
    for start, end in reversed(calls):
        source = f"{source[:start]}TuneCapCores({source[start:end]}){source[end:]}"
    return _after_includes(
        source,
        f"constexpr uint32_t tuneCoreCap = {CORE_CAP};  // @tune core_cap in [1, {CORE_CAP}] pow2\n"
        "static inline uint32_t TuneCapCores(uint32_t cores)\n"
        "{\n    return cores < tuneCoreCap ? cores : tuneCoreCap;\n}\n",
    )


def _after_includes(source: str, text: str) -> str:
    """`text` inserted after the last `#include` (at the top where there is none)."""
    includes = list(_INCLUDE.finditer(code_view(source)))
    at = includes[-1].end() + 1 if includes else 0
    return source[:at] + text + source[at:]


def _matmul_dim(source: str) -> str:
    """A Matmul tiling's one literal core split `SetDim(n)` and every literal `SetBlockDim(b)`
    as one `@tune` constant d: `SetDim(d)`, `SetBlockDim(d * b / n)`. d steps by the least value
    that keeps every block dim whole, so every value keeps the program's ratio of blocks to the
    split's cores; `source` itself where the tiling has no such pair."""
    view = code_view(source)
    objects = {m["obj"] for m in _MATMUL_TILING.finditer(view)}
    dims = [m for obj in objects for m in re.finditer(_SET_DIM.format(obj=obj), view)]
    blocks = list(BLOCK_DIM_ARG.finditer(view))
    if len(dims) != 1 or not blocks or not 1 <= int(dims[0]["num"]) <= MAX_CORES:
        return source
    n = int(dims[0]["num"])
    step = math.lcm(*(n // math.gcd(n, int(b["num"])) for b in blocks))
    edits = [(dims[0].span("arg"), "tuneMatmulDim")]
    edits += [(b.span("arg"), f"tuneMatmulDim * {b['num']} / {n}") for b in blocks]
    for (start, end), text in sorted(edits, reverse=True):
        source = source[:start] + text + source[end:]
    top = MAX_CORES // step * step
    return _after_includes(
        source,
        f"constexpr uint32_t tuneMatmulDim = {n};  // @tune matmul_dim in [{step}, {top}] step {step}\n",
    )


def _scale_ub(var: str) -> list[str]:
    return [f"{var} = {var} / {UB_EIGHTHS} * {UB_EIGHTHS};  // @tune ub_eighths in [1, 8] pow2"]


def _mark_literals(
    source: str,
    pattern: re.Pattern[str],
    name: str,
    marker: Callable[[int], str | None],
    taken: set[str],
) -> str:
    """A `// @tune` comment at the end of each line `pattern` matches (its `num` the value, named
    `name` or, where that is empty, after the constant), under a name not `taken` yet."""
    view = code_view(source)
    edits = []
    for m in pattern.finditer(view):
        le = _line_end(source, m.end())
        grid = marker(int(m["num"]))
        if grid is None or _marked(source[m.start() : le]) or view[m.end() : le].strip():
            continue  # out of range, marked, or more code on the line (a marker takes its last number)
        base = (name or m["name"]).lower()
        knob = next(k for k in (base, *(f"{base}_{i}" for i in range(2, 99))) if k not in taken)
        taken.add(knob)
        edits.append((le, f"  // @tune {knob} in {grid}"))
    for at, text in reversed(edits):
        source = source[:at] + text + source[at:]
    return source


def _block_dim_range(value: int) -> str | None:
    return f"[1, {MAX_CORES}] step 1" if 1 <= value <= MAX_CORES else None


def _tile_range(value: int) -> str | None:
    if value < 1:
        return None
    if value & (value - 1):
        return f"[{max(1, value // 4)}, {value * 4}] step {max(1, value // 4)}"
    return f"[{max(1, value // 4)}, {value * 4}] pow2"


def synthesise(tiling: str) -> str | None:
    """The tiling program with its real knobs marked, or None when it has markers already or no
    knob is recognised."""
    if tune.find_tunables(tiling):
        return None
    matmul = bool(_MATMUL_TILING.search(code_view(tiling)))
    source = _cap_cores(_matmul_dim(tiling))
    source = _after_read(source, _UB_READ, _scale_ub)
    named, defined = _NAMED.format, _DEFINE.format
    literal = [  # (pattern, knob name or "" for the constant's own, range)
        *([] if matmul else [(_BLOCK_DIM_LITERAL, "block_dim", _block_dim_range)]),
        (re.compile(named(names=_BLOCK_DIM_NAMES)), "", _block_dim_range),
        (re.compile(defined(names=_BLOCK_DIM_NAMES), re.M), "", _block_dim_range),
        (re.compile(named(names=_TILE_NAMES)), "", _tile_range),
        (re.compile(defined(names=_TILE_NAMES), re.M), "", _tile_range),
    ]
    taken: set[str] = {"core_cap", "ub_eighths", "matmul_dim"}
    for pattern, name, marker in literal:
        source = _mark_literals(source, pattern, name, marker, taken)
    try:
        tunables = tune.find_tunables(source)
    except ValueError:
        return None
    return source if tunables else None


_CONSTANT = re.compile(
    r"^(?P<line>[ \t]*(?:static\s+)?constexpr\s+(?:u?int\d+_t|int|unsigned|size_t)\s+(?P<name>\w+)"
    r"\s*=\s*(?P<value>\d+)[uUlL]*\s*;)(?P<comment>[ \t]*//[^\n]*)?$",
    re.MULTILINE,
)


def mark_constants(tiling: str) -> str | None:
    """The tiling program with `@tune` markers on its integer `constexpr` constants (powers of two
    from a sixteenth to four times a power-of-two value of 8 or more, else steps of an eighth
    around the value), or None when it has markers already or no such constant."""
    if tune.find_tunables(tiling):
        return None

    def mark(m: re.Match) -> str:
        value = int(m["value"])
        if value < 1 or (m["comment"] and "@tune" in m["comment"]):
            return m.group(0)
        if value & (value - 1) == 0 and value >= 8:
            marker = f"@tune {m['name'].lower()} in [{max(1, value // 16)}, {value * 4}] pow2"
        else:
            step = max(1, value // 8)
            lo, hi = max(1, value - 4 * step), value + 8 * step
            marker = f"@tune {m['name'].lower()} in [{lo}, {hi}] step {step}"
        was = f" (was:{m['comment'].strip()[2:]})" if m["comment"] else ""
        return f"{m['line']}  // {marker}{was}"

    new = _CONSTANT.sub(mark, tiling)
    return new if new != tiling and tune.find_tunables(new) else None


class Template(NamedTuple):
    tiling: str
    of: str  # what carries the markers: "knobs" or "integer constants"


@functools.lru_cache(maxsize=256)
def template(tiling: str) -> Template | None:
    """The evolvable template of an unmarked tiling program: its real knobs (`synthesise`), else
    its integer constants (`mark_constants`); None when it has markers already or neither.
    Cached: a search asks for the template of the same few tiling programs at every draw."""
    if knobs := synthesise(tiling):
        return Template(knobs, "knobs")
    constants = mark_constants(tiling)
    return None if constants is None else Template(constants, "integer constants")
