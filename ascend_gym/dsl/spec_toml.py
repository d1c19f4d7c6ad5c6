"""op.toml text of an `OperatorSpec`: what `load_package` reads back into the same spec."""

from __future__ import annotations

import json
import tomllib
from typing import Any

from ascend_core.package import OperatorSpec

_TOP = (
    "name",
    "op_type",
    "kernel",
    "level",
    "category",
    "description",
    "reference",
    "reference_kind",
    "tolerance",
)


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)  # a TOML basic string is a JSON string
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"cannot write {type(v).__name__} to TOML")


def spec_toml(spec: OperatorSpec) -> str:
    data = spec.model_dump(mode="json", exclude_defaults=True)
    data.setdefault("name", spec.name)
    lines = [f"{k} = {_value(data[k])}" for k in _TOP if k in data]
    for key in ("inputs", "outputs", "attrs"):
        lines.append(f"{key} = {_value(data.get(key, []))}")
    for case in data.get("cases", []):
        lines += ["", "[[cases]]", *(f"{k} = {_value(v)}" for k, v in case.items())]
    text = "\n".join(lines) + "\n"
    assert OperatorSpec.model_validate(tomllib.loads(text)) == spec, "op.toml round trip"
    return text
