// Expert tiling: the 2 x 2 blocks of C leave 16 of 20 cube cores idle, so K is split in 5 slices
// over every core (one 128 x 128 base block of C each, added in GM), with a base K of 128 for
// longer rows per copy.
#include "matmul_split_k_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

constexpr int32_t CUBE_CORES = 20;  // @tune cube_cores in [1, 24] step 1
constexpr int32_t SPLIT_K = 5;      // @tune split_k in [1, 24] step 1
constexpr int32_t BASE_K = 128;     // @tune base_k in [16, 256] step 16

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  const gert::Shape& a = context->GetInputShape(0)->GetStorageShape();
  const gert::Shape& b = context->GetInputShape(1)->GetStorageShape();
  const int32_t M = static_cast<int32_t>(a.GetDim(0)), K = static_cast<int32_t>(a.GetDim(1));
  const int32_t N = static_cast<int32_t>(b.GetDim(1));
  platform_ascendc::PlatformAscendC plat(context->GetPlatformInfo());
  const int32_t cores = std::min<int32_t>(CUBE_CORES, static_cast<int32_t>(plat.GetCoreNumAic()));
  matmul_tiling::MultiCoreMatmulTiling mt(plat);
  using namespace matmul_tiling;
  mt.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  mt.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  mt.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  mt.SetShape(M, N, K);
  mt.SetOrgShape(M, N, K);
  mt.SetBufferSpace(-1, -1, -1);
  const int32_t baseK = std::min(BASE_K, (K + 15) / 16 * 16);
  MatmulSplitKTilingData t;
  if (SPLIT_K <= 1) {
    mt.SetDim(cores);
    mt.SetFixSplit(std::min(128, (M + 15) / 16 * 16), std::min(128, (N + 15) / 16 * 16), baseK);
  } else {
    // One base block of C per core: the slices of a block each fill its L0C once.
    mt.SetSingleShape(std::min(128, M), std::min(128, N));
    mt.SetFixSplit(std::min(128, (M + 15) / 16 * 16), std::min(128, (N + 15) / 16 * 16), baseK);
  }
  if (mt.GetTiling(t.mm) == -1) return ge::GRAPH_FAILED;
  const int32_t blocks = t.mm.usedCoreNum;
  const int32_t kBlocks = (K + baseK - 1) / baseK;
  const int32_t split = std::max(1, std::min({SPLIT_K, kBlocks, cores / blocks}));
  const int32_t slice = (kBlocks + split - 1) / split * baseK;
  t.set_splitK(static_cast<uint32_t>((K + slice - 1) / slice));
  t.set_sliceK(static_cast<uint32_t>(slice));
  t.set_mnBlocks(static_cast<uint32_t>(blocks));
  context->SetBlockDim(static_cast<uint32_t>(blocks) * t.splitK);
  t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(t.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize();
  return ge::GRAPH_SUCCESS;
}

}  // namespace optiling

namespace ops {
class MatmulSplitK : public OpDef {
 public:
  explicit MatmulSplitK(const char* name) : OpDef(name) {
    this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(MatmulSplitK);
}  // namespace ops
