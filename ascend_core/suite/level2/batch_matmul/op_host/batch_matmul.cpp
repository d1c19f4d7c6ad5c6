// Host tiling: one Matmul block per batch (the whole M x N of a batch on one cube core); the
// cores take the batches round robin.
#include "batch_matmul_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

constexpr int32_t CUBE_CORES = 20;    // @tune cube_cores in [1, 24] step 1
constexpr int32_t SPLIT_PER_BATCH = 1;  // @tune split_per_batch in [1, 24] step 1

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  const gert::Shape& a = context->GetInputShape(0)->GetStorageShape();
  const gert::Shape& b = context->GetInputShape(1)->GetStorageShape();
  const int32_t B = static_cast<int32_t>(a.GetDim(0)), M = static_cast<int32_t>(a.GetDim(1));
  const int32_t K = static_cast<int32_t>(a.GetDim(2)), N = static_cast<int32_t>(b.GetDim(2));
  platform_ascendc::PlatformAscendC plat(context->GetPlatformInfo());
  const int32_t cores = std::min<int32_t>(CUBE_CORES, static_cast<int32_t>(plat.GetCoreNumAic()));
  matmul_tiling::MultiCoreMatmulTiling mt(plat);
  using namespace matmul_tiling;
  mt.SetDim(std::max(1, SPLIT_PER_BATCH));
  mt.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  mt.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  mt.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  mt.SetShape(M, N, K);
  mt.SetOrgShape(M, N, K);
  mt.SetBufferSpace(-1, -1, -1);
  BatchMatmulTilingData t;
  if (mt.GetTiling(t.mm) == -1) return ge::GRAPH_FAILED;
  t.set_batch(static_cast<uint32_t>(B));
  t.set_blocksPerBatch(static_cast<uint32_t>(t.mm.usedCoreNum));
  context->SetBlockDim(static_cast<uint32_t>(std::min(cores, B * t.mm.usedCoreNum)));
  t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(t.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize();
  return ge::GRAPH_SUCCESS;
}

}  // namespace optiling

namespace ops {
class BatchMatmul : public OpDef {
 public:
  explicit BatchMatmul(const char* name) : OpDef(name) {
    this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(BatchMatmul);
}  // namespace ops
