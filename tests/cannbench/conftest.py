"""Small cann-bench sets written here in its layout (nothing of cann-bench is committed): a set
directory with `metadata/910b2.json` and `level<N>/<task>/` holding proto.yaml, golden.py,
cases.yaml or cases.csv and desc.md."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from ascend_core import suite

ADD_DIR = Path(suite.__file__).parent / "level1" / "add"

SCALED_ADD_PROTO = """\
operator:
  name: ScaledAdd
  category: Elementwise
  difficulty: L1
  formula: y = x1 + alpha * x2
  attrs:
  - name: alpha
    type: float
    default: 1.0
  inputs:
  - name: x1
    dtype: [float16, float32]
  - name: x2
    dtype: [float16, float32]
  outputs:
  - name: y
    dtype: [float16, float32]
  schema: scaled_add(Tensor x1, Tensor x2, float alpha=1.0) -> Tensor y
"""
SCALED_ADD_GOLDEN = """\
import torch


def scaled_add(x1: torch.Tensor, x2: torch.Tensor, alpha: float = 1.0) -> torch.Tensor:
    return x1 + alpha * x2
"""
SCALED_ADD_CASES = """\
cases:
- operator: ScaledAdd
  case_id: 1
  input_shape:
  - [64, 300]
  - [64, 300]
  dtype: [float16, float16]
  attrs: {alpha: 1.0}
  value_range:
  - [-1, 1]
  - [-1, 1]
- operator: ScaledAdd
  case_id: 2
  input_shape:
  - [4096]
  - [4096]
  dtype: [float32, float32]
  attrs: {alpha: 5e-1}  # YAML 1.1 reads a string: the importer makes it the float it is
  value_range: [-2, 2]
"""

ROW_SUM_PROTO = """\
operator:
  name: RowSum
  category: Reduce
  difficulty: L2
  precision_thresholds:
    int8: 1.0
  attrs:
  - name: dim
    type: int64
    default: -1
  - name: scales
    type: ListInt
    default: [1, 2]
  - name: bias  # also an input: the input it is
    type: int[]
    default: null
  inputs:
  - name: x
    dtype: [float32, bfloat16]
  - name: bias
    dtype: [float32, bfloat16]
    required: false
  - name: extras
    dtype: [float32]
  outputs:
  - name: y
    dtype: [float32, bfloat16]
  schema: row_sum(Tensor x, Tensor? bias, Tensor[] extras, int dim=-1, int[] scales=[1, 2]) -> Tensor y
"""
ROW_SUM_GOLDEN = """\
import torch


def row_sum(x, bias=None, extras=(), dim=-1, scales=(1, 2)):
    y = x.float().sum(dim=dim)
    for e in extras:
        y = y + e.float().sum()
    if bias is not None:
        y = y + bias.float()
    return (y * scales[0]).to(x.dtype)
"""
# cases.csv: cells are Python literals; case 3 has a float4 input and is left out
ROW_SUM_CASES = (
    "operator,case_id,input_shape,dtype,attrs,value_range,note\n"
    "RowSum,1,\"[[8, 16], [8], [[2, 3], [4]]]\",\"['float32', 'float32', ['float32', "
    '\'float32\']]","{\'dim\': -1}","[[-1, 1], [0, 1], [[-1, 0], [0, 1]]]",with bias\n'
    "RowSum,2,\"[[5, 7], None, [[3, 3], [1]]]\",\"['bfloat16', None, ['float32', "
    "'float32']]\",\"{'dim': 1, 'scales': [3, 1]}\",\"[[-2, 2], None, [[-1, 1], [-1, 1]]]\","
    "no bias\n"
    "RowSum,3,\"[[8, 16], [8], [[2, 3], [4]]]\",\"['float4_e2m1', 'float32', ['float32', "
    '\'float32\']]",{},"[-1, 1]",fp4\n'
)

FP4_PROTO = """\
operator:
  name: Fp4Only
  difficulty: L3
  inputs:
  - name: x
    dtype: [float4_e2m1]
  outputs:
  - name: y
    dtype: [float4_e2m1]
  schema: fp4_only(Tensor x) -> Tensor y
"""
FP4_CASES = """\
cases:
- case_id: 1
  input_shape: [[16]]
  dtype: [float4_e2m1]
  attrs: {}
  value_range: [[-1, 1]]
"""

METADATA = {
    "_metadata": {"hardware": "910b2", "note": "written for the tests"},
    "level1": {
        "scaled_add": {
            "1": {"baseline_perf_us": 6.0, "t_hw_us": 2.0},
            "2": {"baseline_perf_us": 5.0, "t_hw_us": 1.5},
        }
    },
    "row_sum": {"1": {"baseline_perf_us": 4.0, "t_hw_us": None}},
}


def write_task(root: Path, proto: str, golden: str, cases: str, cases_file: str) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "proto.yaml").write_text(proto)
    (root / "golden.py").write_text(golden)
    (root / cases_file).write_text(cases)
    (root / "desc.md").write_text(f"# {root.name}\n")
    return root


@pytest.fixture()
def bench_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A set of three tasks (one not importable) and its metadata; suites go to tmp."""
    monkeypatch.setenv("ASCEND_GYM_DATA", str(tmp_path / "data"))
    root = tmp_path / "my_bench"
    write_task(
        root / "level1" / "scaled_add",
        SCALED_ADD_PROTO,
        SCALED_ADD_GOLDEN,
        SCALED_ADD_CASES,
        "cases.yaml",
    )
    write_task(
        root / "level2" / "row_sum", ROW_SUM_PROTO, ROW_SUM_GOLDEN, ROW_SUM_CASES, "cases.csv"
    )
    write_task(
        root / "level3" / "fp4_only",
        FP4_PROTO,
        "def fp4_only(x):\n    return x\n",
        FP4_CASES,
        "cases.yaml",
    )
    (root / "metadata").mkdir()
    (root / "metadata" / "910b2.json").write_text(json.dumps(METADATA))
    return root


def aclnn_project(tmp: Path, op: str = "scaled_add") -> Path:
    """A submission in cann-bench's aclnn layout (csrc/ops/<op>/op_host/<op>_tiling.cpp,
    op_kernel/<op>_kernel.cpp, op_api/ glue), made of the suite's add baseline under the
    operator's names: it computes x1 + x2, right only where alpha is 1."""
    op_dir = tmp / "project" / "csrc" / "ops" / op
    shutil.rmtree(op_dir, ignore_errors=True)
    (op_dir / "op_host").mkdir(parents=True)
    (op_dir / "op_kernel").mkdir()
    (op_dir / "op_api").mkdir()  # the PyTorch glue the simulator does not need
    (op_dir / "op_api" / f"aclnn_{op}.cpp").write_text("#error not built by the simulator\n")
    header = (ADD_DIR / "op_host" / "add_tiling.h").read_text()
    header = header.replace(
        "REGISTER_TILING_DATA_CLASS(Add,", "REGISTER_TILING_DATA_CLASS(ScaledAdd,"
    )
    (op_dir / "op_host" / f"{op}_tiling.h").write_text(header)
    host = (
        (ADD_DIR / "op_host" / "add.cpp").read_text().replace('"add_tiling.h"', f'"{op}_tiling.h"')
    )
    host = host.replace("class Add ", "class ScaledAdd ").replace(
        "explicit Add(", "explicit ScaledAdd("
    )
    host = host.replace("OP_ADD(Add)", "OP_ADD(ScaledAdd)")
    (op_dir / "op_host" / f"{op}_tiling.cpp").write_text(host)
    kernel = (ADD_DIR / "op_kernel" / "add.cpp").read_text()
    for ours, theirs in (("Y", "X2"), ("Z", "Y"), ("X", "X1")):  # the task's argument names
        kernel = re.sub(rf"\bDTYPE_{ours}\b", f"DTYPE_{theirs}", kernel)
    (op_dir / "op_kernel" / f"{op}_kernel.cpp").write_text(
        kernel.replace("void add(", f"void {op}(")
    )
    return op_dir


DIRECT_KERNEL = """\
// y = x1 + alpha * x2, launched with <<<>>> by the plugin through the wrappers below
#include <algorithm>
#include <tuple>
#include "kernel_operator.h"
#include "platform/platform_ascendc.h"

constexpr int64_t MIN_PER_CORE = 2048;

template <typename T>
__global__ __aicore__ void scaled_add_kernel(GM_ADDR x1, GM_ADDR x2, GM_ADDR y, int64_t total,
                                             int64_t perCore, int64_t tile, float alpha)
{
    int64_t start = perCore * AscendC::GetBlockIdx();
    int64_t mine = std::min(perCore, total - start);
    if (mine <= 0) return;
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> in1, in2;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> out;
    pipe.InitBuffer(in1, 1, tile * sizeof(T));
    pipe.InitBuffer(in2, 1, tile * sizeof(T));
    pipe.InitBuffer(out, 1, tile * sizeof(T));
    AscendC::GlobalTensor<T> a, b, c;
    a.SetGlobalBuffer((__gm__ T *)x1 + start);
    b.SetGlobalBuffer((__gm__ T *)x2 + start);
    c.SetGlobalBuffer((__gm__ T *)y + start);
    for (int64_t done = 0; done < mine; done += tile) {
        uint32_t n = static_cast<uint32_t>(std::min(tile, mine - done));
        AscendC::DataCopyExtParams copy{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        auto l1 = in1.AllocTensor<T>();
        auto l2 = in2.AllocTensor<T>();
        AscendC::DataCopyPad(l1, a[done], copy, pad);
        AscendC::DataCopyPad(l2, b[done], copy, pad);
        in1.EnQue(l1);
        in2.EnQue(l2);
        l1 = in1.DeQue<T>();
        l2 = in2.DeQue<T>();
        auto lo = out.AllocTensor<T>();
        AscendC::Muls(lo, l2, static_cast<T>(alpha), n);
        AscendC::Add(lo, lo, l1, n);
        out.EnQue(lo);
        in1.FreeTensor(l1);
        in2.FreeTensor(l2);
        lo = out.DeQue<T>();
        AscendC::DataCopyPad(c[done], lo, copy);
        out.FreeTensor(lo);
    }
}

std::tuple<int64_t, int64_t, int64_t> scaled_add_tiling(int64_t total, int64_t elemBytes)
{
    auto platform = platform_ascendc::PlatformAscendCManager::GetInstance();
    uint64_t ub;
    platform->GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    int64_t cores = platform->GetCoreNumAiv();
    int64_t blocks = std::max<int64_t>(1, std::min(cores, (total + MIN_PER_CORE - 1) / MIN_PER_CORE));
    int64_t perCore = (total + blocks - 1) / blocks;
    int64_t tile = std::min<int64_t>(perCore, static_cast<int64_t>(ub) / 4 / elemBytes);
    return {blocks, perCore, (tile + 15) / 16 * 16};
}

extern "C" {
void launch_scaled_add_half(GM_ADDR x1, GM_ADDR x2, GM_ADDR y, int64_t total, int64_t blocks,
                            int64_t perCore, int64_t tile, float alpha, void *stream)
{
    scaled_add_kernel<half><<<blocks, nullptr, stream>>>(x1, x2, y, total, perCore, tile, alpha);
}

void launch_scaled_add_float(GM_ADDR x1, GM_ADDR x2, GM_ADDR y, int64_t total, int64_t blocks,
                             int64_t perCore, int64_t tile, float alpha, void *stream)
{
    scaled_add_kernel<float><<<blocks, nullptr, stream>>>(x1, x2, y, total, perCore, tile, alpha);
}
}
"""
DIRECT_LAUNCH_HEADER = """\
#pragma once
#include <cstdint>
#include <tuple>
#ifndef GM_ADDR
#define GM_ADDR void *
#endif
std::tuple<int64_t, int64_t, int64_t> scaled_add_tiling(int64_t total, int64_t elemBytes);
extern "C" {
void launch_scaled_add_half(GM_ADDR x1, GM_ADDR x2, GM_ADDR y, int64_t total, int64_t blocks,
                            int64_t perCore, int64_t tile, float alpha, void *stream);
void launch_scaled_add_float(GM_ADDR x1, GM_ADDR x2, GM_ADDR y, int64_t total, int64_t blocks,
                             int64_t perCore, int64_t tile, float alpha, void *stream);
}
"""
DIRECT_PLUGIN = """\
#include <ATen/Operators.h>
#include <torch/all.h>
#include <torch/library.h>
#include "torch_npu/csrc/core/npu/NPUStream.h"
#include "torch_npu/csrc/framework/OpCommand.h"
#include "../op_kernel/scaled_add_launch.h"

namespace my_bench {
TORCH_LIBRARY_FRAGMENT(cann_bench, m)
{
    m.def("scaled_add(Tensor x1, Tensor x2, float alpha=1.0) -> Tensor");
}

torch::Tensor scaled_add_npu(const torch::Tensor &x1, const torch::Tensor &x2, double alpha)
{
    TORCH_CHECK(x1.sizes() == x2.sizes(), "x1 and x2 differ in shape");
    auto y = torch::empty_like(x1);
    auto stream = c10_npu::getCurrentNPUStream().stream(false);
    int64_t total = x1.numel(), blocks, perCore, tile;
    std::tie(blocks, perCore, tile) = scaled_add_tiling(total, x1.element_size());
    auto a = (GM_ADDR)x1.data_ptr();
    auto b = (GM_ADDR)x2.data_ptr();
    auto c = (GM_ADDR)y.data_ptr();
    at_npu::native::OpCommand::RunOpApi("ScaledAdd", [=]() -> int {
        if (x1.scalar_type() == torch::kFloat16) {
            launch_scaled_add_half(a, b, c, total, blocks, perCore, tile, alpha, stream);
        } else if (x1.scalar_type() == torch::kFloat32) {
            launch_scaled_add_float(a, b, c, total, blocks, perCore, tile, alpha, stream);
        }
        return 0;
    });
    return y;
}

TORCH_LIBRARY_IMPL(cann_bench, PrivateUse1, m)
{
    m.impl("scaled_add", scaled_add_npu);
}
}  // namespace my_bench
"""


def direct_project(tmp: Path, op: str = "scaled_add") -> Path:
    """A submission in cann-bench's direct-launch layout (csrc/ops/<op>/op_kernel/<op>_kernel.cpp
    with the kernel, its tiling function and launch wrappers, <op>_launch.h, and
    op_plugin/<op>_plugin.cpp, the torch function), written here: y = x1 + alpha * x2 for
    float16 and float32."""
    op_dir = tmp / "direct_project" / "csrc" / "ops" / op
    (op_dir / "op_kernel").mkdir(parents=True, exist_ok=True)
    (op_dir / "op_plugin").mkdir(exist_ok=True)
    (op_dir / "op_kernel" / f"{op}_kernel.cpp").write_text(DIRECT_KERNEL)
    (op_dir / "op_kernel" / f"{op}_launch.h").write_text(DIRECT_LAUNCH_HEADER)
    (op_dir / "op_plugin" / f"{op}_plugin.cpp").write_text(DIRECT_PLUGIN)
    return op_dir
