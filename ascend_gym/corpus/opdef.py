"""An operator's arguments as its OpDef declares them, for `corpus compile`: a spec that builds the
operator where we have no spec of ours. It judges nothing past the build: it has no reference (the
daemon is asked to compile only), and its one case only chooses the DTYPE_<ARG> macros, the first
type combination the OpDef lists whose every type the simulator has."""

from __future__ import annotations

import re

from ascend_core.package import ArgSpec, AttrSpec, Case, OperatorSpec
from ascend_gym.corpus import GE_NAMES

# `this->Input("x")...;`: the statement declaring one argument or attr, its calls in `chain`.
_DECL = re.compile(r"\bthis->(Input|Output|Attr)\(\s*\"(\w+)\"\s*\)(?P<chain>[^;]*);", re.S)
_CALL = re.compile(r"\.(\w+)\(")
_DT = re.compile(r"\bDT_\w+")
_ATTR_TYPES = {
    "Int": ("int", 0),
    "Float": ("float", 0.0),
    "Bool": ("bool", False),
    "String": ("str", ""),
    "ListInt": ("list_int", []),
    "ListFloat": ("list_float", []),
    "ListBool": ("list_bool", []),
}
SHAPE = [32, 64]  # every argument's: a build reads no shape
REFERENCE = "reference:none"  # never called: the spec serves the compile stage alone


def _args(chain: str, call: str) -> str | None:
    """The text between the parentheses of the chain's first `.call(...)`."""
    for m in _CALL.finditer(chain):
        if m.group(1) != call:
            continue
        depth, start = 1, m.end()
        for i in range(start, len(chain)):
            depth += {"(": 1, ")": -1}.get(chain[i], 0)
            if depth == 0:
                return chain[start:i]
    return None


def _type_list(text: str, host_text: str) -> list[str]:
    """A DataType list: spelled in place, or the variable it names defined in the host sources."""
    if "{" not in text and (name := text.strip()).isidentifier():
        m = re.search(rf"\b{name}\s*(?:=\s*)?[({{]\s*\{{?([^;]*?)\}}", host_text)
        text = m.group(1) if m else ""
    return [GE_NAMES.get(t, "") for t in _DT.findall(text)]


def _attr_default(chain: str) -> tuple[str, object] | None:
    for call, (kind, empty) in _ATTR_TYPES.items():
        text = _args(chain, call)
        if text is None:
            continue
        text = text.strip()
        if not text:
            return kind, empty
        if kind == "str":
            return kind, text.strip('"')
        if kind.startswith("list"):
            items = [t for t in re.split(r"[{},\s]+", text) if t]
            return kind, [_scalar(kind.removeprefix("list_"), t) for t in items]
        return kind, _scalar(kind, text)
    return None


def _scalar(kind: str, text: str) -> object:
    text = text.removesuffix("f").removesuffix("F")
    try:
        if kind == "bool":
            return text == "true"
        return float(text) if kind == "float" else int(float(text))
    except ValueError:  # a constant's name: its value is the tiling's business
        return 0.0 if kind == "float" else 0


def opdef_spec(op: str, host_text: str) -> OperatorSpec | None:
    """The compile-only spec of the OpDef in `host_text`; None where it declares no argument or no
    type combination the simulator has."""
    ins: list[tuple[str, list[str], bool]] = []
    outs: list[tuple[str, list[str], bool]] = []
    attrs: list[AttrSpec] = []
    for m in _DECL.finditer(host_text):
        kind, name, chain = m.group(1), m.group(2), m.group("chain")
        if kind == "Attr":
            if (found := _attr_default(chain)) and name not in {a.name for a in attrs}:
                attrs.append(AttrSpec(name=name, type=found[0], default=found[1]))
            continue
        types = next(
            (
                _type_list(t, host_text)
                for c in ("DataType", "DataTypeList")
                if (t := _args(chain, c))
            ),
            [],
        )
        dynamic = "DYNAMIC" in (_args(chain, "ParamType") or "")
        group = ins if kind == "Input" else outs
        if name not in {n for n, _, _ in group}:
            group.append((name, types, dynamic))
    if not ins and not outs:
        return None
    width = max((len(t) for _, t, _ in ins + outs), default=0)
    column = next(
        (
            j
            for j in range(width)
            if all(t and (t[j] if j < len(t) else t[0]) for _, t, _ in ins + outs)
        ),
        None,
    )
    if column is None:
        return None

    def members(
        group: list[tuple[str, list[str], bool]], taken: set[str]
    ) -> list[tuple[ArgSpec, str]]:
        out = []
        for name, types, dynamic in group:
            dtype = types[column] if column < len(types) else types[0]
            if name in taken and not dynamic:  # a ref op's output: `<name>_ref`, as the toolchain
                name = f"{name}_ref"  # names its kernel parameter (and corpus.rename_args)
            for member in [f"{name}0", f"{name}1"] if dynamic else [name]:
                arg = ArgSpec(name=member, dtypes=[dtype], dynamic=name if dynamic else "")
                out.append((arg, dtype))
        return out

    inputs = members(ins, set())
    outputs = members(outs, {name for name, _, _ in ins})
    both = inputs + outputs
    case = Case(
        name="compile",
        dtype=both[0][1],
        dtypes={a.name: d for a, d in both},
        shapes={a.name: SHAPE for a, _ in both},
        attrs={a.name: a.default for a in attrs},
        bench=True,
    )
    return OperatorSpec(
        name=op,
        description="the arguments its OpDef declares (corpus compile)",
        inputs=[a for a, _ in inputs],
        outputs=[a for a, _ in outputs],
        attrs=attrs,
        reference=REFERENCE,
        cases=[case],
    )
