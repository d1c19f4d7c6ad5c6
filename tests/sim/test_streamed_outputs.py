"""Outputs too large for files are compared as the launcher writes them (output_stream), and an
element-wise reference is computed a piece at a time (references.write_reference_pieces). The
size bound is lowered here so that small cases take the path benchmark-sized ones take."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from ascend_core import suite
from ascend_core.package import Tolerance, load_package
from ascend_core.protocol import EvalRequest, Stage, Status
from npu_daemon import checker
from npu_daemon.backends.sim import SimBackend, case_data

ADD = suite.SUITE_ROOT / "level1" / "add"


def _own_add(tmp: Path, reference: str) -> Path:
    """level1/add as the client's own operator `myadd`: its reference is the client's code."""
    root = tmp / "myadd"
    shutil.copytree(ADD, root, ignore=shutil.ignore_patterns("expert", "__pycache__"))
    toml = (root / "op.toml").read_text()
    (root / "op.toml").write_text(
        toml.replace('name = "add"', 'name = "myadd"\nop_type = "Add"\nkernel = "add"', 1)
    )
    (root / "reference.py").write_text(reference)
    return root


def _evaluate(pkg, tmp: Path, name: str):
    request = EvalRequest(package=pkg, stages=[Stage.COMPILE, Stage.CHECK, Stage.TIME])
    return SimBackend().evaluate(request, tmp / name)


@pytest.fixture
def streamed_everywhere(monkeypatch):
    """Every case's outputs stream, and references are computed 1000 elements at a time."""
    monkeypatch.setattr(case_data, "SAMPLED_PAST_BYTES", 0)
    monkeypatch.setattr(checker, "CHUNK", 1000)


def test_a_streamed_run_gives_what_a_run_through_files_gives(tmp_path, monkeypatch):
    pkg = load_package(ADD)
    files = _evaluate(pkg, tmp_path, "files")
    monkeypatch.setattr(case_data, "SAMPLED_PAST_BYTES", 0)
    streamed = _evaluate(pkg, tmp_path, "streamed")
    assert files.status is Status.OK and streamed.status is Status.OK, streamed.message
    assert streamed.cases == files.cases and streamed.latency_us == files.latency_us


def test_a_wrong_output_streamed_is_a_wrong_answer_naming_the_element(tmp_path, monkeypatch):
    """The client's reference says x - y: every case fails as it fails through files, with the
    same message (the first element, counted over the whole output, not the piece)."""
    pkg = load_package(_own_add(tmp_path, "def add(x, y):\n    return x - y\n"))
    files = _evaluate(pkg, tmp_path, "files")
    monkeypatch.setattr(case_data, "SAMPLED_PAST_BYTES", 0)
    monkeypatch.setattr(checker, "CHUNK", 1000)
    streamed = _evaluate(pkg, tmp_path, "streamed")
    assert files.status is Status.WRONG_ANSWER
    assert (streamed.status, streamed.message) == (files.status, files.message)
    assert streamed.cases == files.cases


def test_a_client_reference_computed_in_pieces_in_the_sandbox(tmp_path, streamed_everywhere):
    """The element-wise client reference runs in the sandboxed child a piece at a time and its
    files come back checked: the candidate passes every case, the bench case included."""
    reference = "import numpy as np\n\n\ndef add(x, y):\n    assert x.ndim == 1 and x.size <= 1000\n    return x + y\n"
    result = _evaluate(load_package(_own_add(tmp_path, reference)), tmp_path, "pieces")
    assert result.status is Status.OK, result.message
    assert [c.name for c in result.cases] == [c.name for c in load_package(ADD).spec.cases]


def test_a_reference_in_pieces_leaving_elements_undefined(tmp_path, streamed_everywhere):
    """A masked reference marks elements undefined piece by piece: they are not compared."""
    reference = (
        "import numpy as np\n\n\ndef add(x, y):\n"
        "    return np.ma.masked_where(np.arange(x.size) % 2 == 1, x + y + (np.arange(x.size) % 2))\n"
    )
    result = _evaluate(load_package(_own_add(tmp_path, reference)), tmp_path, "masked")
    assert result.status is Status.OK, result.message


def test_a_comparison_fed_in_pieces_equals_one_fed_whole():
    rng = np.random.default_rng(0)
    want = rng.standard_normal(10_000).astype(np.float16)
    got = want.copy()
    got[[17, 4_321, 9_999]] = [np.float16(3.0), np.nan, np.float16(-7.5)]
    tol = Tolerance(atol=1e-3, rtol=1e-3, max_outlier_fraction=1e-4)
    whole = checker.compare("c", got, want, "float16", tol)
    pieces = checker.Comparison("float16", tol)
    for lo in range(0, want.size, 999):
        pieces.add(got[lo : lo + 999], want[lo : lo + 999])
    assert pieces.check("c") == whole
    assert not whole.passed and "first at flat index 4321" in whole.message


def test_only_an_element_wise_case_of_one_shape_is_computed_in_pieces():
    add = load_package(ADD).spec
    assert add.elementwise(add.bench_case)
    reduce_sum = suite.resolve("level2/reduce_sum_last").spec
    assert not reduce_sum.elementwise(reduce_sum.bench_case)
