"""A case whose golden's `get_input` hands the kernel another shape than the one drawn (cann-bench's
int4 cases: x declared int32 [.., 8n], packed eight values to an int32, [.., n]): the import
records both (`Case.drawn`, `shapes`). Generation traces the other cases and lowers the program
to read the words as int4b_t (`dsl/int4.py`), so one kernel serves both (gen_dev's
dequant_int4_packed and dequant_int4_offset, written from CANN's INT4 layout); with no other case
to trace, or in a form that does not read them, the reason is given."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ascend_core import suite
from ascend_core.protocol import EvalRequest, Stage
from ascend_gym.cannbench import run
from ascend_gym.cannbench.importer import import_tasks
from ascend_gym.client import DaemonClient

from .conftest import write_task

DEV = Path(__file__).parent / "data" / "gen_dev" / "level2"
TASK = DEV / "dequant_int4_packed"

# Element-wise on int4 words (a tiles loop): the form reads them only as a rows loop's row.
FLAT_PROTO = (
    "operator: {name: Int4Double, difficulty: L1, inputs: [{name: x, dtype: [int8, int32]}], "
    "outputs: [{name: y, dtype: [float16]}]}\n"
)
FLAT_GOLDEN = """\
import torch


def get_input(x, **attrs):
    if x.dtype == torch.int32:  # eight int4 values a word, element 8j + k in nibble k
        nibbles = (x.to(torch.int64) & 0xF).reshape(*x.shape[:-1], x.shape[-1] // 8, 8)
        words = (nibbles << torch.arange(0, 32, 4)).sum(-1)
        x = torch.where(words >= 2**31, words - 2**32, words).to(torch.int32)
    return [x]


def int4_double(x):
    if x.dtype == torch.int32:
        nibbles = (x.to(torch.int64).unsqueeze(-1) >> torch.arange(0, 32, 4)) & 0xF
        x = torch.where(nibbles > 7, nibbles - 16, nibbles).reshape(*x.shape[:-1], -1)
    return (x.to(torch.float32) * 2).to(torch.float16)
"""
FLAT_CASES = """\
cases:
- {operator: Int4Double, case_id: 1, input_shape: [[256]], dtype: [int8], attrs: {}}
- {operator: Int4Double, case_id: 2, input_shape: [[128]], dtype: [int32], attrs: {},
   value_range: [[-8, 7]]}
"""


def _import(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, task: Path, name: str):
    monkeypatch.setenv("ASCEND_GYM_DATA", str(tmp_path / "data"))
    shutil.copytree(task, tmp_path / name / "level2" / task.name)
    import_tasks(tmp_path / name, name)
    return suite.resolve(f"op://{name}/level2/{task.name}")


@pytest.fixture()
def packed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    return _import(tmp_path, monkeypatch, TASK, "cb-packed")


def test_the_import_keeps_the_drawn_shape_and_hands_the_packed_one(packed):
    int8, int4 = packed.spec.cases
    assert int8.drawn == {} and int8.shapes["x"] == [48, 96]
    assert int4.drawn == {"x": [16, 64]} and int4.shapes["x"] == [16, 8]
    assert int4.shapes["y"] == [16, 64] and packed.spec.arg_dtype(int4, "x") == "int32"


def test_generation_traces_the_other_cases_and_keeps_the_packed_ones(packed):
    source = run.generation_source(packed)
    assert [(c.name, c.bench) for c in source.spec.cases] == [("case_1", True), ("case_2", False)]
    assert source.spec.inputs[0].dtypes == ["int32", "int8"]
    only = packed.spec.model_copy(update={"cases": packed.spec.cases[1:]})
    made, why = run.generate(packed.model_copy(update={"spec": only}), "Ascend910B2")
    assert made is None and why.endswith("none handed as drawn"), why


def test_an_int4_input_in_another_form_is_refused_with_the_reason(tmp_path, monkeypatch):
    monkeypatch.setenv("ASCEND_GYM_DATA", str(tmp_path / "data"))
    write_task(
        tmp_path / "set" / "level1" / "int4_double",
        FLAT_PROTO,
        FLAT_GOLDEN,
        FLAT_CASES,
        "cases.yaml",
    )
    import_tasks(tmp_path / "set", "cb-flat")
    made, why = run.generate(suite.resolve("op://cb-flat/level1/int4_double"), "Ascend910B2")
    assert made is None and why.endswith("int4 inputs (x) in a tiles() kernel"), why


# the keyed form builds a second daemon program: slow (the packed form covers the default tier)
@pytest.mark.parametrize(
    "task", ["dequant_int4_packed", pytest.param("dequant_int4_offset", marks=pytest.mark.slow)]
)
def test_the_kernel_unpacks_int4_words_and_passes_every_case(
    task, tmp_path, monkeypatch, client: DaemonClient
):
    """One kernel (two programs keyed by the optional offset in dequant_int4_offset) reads the
    int8 cases as they are and the int4 words as int4b_t, each widened through half."""
    pkg = _import(tmp_path, monkeypatch, DEV / task, "cb-int4")
    made, how = run.generate(pkg, "Ascend910B2")
    assert made is not None, how
    kernel = made.files[f"op_kernel/{task}.cpp"]
    assert "Int4Words<DTYPE_X>" in kernel and "BytesOf<T>(segLen)" in kernel
    result = client.evaluate(
        EvalRequest(run_id="int4", package=made, stages=[Stage.COMPILE, Stage.CHECK, Stage.TIME])
    )
    assert result.status.value == "OK", result.message
    assert len(result.cases) == len(pkg.spec.cases) and any(c.drawn for c in pkg.spec.cases)
