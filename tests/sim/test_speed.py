"""The speed machinery keeps results the same: the bit-level compare shortcut, the case data cache
(shared, read-only, tamper-checked, bounded, never inside a candidate's directory) and the
concurrent build's error order."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import numpy as np
import pytest

from ascend_core import suite
from ascend_core.package import Tolerance
from ascend_core.protocol import EvalRequest, Stage, Status
from npu_daemon import checker
from npu_daemon.backends.sim import SimBackend, case_data


def test_compare_counts_only_real_differences():
    want = np.array([1.0, 0.0, 2.0, np.nan, 4.0, 5.0, 6.0, 7.0], np.float16)
    got = want.copy()
    got[1] = -0.0  # equal value, different bits
    got.view(np.uint16)[3] = 0x7E01  # another NaN payload: still both NaN
    got[2] = np.float16(2.001953125)  # one ulp off, inside the tolerance
    got[5] = 9.0
    check = checker.compare("c", got, want, "float16", Tolerance(atol=1e-2, rtol=1e-2))
    assert not check.passed
    assert check.outlier_fraction == 1 / 8
    assert check.max_abs_error == 4.0 and check.max_rel_error == 4.0 / 5.0
    assert "1 of 8 elements" in check.message and "first at flat index 5" in check.message
    assert (
        checker.compare("c", want.copy(), want, "float16", Tolerance(atol=0, rtol=0)).max_abs_error
        == 0.0
    )


@pytest.fixture()
def add_case(tmp_path, monkeypatch):
    monkeypatch.setenv("ASCEND_GYM_CACHE", str(tmp_path / "cache"))
    pkg = suite.resolve("level1/add")
    return pkg, pkg.spec.case("uneven_fp32")


def test_case_data_matches_the_checker_and_is_shared_read_only(add_case):
    pkg, case = add_case
    want = checker.make_inputs(pkg, case, 3)
    with case_data.case_data(pkg, case, 3) as first:
        path = first.input_path("x")
        assert {k: v.tobytes() for k, v in first.inputs().items()} == {
            k: v.tobytes() for k, v in want.items()
        }
        assert stat.S_IMODE(path.stat().st_mode) == 0o444
        ref = first.reference(60.0)
        assert ref[0].tobytes() == checker.reference_outputs(pkg, case, want)[0].tobytes()
        assert (
            stat.S_IMODE(Path(ref[0].filename).stat().st_mode) == 0o400
        )  # the daemon's alone, never a candidate's
        assert not ref[0].flags.writeable
    with case_data.case_data(pkg, case, 3) as again:
        assert (
            again.input_path("x") == path
            and path.stat().st_ino == again.input_path("x").stat().st_ino
        )
    with case_data.case_data(pkg, case, 4) as other_seed:
        assert other_seed.input_path("x") != path


def test_tampered_inputs_are_rebuilt(add_case):
    pkg, case = add_case
    with case_data.case_data(pkg, case, 0) as data:
        path = data.input_path("x")
        original = path.read_bytes()
    os.chmod(path, 0o644)
    path.write_bytes(bytes(len(original)))
    with case_data.case_data(pkg, case, 0) as data:
        assert data.input_path("x").read_bytes() == original


def test_eviction_spares_entries_in_use(add_case, monkeypatch):
    pkg, case = add_case
    monkeypatch.setenv("ASCEND_GYM_SIM_CASE_CACHE_MB", "0")
    with case_data.case_data(pkg, case, 0) as held:
        with case_data.case_data(pkg, case, 1) as newer:
            assert held.input_path("x").exists() and newer.input_path("x").exists()
    with case_data.case_data(pkg, case, 2) as last:
        assert not held.input_path("x").exists() and not newer.input_path("x").exists()
        assert last.input_path("x").exists()


def test_the_cache_total_is_kept_and_the_entries_scanned_only_past_the_bound(add_case, monkeypatch):
    """A scan reads every entry's manifest (seconds for a full cache): a new entry adds its bytes
    to the running total, and only a total past the bound, or one that cannot be right, scans."""
    pkg, case = add_case
    scans = []
    evict = case_data._evict
    monkeypatch.setattr(case_data, "_evict", lambda *a: scans.append(a) or evict(*a))

    def held() -> int:
        return sum(
            json.loads(m.read_text())["bytes"] for m in case_data.root().glob("*/manifest.json")
        )

    usage = case_data.root() / "usage"
    for seed in range(3):
        with case_data.case_data(pkg, case, seed):
            pass
    assert len(scans) == 1  # the first entry: no total yet
    assert int(usage.read_text()) == held() > 0
    usage.write_text("-1000000000")  # damaged: recounted, never taken as room to grow
    with case_data.case_data(pkg, case, 3):
        pass
    assert len(scans) == 2 and int(usage.read_text()) == held()
    bound = held() * 9 // 8  # four entries held: room for half of one more
    monkeypatch.setattr(case_data, "limit_bytes", lambda: bound)
    with case_data.case_data(pkg, case, 4):  # five entries, past the bound: down to 90 % of it
        pass
    assert len(scans) == 3 and int(usage.read_text()) == held()
    assert held() <= case_data.LOW_WATER * case_data.limit_bytes()


def test_candidate_directory_holds_no_inputs_or_references(tmp_path):
    pkg = suite.resolve("level1/add")
    request = EvalRequest(package=pkg, stages=[Stage.COMPILE, Stage.CHECK], cases=["tail_fp16"])
    result = SimBackend().evaluate(request, tmp_path)
    assert result.status is Status.OK, result.message
    launch = (tmp_path / "case-tail_fp16" / "launch.txt").read_text()
    inputs = [Path(line.split()[-1]) for line in launch.splitlines() if line.startswith("input ")]
    assert inputs and all(not p.is_relative_to(tmp_path) for p in inputs)
    assert not [
        p
        for p in tmp_path.rglob("*")
        if p.suffix in (".npy", ".bin") and not p.name.startswith("out_")
    ]


@pytest.mark.parametrize("broken", ["both", "kernel"])
def test_concurrent_build_reports_errors_in_build_order(tmp_path, broken):
    pkg = suite.resolve("level1/add")
    pkg = pkg.with_sources(
        tiling=pkg.tiling_source + ("\nint tiling_oops = ;\n" if broken == "both" else ""),
        kernel=pkg.kernel_source + "\nint kernel_oops = ;\n",
    )
    result = SimBackend().evaluate(
        EvalRequest(package=pkg, stages=[Stage.COMPILE, Stage.TIME]), tmp_path
    )
    assert result.status is Status.COMPILE_ERROR
    if broken == "both":
        assert result.message.startswith("host tiling program: op_host/add.cpp:")
    else:
        assert result.message.startswith("kernel: op_kernel/add.cpp:")
