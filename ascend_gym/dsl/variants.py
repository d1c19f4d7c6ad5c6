"""One operator for a task whose cases trace to different programs (a `reduction`, a `dim` or a
mode that differs by case): each program lowered on its own cases, joined under AscendC's tiling
keys.

The host reads the attributes that tell the programs apart, picks the program's key
(`SetTilingKey`) and runs that program's tiling into its own TilingData (registered as
`Op_<key>`); the kernel entry branches on `TILING_KEY_IS(key)` into that program's kernel class,
each program's device code in a namespace of its own. Nothing runs but the lowered programs: the
branch is the one a hand-written AscendC operator takes for a mode attribute.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from typing import Any

from ascend_core.package import AttrSpec, Case, OperatorPackage, OperatorSpec
from ascend_gym.dsl.spec_toml import spec_toml
from ascend_gym.dsl.trace import Unsupported

# The attribute types a host compares to pick a program (floats are the kernel's own values).
KEY_TYPES = ("int", "bool", "str")
_REGISTRATION = re.compile(r"REGISTER_TILING_DATA_CLASS\(\s*(\w+)\s*,\s*(\w+)\s*\)")
_TILING_FUNC = "static ge::graphStatus TilingFunc(gert::TilingContext* context) {"
_ENTRY = 'extern "C" __global__ __aicore__ void '


def key_attrs(spec: OperatorSpec, program_of: dict[str, int]) -> list[AttrSpec]:
    """The fewest int, bool and str attributes whose values in a case fix its program."""
    named = [a for a in spec.attrs if a.type in KEY_TYPES]
    for n in range(1, len(named) + 1):
        for attrs in itertools.combinations(named, n):
            seen: dict[tuple, int] = {}
            if all(
                seen.setdefault(values(c, attrs), program_of[c.name]) == program_of[c.name]
                for c in spec.cases
            ):
                return list(attrs)
    raise Unsupported(
        f"the cases give {len(set(program_of.values()))} different programs, and no attribute "
        "tells them apart (their shapes or dtypes do)"
    )


def values(case: Case, attrs: Sequence[AttrSpec]) -> tuple:
    return tuple(case.attrs.get(a.name, a.default) for a in attrs)


def sub_spec(spec: OperatorSpec, names: set[str]) -> OperatorSpec:
    """The spec with only the named cases (its largest the bench case); tensors keep every dtype
    of the task, so each program's OpDef and kernel types are the joined operator's."""
    cases = [c for c in spec.cases if c.name in names]
    bench = next((c for c in cases if c.bench), None) or max(
        cases, key=lambda c: sum(_size(s) for s in c.shapes.values())
    )
    cases = [c.model_copy(update={"bench": c is bench}) for c in cases]
    return spec.model_copy(update={"cases": cases})


def _size(shape: list[int]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


def join(
    spec: OperatorSpec, parts: list[OperatorPackage], keys: list[AttrSpec], when: list[set[tuple]]
) -> OperatorPackage:
    """Program i's package `parts[i]` as tiling key i + 1, chosen when the key attributes' values
    are one of `when[i]`."""
    name = spec.name
    heads = [_struct(p.files[f"op_host/{name}_tiling.h"]) for p in parts]
    kernels = [_kernel_parts(p.files[f"op_kernel/{name}.cpp"]) for p in parts]
    if len({(k[0], k[2], *_task_type(k[3])) for k in kernels}) != 1:
        raise Unsupported(
            "the cases' programs need kernels of different kinds (a launch has one kernel type)"
        )
    files = {
        f"op_host/{name}_tiling.h": _tiling_header(spec, parts, heads),
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


def _tiling_header(
    spec: OperatorSpec, parts: list[OperatorPackage], heads: list[tuple[str, list[str], str]]
) -> str:
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
    keys: list[AttrSpec],
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


def _dispatch(spec: OperatorSpec, keys: list[AttrSpec], when: list[set[tuple]]) -> list[str]:
    """The tiling function: the key attributes read (a null keeps the spec's default) and the
    program whose cases had those values run; other values fail the tiling."""
    index = {a.name: i for i, a in enumerate(spec.attrs)}
    names = ", ".join(f"`{a.name}`" for a in keys)
    out = [
        f"// The cases' programs differ by {names}: the host picks the program's tiling key.",
        "static ge::graphStatus TilingFunc(gert::TilingContext* context) {",
    ]
    for a in keys:
        v = f"{a.name}Attr"
        if a.type == "str":
            out += [
                f"  const char* {v} = context->GetAttrs()->GetStr({index[a.name]});",
                f"  if ({v} == nullptr) {v} = {_c_literal(a.default, 'str')};",
            ]
        else:
            ctype, get = ("int64_t", "GetInt") if a.type == "int" else ("bool", "GetBool")
            out += [
                f"  const {ctype}* {v}Ptr = context->GetAttrs()->{get}({index[a.name]});",
                f"  const {ctype} {v} = {v}Ptr == nullptr ? {_c_literal(a.default, a.type)} : "
                f"*{v}Ptr;",
            ]
    for key, seen in enumerate(when, 1):
        cond = " || ".join(
            "(" + " && ".join(_equals(a, x) for a, x in zip(keys, vals)) + ")"
            for vals in sorted(seen, key=repr)
        )
        out.append(f"  if ({cond}) return v{key}::TilingFunc(context);")
    return [*out, "  return ge::GRAPH_FAILED;  // values none of the cases had", "}"]


def _equals(a: AttrSpec, value: Any) -> str:
    v = f"{a.name}Attr"
    if a.type == "str":
        return f"std::strcmp({v}, {_c_literal(value, 'str')}) == 0"
    return f"{v} == {_c_literal(value, a.type)}"


def _c_literal(value: Any, kind: str) -> str:
    if kind == "str":
        text = str(value).replace("\\", "\\\\").replace('"', '\\"')
        return f'"{text}"'
    if kind == "bool":
        return "true" if value else "false"
    return f"{int(value)}LL" if kind == "int" else str(value)


def _opdef(spec: OperatorSpec, opdefs: list[list[str]], keys: list[AttrSpec]) -> list[str]:
    """The first program's OpDef, with a tensor OPTIONAL where any program's is, and the key
    attributes declared beside the programs' own, in the spec's order (their indices)."""
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
    for a in keys:
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
    """A lowered kernel file as its prelude (includes, defines), its device code, its entry's
    signature and the entry's body lines."""
    lines = text.splitlines()
    first = next(
        i
        for i, ln in enumerate(lines)
        if ln.strip() and not ln.startswith(("#include", "#define", "using namespace AscendC"))
    )
    entry = next(i for i, ln in enumerate(lines) if ln.startswith(_ENTRY))
    close = max(i for i, ln in enumerate(lines) if ln == "}")
    prelude = "\n".join(ln for ln in lines[:first] if ln.strip())
    return (
        prelude,
        "\n".join(lines[first:entry]).strip("\n"),
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
