// Host tiling: the Matmul API's multi-core tiling with B transposed (w is [N, K]); with M <= 16
// the cores split N only, and the kernel is bound by streaming w through MTE2. Base blocks of
// 16 x 128 x 64 (M padded to one fractal row) and the Norm template: one 128 B row piece of w per
// row per copy.
#include "gemv_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

constexpr int32_t CUBE_CORES = 20;  // @tune cube_cores in [1, 24] step 1
constexpr int32_t BASE_M = 16;      // @tune base_m in [16, 256] step 16
constexpr int32_t BASE_N = 128;     // @tune base_n in [16, 256] step 16
constexpr int32_t BASE_K = 64;      // @tune base_k in [16, 256] step 16

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
  GemvTilingData t;
  if (mt.GetTiling(t.mm) == -1) return ge::GRAPH_FAILED;
  context->SetBlockDim(static_cast<uint32_t>(t.mm.usedCoreNum));
  t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(t.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize();
  return ge::GRAPH_SUCCESS;
}

}  // namespace optiling

namespace ops {
class Gemv : public OpDef {
 public:
  explicit Gemv(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Input("w").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(Gemv);
}  // namespace ops
