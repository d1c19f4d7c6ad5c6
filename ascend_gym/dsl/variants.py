"""One operator for a task whose cases trace to different programs (a `reduction`, a `dim` or a
mode that differs by case): each program lowered on its own cases, joined under AscendC's tiling
keys.

The host reads what tells the programs apart (an attribute, whether an optional input is given,
whether an input holds one element), picks the program's key
(`SetTilingKey`) and runs that program's tiling into its own TilingData (registered as
`Op_<key>`); the kernel entry branches on `TILING_KEY_IS(key)` into that program's kernel class,
each program's device code in a namespace of its own. Nothing runs but the lowered programs: the
branch is the one a hand-written AscendC operator takes for a mode attribute.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ascend_core.package import AttrSpec, Case, OperatorPackage, OperatorSpec
from ascend_gym.dsl.spec_toml import spec_toml
from ascend_gym.dsl.trace import Unsupported

# The attribute types a host compares to pick a program (floats are the kernel's own values).
KEY_TYPES = ("int", "bool", "str")
_REGISTRATION = re.compile(r"REGISTER_TILING_DATA_CLASS\(\s*(\w+)\s*,\s*(\w+)\s*\)")
_TILING_FUNC = "static ge::graphStatus TilingFunc(gert::TilingContext* context) {"
_ENTRY = 'extern "C" __global__ __aicore__ void '


@dataclass(frozen=True)
class Key:
    """What the host reads of a case to pick its program: an attribute's value (`attr`),
    whether an optional input is given (`present`), or whether an input holds one element
    (`single`: the templates read such an operand as a scalar)."""

    kind: Literal["attr", "present", "single"]
    name: str
    attr: AttrSpec | None = None

    def value(self, spec: OperatorSpec, case: Case) -> Any:
        if self.attr is not None:
            return case.attrs.get(self.name, self.attr.default)
        if self.kind == "present":
            return self.name not in case.absent
        return self.name not in case.absent and math.prod(spec.arg_shape(case, self.name)) == 1


def program_keys(spec: OperatorSpec, program_of: dict[str, int]) -> list[Key]:
    """The fewest keys whose values in a case fix its program (attributes first)."""
    keys = [Key("attr", a.name, a) for a in spec.attrs if a.type in KEY_TYPES]
    keys += [Key("present", a.name) for a in spec.inputs]
    keys += [Key("single", a.name) for a in spec.inputs]
    keys = [k for k in keys if len({repr(k.value(spec, c)) for c in spec.cases}) > 1]
    for n in range(1, len(keys) + 1):
        for chosen in itertools.combinations(keys, n):
            seen: dict[tuple, int] = {}
            if all(
                seen.setdefault(values(spec, c, chosen), program_of[c.name]) == program_of[c.name]
                for c in spec.cases
            ):
                return list(chosen)
    raise Unsupported(
        f"the cases give {len(set(program_of.values()))} different programs, and no attribute, "
        "optional input or one-element input tells them apart (their shapes or dtypes do)"
    )


def program_for(
    spec: OperatorSpec, case: Case, keys: Sequence[Key], program_of: dict[str, int]
) -> int:
    """The program of the traced cases whose keys' values the case shares (its host picks it)."""
    mine = values(spec, case, keys)
    for c in spec.cases:
        if c.name in program_of and values(spec, c, keys) == mine:
            return program_of[c.name]
    raise Unsupported(f"case {case.name} is not traced and its keys pick no traced case's program")


def values(spec: OperatorSpec, case: Case, keys: Sequence[Key]) -> tuple:
    return tuple(k.value(spec, case) for k in keys)


def sub_spec(spec: OperatorSpec, names: set[str]) -> OperatorSpec:
    """The spec with only the named cases (its largest the bench case); tensors keep every dtype
    of the task, so each program's OpDef and kernel types are the joined operator's."""
    cases = [c for c in spec.cases if c.name in names]
    bench = next((c for c in cases if c.bench), None) or max(
        cases, key=lambda c: sum(math.prod(s) for s in c.shapes.values())
    )
    cases = [c.model_copy(update={"bench": c is bench}) for c in cases]
    return spec.model_copy(update={"cases": cases})


def join(
    spec: OperatorSpec, parts: list[OperatorPackage], keys: list[Key], when: list[set[tuple]]
) -> OperatorPackage:
    """Program i's package `parts[i]` as tiling key i + 1, chosen when the keys' values are one
    of `when[i]`."""
    name = spec.name
    heads = [_struct(p.files[f"op_host/{name}_tiling.h"]) for p in parts]
    kernels = [_kernel_parts(p.files[f"op_kernel/{name}.cpp"]) for p in parts]
    if len({(k[0], k[2], *_task_type(k[3])) for k in kernels}) != 1:
        raise Unsupported(
            "the cases' programs need kernels of different kinds (a launch has one kernel type)"
        )
    files = {
        f"op_host/{name}_tiling.h": _tiling_header(spec, heads),
        f"op_host/{name}.cpp": _host(spec, parts, heads, keys, when),
        f"op_kernel/{name}.cpp": _kernel(kernels),
        "op.toml": spec_toml(spec),
    }
    return OperatorPackage(spec=spec, files=files, uri=f"generated:{name}")


def _struct(header: str) -> tuple[str, list[str], str]:
    """A lowered tiling header's includes, its struct's definition lines and the struct's name."""
    lines = header.splitlines()
    includes = [ln for ln in lines if ln.startswith("#include")]
    begin = next(i for i, ln in enumerate(lines) if ln.startswith("BEGIN_TILING_DATA_DEF("))
    end = next(i for i, ln in enumerate(lines) if ln.startswith("END_TILING_DATA_DEF"))
    struct = _REGISTRATION.search(header)
    assert struct is not None, "a lowered tiling header registers its TilingData"
    return "\n".join(includes), lines[begin : end + 1], struct.group(2)


def _tiling_header(spec: OperatorSpec, heads: list[tuple[str, list[str], str]]) -> str:
    guard = f"{spec.name.upper()}_TILING_H"
    includes = list(dict.fromkeys(ln for inc, _, _ in heads for ln in inc.splitlines()))
    body: list[str] = []
    for key, (_, lines, struct) in enumerate(heads, 1):
        renamed = [re.sub(rf"\b{struct}\b", f"{struct}{key}", ln) for ln in lines]
        body += [*renamed, f"REGISTER_TILING_DATA_CLASS({spec.op_type}_{key}, {struct}{key})", ""]
    first = f"{heads[0][2]}1"
    return "\n".join(
        [
            f"#ifndef {guard}",
            f"#define {guard}",
            "",
            *includes,
            "",
            "namespace optiling {",
            "// One TilingData per program, registered for its tiling key; the first is the default.",
            *body,
            f"REGISTER_TILING_DATA_CLASS({spec.op_type}, {first})",
            "}  // namespace optiling",
            "",
            f"#endif  // {guard}",
            "",
        ]
    )


def _host(
    spec: OperatorSpec,
    parts: list[OperatorPackage],
    heads: list[tuple[str, list[str], str]],
    keys: list[Key],
    when: list[set[tuple]],
) -> str:
    includes: list[str] = []
    programs: list[str] = []
    opdefs: list[list[str]] = []
    for key, (part, (_, _, struct)) in enumerate(zip(parts, heads), 1):
        text = part.files[f"op_host/{spec.name}.cpp"]
        head, rest = text.split("namespace optiling {\n", 1)
        body, opdef = rest.split("}  // namespace optiling\n", 1)
        includes += [ln for ln in head.splitlines() if ln.startswith("#include")]
        body = re.sub(rf"\b{struct}\b", f"{struct}{key}", body)
        body = body.replace(_TILING_FUNC, f"{_TILING_FUNC}\n  context->SetTilingKey({key});", 1)
        programs += [f"namespace v{key} {{", body.strip("\n"), f"}}  // namespace v{key}", ""]
        opdefs.append(opdef.splitlines())
    return "\n".join(
        [
            *dict.fromkeys(includes),
            "#include <cstring>",
            "",
            "namespace optiling {",
            "",
            *programs,
            *_dispatch(spec, keys, when),
            "",
            "}  // namespace optiling",
            *_opdef(spec, opdefs, keys),
        ]
    )


def _dispatch(spec: OperatorSpec, keys: list[Key], when: list[set[tuple]]) -> list[str]:
    """The tiling function: the keys read (a null attribute keeps the spec's default) and the
    program whose cases had those values run; other values fail the tiling."""
    names = ", ".join(f"`{k.name}`" if k.attr else f"whether `{k.name}` is {k.kind}" for k in keys)
    out = [
        f"// The cases' programs differ by {names}: the host picks the program's tiling key.",
        "static ge::graphStatus TilingFunc(gert::TilingContext* context) {",
    ]
    for k in keys:
        out += _read(spec, k)
    for key, seen in enumerate(when, 1):
        cond = " || ".join(
            "(" + " && ".join(_equals(k, x) for k, x in zip(keys, vals)) + ")"
            for vals in sorted(seen, key=repr)
        )
        out.append(f"  if ({cond}) return v{key}::TilingFunc(context);")
    return [*out, "  return ge::GRAPH_FAILED;  // values none of the cases had", "}"]


def _var(k: Key) -> str:
    return f"{k.name}{k.kind.capitalize()}"


def _read(spec: OperatorSpec, k: Key) -> list[str]:
    """Host lines reading a key into `_var(k)`."""
    v = _var(k)
    if k.attr is None:
        i = [a.name for a in spec.inputs].index(k.name)
        given = f"context->GetInputShape({i}) != nullptr"
        if k.kind == "present":
            return [f"  const bool {v} = {given};"]
        size = f"context->GetInputShape({i})->GetStorageShape().GetShapeSize()"
        return [f"  const bool {v} = {given} && {size} == 1;"]
    index = [a.name for a in spec.attrs].index(k.name)
    if k.attr.type == "str":
        return [
            f"  const char* {v} = context->GetAttrs()->GetStr({index});",
            f"  if ({v} == nullptr) {v} = {_c_literal(k.attr.default, 'str')};",
        ]
    ctype, get = ("int64_t", "GetInt") if k.attr.type == "int" else ("bool", "GetBool")
    default = _c_literal(k.attr.default, k.attr.type)
    return [
        f"  const {ctype}* {v}Ptr = context->GetAttrs()->{get}({index});",
        f"  const {ctype} {v} = {v}Ptr == nullptr ? {default} : *{v}Ptr;",
    ]


def _equals(k: Key, value: Any) -> str:
    kind = k.attr.type if k.attr else "bool"
    if kind == "str":
        return f"std::strcmp({_var(k)}, {_c_literal(value, 'str')}) == 0"
    return f"{_var(k)} == {_c_literal(value, kind)}"


def _c_literal(value: Any, kind: str) -> str:
    if kind == "str":
        text = str(value).replace("\\", "\\\\").replace('"', '\\"')
        return f'"{text}"'
    if kind == "bool":
        return "true" if value else "false"
    return f"{int(value)}LL" if kind == "int" else str(value)


def _opdef(spec: OperatorSpec, opdefs: list[list[str]], keys: list[Key]) -> list[str]:
    """The first program's OpDef, with a tensor OPTIONAL where any program's is, and the
    attributes that key programs declared beside the programs' own, in the spec's order (their
    indices)."""
    optional = {
        m.group(1)
        for lines in opdefs
        for ln in lines
        if (m := re.search(r'(?:Input|Output)\("(\w+)"\)\.ParamType\(OPTIONAL\)', ln))
    }
    attr_lines = {
        m.group(1): ln
        for lines in opdefs
        for ln in lines
        if (m := re.search(r'this->Attr\("(\w+)"\)', ln))
    }
    kind = {"str": "String", "int": "Int", "bool": "Bool"}
    for a in (k.attr for k in keys if k.attr is not None):
        attr_lines.setdefault(
            a.name,
            f'    this->Attr("{a.name}").AttrType(OPTIONAL).{kind[a.type]}'
            f"({_c_literal(a.default, a.type).removesuffix('LL')});",
        )
    out: list[str] = []
    for ln in opdefs[0]:
        if "this->Attr(" in ln:
            continue
        m = re.search(r'(?:Input|Output)\("(\w+)"\)', ln)
        if m and m.group(1) in optional:
            ln = ln.replace("ParamType(REQUIRED)", "ParamType(OPTIONAL)")
        if "this->AICore().SetTiling" in ln:
            out += [attr_lines[a.name] for a in spec.attrs if a.name in attr_lines]
        out.append(ln)
    return out


def _kernel_parts(text: str) -> tuple[str, str, str, list[str]]:
    """A lowered kernel file as its prelude (the includes and defines before its first code,
    comments aside), its device code, its entry's signature and the entry's body lines."""
    lines = text.splitlines()
    prelude: list[int] = []
    for i, ln in enumerate(lines):
        if ln.startswith(("#include", "#define", "using namespace AscendC")):
            prelude.append(i)
        elif ln.strip() and not ln.startswith("//"):
            break
    entry = next(i for i, ln in enumerate(lines) if ln.startswith(_ENTRY))
    close = max(i for i, ln in enumerate(lines) if ln == "}")
    device = [ln for i, ln in enumerate(lines[:entry]) if i not in prelude]
    return (
        "\n".join(lines[i] for i in prelude),
        "\n".join(device).strip("\n"),
        lines[entry],
        lines[entry + 1 : close],
    )


def _task_type(body: list[str]) -> list[str]:
    return [ln for ln in body if "KERNEL_TASK_TYPE_DEFAULT" in ln]


def _kernel(kernels: list[tuple[str, str, str, list[str]]]) -> str:
    prelude, _, signature, body = kernels[0]
    task_type = _task_type(body)
    out = [prelude, ""]
    for key, (_, device, _, _) in enumerate(kernels, 1):
        out += [f"namespace v{key} {{", "", device, "", f"}}  // namespace v{key}", ""]
    out += [signature, *task_type]
    for key, (_, _, _, body) in enumerate(kernels, 1):
        branch = "if" if key == 1 else "} else if"
        out += [f"  {branch} (TILING_KEY_IS({key})) {{", f"    using namespace v{key};"]
        out += [f"  {ln}" for ln in body if "KERNEL_TASK_TYPE_DEFAULT" not in ln]
    return "\n".join([*out, "  }", "}", ""])
