"""Empty tensors: a case with a zero dimension (cann-bench has them: an output no row survives a
filter into, a batch of none). It imports as a case; its GM buffer holds no byte on either engine;
a kernel whose own tiling does nothing for it passes, generated or hand-written, and one that
writes into the empty output anyway is a RUNTIME_ERROR, through a real daemon."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ascend_core.package import Case, OperatorPackage
from ascend_core.protocol import EvalRequest, Stage, Status, Timeouts
from ascend_core.suite import resolve
from ascend_gym.cannbench.importer import import_tasks
from ascend_gym.cannbench.run import generate
from ascend_gym.client import DaemonClient

from .conftest import write_task

EMPTY = [
    Case(name="empty_rows", dtype="float32", shapes={"x": [0, 64]}, bench=True),
    Case(name="empty_mid", dtype="float16", shapes={"x": [3, 0, 5]}),
]
FULL = Case(name="rows", dtype="float32", shapes={"x": [33, 64]})
ENTRY_END = "  op.Process();\n"
# Block 0 writes one element of y through the API after the kernel's own work.
SET_VALUE = (
    "  if (GetBlockIdx() == 0) {\n    GlobalTensor<DTYPE_Y> out;\n"
    "    out.SetGlobalBuffer((__gm__ DTYPE_Y*)y, 8);\n    out.SetValue(0, (DTYPE_Y)1);\n  }\n"
)
# ... or copies a 32 B block of UB out to it.
DATA_COPY = (
    "  if (GetBlockIdx() == 0) {\n    TPipe pipe;\n    TBuf<TPosition::VECCALC> buf;\n"
    "    pipe.InitBuffer(buf, 32);\n    LocalTensor<DTYPE_Y> t = buf.Get<DTYPE_Y>();\n"
    "    Duplicate(t, (DTYPE_Y)1, 32 / sizeof(DTYPE_Y));\n    PipeBarrier<PIPE_ALL>();\n"
    "    GlobalTensor<DTYPE_Y> out;\n    out.SetGlobalBuffer((__gm__ DTYPE_Y*)y, 8);\n"
    "    DataCopy(out, t, 32 / sizeof(DTYPE_Y));\n  }\n"
)


@pytest.fixture()
def native(native_daemon: str) -> Iterator[DaemonClient]:
    """The session's native-engine daemon (tests/conftest.py): `client` is the guest engine's."""
    c = DaemonClient(native_daemon, heartbeat_s=1.0)
    yield c
    c.close()


def relu(cases: list[Case], writes: str = "") -> OperatorPackage:
    """level1/relu (its tiling launches one block and no tile for an empty x) on `cases`, as the
    client's own operator, with `writes` run after its work."""
    pkg = resolve("level1/relu")
    pkg = pkg.model_copy(update={"spec": pkg.spec.model_copy(update={"cases": cases}), "uri": ""})
    kernel = pkg.files["op_kernel/relu.cpp"]
    assert ENTRY_END in kernel
    return pkg.with_sources(kernel=kernel.replace(ENTRY_END, ENTRY_END + writes))


def evaluate(c: DaemonClient, pkg: OperatorPackage, run_id: str):
    return c.evaluate(
        EvalRequest(
            run_id=run_id,
            package=pkg,
            stages=[Stage.COMPILE, Stage.CHECK, Stage.TIME],
            timeouts=Timeouts(build_s=300, run_s=120),
        )
    )


def test_a_hand_written_kernel_passes_on_empty_cases_on_both_engines(client, native):
    pkg = relu([*EMPTY, FULL])
    for c in (client, native):
        r = evaluate(c, pkg, "empty-hand")
        assert r.status is Status.OK, r.message
        assert [(x.name, x.passed) for x in r.cases] == [
            ("empty_rows", True),
            ("empty_mid", True),
            ("rows", True),
        ]
        assert r.bench_case == "empty_rows" and r.latency_us > 0  # the launch itself, simulated


@pytest.mark.parametrize("writes", [SET_VALUE, DATA_COPY], ids=["SetValue", "DataCopy"])
def test_a_kernel_writing_into_an_empty_output_is_a_runtime_error(client, native, writes):
    pkg = relu(EMPTY, writes)
    for c in (client, native):
        r = evaluate(c, pkg, "empty-writer")
        assert r.status is Status.RUNTIME_ERROR, (c is native, r.status, r.message)
        assert "empty_rows" in r.message and (
            "outside every GM buffer" in r.message or "in no GM buffer" in r.message
        ), r.message
    # The same kernel on a tensor that holds the element is merely wrong there.
    r = evaluate(client, relu([FULL.model_copy(update={"bench": True})], writes), "full-writer")
    assert r.status is Status.WRONG_ANSWER, r.message


RELU_PROTO = """\
operator:
  name: ReluTwice
  difficulty: L1
  inputs:
  - name: x
    dtype: [float16, float32]
  outputs:
  - name: y
    dtype: [float16, float32]
"""
RELU_GOLDEN = "import torch\n\n\ndef relu_twice(x):\n    return torch.relu(x) * 2\n"
RELU_CASES = """\
cases:
- {case_id: 1, input_shape: [[64, 300]], dtype: [float16], attrs: {}, value_range: [-2, 2]}
- {case_id: 2, input_shape: [[0, 300]], dtype: [float16], attrs: {}, value_range: [-2, 2]}
- {case_id: 3, input_shape: [[7, 0, 3]], dtype: [float32], attrs: {}, value_range: [-2, 2]}
"""
KEEP_PROTO = """\
operator:
  name: KeepRows
  inputs:
  - name: x
    dtype: [float32]
  outputs:
  - name: y
    dtype: [float32]
"""
KEEP_GOLDEN = "import torch\n\n\ndef keep_rows(x: torch.Tensor):\n    return x[: x.shape[0] // 8]\n"
KEEP_CASES = """\
cases:
- {case_id: 1, input_shape: [[16, 8]], dtype: [float32], attrs: {}}
- {case_id: 2, input_shape: [[4, 64]], dtype: [float32], attrs: {}}
"""


def test_empty_cases_import_and_a_generated_kernel_passes_them_on_both_engines(
    bench_set, client, native, capsys
):
    write_task(
        bench_set / "level1" / "relu_twice", RELU_PROTO, RELU_GOLDEN, RELU_CASES, "cases.yaml"
    )
    write_task(
        bench_set / "level2" / "keep_rows", KEEP_PROTO, KEEP_GOLDEN, KEEP_CASES, "cases.yaml"
    )
    with capsys.disabled():
        manifest = import_tasks(bench_set, "cb-empty")
    keep, twice = manifest.task("keep_rows"), manifest.task("relu_twice")
    assert keep.skipped == {} and list(keep.case_ids.values()) == ["1", "2"]  # no row survives in 2
    spec = resolve("op://cb-empty/level2/keep_rows").spec
    assert [c.shapes["y"] for c in spec.cases] == [[2, 8], [0, 64]]
    assert spec.bench_case is spec.cases[1]  # the larger input
    assert twice.skipped == {} and len(twice.case_ids) == 3
    task = resolve("op://cb-empty/level1/relu_twice")
    assert [c.shapes["y"] for c in task.spec.cases] == [[64, 300], [0, 300], [7, 0, 3]]
    made, how = generate(task, "Ascend910B2")
    assert made is not None, how
    made = made.model_copy(update={"uri": ""})
    for c in (client, native):
        r = evaluate(c, made, "empty-generated")
        assert r.status is Status.OK, r.message
        assert [x.passed for x in r.cases] == [True, True, True]
