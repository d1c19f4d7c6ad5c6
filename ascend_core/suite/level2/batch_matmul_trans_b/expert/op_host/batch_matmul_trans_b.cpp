// Expert tiling: each batch split into SPLIT_PER_BATCH Matmul blocks on every cube core, so that the
// work items divide evenly (32 whole batches on 20 cores take two rounds with 8 cores idle in the
// second; 256 eighth-batches on 24 cores leave one short round).
#include "batch_matmul_trans_b_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

constexpr int32_t CUBE_CORES = 24;    // @tune cube_cores in [1, 24] step 1
constexpr int32_t SPLIT_PER_BATCH = 8;  // @tune split_per_batch in [1, 24] step 1

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  const gert::Shape& a = context->GetInputShape(0)->GetStorageShape();
  const gert::Shape& b = context->GetInputShape(1)->GetStorageShape();
  const int32_t B = static_cast<int32_t>(a.GetDim(0)), M = static_cast<int32_t>(a.GetDim(1));
  const int32_t K = static_cast<int32_t>(a.GetDim(2)), N = static_cast<int32_t>(b.GetDim(1));
  platform_ascendc::PlatformAscendC plat(context->GetPlatformInfo());
  const int32_t cores = std::min<int32_t>(CUBE_CORES, static_cast<int32_t>(plat.GetCoreNumAic()));
  matmul_tiling::MultiCoreMatmulTiling mt(plat);
  using namespace matmul_tiling;
  mt.SetDim(std::max(1, SPLIT_PER_BATCH));
  mt.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  mt.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, true);
  mt.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  mt.SetShape(M, N, K);
  mt.SetOrgShape(M, N, K);
  mt.SetBufferSpace(-1, -1, -1);
  BatchMatmulTransBTilingData t;
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
class BatchMatmulTransB : public OpDef {
 public:
  explicit BatchMatmulTransB(const char* name) : OpDef(name) {
    this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(BatchMatmulTransB);
}  // namespace ops
