"""A cann-bench task directory read into an operator spec.

A task is `proto.yaml` (the operator: inputs, outputs and attributes with their dtypes), a
PyTorch `golden.py`, and `cases.yaml` (or `cases.csv`): per case the input shapes in the proto's
order (`null` for a left-out optional input, a list of shapes for a TensorList), their dtypes,
the attributes and each input's value range. cann-bench's cases leave the outputs' shapes and
dtypes to the golden; `probe` asks it (sandboxed) and the spec records them per case.
"""

from __future__ import annotations

import ast
import copy
import csv
import math
import re
from pathlib import Path
from typing import Any, get_args

from pydantic import BaseModel

from ascend_core.package import DType, OperatorSpec, Tolerance

TASK_FILES = ("proto.yaml", "golden.py")
DTYPES = set(get_args(DType))
ATTR_TYPES = {
    "int": "int",
    "int64": "int",
    "int32": "int",
    "float": "float",
    "float32": "float",
    "double": "float",
    "bool": "bool",
    "str": "str",
    "string": "str",
    "int[]": "list_int",
    "listint": "list_int",
    "int_list": "list_int",
    "list[int]": "list_int",
    "list_int": "list_int",
    "float[]": "list_float",
    "listfloat": "list_float",
    "list_float": "list_float",
    "list[float]": "list_float",
    "bool[]": "list_bool",
    "list[bool]": "list_bool",
    "list_bool": "list_bool",
}


# cann-bench's precision standard (docs/spec/benchmark_spec.md 4.4): a case passes when the mean
# relative error is under a dtype's threshold T and the maximum under 10 T, with absolute counting
# below a small-value threshold. Our checker bounds each element: 10 T relative (the maximum),
# the small-value threshold absolute. The mean criterion is not checked separately. The CANN
# community standard gives float8 E4M3 T = 2^-3 and E5M2 2^-2 and no small-value threshold: the
# least subnormal stands in for it (one step at zero). HiFloat8, three mantissa bits near 1 like
# E4M3, takes E4M3's T; an E8M0 scale (a power of two, so one step is a factor 2) must be exact.
def tolerance(proto: dict[str, Any]) -> dict[str, Tolerance]:
    """Per dtype; a proto's `precision_thresholds` (an absolute error per dtype, the ±1 an int8
    quantisation may differ by) as that dtype's atol."""
    table = {
        "float16": (-10, -11),
        "bfloat16": (-7, -8),
        "float32": (-13, -14),
        "float8_e4m3fn": (-3, -9),
        "float8_e5m2": (-2, -16),
        "hifloat8": (-3, -22),
    }
    found = {
        dtype: Tolerance(atol=2.0**small, rtol=10 * 2.0**mere, max_outlier_fraction=0.0)
        for dtype, (mere, small) in table.items()
    }
    found["float8_e8m0"] = Tolerance(atol=0.0, rtol=0.0)
    for dtype, atol in (proto.get("precision_thresholds") or {}).items():
        if str(dtype) in DTYPES and isinstance(atol, int | float) and atol >= 0:
            found[str(dtype)] = Tolerance(atol=float(atol), rtol=0.0)
    return found


class Unimportable(ValueError):
    """The task (or one of its cases) cannot be expressed as our spec; the message says why."""


class Task(BaseModel):
    """Where a task is and what the importer made of it."""

    path: str  # the task directory, relative to the checkout
    name: str  # our operator name (an identifier)
    level: int
    golden: str  # the golden function
    case_ids: dict[str, str]  # our case name -> cann-bench case_id
    skipped: dict[str, str] = {}  # cann-bench case_id -> why it was left out


def find_tasks(root: Path) -> list[Path]:
    """Every task directory under `root` (proto.yaml, golden.py and cases), in path order."""
    return sorted(
        p.parent
        for p in root.rglob("proto.yaml")
        if all((p.parent / f).is_file() for f in TASK_FILES)
        and any((p.parent / f).is_file() for f in ("cases.yaml", "cases.csv"))
    )


def _yaml(path: Path) -> Any:
    import yaml  # the `cann-bench` extra

    return yaml.safe_load(path.read_text())


def load_cases(task: Path) -> list[dict[str, Any]]:
    """The cases, from cases.yaml, else cases.csv (its cells are Python/JSON literals)."""
    if (task / "cases.yaml").is_file():
        cases = (_yaml(task / "cases.yaml") or {}).get("cases") or []
        return [c for c in cases if isinstance(c, dict)]
    with (task / "cases.csv").open(newline="") as f:
        rows = list(csv.DictReader(f))
    out = []
    for row in rows:
        case = dict(row)
        for key in ("input_shape", "dtype", "attrs", "value_range"):
            text = (row.get(key) or "").strip()
            case[key] = _literal(text) if text else None
        out.append(case)
    return out


def _literal(text: str) -> Any:
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return ast.literal_eval(
            re.sub(r"\b(true|false|null)\b", lambda m: m[0].capitalize(), text).replace(
                "Null", "None"
            )
        )


def identifier(text: str) -> str:
    """A directory name as an operator name: lower case, word characters only."""
    name = re.sub(r"\W+", "_", text).strip("_").lower()
    return name if re.match(r"[a-z_]", name) else f"op_{name}"


def arg_name(text: str) -> str:
    """A proto argument's name as ours: its case kept (a golden's get_input takes its inputs by
    their proto names), other characters as underscores."""
    name = re.sub(r"\W+", "_", text).strip("_")
    return name if re.match(r"[A-Za-z_]", name) else f"arg_{name}"


def level_of(task: Path, proto: dict[str, Any]) -> int:
    """The nearest `level<N>` directory above the task, else the proto's difficulty `L<N>`."""
    for part in reversed(task.parts):
        if m := re.fullmatch(r"level(\d)", part):
            return int(m[1])
    m = re.fullmatch(r"L(\d)", str(proto.get("difficulty", "")).strip())
    return int(m[1]) if m else 1


def golden_function(task: Path, proto: dict[str, Any]) -> str:
    """The golden's function: the one the proto's schema names, else the task directory's."""
    source = (task / "golden.py").read_text()
    defined = re.findall(r"^def\s+(\w+)\s*\(", source, re.M)
    schema = re.match(r"\s*(\w+)\s*\(", str(proto.get("schema", "")))
    for name in (schema[1] if schema else "", task.name, identifier(task.name)):
        if name in defined:
            return name
    if len(defined) == 1:
        return defined[0]
    raise Unimportable(f"cannot tell the golden function among {defined}")


def _dtypes(entry: dict[str, Any]) -> list[str]:
    raw = entry.get("dtype") or []
    return [str(d) for d in ([raw] if isinstance(raw, str) else raw)]


def _attr(entry: dict[str, Any]) -> dict[str, Any]:
    kind = str(entry.get("type", "")).strip().lower().replace(" ", "")
    default = entry.get("default")
    if kind not in ATTR_TYPES:  # a type we do not know: what its default is
        kind = _kind(default)
    kind = ATTR_TYPES[kind]
    return {"name": str(entry["name"]), "type": kind, "default": coerce(default, kind)}


def coerce(value: Any, kind: str) -> Any:
    """A value as its declared type: YAML 1.1 reads `1e-6` (no dot) as a string."""
    if value is None or kind == "str":
        return value
    if kind.startswith("list_") and isinstance(value, list):
        return [coerce(v, kind.removeprefix("list_")) for v in value]
    try:
        if kind == "float" and isinstance(value, str | int) and not isinstance(value, bool):
            return float(value)
        if kind == "int" and isinstance(value, str):
            return int(value)
        if kind == "bool" and isinstance(value, str):
            return {"true": True, "false": False}.get(value.strip().lower(), value)
    except ValueError:
        return value
    return value


def _kind(value: Any) -> str:
    scalar = {bool: "bool", int: "int", float: "float"}
    if isinstance(value, list) and value and type(value[0]) in scalar:
        return f"list_{scalar[type(value[0])]}"
    return scalar.get(type(value), "str")


def _is_shape(x: Any) -> bool:
    return isinstance(x, list) and all(isinstance(d, int) for d in x)


def _members(shape: Any) -> list[list[int]] | None:
    """An input's shapes in a case: one for a tensor, several for a TensorList, None if absent."""
    if shape is None:
        return None
    if _is_shape(shape):
        return [shape]
    if isinstance(shape, list) and all(_is_shape(s) for s in shape):
        return shape
    raise Unimportable(f"an input shape {shape!r}")


def _per_input(value: Any, n: int, what: str, names: list[str] | None = None) -> list[Any]:
    """A per-input list of a case; one value for a single input, or shared by every input, or
    a mapping by the inputs' proto names."""
    if value is None:
        return [None] * n
    if isinstance(value, dict) and names is not None:
        return [value.get(name) for name in names]
    if not isinstance(value, list):
        return [value] * n
    if what == "value_range" and len(value) == 2 and all(isinstance(v, int | float) for v in value):
        return [value] * n  # one range for every input
    if n == 1 and what == "input_shape" and _is_shape(value):
        return [value]
    if len(value) < n:
        value = [*value, *[None] * (n - len(value))]
    return value


def _range(value: Any, member: int) -> tuple[float, float] | None:
    if value is None:
        return None
    if isinstance(value, list) and value and isinstance(value[0], list):  # per member
        value = value[min(member, len(value) - 1)]
    if isinstance(value, list) and len(value) == 2:
        lo, hi = (float(v) for v in value)
        if math.isfinite(lo) and math.isfinite(hi) and lo <= hi:
            return lo, hi
    raise Unimportable(f"a value range {value!r}")


def _dtype(value: Any, member: int) -> str:
    if isinstance(value, list):
        value = value[min(member, len(value) - 1)] if value else None
    name = str(value)
    if name not in DTYPES:
        raise Unimportable(f"dtype {name}, which the simulator does not hold")
    return name


def read_task(task: Path, root: Path) -> tuple[dict[str, Any], Task]:
    """The spec fields of a task (outputs' shapes still the golden's to say) and what was made
    of it; Unimportable if no case can be expressed."""
    proto = (_yaml(task / "proto.yaml") or {}).get("operator") or {}
    if not proto.get("inputs") and not proto.get("outputs"):
        raise Unimportable("proto.yaml has no operator inputs or outputs")
    name = identifier(task.name)
    golden = golden_function(task, proto)
    inputs = [i for i in proto.get("inputs") or [] if isinstance(i, dict)]
    raw = load_cases(task)
    counts = _list_lengths(inputs, raw)
    cases, ids, skipped = [], {}, {}
    for entry in raw:
        cid = str(entry.get("case_id", len(ids) + len(skipped) + 1))
        try:
            case = _case(inputs, entry, counts)
        except Unimportable as e:
            skipped[cid] = str(e)
            continue
        case["name"] = "case_" + re.sub(r"\W+", "_", cid)
        if case["name"] in ids:
            skipped[cid] = "a second case of this case_id"
            continue
        ids[case["name"]] = cid
        cases.append(case)
    # An attribute named like an input (a proto may list an optional tensor as both) is the input.
    inputs_named = {arg_name(str(a["name"])) for a in inputs}
    attrs = [
        _attr(a)
        for a in proto.get("attrs") or []
        if isinstance(a, dict) and arg_name(str(a["name"])) not in inputs_named
    ]
    for case in cases:
        case["attrs"] = {k: v for k, v in case["attrs"].items() if k not in inputs_named}
    attrs, cases = _settle_attrs(attrs, cases, ids, skipped)
    if not cases:
        why = "; ".join(sorted(set(skipped.values()))) or "no cases"
        raise Unimportable(f"no case can be expressed: {why}"[:300])
    bench = max(cases, key=lambda c: sum(math.prod(s) for s in c["shapes"].values()))
    bench["bench"] = True
    spec = {
        "name": name,
        "op_type": str(proto.get("name") or name),
        "kernel": name,
        "level": level_of(task, proto),
        "category": str(proto.get("category", "")).lower(),
        "description": str(proto.get("formula") or proto.get("description") or "")[:500],
        "inputs": _args(inputs, counts, cases),
        "outputs": [
            {"name": arg_name(str(o["name"])), "dtypes": _declared(o)}
            for o in proto.get("outputs") or []
        ],
        "attrs": attrs,
        "reference": f"golden:{golden}",
        "reference_kind": "torch",
        "tolerance": {k: v.model_dump() for k, v in tolerance(proto).items()},
        "cases": cases,
    }
    rel = task.relative_to(root).as_posix() if task.is_relative_to(root) else str(task)
    return spec, Task(
        path=rel, name=name, level=spec["level"], golden=golden, case_ids=ids, skipped=skipped
    )


def _settle_attrs(
    attrs: list[dict], cases: list[dict], ids: dict[str, str], skipped: dict[str, str]
) -> tuple[list[dict], list[dict]]:
    """Attributes a spec can hold (TOML has no null): a case's null leaves the default; an
    attribute whose default is null is left to the golden's own default where no case sets it,
    else its cases must all set it (the others are left out); a case's attribute the proto does
    not declare is declared, with the first value seen as its default."""
    kinds = {a["name"]: a["type"] for a in attrs}
    for case in cases:
        case["attrs"] = {
            k: coerce(v, kinds.get(k, "str")) for k, v in case["attrs"].items() if v is not None
        }
    declared = {a["name"] for a in attrs}
    for case in cases:
        for key, value in case["attrs"].items():
            if key not in declared:
                declared.add(key)
                attrs.append(_attr({"name": key, "default": value}))
    kept_attrs = []
    for attr in attrs:
        if attr["default"] is not None:
            kept_attrs.append(attr)
            continue
        setting = [c for c in cases if attr["name"] in c["attrs"]]
        if not setting:
            continue
        attr["default"] = setting[0]["attrs"][attr["name"]]
        kept_attrs.append(attr)
        for case in [c for c in cases if attr["name"] not in c["attrs"]]:
            skipped[ids.pop(case["name"])] = f"leaves {attr['name']} (no default) unset"
            cases.remove(case)
    return kept_attrs, cases


def _declared(arg: dict[str, Any]) -> list[str]:
    return [d for d in _dtypes(arg) if d in DTYPES] or ["float32"]


def _list_lengths(inputs: list[dict[str, Any]], raw: list[dict[str, Any]]) -> list[int]:
    """Members of each input: 1 for a tensor; for a TensorList, its most common length over the
    cases (our spec fixes a list's length; cases with another are left out)."""
    counts = []
    for i in range(len(inputs)):
        seen: dict[int, int] = {}
        for entry in raw:
            shapes = _per_input(entry.get("input_shape"), len(inputs), "input_shape")[i]
            if isinstance(shapes, list) and shapes and not _is_shape(shapes):
                seen[len(shapes)] = seen.get(len(shapes), 0) + 1
        counts.append(max(seen, key=lambda k: seen[k]) if seen else 0)
    return counts


def _member_names(arg: dict[str, Any], count: int) -> list[str]:
    name = arg_name(str(arg["name"]))
    return [f"{name}_{k}" for k in range(count)] if count else [name]


def _case(inputs: list[dict[str, Any]], entry: dict[str, Any], counts: list[int]) -> dict:
    n = len(inputs)
    names = [str(a["name"]) for a in inputs]
    shapes = _per_input(entry.get("input_shape"), n, "input_shape", names)
    dtypes = _per_input(entry.get("dtype"), n, "dtype", names)
    ranges = _per_input(entry.get("value_range"), n, "value_range", names)
    case: dict[str, Any] = {"shapes": {}, "dtypes": {}, "ranges": {}, "absent": []}
    for arg, count, shape, dtype, rng in zip(inputs, counts, shapes, dtypes, ranges):
        names = _member_names(arg, count)
        members = _members(shape)
        if members is None:
            if count:
                raise Unimportable(f"a left-out TensorList {arg['name']}")
            case["absent"].append(names[0])
            continue
        if count and len(members) != count:
            raise Unimportable(f"{arg['name']} with {len(members)} tensors, not {count}")
        if not count and len(members) != 1:
            raise Unimportable(f"a list of shapes for the tensor {arg['name']}")
        for k, (member, shape_k) in enumerate(zip(names, members)):
            if any(d < 0 for d in shape_k):
                raise Unimportable(f"a negative dimension in {arg['name']}{shape_k}")
            case["shapes"][member] = shape_k or [1]  # a 0-d tensor travels as one element
            case["dtypes"][member] = _dtype(dtype, k)
            if (r := _range(rng, k)) is not None:
                case["ranges"][member] = r
    present = [m for m in case["shapes"]]
    if not present:
        raise Unimportable("a case without inputs")
    case["dtype"] = case["dtypes"][present[0]]
    case["attrs"] = dict(entry.get("attrs") or {})
    return case


def _args(inputs: list[dict[str, Any]], counts: list[int], cases: list[dict]) -> list[dict]:
    args = []
    for arg, count in zip(inputs, counts):
        for member in _member_names(arg, count):
            seen = {c["dtypes"][member] for c in cases if member in c["dtypes"]}
            spec = {"name": member, "dtypes": sorted(seen | set(_declared(arg)) & DTYPES)}
            if count:
                spec["dynamic"] = arg_name(str(arg["name"]))
            args.append(spec)
    return args


def with_declared_outputs(spec: dict[str, Any]) -> dict[str, Any]:
    """The spec before its golden has spoken: each case's outputs of a dtype the proto declares
    for them (the case's own where declared, else the first), so an output whose proto dtype
    differs from the inputs' (an fp32 gradient of bf16 inputs) is a valid draft to probe."""
    draft = copy.deepcopy(spec)
    for case in draft["cases"]:
        for out in draft["outputs"]:
            if out["dtypes"]:
                own = case["dtype"] if case["dtype"] in out["dtypes"] else out["dtypes"][0]
                case["dtypes"].setdefault(out["name"], own)
    return draft


def with_outputs(
    spec: dict[str, Any], signatures: dict[str, list[tuple[list[int], str]]]
) -> OperatorSpec:
    """The spec with each case's output shapes and dtypes, as the golden gave them (an empty
    output, a zero dimension, included: a zero-byte GM buffer the kernel must leave alone)."""
    outputs = spec["outputs"]
    for case in spec["cases"]:
        found = signatures[case["name"]]
        if len(found) != len(outputs):
            raise Unimportable(
                f"the golden returns {len(found)} outputs, the proto declares {len(outputs)}"
            )
        for out, (shape, dtype) in zip(outputs, found):
            case["shapes"][out["name"]] = shape or [1]
            case["dtypes"][out["name"]] = dtype
            if dtype not in out["dtypes"]:
                out["dtypes"].append(dtype)
    return OperatorSpec.model_validate(spec)
