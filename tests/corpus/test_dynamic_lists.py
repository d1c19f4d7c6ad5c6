"""Dynamic (list) inputs and outputs in the package format: the spec's members, the DTYPE macros
of the list, and the corpus runner's renaming of a list to the OpDef's one argument. The kernel
and host sides run in tests/sim/packages/list_scale."""

import tomllib
from pathlib import Path

import pytest
from pydantic import ValidationError

from ascend_core.package import OperatorSpec, dtype_macros
from ascend_gym.corpus import rename_args, supported_cases

LIST_SCALE = Path(__file__).parents[1] / "sim" / "packages" / "list_scale" / "op.toml"


def spec(**update):
    data = tomllib.loads(LIST_SCALE.read_text())
    return OperatorSpec.model_validate({**data, **update})


def test_params_group_the_members_of_each_list():
    s = spec()
    assert [(n, [a.name for a in m]) for n, m in s.params(s.inputs)] == [
        ("xs", ["x0", "x1", "x2"]),
        ("offset", ["offset"]),
    ]
    macros = dtype_macros(s, s.cases[0])
    assert macros["DTYPE_XS"] == "float" and macros["DTYPE_YS"] == "float"
    assert macros["DTYPE_X1"] == "float"  # each member keeps its own


def test_members_must_be_consecutive_and_the_list_named_apart():
    ins = spec().model_dump()["inputs"]
    with pytest.raises(ValidationError, match="consecutive"):
        spec(inputs=[ins[0], ins[3], ins[1], ins[2]])
    with pytest.raises(ValidationError, match="named like an argument"):
        spec(inputs=[{**a, "dynamic": "offset"} if a["dynamic"] else a for a in ins])


def test_the_runner_renames_a_list_as_one_opdef_argument():
    opdef = """
    this->Input("x").ParamType(DYNAMIC).DataType({ge::DT_FLOAT});
    this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Output("y").ParamType(DYNAMIC).DataType({ge::DT_FLOAT});
    """
    s = supported_cases(rename_args(spec(), opdef), opdef)
    assert [(a.name, a.dynamic) for a in s.inputs] == [
        ("x0", "x"),
        ("x1", "x"),
        ("x2", "x"),
        ("bias", ""),
    ]
    assert {a.dynamic for a in s.outputs} == {"y"}
    assert "bias" in s.cases[0].shapes and "offset" not in s.cases[0].shapes
    assert len(s.cases) == 2  # float32 is listed for both OpDef inputs
