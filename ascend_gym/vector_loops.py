"""Scalar element loops as vector instructions (the rewrite `scalar_loops_to_vector`).

Real kernels copy, convert and combine UB tensors element by element on the scalar unit
(`for (i = 0; i < n; ++i) y.SetValue(i, x.GetValue(i));`), each element a scalar load and store.
Where the loop is exactly that, one tensor element per index and the same index everywhere, the
vector unit does it in one instruction:

- `d[i] = s[i]` (through `static_cast<D>` or a local of the element's own type): same element
  types -> `Muls(d, s, 1, n)`, an exact copy of half, float, int16_t and int32_t; float from half,
  bfloat16_t or int32_t, and half from float -> `Cast(d, s, CAST_NONE, n)`, which rounds to nearest
  even as the scalar conversion does;
- `d[i] = a[i] + b[i]` (also `-`, `*`), all one element type of those four -> Add, Sub, Mul.

The element types are the tensors' declared ones, often a kernel's template parameter, so the
choice is made by the compiler: the loop becomes `if (!AscendGymVectorCopy(d, s, n)) { loop }`,
and for any other element types the helper does nothing and the loop runs as written. The helper
waits for the scalar unit's pending writes before the instruction (S -> V) and makes the scalar
code after it wait for the result (V -> S). Tensors must be LocalTensors; anything else in the
loop body, another index, or a local of another type leaves the loop alone.
"""

from __future__ import annotations

import re

from ascend_core.cpp import code_view, enclosing_brace, indent_at, is_function_body, matching

GUARD = "ASCEND_GYM_VECTOR_LOOPS"
HELPERS = f"""
#ifndef {GUARD}
#define {GUARD}
#include <type_traits>
// scalar_loops_to_vector: an element-wise scalar loop as one vector instruction where the API has
// one for these element types; false (the loop then runs as written) where it has none.
template <typename T>
constexpr bool kAscendGymVectorArith = std::is_same_v<T, half> || std::is_same_v<T, float> ||
                                       std::is_same_v<T, int16_t> || std::is_same_v<T, int32_t>;
template <typename D, typename S>
constexpr bool kAscendGymVectorCast =
    (std::is_same_v<D, float> &&
     (std::is_same_v<S, half> || std::is_same_v<S, bfloat16_t> || std::is_same_v<S, int32_t>)) ||
    (std::is_same_v<D, half> && std::is_same_v<S, float>);
template <AscendC::HardEvent E>
__aicore__ inline void AscendGymVectorWait() {{
  const event_t id = static_cast<event_t>(AscendC::GetTPipePtr()->FetchEventID(E));
  AscendC::SetFlag<E>(id);
  AscendC::WaitFlag<E>(id);
}}
template <typename D, typename S>
__aicore__ inline bool AscendGymVectorCopy(const AscendC::LocalTensor<D>& d,
                                           const AscendC::LocalTensor<S>& s, int32_t n) {{
  if constexpr ((std::is_same_v<D, S> && kAscendGymVectorArith<D>) || kAscendGymVectorCast<D, S>) {{
    if (n > 0) {{
      AscendGymVectorWait<AscendC::HardEvent::S_V>();
      if constexpr (std::is_same_v<D, S>) {{
        AscendC::Muls(d, s, static_cast<D>(1), n);
      }} else {{
        AscendC::Cast(d, s, AscendC::RoundMode::CAST_NONE, n);
      }}
      AscendGymVectorWait<AscendC::HardEvent::V_S>();
    }}
    return true;
  }}
  return false;
}}
template <char Op, typename D, typename A, typename B>
__aicore__ inline bool AscendGymVectorBinary(const AscendC::LocalTensor<D>& d,
                                             const AscendC::LocalTensor<A>& a,
                                             const AscendC::LocalTensor<B>& b, int32_t n) {{
  if constexpr (std::is_same_v<D, A> && std::is_same_v<D, B> && kAscendGymVectorArith<D>) {{
    if (n > 0) {{
      AscendGymVectorWait<AscendC::HardEvent::S_V>();
      if constexpr (Op == '+') {{
        AscendC::Add(d, a, b, n);
      }} else if constexpr (Op == '-') {{
        AscendC::Sub(d, a, b, n);
      }} else {{
        AscendC::Mul(d, a, b, n);
      }}
      AscendGymVectorWait<AscendC::HardEvent::V_S>();
    }}
    return true;
  }}
  return false;
}}
#endif  // {GUARD}
"""

_FOR = re.compile(
    r"\bfor\s*\(\s*(?:[\w:]+\s+)?(?P<i>\w+)\s*=\s*0[uU]?\s*;\s*(?P=i)\s*<\s*(?P<n>[^;]+?)\s*;\s*"
    r"(?:\+\+\s*(?P=i)|(?P=i)\s*\+\+|(?P=i)\s*\+=\s*1)\s*\)\s*\{"
)
_GET = r"(?:this->)?(?P<{0}>\w+)\s*\.\s*GetValue\s*\(\s*{1}\s*\)"
_LOCAL_DECL = r"(?:const\s+)?(?P<type>[\w:]+)\s+(?P<var>\w+)\s*=\s*" + _GET.format("src", "{i}")
_SET = r"(?:this->)?(?P<dst>\w+)\s*\.\s*SetValue\s*\(\s*{i}\s*,\s*(?P<expr>.+)\)"
_CAST = re.compile(
    r"^(?:static_cast\s*<\s*(?P<a>[\w:]+)\s*>\s*\((?P<x>.+)\)|\((?P<b>[\w:]+)\)\s*(?P<y>.+))$"
)
_BINARY = re.compile(r"^(?P<l>[^-+*]+?)\s*(?P<op>[-+*])\s*(?P<r>[^-+*]+)$")
_INCLUDE_OR_ONCE = re.compile(r"^[ \t]*#\s*(?:include\b|pragma\s+once\b)[^\n]*\n", re.M)
_GUARDED = re.compile(r"AscendGymVector\w*\s*(?:<[^;{}]*>)?\([^;{}]*\)\)\s*\{\s*$")


def element_types(view: str) -> dict[str, str]:
    """Each LocalTensor name declared in `view` with one element type throughout (a declaration,
    a parameter, or `auto x = ....Get<T>()`, `AllocTensor<T>()`, `DeQue<..., T>()`); the loop's
    own function is read alone, since helpers reuse names for tensors of other types."""
    seen: dict[str, set[str]] = {}
    for m in re.finditer(r"\bLocalTensor\s*<\s*([\w:]+)\s*>\s*&?\s*(\w+)", view):
        seen.setdefault(m[2], set()).add(m[1])
    fetch = r"\bauto\s*&?\s*(\w+)\s*=\s*[^;]*?\.\s*(?:template\s+)?(?:Get|AllocTensor|DeQue)\s*<([^;]*?)>\s*\(\s*\)"
    for m in re.finditer(fetch, view):
        seen.setdefault(m[1], set()).add(m[2].split(",")[-1].strip())
    for m in re.finditer(r"\bGlobalTensor\s*<[^;>]*>\s*&?\s*(\w+)", view):
        seen.setdefault(m[1], set()).add("GM")  # a name a GM tensor also has is no UB tensor
    return {name: next(iter(types)) for name, types in seen.items() if len(types) == 1}


def _function_start(view: str, pos: int) -> int:
    """Where the head of the function holding `pos` starts (its parameters included), or 0."""
    brace = enclosing_brace(view, pos)
    while brace >= 0 and not is_function_body(view, brace):
        brace = enclosing_brace(view, brace)
    if brace < 0:
        return 0
    return max(view.rfind(c, 0, brace) for c in ";{}") + 1  # past the statement before it


def _operand(expr: str, i: str, locals_: dict[str, str]) -> str | None:
    """The tensor an operand reads at index `i` (a local bound to one, or `t.GetValue(i)`)."""
    expr = expr.strip()
    if expr in locals_:
        return locals_[expr]
    m = re.fullmatch(_GET.format("t", re.escape(i)), expr)
    return m["t"] if m else None


def _call(body: str, i: str, n: str, types: dict[str, str]) -> str | None:
    """The helper call that does what the loop body does, or None when the body is not one of the
    element-wise forms over LocalTensors."""
    statements = [s.strip() for s in body.split(";")]
    if statements[-1] or len(statements) < 2:
        return None  # the body ends with `;` and holds at least the store
    *decls, store, _ = statements
    locals_: dict[str, str] = {}
    for decl in decls:
        m = re.fullmatch(_LOCAL_DECL.format(i=re.escape(i)), decl, re.S)
        if (
            m is None
            or types.get(m["src"], "GM") == "GM"
            or m["type"] not in ("auto", types[m["src"]])
        ):
            return None  # not a load, or a load into a local of another type (a conversion)
        locals_[m["var"]] = m["src"]
    m = re.fullmatch(_SET.format(i=re.escape(i)), store, re.S)
    if m is None or types.get(m["dst"], "GM") == "GM":
        return None
    dst, expr = m["dst"], m["expr"].strip()
    if cast := _CAST.match(expr):
        if (cast["a"] or cast["b"]) != types[dst]:
            return None  # a conversion to another type than the destination's
        expr = cast["x"] or cast["y"]
    count = f"static_cast<int32_t>({n})"

    def ub(tensor: str | None) -> bool:
        return tensor is not None and types.get(tensor, "GM") != "GM"

    if ub(src := _operand(expr, i, locals_)):
        return f"AscendGymVectorCopy({dst}, {src}, {count})"
    if binary := _BINARY.match(expr):
        left, right = _operand(binary["l"], i, locals_), _operand(binary["r"], i, locals_)
        if ub(left) and ub(right):
            return f"AscendGymVectorBinary<'{binary['op']}'>({dst}, {left}, {right}, {count})"
    return None


def rewrite(source: str) -> str | None:
    """`source` with each element-wise scalar loop over LocalTensors guarded by its vector form,
    and the helpers defined once; None when no loop is one."""
    view = code_view(source)
    members = element_types(view)  # a class's tensors; a function's own declarations come first
    edits = []
    for m in _FOR.finditer(view):
        close = matching(view, m.end() - 1)
        body = view[m.end() : close]
        if close < 0 or "{" in body or _GUARDED.search(view[: m.start()]):
            continue
        types = members | element_types(view[_function_start(view, m.start()) : m.start()])
        call = _call(body, m["i"], m["n"].strip(), types)
        if call is None:
            continue
        indent = indent_at(source, m.start())
        loop = source[m.start() : close + 1].replace("\n", "\n  ")
        edits.append((m.start(), close + 1, f"if (!{call}) {{\n{indent}  {loop}\n{indent}}}"))
    if not edits:
        return None
    for start, end, text in reversed(edits):
        source = source[:start] + text + source[end:]
    if GUARD in source:
        return source
    heads = list(_INCLUDE_OR_ONCE.finditer(code_view(source)))
    at = heads[-1].end() if heads else 0
    return source[:at] + HELPERS.lstrip("\n") + source[at:]
