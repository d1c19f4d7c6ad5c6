"""A case whose golden's `get_input` hands the kernel another shape than the one drawn (cann-bench's
int4 cases: x declared int32 [.., 8n], packed eight values to an int32, [.., n]): the import
records both (`Case.drawn`, `shapes`), and generation leaves such cases out, with its reason when
they are all a task has (gen_dev's dequant_int4_packed, written from CANN's INT4 layout)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ascend_core import suite
from ascend_gym.cannbench import run
from ascend_gym.cannbench.importer import import_tasks

TASK = Path(__file__).parent / "data" / "gen_dev" / "level2" / "dequant_int4_packed"


@pytest.fixture()
def packed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("ASCEND_GYM_DATA", str(tmp_path / "data"))
    shutil.copytree(TASK, tmp_path / "set" / "level2" / TASK.name)
    import_tasks(tmp_path / "set", "cb-packed")
    return suite.resolve(f"op://cb-packed/level2/{TASK.name}")


def test_the_import_keeps_the_drawn_shape_and_hands_the_packed_one(packed):
    int8, int4 = packed.spec.cases
    assert int8.drawn == {} and int8.shapes["x"] == [48, 96]
    assert int4.drawn == {"x": [16, 64]} and int4.shapes["x"] == [16, 8]
    assert int4.shapes["y"] == [16, 64] and packed.spec.arg_dtype(int4, "x") == "int32"


def test_generation_leaves_the_packed_cases_out_and_says_so_when_none_is_left(packed):
    source = run.generation_source(packed)
    assert [c.name for c in source.spec.cases] == ["case_1"]
    only = packed.spec.model_copy(update={"cases": packed.spec.cases[1:]})
    made, why = run.generate(packed.model_copy(update={"spec": only}), "Ascend910B2")
    assert made is None and why.endswith("none handed as drawn"), why
