// Expert tiling: work items of ITEM_M = 128 output positions, so 8 images make 64 items over every
// cube core (the baseline gives each core a whole image: 8 of 20 cores busy); a core reloads the
// image only when its consecutive items cross into the next one. Base blocks of 128 positions x
// 128 img2col columns x every output channel: half the Mmads and loads per position.
#include "conv2d_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

constexpr uint32_t CUBE_CORES = 24;   // @tune cube_cores in [1, 24] step 1
constexpr uint32_t ITEM_M = 128;      // @tune item_m in [16, 65536] pow2
constexpr uint32_t BASE_M = 128;      // @tune base_m in [16, 256] step 16
constexpr uint32_t BASE_K = 128;      // @tune base_k in [16, 256] step 16

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  const gert::Shape& x = context->GetInputShape(0)->GetStorageShape();
  const gert::Shape& w = context->GetInputShape(1)->GetStorageShape();
  const auto* attrs = context->GetAttrs();
  Conv2dTilingData t;
  t.set_batch(static_cast<uint32_t>(x.GetDim(0)));
  t.set_h(static_cast<uint32_t>(x.GetDim(1)));
  t.set_w(static_cast<uint32_t>(x.GetDim(2)));
  t.set_c(static_cast<uint32_t>(x.GetDim(3)));
  t.set_cout(static_cast<uint32_t>(w.GetDim(0)));
  t.set_kh(static_cast<uint32_t>(w.GetDim(1)));
  t.set_kw(static_cast<uint32_t>(w.GetDim(2)));
  t.set_stride(static_cast<uint32_t>(*attrs->GetInt(0)));
  t.set_pad(static_cast<uint32_t>(*attrs->GetInt(1)));
  if (t.c % 16 != 0 || t.stride < 1 || t.h + 2 * t.pad < t.kh || t.w + 2 * t.pad < t.kw) return ge::GRAPH_FAILED;
  t.set_oh((t.h + 2 * t.pad - t.kh) / t.stride + 1);
  t.set_ow((t.w + 2 * t.pad - t.kw) / t.stride + 1);
  const uint32_t M = t.oh * t.ow, K = t.kh * t.kw * t.c, coutA = (t.cout + 15) / 16 * 16;
  // L1: the image (NC1HWC0) and the weights (Cout x K in NZ); L0A/L0B two slots, L0C two blocks.
  if (2ULL * t.h * t.w * t.c + 2ULL * coutA * K > 524288) return ge::GRAPH_FAILED;
  uint32_t baseM = std::min(BASE_M, (M + 15) / 16 * 16), baseK = std::min(BASE_K, K);
  while (baseK > 16 && (2ULL * coutA * baseK * 2 > 65536 || 2ULL * baseM * baseK * 2 > 65536 || baseK / 16 * coutA / 16 > 255))
    baseK -= 16;
  while (K % baseK != 0) baseK -= 16;  // whole base blocks of K
  while (baseM > 16 && 2ULL * baseM * coutA * 4 > 131072) baseM -= 16;
  if (2ULL * coutA * baseK * 2 > 65536 || 2ULL * baseM * coutA * 4 > 131072) return ge::GRAPH_FAILED;
  const uint32_t itemM = std::min(ITEM_M, M) / baseM * baseM > 0 ? std::min(ITEM_M, M) / baseM * baseM : baseM;
  const uint32_t items = t.batch * ((M + itemM - 1) / itemM);
  platform_ascendc::PlatformAscendC plat(context->GetPlatformInfo());
  const uint32_t cores = std::min<uint32_t>(CUBE_CORES, plat.GetCoreNumAic());
  const uint32_t per = (items + cores - 1) / cores;
  t.set_itemM(itemM);
  t.set_itemsPerCore(per);
  t.set_baseM(baseM);
  t.set_baseK(baseK);
  context->SetBlockDim((items + per - 1) / per);
  t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(t.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}

}  // namespace optiling

namespace ops {
class Conv2d : public OpDef {
 public:
  explicit Conv2d(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Input("w").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Attr("stride").Int(1);
    this->Attr("pad").Int(1);
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(Conv2d);
}  // namespace ops
