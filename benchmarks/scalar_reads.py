"""A scalar-bound kernel of ours with about 10^9 scalar GM reads, evaluated as a user would.

    python benchmarks/scalar_reads.py                 # 4096 rows of 8192 fp32, 30 passes: 1.0e9 reads
    python benchmarks/scalar_reads.py --passes 1      # 3.4e7 reads, for a quick rate

`row_max` takes the maximum of each row of x (z = x.max(axis=1), exact in any order) the scalar
way: every element read with `GetValue`, each row read `passes` times over (the reads are what
is measured; the result is the same). It is written as an operator package in a temporary
directory and run by `ascend-gym eval DIR --json --run-timeout 600`, every case checked. Prints
the status, the simulated latency and its scalar share, the wall time and the peak resident
memory of the largest process of the evaluation.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

from eval_as_user import evaluate  # benchmarks/, beside this script

SPEC = """name = "row_max"
level = 1
category = "reduction"
description = "z[i, 0] = max over j of x[i, j], every element read by the scalar unit"
inputs = [{{ name = "x", dtypes = ["float32"] }}]
outputs = [{{ name = "z", dtypes = ["float32"] }}]
attrs = [{{ name = "passes", type = "int", default = 1 }}]
reference = "reference:row_max"
tolerance = "suite-default"

[[cases]]
name = "small"
dtype = "float32"
shapes = {{ x = [45, 300], z = [45, 1] }}
attrs = {{ passes = 2 }}

[[cases]]
name = "bench"
dtype = "float32"
shapes = {{ x = [{rows}, {cols}], z = [{rows}, 1] }}
attrs = {{ passes = {passes} }}
bench = true
"""

REFERENCE = """import numpy as np


def row_max(x: np.ndarray, passes: int = 1) -> np.ndarray:
    return x.max(axis=1, keepdims=True)
"""

TILING_H = """#ifndef ROW_MAX_TILING_H
#define ROW_MAX_TILING_H
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(RowMaxTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);
TILING_DATA_FIELD_DEF(uint32_t, cols);
TILING_DATA_FIELD_DEF(uint32_t, passes);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(RowMax, RowMaxTilingData)
}  // namespace optiling
#endif
"""

HOST = """#include "row_max_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  RowMaxTilingData tiling;
  const gert::Shape& shape = context->GetInputShape(0)->GetStorageShape();
  tiling.set_rows(shape.GetDim(0));
  tiling.set_cols(shape.GetDim(1));
  tiling.set_passes(static_cast<uint32_t>(*context->GetAttrs()->GetInt(0)));
  auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
  context->SetBlockDim(std::min<uint32_t>(platform.GetCoreNumAiv(), shape.GetDim(0)));
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class RowMax : public OpDef {
 public:
  explicit RowMax(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Attr("passes").AttrType(OPTIONAL).Int(1);
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(RowMax);
}  // namespace ops
"""

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void row_max(GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(t, tiling);
  GlobalTensor<float> xGm, zGm;
  xGm.SetGlobalBuffer((__gm__ float*)x);
  zGm.SetGlobalBuffer((__gm__ float*)z);
  for (uint32_t row = GetBlockIdx(); row < t.rows; row += GetBlockNum()) {
    float best = 0;
    for (uint32_t pass = 0; pass < t.passes; ++pass) {
      best = xGm.GetValue(static_cast<uint64_t>(row) * t.cols);
      for (uint32_t col = 1; col < t.cols; ++col) {
        const float v = xGm.GetValue(static_cast<uint64_t>(row) * t.cols + col);
        if (v > best) best = v;
      }
    }
    zGm.SetValue(row, best);
  }
}
"""


def write_package(root: Path, rows: int, cols: int, passes: int) -> None:
    files = {
        "op.toml": SPEC.format(rows=rows, cols=cols, passes=passes),
        "reference.py": REFERENCE,
        "op_host/row_max_tiling.h": TILING_H,
        "op_host/row_max.cpp": HOST,
        "op_kernel/row_max.cpp": KERNEL,
    }
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--rows", type=int, default=4096)
    ap.add_argument("--cols", type=int, default=8192)
    ap.add_argument("--passes", type=int, default=30)
    args = ap.parse_args()
    reads = args.rows * args.cols * args.passes
    with tempfile.TemporaryDirectory(prefix="scalar_reads-") as tmp:
        root = Path(tmp) / "row_max"
        write_package(root, args.rows, args.cols, args.passes)
        print(
            f"row_max: x [{args.rows}, {args.cols}] fp32, {args.passes} passes: {reads:.3g} "
            f"scalar GM reads; load average {os.getloadavg()[0]:.2f}"
        )
        result, wall, peak_gib = evaluate(root)
    profile = result["profile"]
    print(
        f"OK {result['latency_us']:.1f} us (simulated; aiv_scalar_time "
        f"{profile['aiv_scalar_time_us']:.1f} us per block); every case checked; wall {wall:.1f} s "
        f"({reads / wall / 1e6:.1f} M reads/s); peak RSS {peak_gib:.2f} GiB; load average "
        f"{os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main()
