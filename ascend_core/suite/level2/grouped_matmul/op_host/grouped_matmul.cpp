// Host tiling: the group sizes are data (known to the kernel only), so the host fixes the work item
// instead: a block of up to ITEM_M rows of one group by ITEM_N columns, one Matmul each. The
// baseline takes a whole group per item (ITEM_M and ITEM_N above any case's rows and columns):
// the cores take the groups round robin.
#include "grouped_matmul_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

constexpr int32_t CUBE_CORES = 20;       // @tune cube_cores in [1, 24] step 1
constexpr int32_t ITEM_M = 65536;        // @tune item_m in [16, 65536] pow2
constexpr int32_t ITEM_N = 65536;        // @tune item_n in [16, 65536] pow2
constexpr int32_t BASE_M = 128;          // @tune base_m in [16, 256] step 16
constexpr int32_t BASE_N = 128;          // @tune base_n in [16, 256] step 16
constexpr int32_t BASE_K = 64;           // @tune base_k in [16, 256] step 16

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  const gert::Shape& x = context->GetInputShape(0)->GetStorageShape();
  const gert::Shape& w = context->GetInputShape(1)->GetStorageShape();
  const int32_t T = static_cast<int32_t>(x.GetDim(0)), K = static_cast<int32_t>(x.GetDim(1));
  const int32_t G = static_cast<int32_t>(w.GetDim(0)), N = static_cast<int32_t>(w.GetDim(2));
  platform_ascendc::PlatformAscendC plat(context->GetPlatformInfo());
  matmul_tiling::MultiCoreMatmulTiling mt(plat);
  using namespace matmul_tiling;
  mt.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  mt.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  mt.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  mt.SetShape(T, N, K);
  mt.SetOrgShape(T, N, K);
  mt.SetSingleShape(std::min(ITEM_M, T), std::min(ITEM_N, N));
  mt.SetBufferSpace(-1, -1, -1);
  auto fit = [](int32_t base, int32_t dim) { return std::min(base, (dim + 15) / 16 * 16); };
  mt.SetFixSplit(fit(BASE_M, std::min(ITEM_M, T)), fit(BASE_N, std::min(ITEM_N, N)), fit(BASE_K, K));
  GroupedMatmulTilingData t;
  if (mt.GetTiling(t.mm) == -1) return ge::GRAPH_FAILED;
  t.set_groups(static_cast<uint32_t>(G));
  context->SetBlockDim(static_cast<uint32_t>(std::min<int32_t>(CUBE_CORES, static_cast<int32_t>(plat.GetCoreNumAic()))));
  t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(t.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize();
  return ge::GRAPH_SUCCESS;
}

}  // namespace optiling

namespace ops {
class GroupedMatmul : public OpDef {
 public:
  explicit GroupedMatmul(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Input("w").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Input("group_sizes").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(GroupedMatmul);
}  // namespace ops
