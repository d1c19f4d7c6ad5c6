// Expert tiling: every cube core, 128 x 256 x 64 base blocks (more compute per byte moved, one L0C
// block) and the MDL template moving STEP_K base blocks of K per GM -> L1 copy (as deep as the
// double-buffered L1 allows).
#include "linear_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

constexpr int32_t CUBE_CORES = 24;  // @tune cube_cores in [1, 24] step 1
constexpr int32_t BASE_M = 128;     // @tune base_m in [16, 256] step 16
constexpr int32_t BASE_N = 256;     // @tune base_n in [16, 256] step 16
constexpr int32_t BASE_K = 64;      // @tune base_k in [16, 256] step 16
constexpr int32_t STEP_K = 4;       // @tune step_k in [1, 8] step 1

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  const gert::Shape& a = context->GetInputShape(0)->GetStorageShape();
  const gert::Shape& b = context->GetInputShape(1)->GetStorageShape();
  const int32_t M = static_cast<int32_t>(a.GetDim(0)), K = static_cast<int32_t>(a.GetDim(1));
  const int32_t N = static_cast<int32_t>(b.GetDim(0));
  platform_ascendc::PlatformAscendC plat(context->GetPlatformInfo());
  matmul_tiling::MultiCoreMatmulTiling mt(plat);
  using namespace matmul_tiling;
  mt.SetDim(std::min<int32_t>(CUBE_CORES, static_cast<int32_t>(plat.GetCoreNumAic())));
  mt.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  mt.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, true);
  mt.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  mt.SetShape(M, N, K);
  mt.SetOrgShape(M, N, K);
  mt.SetBufferSpace(-1, -1, -1);
  auto fit = [](int32_t base, int32_t dim) { return std::min(base, (dim + 15) / 16 * 16); };
  mt.SetFixSplit(fit(BASE_M, M), fit(BASE_N, N), fit(BASE_K, K));
  LinearTilingData t;
  if (mt.GetTiling(t.mm) == -1) return ge::GRAPH_FAILED;
  const int32_t kBlocks = (t.mm.singleCoreK + t.mm.baseK - 1) / t.mm.baseK;
  int32_t step = std::max(1, std::min(STEP_K, kBlocks));
  while (step > 1 && 2LL * step * (t.mm.baseM + t.mm.baseN) * t.mm.baseK * 2 > 524288 - 256) --step;  // L1, double-buffered
  t.mm.stepKa = t.mm.stepKb = step;
  t.mm.depthA1 = t.mm.depthB1 = 2 * step;
  context->SetBlockDim(static_cast<uint32_t>(t.mm.usedCoreNum));
  t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(t.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize();
  return ge::GRAPH_SUCCESS;
}

}  // namespace optiling

namespace ops {
class Linear : public OpDef {
 public:
  explicit Linear(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Input("w").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(Linear);
}  // namespace ops
