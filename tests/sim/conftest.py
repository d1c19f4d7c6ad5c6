"""Shared fixtures of the simulator tests: build and run one kernel against our headers.

`run_kernel` wraps a kernel body in a throwaway operator package whose generic host tiling passes
up to 8 integers (`params`) to the kernel as `t.p[i]`, sets the block dim and the workspace, then
runs the launch harness directly and returns the raw outputs, so API tests can compare numbers
(and statuses) without a numpy reference inside the package.
"""

from __future__ import annotations

import json
import subprocess
from concurrent import futures
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

from ascend_core.package import ASCENDC_TYPES, load_package
from ascend_core.protocol import DEFAULT_SOC
from npu_daemon.backends.common import build, kernel_view, launch
from npu_daemon.backends.sim.backend import soc_params
from npu_daemon.backends.sim.kernel_build import build_kernel

PACKAGES = Path(__file__).parent / "packages"

HOST = """#include "register/op_def_registry.h"
#include "simk_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus SimkTiling(gert::TilingContext* ctx) {
  SimkTilingData t;
  const gert::RuntimeAttrs* attrs = ctx->GetAttrs();
  const gert::ContinuousVector* params = attrs->GetListInt(0);
  int64_t p[8] = {};
  for (size_t i = 0; i < params->GetSize() && i < 8; ++i) p[i] = static_cast<const int64_t*>(params->GetData())[i];
  t.set_p(p);
  ctx->SetBlockDim(static_cast<uint32_t>(*attrs->GetInt(1)));
  ctx->SetTilingKey(static_cast<uint64_t>(*attrs->GetInt(3)));
  size_t* ws = ctx->GetWorkspaceSizes(1);
  ws[0] = static_cast<size_t>(*attrs->GetInt(2)) + platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo()).GetLibApiWorkSpaceSize();
  t.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
  ctx->GetRawTilingData()->SetDataSize(t.GetDataSize());
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class Simk : public OpDef {
 public:
  explicit Simk(const char* name) : OpDef(name) { this->AICore().SetTiling(optiling::SimkTiling).AddConfig("ascend910b"); }
};
OP_ADD(Simk);
}  // namespace ops
"""

TILING_H = """#pragma once
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(SimkTilingData)
TILING_DATA_FIELD_DEF_ARR(int64_t, 8, p);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Simk, SimkTilingData)
}  // namespace optiling
"""

STORAGE = {
    "float16": np.float16,
    "float32": np.float32,
    "bfloat16": np.uint16,
    "int8": np.int8,
    "uint8": np.uint8,
    "int16": np.int16,
    "int32": np.int32,
    "int64": np.int64,
    **dict.fromkeys(("float8_e4m3fn", "float8_e5m2", "float8_e8m0", "hifloat8"), np.uint8),
}
NP_NAMES = {np.dtype(v): k for k, v in STORAGE.items() if k != "bfloat16" and v != np.uint8}
NP_NAMES[np.dtype(np.uint8)] = "uint8"


@dataclass
class KernelRun:
    status: str
    message: str
    outputs: dict[str, np.ndarray] = field(default_factory=dict)
    result: dict = field(default_factory=dict)

    def ok(self) -> KernelRun:
        assert self.status == "OK", self.message
        return self


def _entry(ins: dict, outs: dict) -> str:
    params = ", ".join(f"GM_ADDR {n}" for n in [*ins, *outs, "workspace", "tiling"])
    return f'extern "C" __global__ __aicore__ void simk({params})'


def run_kernel(
    tmp: Path,
    body: str,
    inputs: dict[str, np.ndarray],
    outputs: dict[str, tuple[str, tuple[int, ...]]],
    params: list[int] = (),
    block_dim: int = 1,
    workspace: int = 0,
    tiling_key: int = 0,
    prelude: str = "",
    soc: str = DEFAULT_SOC,
    host: str = HOST,
    tiling_h: str = TILING_H,
    strict: bool = True,
    files: dict[str, str] | None = None,
    value_depend: tuple[str, ...] = (),
) -> KernelRun:
    """Compile `prelude` + the kernel entry around `body` (which may use GET_TILING_DATA(t, tiling)), run it.

    `files` adds package files (path -> text) beside the generated ones; `value_depend` names the
    inputs the spec lets the tiling read.
    Inputs are numpy arrays (bfloat16 as uint16 bits: pass a ("bfloat16", array) tuple), outputs are
    (dtype name, shape); the kernel sees GM_ADDR parameters named like the dicts' keys.
    """
    kernel = f'#include "kernel_operator.h"\nusing namespace AscendC;\n{prelude}\n{_entry(inputs, outputs)} {{\n{body}\n}}\n'
    root = tmp / "simk"
    (root / "op_host").mkdir(parents=True, exist_ok=True)
    (root / "op_kernel").mkdir(exist_ok=True)
    in_dtypes = {
        k: (v[0] if isinstance(v, tuple) else NP_NAMES[np.asarray(v).dtype])
        for k, v in inputs.items()
    }
    arrays = {
        k: np.ascontiguousarray(v[1] if isinstance(v, tuple) else v) for k, v in inputs.items()
    }
    args = [*(f'{{ name = "{k}", dtypes = ["{d}"] }}' for k, d in in_dtypes.items())]
    outs = [*(f'{{ name = "{k}", dtypes = ["{d}"] }}' for k, (d, _) in outputs.items())]
    shapes = {
        **{k: list(a.shape) for k, a in arrays.items()},
        **{k: list(s) for k, (_, s) in outputs.items()},
    }
    all_dtypes = {**in_dtypes, **{k: d for k, (d, _) in outputs.items()}}
    shape_list = ", ".join(f"{k} = {v}" for k, v in shapes.items())
    dtype_list = ", ".join(f'{k} = "{d}"' for k, d in all_dtypes.items())
    (root / "op.toml").write_text(
        f'name = "simk"\nlevel = 1\ncategory = "test"\ninputs = [{", ".join(args)}]\noutputs = [{", ".join(outs)}]\n'
        f'reference = "reference:simk"\n[[cases]]\nname = "c"\nbench = true\ndtype = "float32"\n'
        f"shapes = {{ {shape_list} }}\ndtypes = {{ {dtype_list} }}\n"
    )
    (root / "reference.py").write_text("def simk(*a):\n    raise NotImplementedError\n")
    (root / "op_host" / "simk_tiling.h").write_text(tiling_h)
    (root / "op_host" / "simk.cpp").write_text(host)
    (root / "op_kernel" / "simk.cpp").write_text(kernel)
    for path, text in (files or {}).items():  # more package files, by path in the package
        (root / path).write_text(text)
    pkg = load_package(root)
    work = root  # the compilers run in the package directory
    rt = build.ensure_runtime()
    macros = {f"DTYPE_{k.upper()}": ASCENDC_TYPES[d] for k, d in all_dtypes.items()}
    # The tiling and the kernel compile side by side (as the daemon builds them); a failure is
    # reported as the sequential build would, the tiling's first.
    with futures.ThreadPoolExecutor(2) as pool:
        tiling = pool.submit(build.build_tiling, pkg, work, rt, 120)
        kernel = pool.submit(build_kernel, pkg, macros, work, rt, 120)
        try:
            tiling_so, _ = tiling.result()
            kernel_so, _ = kernel.result()
        except build.BuildError as e:
            return KernelRun("COMPILE_ERROR", e.log)
    for k, a in arrays.items():
        a.tofile(work / f"in_{k}.bin")
    p = list(params) + [0] * (8 - len(params))
    launch.LaunchSpec(
        op_type="Simk",
        kernel="simk",
        tiling_so=tiling_so,
        kernel_so=kernel_so,
        kernel_type=kernel_view.kernel_type(pkg),
        result=work / "result.json",
        # The API tests check every condition as an error; strict=False gives the default mode,
        # where conditions the device runs through are warnings.
        params={**soc_params(soc), "sim_strict": str(int(strict))},
        inputs=[
            launch.TensorArg(
                name=k,
                dtype=in_dtypes[k],
                shape=list(a.shape),
                path=str(work / f"in_{k}.bin"),
                value_depend=k in value_depend,
            )
            for k, a in arrays.items()
        ],
        outputs=[
            launch.TensorArg(name=k, dtype=d, shape=list(s), path=str(work / f"out_{k}.bin"))
            for k, (d, s) in outputs.items()
        ],
        attrs=[
            launch.Attr(name="params", kind="list_int", value=p),
            launch.Attr(name="block_dim", kind="int", value=block_dim),
            launch.Attr(name="workspace", kind="int", value=workspace),
            launch.Attr(name="tiling_key", kind="int", value=tiling_key),
        ],
    ).write(work / "launch.txt")
    (work / "result.json").unlink(missing_ok=True)
    done = subprocess.run(
        [str(rt.harness), "launch.txt"], cwd=work, capture_output=True, text=True, timeout=120
    )
    if not (work / "result.json").exists():
        return KernelRun("CRASH", done.stderr[-2000:] + done.stdout[-2000:])
    result = json.loads((work / "result.json").read_text())
    run = KernelRun(result["status"], result["message"], result=result)
    if run.status == "OK":
        for k, (d, s) in outputs.items():
            run.outputs[k] = np.fromfile(work / f"out_{k}.bin", dtype=STORAGE[d]).reshape(s)
    return run


@pytest.fixture()
def kernel(tmp_path):
    """`kernel(body, inputs, outputs, **kw)` -> KernelRun; see run_kernel."""
    counter = iter(range(1000))

    def run(body: str, inputs: dict, outputs: dict, **kw) -> KernelRun:
        return run_kernel(tmp_path / f"k{next(counter)}", body, inputs, outputs, **kw)

    return run


def bf16_bits(x: np.ndarray) -> np.ndarray:
    u = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def bf16_values(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32)


# Kernel-side helpers for API tests: a bump allocator over one TBuf, GM<->UB copies, full barriers.
# The kernel writes the eight tiling words the host filled.
TILING_WORDS = """GET_TILING_DATA(t, tiling); GlobalTensor<int64_t> zg; zg.SetGlobalBuffer((__gm__ int64_t*)z, 8);
  for (int i = 0; i < 8; ++i) zg.SetValue(i, t.p[i]);"""


def tiling_words(kernel, includes: str, code: str) -> list[int]:
    """The tiling words after `code` (host C++ filling int64_t p[8]) ran in HOST's tiling function."""
    host = includes + HOST.replace("  t.set_p(p);", code + "\n  t.set_p(p);")
    r = kernel(TILING_WORDS, {"x": np.zeros(8, np.float32)}, {"z": ("int64", (8,))}, host=host).ok()
    return [int(v) for v in r.outputs["z"]]


UB_HELPERS = """
struct Ub {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  uint32_t used = 0;
  Ub() { pipe.InitBuffer(buf, 160 * 1024); }
  template <typename T> LocalTensor<T> Alloc(uint32_t n) {
    LocalTensor<T> t = buf.GetWithOffset<T>(n, used);
    used += (n * sizeof(T) + 31) / 32 * 32;
    return t;
  }
  template <typename T> LocalTensor<T> In(GM_ADDR p, uint32_t n) {
    LocalTensor<T> t = Alloc<T>(n);
    GlobalTensor<T> g;
    g.SetGlobalBuffer((__gm__ T*)p, n);
    DataCopy(t, g, n);
    return t;
  }
  template <typename T> void Out(GM_ADDR p, const LocalTensor<T>& t, uint32_t n) {
    GlobalTensor<T> g;
    g.SetGlobalBuffer((__gm__ T*)p, n);
    DataCopy(g, t, n);
  }
};
#define SYNC() PipeBarrier<PIPE_ALL>()
"""


def lane_offsets(
    repeats: int, per_repeat: int, per_block: int, lanes: list[int], blk: int, rep: int
) -> np.ndarray:
    """Element offsets of `lanes` (active lane numbers) in every repeat, for block/repeat strides in 32 B blocks."""
    out = [
        r * rep * per_block + (e // per_block) * blk * per_block + e % per_block
        for r in range(repeats)
        for e in lanes
    ]
    return np.array(out, dtype=np.int64)
