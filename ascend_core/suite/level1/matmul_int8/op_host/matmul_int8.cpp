// Host tiling: the Matmul API's multi-core tiling for int8 x int8 -> int32 with B transposed (the
// fractal transpose of LoadData is 16-bit only, so int8 B comes as [N, K]); a base K of 128 int8
// (four 32-wide fractal steps, 128 B of each row per copy) and the Norm template.
#include "matmul_int8_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

constexpr int32_t CUBE_CORES = 20;  // @tune cube_cores in [1, 24] step 1
constexpr int32_t BASE_M = 128;     // @tune base_m in [16, 256] step 16
constexpr int32_t BASE_N = 128;     // @tune base_n in [16, 256] step 16
constexpr int32_t BASE_K = 128;     // @tune base_k in [32, 512] step 32

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  const gert::Shape& x = context->GetInputShape(0)->GetStorageShape();
  const gert::Shape& w = context->GetInputShape(1)->GetStorageShape();
  const int32_t M = static_cast<int32_t>(x.GetDim(0)), K = static_cast<int32_t>(x.GetDim(1));
  const int32_t N = static_cast<int32_t>(w.GetDim(0));
  if (K % 32 != 0) return ge::GRAPH_FAILED;  // whole int8 fractal columns (32 B rows)
  platform_ascendc::PlatformAscendC plat(context->GetPlatformInfo());
  matmul_tiling::MultiCoreMatmulTiling mt(plat);
  using namespace matmul_tiling;
  mt.SetDim(std::min<int32_t>(CUBE_CORES, static_cast<int32_t>(plat.GetCoreNumAic())));
  mt.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_INT8);
  mt.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_INT8, true);
  mt.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_INT32);
  mt.SetShape(M, N, K);
  mt.SetOrgShape(M, N, K);
  mt.SetBufferSpace(-1, -1, -1);
  auto fit = [](int32_t base, int32_t dim, int32_t unit) { return std::min(base, (dim + unit - 1) / unit * unit); };
  mt.SetFixSplit(fit(BASE_M, M, 16), fit(BASE_N, N, 16), fit(BASE_K, K, 32));
  MatmulInt8TilingData t;
  if (mt.GetTiling(t.mm) == -1) return ge::GRAPH_FAILED;
  context->SetBlockDim(static_cast<uint32_t>(t.mm.usedCoreNum));
  t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(t.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize();
  return ge::GRAPH_SUCCESS;
}

}  // namespace optiling

namespace ops {
class MatmulInt8 : public OpDef {
 public:
  explicit MatmulInt8(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_INT8}).Format({ge::FORMAT_ND});
    this->Input("w").ParamType(REQUIRED).DataType({ge::DT_INT8}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(MatmulInt8);
}  // namespace ops
