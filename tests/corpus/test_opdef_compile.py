"""`corpus compile`: every operator found is built, with our spec or with the arguments its OpDef
declares (ascend_gym/corpus/opdef.py), through the daemon's acceptance check and build."""

import json

from ascend_core.package import dtype_macros
from ascend_gym.cli import main
from ascend_gym.corpus import rename_args
from ascend_gym.corpus.opdef import opdef_spec
from tests.corpus.test_corpus import SRC

HOST = """
static const std::vector<ge::DataType> kTypes = {ge::DT_COMPLEX32, ge::DT_FLOAT16, ge::DT_FLOAT};
class Blend : public OpDef {
 public:
  explicit Blend(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType(kTypes).Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
    this->Input("parts")
        .ParamType(DYNAMIC)
        .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16});
    this->Input("gate").ParamType(OPTIONAL).DataTypeList({ge::DT_INT32});
    this->Output("y").ParamType(REQUIRED).DataType(kTypes);
    this->Attr("axis").AttrType(OPTIONAL).Int(-1);
    this->Attr("alpha").AttrType(OPTIONAL).Float(0.5f);
    this->Attr("keep").Bool(true);
    this->Attr("dims").AttrType(OPTIONAL).ListInt({0, 2});
    this->Attr("mode").AttrType(OPTIONAL).String("linear");
    this->Attr("eps").AttrType(REQUIRED).Float();
  }
};
"""


def test_the_opdef_gives_arguments_types_and_attr_defaults():
    """The first type column every argument has in the simulator (column 0 holds a complex32),
    a variable's list read where it is defined, a dynamic input as two members, a one-type list
    for every column, each attr's default (a required one's zero value)."""
    spec = opdef_spec("blend", HOST)
    assert [(a.name, a.dtypes, a.dynamic) for a in spec.inputs] == [
        ("x", ["float16"], ""),
        ("parts0", ["float16"], "parts"),
        ("parts1", ["float16"], "parts"),
        ("gate", ["int32"], ""),
    ]
    assert [(a.name, a.dtypes) for a in spec.outputs] == [("y", ["float16"])]
    assert {a.name: (a.type, a.default) for a in spec.attrs} == {
        "axis": ("int", -1),
        "alpha": ("float", 0.5),
        "keep": ("bool", True),
        "dims": ("list_int", [0, 2]),
        "mode": ("str", "linear"),
        "eps": ("float", 0.0),
    }
    (case,) = spec.cases
    assert case.bench and case.dtypes["gate"] == "int32" and case.attrs["axis"] == -1


def test_no_argument_or_no_simulated_type_gives_no_spec():
    assert opdef_spec("empty", "class Empty : public OpDef {};") is None
    only_complex = 'this->Input("x").DataType({ge::DT_COMPLEX32});'
    assert opdef_spec("c", only_complex) is None


def test_corpus_compile_builds_operators_without_a_spec(tmp_path, capsys):
    """Frobnicate has no spec of ours: it is built from its OpDef and compiles; neg builds with
    our spec; sqrt's kernel does not compile, and the table counts it as a cause."""
    out = tmp_path / "o.json"
    assert main(["corpus", "compile", str(SRC), "--json-out", str(out), "--quiet"]) == 0
    rows = {r["op"]: r for r in json.loads(out.read_text())}
    assert (rows["frobnicate"]["status"], rows["frobnicate"]["opdef"]) == ("OK", True)
    assert (rows["neg"]["status"], rows["neg"]["opdef"]) == ("OK", False)
    assert rows["sqrt"]["status"] == "COMPILE_ERROR"
    table = capsys.readouterr().out
    assert "| built, every one | 2 of 3 (67 %) |" in table
    assert "| built, with its OpDef's arguments | 1 of 1 (100 %) |" in table
    assert "| vendor_b | 1 of 2 (50 %) |" in table


def test_an_output_named_as_its_input_keeps_the_input_s_macro():
    """A ref op's OpDef names its in-place output as its input: the kernel sees DTYPE_VAR for the
    input and DTYPE_VAR_REF for the output, as the toolchain names them (the input took the
    output's `_ref` name before)."""
    host = """
    this->Input("var").ParamType(REQUIRED).DataType({ge::DT_INT8});
    this->Input("indices").ParamType(REQUIRED).DataType({ge::DT_INT32});
    this->Output("var").ParamType(REQUIRED).DataType({ge::DT_INT8});
"""
    spec = rename_args(opdef_spec("scatter_into", host), host)
    assert [a.name for a in spec.inputs] == ["var", "indices"]
    assert [a.name for a in spec.outputs] == ["var_ref"]
    macros = dtype_macros(spec, spec.cases[0])
    assert macros["DTYPE_VAR"] == macros["DTYPE_VAR_REF"] == "int8_t"
    assert set(spec.cases[0].dtypes) == {"var", "indices", "var_ref"}
