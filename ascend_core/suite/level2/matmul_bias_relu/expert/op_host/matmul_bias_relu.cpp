// Expert tiling: as the baseline, with the epilogue moving many rows per copy (one long DMA instead
// of one per row) and the kernel's Matmul on the MDL template (several base blocks of K per L1 load).
#include "matmul_bias_relu_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

constexpr uint32_t ROWS_PER_COPY = 32;  // @tune rows_per_copy in [1, 64] pow2

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  const gert::Shape& x = context->GetInputShape(0)->GetStorageShape();
  const gert::Shape& w = context->GetInputShape(1)->GetStorageShape();
  const int32_t M = static_cast<int32_t>(x.GetDim(0)), K = static_cast<int32_t>(x.GetDim(1));
  const int32_t N = static_cast<int32_t>(w.GetDim(1));
  if (N % 16 != 0) return ge::GRAPH_FAILED;  // rows of C and y stay whole 32 B blocks
  platform_ascendc::PlatformAscendC plat(context->GetPlatformInfo());
  matmul_tiling::MultiCoreMatmulTiling mt(plat);
  using namespace matmul_tiling;
  mt.SetDim(static_cast<int32_t>(plat.GetCoreNumAiv()));
  mt.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  mt.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  mt.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  mt.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  mt.SetShape(M, N, K);
  mt.SetOrgShape(M, N, K);
  mt.EnableBias(true);
  mt.SetBufferSpace(-1, -1, -1);
  MatmulBiasReluTilingData t;
  if (mt.GetTiling(t.mm) == -1) return ge::GRAPH_FAILED;
  // UB: double-buffered fp32 in and fp16 out tiles of rows x singleCoreN.
  const uint32_t rowBytes = static_cast<uint32_t>(t.mm.singleCoreN) * 6 * 2;
  uint32_t rows = ROWS_PER_COPY;
  while (rows > 1 && rows * rowBytes > 180 * 1024) rows /= 2;
  t.set_rowsPerCopy(rows);
  // Groups of one AIC and two AIVs: enough for the vector blocks.
  context->SetBlockDim(static_cast<uint32_t>((t.mm.usedCoreNum + 1) / 2));
  t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(t.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize() + static_cast<size_t>(M) * N * sizeof(float);
  return ge::GRAPH_SUCCESS;
}

}  // namespace optiling

namespace ops {
class MatmulBiasRelu : public OpDef {
 public:
  explicit MatmulBiasRelu(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Input("w").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(MatmulBiasRelu);
}  // namespace ops
