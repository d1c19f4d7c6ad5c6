"""Timing-only and sampled launches (issue 16): lazily mapped GM, a sample of the blocks simulated
and the rest derived, and inputs generated chunk by chunk with the values of a whole draw."""

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from ascend_core.package import Case, load_package
from ascend_core.protocol import EvalRequest, Status
from npu_daemon import checker
from npu_daemon.backends.common import build
from npu_daemon.backends.sim import SimBackend
from npu_daemon.service.store import cache_key

SUITE = Path(__file__).resolve().parents[2] / "ascend_core" / "suite"

# Rows split over the blocks: the first rows % n blocks take one row more (two classes), and the
# last block also scales its rows (a class of its own).
ROWS = """GET_TILING_DATA(t, tiling); const int64_t rows = t.p[0], cols = t.p[1];
const int64_t n = GetBlockNum(), b = GetBlockIdx(), former = rows % n, base = rows / n;
const int64_t mine = base + (b < former ? 1 : 0), first = b * base + (b < former ? b : former);
TPipe pipe; TBuf<TPosition::VECCALC> buf; pipe.InitBuffer(buf, cols * 4);
LocalTensor<float> v = buf.Get<float>();
GlobalTensor<float> xg, yg; xg.SetGlobalBuffer((__gm__ float*)x); yg.SetGlobalBuffer((__gm__ float*)y);
for (int64_t r = 0; r < mine; ++r) {
  DataCopy(v, xg[(first + r) * cols], cols);
  PipeBarrier<PIPE_ALL>();
  Adds(v, v, 1.0f, cols);
  if (b == n - 1) Muls(v, v, 2.0f, cols);
  PipeBarrier<PIPE_ALL>();
  DataCopy(yg[(first + r) * cols], v, cols);
  PipeBarrier<PIPE_ALL>();
}"""


def rerun(work, *lines: str) -> dict:
    """The harness again on the same launch with `lines` added to its spec."""
    spec = work / "launch.txt"
    spec.write_text(spec.read_text() + "".join(f"{line}\n" for line in lines))
    (work / "result.json").unlink()
    (work / "out_y.bin").unlink()
    subprocess.run(
        [str(build.ensure_runtime().harness), "launch.txt"], cwd=work, check=True, timeout=120
    )
    return json.loads((work / "result.json").read_text())


@pytest.mark.parametrize("block_dim", [1, 2, 23])
def test_sampled_timing_equals_full_simulation(kernel, tmp_path, block_dim):
    rows, cols = 23 * 5 + 7, 64
    x = np.arange(rows * cols, dtype=np.float32).reshape(rows, cols)
    full = kernel(
        ROWS, {"x": x}, {"y": ("float32", (rows, cols))}, params=[rows, cols], block_dim=block_dim
    ).ok()
    sampled = rerun(tmp_path / "k0" / "simk", "timing_only", "sample_blocks")
    assert sampled["status"] == "OK", sampled["message"]
    assert not (tmp_path / "k0" / "simk" / "out_y.bin").exists()  # timing-only: no output file
    profile = sampled["profile"]
    assert profile.pop("timing") == "sampled"
    simulated = profile.pop("blocks_simulated")
    assert 1 <= simulated <= block_dim
    if block_dim == 23:  # three classes, found by probing: far fewer blocks than the launch
        assert simulated <= 14
    profile.pop("model_wall_s")
    full.result["profile"].pop("model_wall_s")
    assert sampled["latency_us"] == full.result["latency_us"]
    assert profile == full.result["profile"]


def test_a_timing_only_launch_reads_its_inputs_in_place(kernel, tmp_path):
    rows, cols = 46, 64
    x = np.ones((rows, cols), dtype=np.float32)
    full = kernel(
        ROWS, {"x": x}, {"y": ("float32", (rows, cols))}, params=[rows, cols], block_dim=4
    ).ok()
    lazy = rerun(tmp_path / "k0" / "simk", "timing_only")
    assert lazy["status"] == "OK", lazy["message"]
    assert "timing" not in lazy["profile"]  # every block ran
    assert lazy["latency_us"] == full.result["latency_us"]


SPEC = """name = "gen"
level = 1
category = "test"
inputs = [{ name = "a", dtypes = ["float16"] }, { name = "b", dtypes = ["int32"] },
          { name = "c", dtypes = ["bool"] }, { name = "d", dtypes = ["bfloat16"] },
          { name = "e", dtypes = ["float32"] }]
outputs = [{ name = "y", dtypes = ["float32"] }]
reference = "reference:gen"
[[cases]]
name = "c"
bench = true
dtype = "float16"
shapes = { a = [3, 1001], b = [2001], c = [999], d = [1500], e = [7, 301], y = [1] }
dtypes = { b = "int32", c = "bool", d = "bfloat16", e = "float32", y = "float32" }
ranges = { b = [-50, 50] }
values = { e = [1.5, -2.0, 3.25] }
"""


def test_inputs_drawn_in_chunks_equal_one_draw(tmp_path, monkeypatch):
    (tmp_path / "op.toml").write_text(SPEC)
    (tmp_path / "reference.py").write_text("def gen(*a):\n    raise NotImplementedError\n")
    pkg = load_package(tmp_path)
    case: Case = pkg.spec.bench_case
    whole = checker.make_inputs(pkg, case, 3)
    monkeypatch.setattr(checker, "CHUNK", 256)  # every input spans several chunks
    chunked = checker.make_inputs(pkg, case, 3)
    checker.write_inputs(pkg, case, 3, tmp_path)
    for name, array in whole.items():
        assert array.shape == tuple(pkg.spec.arg_shape(case, name))
        assert chunked[name].dtype == array.dtype
        assert chunked[name].tobytes() == array.tobytes()
        assert (tmp_path / f"in_{name}.bin").read_bytes() == array.tobytes()
    np.testing.assert_array_equal(whole["e"].ravel()[:4], [1.5, -2.0, 3.25, 1.5])


def test_a_sampled_request_checks_every_case_and_samples_the_bench_case(tmp_path):
    pkg = load_package(SUITE / "level1" / "relu")
    results = {}
    for timing in ("full", "sampled"):
        request = EvalRequest(package=pkg, timing=timing)
        results[timing] = SimBackend().evaluate(request, tmp_path / timing)
    full, sampled = results["full"], results["sampled"]
    assert sampled.status is Status.OK, sampled.message
    # every case is checked, the bench case on the simulated blocks' outputs
    assert [c.name for c in sampled.cases] == [c.name for c in full.cases]
    assert not sampled.profile.sampled_unchecked
    assert sampled.latency_us == full.latency_us
    assert sampled.profile.timing == "sampled"
    assert 4 <= sampled.profile.blocks_simulated < sampled.profile.block_dim
    assert "timing" not in full.profile.model_dump() and full.profile.blocks_simulated is None
    # the request's wire form and the daemon's cache key name the timing only when sampled
    assert "timing" not in EvalRequest(package=pkg).model_dump()
    fingerprint = {"backend": "sim"}
    assert cache_key(EvalRequest(package=pkg, timing="sampled"), fingerprint) != cache_key(
        EvalRequest(package=pkg), fingerprint
    )


@pytest.mark.parametrize("streamed", [False, True], ids=["files", "fifo"])
def test_a_sampled_bench_case_is_compared_where_its_blocks_stored(tmp_path, monkeypatch, streamed):
    """add judged by a reference that says x - y: the sampled run fails the bench case as the full
    run does, naming the same first element, through output files and through FIFOs (the path of
    outputs past 256 MiB); the true reference passes both ways."""
    from npu_daemon.backends.sim import case_data

    if streamed:
        monkeypatch.setattr(case_data, "SAMPLED_PAST_BYTES", 0)
    root = tmp_path / "myadd"
    shutil.copytree(SUITE / "level1" / "add", root, ignore=shutil.ignore_patterns("expert"))
    toml = (root / "op.toml").read_text()
    (root / "op.toml").write_text(
        toml.replace('name = "add"', 'name = "myadd"\nop_type = "Add"\nkernel = "add"', 1)
    )
    results = {}
    for reference in ("x + y", "x - y"):
        (root / "reference.py").write_text(f"def add(x, y):\n    return {reference}\n")
        pkg = load_package(root)
        for timing in ("full", "sampled"):
            request = EvalRequest(package=pkg, cases=[pkg.spec.bench_case.name], timing=timing)
            results[reference, timing] = SimBackend().evaluate(
                request, tmp_path / f"{'plus' if '+' in reference else 'minus'}-{timing}"
            )
    passed = results["x + y", "sampled"]
    assert passed.status is Status.OK, passed.message
    assert passed.profile.timing == "sampled" and passed.profile.blocks_simulated < 40
    failed, full = results["x - y", "sampled"], results["x - y", "full"]
    assert failed.status is Status.WRONG_ANSWER and full.status is Status.WRONG_ANSWER
    assert all("first at flat index 0;" in r.message for r in (failed, full))


def test_a_sampled_bench_case_whose_blocks_meet_by_gm_flags_runs_whole(tmp_path):
    # max_syncall with its SyncAll replaced by block 0 polling each block's row of the workspace
    # (docs/simulator.md, Flags in GM): a sample without the writers would wait for ever, so
    # the bench case runs whole and says why.
    pkg = load_package(Path(__file__).parent / "packages" / "max_syncall")
    kernel = pkg.files["op_kernel/max_syncall.cpp"]
    poll = (
        "  if (b == 0) {\n    PipeBarrier<PIPE_ALL>();\n    LocalTensor<float> fl = workBuf.Get<float>();\n"
        "    for (uint32_t i = 1; i < GetBlockNum(); ++i) do {\n      DataCopy(fl, ws[i * 8], 8);\n"
        "      SetFlag<HardEvent::MTE2_S>(EVENT_ID2);\n      WaitFlag<HardEvent::MTE2_S>(EVENT_ID2);\n"
        "    } while (fl.GetValue(1) != -3.0e38f);\n  }\n"
    )
    assert "  SyncAll();\n" in kernel
    pkg = pkg.with_sources(kernel=kernel.replace("  SyncAll();\n", poll))
    request = EvalRequest(package=pkg, cases=[pkg.spec.bench_case.name], timing="sampled")
    result = SimBackend().evaluate(request, tmp_path / "flags")
    assert result.status is Status.OK, result.message
    assert "a block polls GM" in result.profile.sampled_unchecked
