// Host tiling of the attention block (a mixed AIC/AIV kernel): a work item is ROWS query rows of one
// batch-head. The AIVs take the items round robin; each drives two Matmuls on its group's AIC (the
// scores into a fp32 workspace, then p @ v) and runs the softmax itself, CHUNK_ROWS score rows per
// UB tile. The baseline scores a whole row of keys at once (one score block of every key).
#include "attention_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

constexpr uint32_t ROWS = 64;            // @tune rows in [16, 256] step 16
constexpr uint32_t CHUNK_ROWS = 4;       // @tune chunk_rows in [1, 64] pow2
constexpr uint32_t UB_BYTES = 192 * 1024;

// One Matmul tiling: m x n x k with A [m, k] (ka: its row pitch), B [k, n] or [n, k] (transB).
static bool CubeTiling(platform_ascendc::PlatformAscendC& plat, TCubeTiling& out, int32_t m, int32_t n, int32_t k, bool transB,
                       matmul_tiling::DataType cType) {
  using namespace matmul_tiling;
  MultiCoreMatmulTiling mt(plat);
  mt.SetDim(1);
  mt.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  mt.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, transB);
  mt.SetCType(TPosition::GM, CubeFormat::ND, cType);
  mt.SetShape(m, n, k);
  mt.SetOrgShape(m, n, k);
  mt.SetBufferSpace(-1, -1, -1);
  return mt.GetTiling(out) != -1;
}

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  const gert::Shape& q = context->GetInputShape(0)->GetStorageShape();
  const gert::Shape& k = context->GetInputShape(1)->GetStorageShape();
  AttentionTilingData t;
  t.set_heads(static_cast<uint32_t>(q.GetDim(0)));
  t.set_seq(static_cast<uint32_t>(q.GetDim(1)));
  t.set_dim(static_cast<uint32_t>(q.GetDim(2)));
  t.set_kvSeq(static_cast<uint32_t>(k.GetDim(1)));
  t.set_scale(*context->GetAttrs()->GetFloat(0));
  if (t.dim % 16 != 0 || t.kvSeq % 16 != 0) return ge::GRAPH_FAILED;  // whole 32 B rows of fp16
  const uint32_t rows = std::min(ROWS, (t.seq + 15) / 16 * 16);
  const uint32_t kvBlock = t.kvSeq;
  // UB of the softmax tile: scores fp32, mask fp16 and fp32, p fp16 (12 B per score), one
  // reduction row.
  const uint32_t fixed = kvBlock * 4 + 1024;
  uint32_t chunk = CHUNK_ROWS;
  while (chunk > 1 && fixed + chunk * kvBlock * 12 > UB_BYTES) chunk /= 2;
  if (fixed + chunk * kvBlock * 12 > UB_BYTES) return ge::GRAPH_FAILED;
  t.set_rows(rows);
  t.set_kvBlock(kvBlock);
  t.set_chunkRows(chunk);
  platform_ascendc::PlatformAscendC plat(context->GetPlatformInfo());
  if (!CubeTiling(plat, t.qk, rows, kvBlock, t.dim, true, matmul_tiling::DataType::DT_FLOAT) ||
      !CubeTiling(plat, t.pv, rows, t.dim, kvBlock, false, matmul_tiling::DataType::DT_FLOAT))
    return ge::GRAPH_FAILED;
  const uint32_t items = t.heads * ((t.seq + rows - 1) / rows);
  const uint32_t groups = std::min<uint32_t>(plat.GetCoreNumAic(), (items + 1) / 2);
  context->SetBlockDim(groups);
  t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(t.GetDataSize());
  // Per AIV: the score block (fp32), p (fp16) and one p @ v block (fp32).
  const size_t perAiv = static_cast<size_t>(rows) * kvBlock * 6 + static_cast<size_t>(rows) * t.dim * 4;
  context->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize() + 2 * groups * perAiv;
  return ge::GRAPH_SUCCESS;
}

}  // namespace optiling

namespace ops {
class Attention : public OpDef {
 public:
  explicit Attention(const char* name) : OpDef(name) {
    this->Input("q").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Input("k").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Input("v").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Input("mask").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Output("out").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Attr("scale").Float(0.125f);
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(Attention);
}  // namespace ops
