"""The corpus runner and `suite import` on a tiny corpus of our own operators (tests/corpus/src):
a neg whose OpDef names its arguments unlike our spec, a byte-identical copy of it, a sqrt whose
kernel does not compile and an operator no spec describes."""

import importlib.util
import json
import shutil
import tomllib
from pathlib import Path

import numpy as np
import pytest

from ascend_core import suite
from ascend_gym.cli import main
from ascend_gym.corpus import OPS, build_package, find_ops, load_spec, spec_for, spec_names
from ascend_gym.corpus.importer import toml_value
from ascend_gym.corpus.runner import (
    NO_SPEC,
    OTHER_SOC,
    QUALIFY_DRAWS,
    SPEC_ERROR,
    OpOutcome,
    cause,
    evaluate,
    run,
    summary,
)
from npu_daemon import checker

SRC = Path(__file__).parent / "src"


def _reference(op: str):
    """The module of ops/<op>/reference.py."""
    spec = importlib.util.spec_from_file_location(f"corpus_ref_{op}", OPS / op / "reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_find_ops_skips_identical_copies():
    found = [(s.op, s.rel) for s in find_ops(SRC)]
    assert found == [
        ("neg", "vendor_a/Neg"),
        ("frobnicate", "vendor_b/Frobnicate"),
        ("sqrt", "vendor_b/Sqrt"),
    ]


def test_package_takes_the_opdef_names_and_only_the_dtypes_it_lists():
    source = find_ops(SRC)[0]
    package = build_package(source, load_spec("neg"))
    spec = package.spec
    assert [a.name for a in spec.inputs] == ["input_x"]
    assert [a.name for a in spec.outputs] == ["output_y"]
    assert spec.op_type == "Neg" and spec.kernel == "neg"
    assert {c.dtype for c in spec.cases} == {"float32"}  # the OpDef lists DT_FLOAT only
    assert sum(c.bench for c in spec.cases) == 1
    assert all(set(c.shapes) == {"input_x"} for c in spec.cases)
    assert "reference.py" in package.files


def test_every_spec_loads_and_names_a_reference_that_exists():
    names = spec_names()
    assert len(names) >= 60
    for name in names:
        spec = load_spec(name)
        assert spec.name == name.split(".")[0]  # ops/<op>/op.<variant>.toml describes <op>
        assert hasattr(_reference(spec.name), spec.reference.split(":")[1]), name


def test_runner_counts_and_table(tmp_path):
    outcomes = {o.op: o for o in run(SRC, jobs=2)}
    assert outcomes["frobnicate"].status == NO_SPEC
    assert outcomes["neg"].status == "OK", outcomes["neg"].message
    assert outcomes["neg"].cases_passed == outcomes["neg"].cases > 0
    assert outcomes["sqrt"].status == "COMPILE_ERROR"
    assert "SqrtEverything" in outcomes["sqrt"].message
    table = summary(list(outcomes.values()))
    assert "| custom-op directories found | 3 |" in table
    assert "| tried (a spec, its own or ours; registered for the A2) | 2 |" in table
    assert "| compiled | 1 (50 %) |" in table
    assert "| all cases correct | 1 (50 %) |" in table
    assert f"| {cause(outcomes['sqrt'])} | 1 |" in table  # g++'s or clang's wording, by engine
    assert "| vendor_a | 1 | 1 | 1 (100 %) |" in table  # per source: one directory per repository
    assert "| vendor_b | 1 | 0 | 0 (0 %) |" in table


@pytest.mark.parametrize(
    "message",
    [
        "kernel: error: ‘SqrtEverything’ was not declared in this scope",
        "kernel: error: use of undeclared identifier 'SqrtEverything'",
    ],
)
def test_a_cause_leaves_out_the_undeclared_name(message):
    failed = OpOutcome(op="sqrt", path="vendor_b/Sqrt", status="COMPILE_ERROR", message=message)
    assert "SqrtEverything" not in cause(failed)


def edited_neg(tmp_path: Path, file: str, old: str, new: str):
    """vendor_a's Neg copied under tmp_path with one edit of one of its files."""
    root = tmp_path / "vendor_c" / "Neg"
    shutil.copytree(SRC / "vendor_a" / "Neg", root)
    path = root / file
    path.write_text(path.read_text().replace(old, new))
    (op,) = find_ops(tmp_path)
    return op


def test_an_operator_enters_a_suite_only_if_right_on_every_draw(tmp_path, monkeypatch, capsys):
    """A neg right only when the tail case's x[0] has seed 0's sign passes the draws before the
    first seed that flips that sign and fails at it, the draw named; `suite import` (as
    `materialise`) asks QUALIFY_DRAWS draws by default, so it does not enter the suite."""
    (neg,) = [o for o in find_ops(SRC / "vendor_a") if o.op == "neg"]
    package = build_package(neg, spec_for(neg))
    tail = package.spec.case("tail_fp32")
    x = package.spec.inputs[0].name
    signs = [checker.make_inputs(package, tail, s)[x].ravel()[0] > 0 for s in range(32)]
    exposing = next(s for s in range(1, 32) if signs[s] != signs[0])
    assert exposing < QUALIFY_DRAWS
    guard = (
        "  GlobalTensor<DTYPE_INPUT_X> first;\n"
        "  first.SetGlobalBuffer((__gm__ DTYPE_INPUT_X*)input_x, 1);\n"
        f"  if (t.total == {tail.shapes[x][0] * tail.shapes[x][1]} && "
        f"!(static_cast<float>(first.GetValue(0)) {'>' if signs[0] else '<='} 0)) return;\n"
    )
    line = "  GET_TILING_DATA(t, tiling);\n"
    op = edited_neg(tmp_path, "op_kernel/neg.cpp", line, line + guard)

    assert evaluate(op, draws=exposing).status == "OK"
    failed = evaluate(op, draws=exposing + 1)
    assert failed.status == "WRONG_ANSWER" and "case tail_fp32" in failed.message
    assert failed.message.startswith(
        f"input draw {exposing + 1} of {exposing + 1} (seed {exposing})"
    )
    monkeypatch.setenv("ASCEND_GYM_DATA", str(tmp_path / "data"))
    assert main(["suite", "import", str(tmp_path), "--name", "guarded"]) == 1
    assert "none of 1 operators passes every case" in capsys.readouterr().err
    assert main(["suite", "import", str(tmp_path), "--name", "guarded", "--draws", "0"]) == 2


def test_an_operator_registered_for_other_socs_only_is_not_tried_unless_asked(tmp_path):
    op = edited_neg(
        tmp_path, "op_host/neg.cpp", 'AddConfig("ascend910b")', 'AddConfig("ascend310b")'
    )
    outcome = evaluate(op)
    assert (outcome.status, outcome.tried) == (OTHER_SOC, False)
    assert "ascend310b only" in outcome.message
    assert "| registered for other SoCs only (not tried) | 1 |" in summary([outcome])
    assert evaluate(op, any_soc=True).status == "OK"


def test_a_failure_of_our_reference_is_ours_and_a_daemon_fault_is_the_daemons(
    tmp_path, monkeypatch
):
    import ascend_gym.corpus
    from npu_daemon.backends.sim import SimBackend

    (op,) = [s for s in find_ops(SRC) if s.op == "neg"]
    ops = tmp_path / "ops"
    shutil.copytree(OPS / "neg", ops / "neg")
    (ops / "neg" / "reference.py").write_text("def neg(x):\n    raise KeyError('typo')\n")
    monkeypatch.setattr(ascend_gym.corpus, "OPS", ops)
    outcome = evaluate(op)
    assert outcome.status == SPEC_ERROR
    assert "our spec or reference failed: KeyError: 'typo'" in outcome.message
    monkeypatch.undo()

    def broken(self, request, workdir):
        raise RuntimeError("the simulator library did not build")

    monkeypatch.setattr(SimBackend, "evaluate", broken)
    assert evaluate(op).status == "DAEMON_ERROR"  # our spec runs: not SPEC_ERROR


def test_cli_run_writes_json_and_rejects_a_missing_directory(tmp_path, capsys):
    assert main(["corpus", "run", str(tmp_path / "nowhere")]) == 2
    assert "is not a directory" in capsys.readouterr().err
    out = tmp_path / "o.json"
    assert main(["corpus", "run", str(SRC / "vendor_a"), "--json-out", str(out), "--quiet"]) == 0
    rows = json.loads(out.read_text())
    assert [(r["op"], r["status"]) for r in rows] == [("neg", "OK")]


def test_suite_import_registers_the_passing_operators(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("ASCEND_GYM_DATA", str(tmp_path))
    assert main(["suite", "import", str(SRC), "--name", "mine"]) == 0
    assert "suite mine: 1 of 2 operators pass every case" in capsys.readouterr().out
    assert suite.op_uris("mine") == ["op://mine/level1/neg"]
    package = suite.resolve("op://mine/level1/neg")
    assert package.spec.inputs[0].name == "input_x"
    assert (tmp_path / "suites" / "mine" / "level1" / "neg" / "op_kernel" / "neg.cpp").is_file()
    assert main(["suite", "import", str(SRC), "--name", suite.SUITE_NAME]) == 2


def test_suite_import_where_nothing_passes_exits_1(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("ASCEND_GYM_DATA", str(tmp_path))
    assert main(["suite", "import", str(SRC / "vendor_b"), "--name", "none"]) == 1
    assert "none of 1 operators passes every case" in capsys.readouterr().err
    assert not (tmp_path / "suites" / "none").exists()


@pytest.mark.parametrize(
    "value",
    [{"a": [1, 2.5, float("inf")], "b c": {"d": True, "e": 'x"y'}}, {"n": float("-inf")}],
)
def test_toml_values_read_back(value):
    text = "".join(f"{k.replace(' ', '_')} = {toml_value(v)}\n" for k, v in value.items())
    back = tomllib.loads(text)
    assert back == {k.replace(" ", "_"): v for k, v in value.items()}


def test_host_sources_are_op_host_files_not_editor_autosaves(tmp_path):
    # The project's CMake takes op_host/*.cpp only: a Jupyter autosave in a subdirectory (an older
    # copy of the host, with its own tiling function) must not be compiled with it.
    root = tmp_path / "Neg"
    shutil.copytree(SRC / "vendor_a" / "Neg", root)
    host = (root / "op_host" / "neg.cpp").read_text()
    (root / "op_host" / "neg_extra.cpp").write_text("int neg_extra_unit = 0;\n")
    (root / "op_host" / ".ipynb_checkpoints").mkdir()
    (root / "op_host" / ".ipynb_checkpoints" / "neg-checkpoint.cpp").write_text(host)
    package = build_package(find_ops(tmp_path)[0], load_spec("neg"))
    assert package.spec.host_sources == ["op_host/neg_extra.cpp"]


def test_the_tiling_cache_tells_apart_which_host_files_are_compiled(tmp_path):
    # Same op_host files, one more of them compiled: not the same tiling program.
    from npu_daemon.backends.common import build

    root = tmp_path / "src" / "Neg"
    shutil.copytree(SRC / "vendor_a" / "Neg", root)
    (root / "op_host" / "neg_extra.cpp").write_text("int neg_extra_unit = 0;\n")
    package = build_package(find_ops(tmp_path / "src")[0], load_spec("neg"))
    without = package.model_copy(
        update={"spec": package.spec.model_copy(update={"host_sources": []})}
    )
    rt = build.ensure_runtime()
    paths = set()
    for i, pkg in enumerate((package, without)):
        work = tmp_path / f"w{i}"
        work.mkdir()
        for rel, text in pkg.files.items():
            (work / rel).parent.mkdir(parents=True, exist_ok=True)
            (work / rel).write_text(text)
        paths.add(build.build_tiling(pkg, work, rt, 120)[0])
    assert len(paths) == 2


def test_a_kernel_entry_defined_without_c_linkage_runs(tmp_path):
    op = edited_neg(tmp_path, "op_kernel/neg.cpp", 'extern "C" __global__', "__global__")
    outcome = evaluate(op)
    assert outcome.status == "OK", outcome.message


def test_the_spec_variant_whose_arguments_match_the_opdef_is_taken(tmp_path):
    # nll_loss has a variant for the OpDefs that add a second output, total_weight.
    root = tmp_path / "NllLoss"
    shutil.copytree(SRC / "vendor_a" / "Neg", root)
    for old in root.rglob("neg*"):
        old.rename(old.with_name(old.name.replace("neg", "nll_loss")))
    def_args = (
        'this->Input("x"); this->Input("target"); this->Input("weight"); this->Output("y");'
        ' this->Attr("reduction"); this->Attr("ignore_index"); OP_ADD(NllLoss);'
    )
    (root / "op_host" / "nll_loss.cpp").write_text(def_args)
    assert [a.name for a in spec_for(find_ops(tmp_path)[0]).outputs] == ["y"]
    (root / "op_host" / "nll_loss.cpp").write_text(def_args + ' this->Output("total_weight");')
    spec = spec_for(find_ops(tmp_path)[0])
    assert [a.name for a in spec.outputs] == ["y", "total_weight"]
    assert spec.reference == "reference:nll_loss_total_weight"
    x = np.array([[0.1, 0.2, 0.7], [0.5, 0.3, 0.2]], np.float32)  # its aclnn example
    y, total = _reference("nll_loss").nll_loss_total_weight(
        x, np.array([2, -100]), np.ones(3), "none", -100
    )
    np.testing.assert_allclose(y, [-0.7, 0.0], rtol=1e-6)
    assert total.tolist() == [1.0]  # the ignored row weighs nothing, whatever the reduction


def test_a_spec_variant_serving_a_path_is_taken_for_that_path_alone(tmp_path):
    # cdist_grad's main-tree kernel takes the broadcast [B, P, Q, M] tensors, the experimental one
    # the 3-D ones: the same four inputs and one output, told apart by path.
    def_args = (
        'this->Input("grad"); this->Input("x1"); this->Input("x2"); this->Input("cdist");'
        ' this->Output("y"); this->Attr("p"); OP_ADD(CdistGrad);'
    )
    for tree in ("hicann+ops-math/math", "hicann+ops-math/experimental/math"):
        root = tmp_path / tree / "cdist_grad"
        shutil.copytree(SRC / "vendor_a" / "Neg", root)
        for old in root.rglob("neg*"):
            old.rename(old.with_name(old.name.replace("neg", "cdist_grad")))
        (root / "op_host" / "cdist_grad.cpp").write_text(f"{def_args} // {tree}")  # not a copy
    chosen = {op.rel: spec_for(op).reference for op in find_ops(tmp_path)}
    assert chosen == {
        "hicann+ops-math/experimental/math/cdist_grad": "reference:cdist_grad",
        "hicann+ops-math/math/cdist_grad": "reference:cdist_grad_broadcast",
    }
    # its reference is the 3-D formula on tensors broadcast the way the aclnn layer does
    rng = np.random.default_rng(0)
    g, x1, x2 = (
        rng.uniform(-1, 1, (2, 3, 4)),
        rng.uniform(-1, 1, (2, 3, 5)),
        rng.uniform(-1, 1, (2, 4, 5)),
    )
    c = rng.uniform(0.5, 2, (2, 3, 4))
    shape = (2, 3, 4, 5)
    wide = [
        np.broadcast_to(g[..., None], shape),
        np.broadcast_to(x1[:, :, None], shape),
        np.broadcast_to(x2[:, None], shape),
        np.broadcast_to(c[..., None], shape),
    ]
    refs = _reference("cdist_grad")
    for p in (1.0, 2.0, 3.0, 0.5):
        np.testing.assert_allclose(
            refs.cdist_grad_broadcast(*wide, p), refs.cdist_grad(g, x1, x2, c, p), rtol=1e-12
        )


def test_cli_check_measures_acceptance_through_the_daemons_evaluation(tmp_path, capsys):
    """`corpus check` judges each operator with the daemon's own acceptance check alone (a host
    file that pastes `__as` and `m__` together is refused, whatever its suffix) and prints the
    rate; Sqrt's kernel does not compile, but it preprocesses: the check accepts it without
    compiling anything."""
    shutil.copytree(SRC / "vendor_b", tmp_path / "vendor_b")
    shutil.copytree(SRC / "vendor_a" / "Neg", tmp_path / "vendor_c" / "Neg")
    host = tmp_path / "vendor_c" / "Neg" / "op_host"
    (host / "probe.inl").write_text(
        '#define P(a, b) a##b\ninline void Probe() { P(__as, m__)("nop"); }\n'
    )
    source = (host / "neg.cpp").read_text()
    (host / "neg.cpp").write_text('#include "probe.inl"\n' + source)
    out = tmp_path / "o.json"
    assert main(["corpus", "check", str(tmp_path), "--json-out", str(out), "--quiet"]) == 0
    table = capsys.readouterr().out
    rows = {r["op"]: r for r in json.loads(out.read_text())}
    assert rows["neg"]["status"] == "REJECTED"
    assert rows["neg"]["message"].startswith("op_host/probe.inl:2: `__asm__`"), rows["neg"]
    assert rows["sqrt"]["status"] == "OK"
    assert "| judged | 2 |" in table and "| accepted | 1 (50.0 %) |" in table
    assert "| vendor_c/Neg | op_host/probe.inl:2: `__asm__` is not allowed" in table


def test_a_spec_whose_attrs_the_opdef_lacks_is_not_taken(tmp_path):
    # CANN's Exp(base, scale, shift) spec does not fit an Exp whose OpDef takes no attrs.
    root = tmp_path / "Exp"
    shutil.copytree(SRC / "vendor_a" / "Neg", root)
    for old in root.rglob("neg*"):
        old.rename(old.with_name(old.name.replace("neg", "exp")))
    def_args = 'OP_ADD(Exp); this->Input("x"); this->Output("y");'
    (root / "op_host" / "exp.cpp").write_text(def_args)
    assert spec_for(find_ops(tmp_path)[0]) is None
    attrs = ' this->Attr("base"); this->Attr("scale"); this->Attr( "shift" );'
    (root / "op_host" / "exp.cpp").write_text(def_args + attrs)
    assert [a.name for a in spec_for(find_ops(tmp_path)[0]).attrs] == ["base", "scale", "shift"]
    # An OpDef without attrs whose tiling reads them gets them from the aclnn layer.
    tiling = " auto attrs = context->GetAttrs(); attrs->GetAttrPointer<float>(0);"
    (root / "op_host" / "exp.cpp").write_text(def_args + tiling)
    assert [a.name for a in spec_for(find_ops(tmp_path)[0]).attrs] == ["base", "scale", "shift"]


def test_cli_op_runs_only_the_operators_named(tmp_path, capsys):
    """`--op` takes part of a tree, by operator name or directory, the rest found but not run;
    a name that matches nothing is a usage error."""
    shutil.copytree(SRC / "vendor_b", tmp_path / "vendor_b")
    shutil.copytree(SRC / "vendor_a" / "Neg", tmp_path / "vendor_c" / "Neg")
    out = tmp_path / "o.json"
    args = ["corpus", "check", str(tmp_path), "--json-out", str(out), "--quiet"]
    assert main([*args, "--op", "vendor_c/Neg"]) == 0
    assert [r["op"] for r in json.loads(out.read_text())] == ["neg"]
    assert main([*args, "--op", "sqrt", "--op", "neg"]) == 0
    assert sorted(r["op"] for r in json.loads(out.read_text())) == ["neg", "sqrt"]
    capsys.readouterr()
    assert main([*args, "--op", "nothing_here"]) == 2
    assert "nothing_here" in capsys.readouterr().err


def test_a_tiling_in_op_host_op_tiling_is_found_with_its_folder(tmp_path):
    # CANN projects may keep the tiling sources in op_host/op_tiling/: the operator is found there,
    # and the folder's other sources (a helper without "_tiling" in its name) are built with it.
    root = tmp_path / "src" / "Neg"
    shutil.copytree(SRC / "vendor_a" / "Neg", root)
    tiling = root / "op_host" / "op_tiling"
    tiling.mkdir()
    for name in ("neg.cpp", "neg_tiling.h"):
        (root / "op_host" / name).rename(tiling / name)
    (tiling / "neg_helpers.cpp").write_text("int neg_helper_unit = 0;\n")
    (source,) = find_ops(tmp_path / "src")
    spec = build_package(source, load_spec("neg")).spec
    assert spec.host_file == "op_host/op_tiling/neg.cpp"
    assert spec.tiling_header == "op_host/op_tiling/neg_tiling.h"
    assert spec.host_sources == ["op_host/op_tiling/neg_helpers.cpp"]
    outcome = evaluate(source)
    assert outcome.status == "OK", outcome.message


def test_a_kernel_launch_extension_named_as_a_project_is_not_a_custom_op(tmp_path):
    """A library's kernel-launch extension can name its files as a custom-op project does
    (op_host/<op>_tiling.h, op_host/<op>.cpp, op_kernel/<op>.cpp) while its host code launches
    the kernel itself: no OpDef registered (OP_ADD) and no tiling registered, so the toolkit's
    custom-op build, and the runner, take none of it."""
    root = tmp_path / "launched" / "neg"
    shutil.copytree(SRC / "vendor_a" / "Neg", root)
    host = root / "op_host" / "neg.cpp"
    text = host.read_text()
    assert [op.rel for op in find_ops(tmp_path)] == ["launched/neg"]
    # its host code: the same tiling and argument list, called from a launch of its own
    host.write_text(
        text.replace(".SetTiling(optiling::NegTiling)", "").replace("OP_ADD(Neg);", "")
        + "\nvoid LaunchNeg() { /* EXEC_KERNEL_CMD(neg, ...) */ }\n"
    )
    assert find_ops(tmp_path) == []
    host.write_text(text.replace("OP_ADD(Neg);", ""))  # the tiling registered alone still is one
    assert [op.rel for op in find_ops(tmp_path)] == ["launched/neg"]
