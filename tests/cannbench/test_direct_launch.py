"""cann-bench's direct-launch layout through the one evaluation entry: the project's plugin and
tiling function as the host tiling, its kernel launched as its plugin launches it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from ascend_gym.cannbench import direct_launch

from .conftest import DIRECT_KERNEL, DIRECT_PLUGIN, direct_project, write_task

CLI = [sys.executable, "-m", "ascend_gym.cli"]


def test_the_host_part_keeps_the_tiling_and_records_the_launches():
    host = direct_launch.host_part(DIRECT_KERNEL)
    assert host.count("\n") == DIRECT_KERNEL.count("\n")  # diagnostics keep the project's lines
    assert "__aicore__" not in host and "AscendC::" not in host and "kernel_operator.h" not in host
    assert "scaled_add_tiling(int64_t total, int64_t elemBytes)" in host
    assert "::cann_bench_direct::Launch(0, blocks, nullptr, stream)(x1, x2, y," in host
    assert "::cann_bench_direct::Launch(1, blocks, nullptr, stream)(x1, x2, y," in host
    kernels = direct_launch.launched_kernels(DIRECT_KERNEL)
    assert kernels == ["scaled_add_kernel<half>", "scaled_add_kernel<float>"]


def _score(op_dir: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CLI, "cann-bench", "score", str(op_dir), "--suite", "cb-direct"],
        capture_output=True,
        text=True,
        timeout=900,
    )


def test_a_direct_launch_submission_is_evaluated_as_it_is(bench_set, tmp_path):
    subprocess.run(
        [*CLI, "cann-bench", "import", str(bench_set), "--name", "cb-direct"],
        check=True,
        timeout=300,
    )
    op_dir = direct_project(tmp_path)
    score = _score(op_dir)
    assert score.returncode == 0, score.stdout + score.stderr
    assert "| case_1 | 1 | OK" in score.stdout and "| case_2 | 2 | OK" in score.stdout  # alpha 0.5
    # a dtype the plugin launches nothing for leaves its output unwritten, as on the NPU
    plugin = op_dir / "op_plugin" / "scaled_add_plugin.cpp"
    plugin.write_text(DIRECT_PLUGIN.replace("torch::kFloat32", "torch::kBFloat16"))
    partial = _score(op_dir)
    assert partial.returncode == 1, partial.stdout + partial.stderr
    assert "| case_1 | 1 | OK" in partial.stdout
    assert "| case_2 | 2 | WRONG_ANSWER |" in partial.stdout
    # a plugin whose output is not the task's is a runtime error that says so
    plugin.write_text(
        DIRECT_PLUGIN.replace("torch::empty_like(x1)", "torch::empty({7}, x1.options())")
    )
    wrong = _score(op_dir)
    assert wrong.returncode == 1 and "| case_1 | 1 | RUNTIME_ERROR |" in wrong.stdout, wrong.stdout


FP8_PROTO = """\
operator:
  name: Fp8Dequant
  difficulty: L1
  attrs:
  - name: scale
    type: float
    default: 1.0
  inputs:
  - name: x
    dtype: [float8_e4m3fn]
  outputs:
  - name: y
    dtype: [float32]
  schema: fp8_dequant(Tensor x, float scale=1.0) -> Tensor y
"""
FP8_GOLDEN = """\
import torch


def fp8_dequant(x: torch.Tensor, scale: float = 1.0) -> torch.Tensor:
    return x.float() * scale
"""
FP8_CASES = """\
cases:
- case_id: 1
  input_shape: [[64, 300]]
  dtype: [float8_e4m3fn]
  attrs: {scale: 0.5}
  value_range: [[-8, 8]]
"""
FP8_KERNEL = """\
#include <algorithm>
#include "kernel_operator.h"

template <typename T>
__global__ __aicore__ void fp8_dequant_kernel(GM_ADDR x, GM_ADDR y, int64_t total, int64_t perCore,
                                              float scale)
{
    int64_t start = perCore * AscendC::GetBlockIdx();
    uint32_t n = static_cast<uint32_t>(std::min(perCore, total - start));
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> qbuf, fbuf;
    pipe.InitBuffer(qbuf, (n + 31) / 32 * 32);
    pipe.InitBuffer(fbuf, (n + 7) / 8 * 32);
    AscendC::GlobalTensor<T> xg;
    AscendC::GlobalTensor<float> yg;
    xg.SetGlobalBuffer((__gm__ T *)x + start);
    yg.SetGlobalBuffer((__gm__ float *)y + start);
    auto q = qbuf.Get<T>();
    auto f = fbuf.Get<float>();
    AscendC::DataCopyPad(q, xg, {1, n, 0, 0, 0}, AscendC::DataCopyPadExtParams<T>{false, 0, 0, 0});
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Cast(f, q, AscendC::RoundMode::CAST_NONE, n);
    AscendC::Muls(f, f, scale, n);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopyPad(yg, f, {1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0});
}

extern "C" void launch_fp8_dequant(GM_ADDR x, GM_ADDR y, int64_t total, float scale, void *stream)
{
    int64_t blocks = 8, perCore = (total + blocks - 1) / blocks;
    fp8_dequant_kernel<fp8_e4m3fn_t><<<blocks, nullptr, stream>>>(x, y, total, perCore, scale);
}
"""
FP8_PLUGIN = """\
#include <torch/all.h>
#include <torch/library.h>
#include "torch_npu/csrc/core/npu/NPUStream.h"
#include "torch_npu/csrc/framework/OpCommand.h"

#ifndef GM_ADDR
#define GM_ADDR void *
#endif
extern "C" void launch_fp8_dequant(GM_ADDR x, GM_ADDR y, int64_t total, float scale, void *stream);

TORCH_LIBRARY_FRAGMENT(cann_bench, m)
{
    m.def("fp8_dequant(Tensor x, float scale=1.0) -> Tensor");
}

torch::Tensor fp8_dequant_npu(const torch::Tensor &x, double scale)
{
    TORCH_CHECK(x.scalar_type() == torch::kFloat8_e4m3fn, "x is not float8_e4m3fn");
    TORCH_CHECK(x.element_size() == 1, "a float8 element is one byte");
    auto y = torch::empty(x.sizes(), torch::kFloat32);
    auto stream = c10_npu::getCurrentNPUStream().stream(false);
    auto a = (GM_ADDR)x.data_ptr();
    auto b = (GM_ADDR)y.data_ptr();
    int64_t total = x.numel();
    at_npu::native::OpCommand::RunOpApi("Fp8Dequant", [=]() -> int {
        launch_fp8_dequant(a, b, total, scale, stream);
        return 0;
    });
    return y;
}

TORCH_LIBRARY_IMPL(cann_bench, PrivateUse1, m)
{
    m.impl("fp8_dequant", fp8_dequant_npu);
}
"""


def test_a_direct_launch_plugin_is_handed_float8_tensors(tmp_path, monkeypatch):
    """The plugin sees the case's float8_e4m3fn input as torch's type of that name (one byte an
    element), and the kernel it launches for it casts the bytes to float exactly."""
    monkeypatch.setenv("ASCEND_GYM_DATA", str(tmp_path / "data"))
    bench = tmp_path / "fp8_bench"
    write_task(bench / "level1" / "fp8_dequant", FP8_PROTO, FP8_GOLDEN, FP8_CASES, "cases.yaml")
    subprocess.run(
        [*CLI, "cann-bench", "import", str(bench), "--name", "cb-fp8"], check=True, timeout=300
    )
    op_dir = tmp_path / "project" / "csrc" / "ops" / "fp8_dequant"
    (op_dir / "op_kernel").mkdir(parents=True)
    (op_dir / "op_plugin").mkdir()
    (op_dir / "op_kernel" / "fp8_dequant_kernel.cpp").write_text(FP8_KERNEL)
    (op_dir / "op_plugin" / "fp8_dequant_plugin.cpp").write_text(FP8_PLUGIN)
    score = subprocess.run(
        [*CLI, "cann-bench", "score", str(op_dir), "--suite", "cb-fp8"],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert score.returncode == 0, score.stdout + score.stderr
    assert "| case_1 | 1 | OK" in score.stdout, score.stdout
