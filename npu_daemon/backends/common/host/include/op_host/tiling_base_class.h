// The tiling template base of the op base (opbase's op_common/op_host/tiling_base_class.h, which
// hicann/ops-nn's op_host/tiling_base.h repeats under its own namespace): a tiling is a class whose
// DoTiling() runs the steps below in order; a step other than GRAPH_SUCCESS stops it, and
// IsCapable() false answers GRAPH_PARAM_INVALID, which tells the template registry to try the
// next class.
#pragma once

#include <cstdint>
#include <memory>
#include <sstream>
#include <string>

#include "log/log.h"
#include "platform/soc_spec.h"
#include "tiling/platform/platform_ascendc.h"

namespace Ops {
namespace Base {

struct AiCoreParams {
  uint64_t ubSize = 0;
  uint64_t blockDim = 0;
  uint64_t numBlocks = 0;
  uint64_t aicNum = 0;
  uint64_t l1Size = 0;
  uint64_t l0aSize = 0;
  uint64_t l0bSize = 0;
  uint64_t l0cSize = 0;
};

// The compile info a TilingParse fills when the tiling runs without platform info.
struct CompileInfoCommon {
  uint32_t aivNum;
  uint32_t aicNum;
  uint64_t ubSize;
  uint64_t l1Size;
  uint64_t l0aSize;
  uint64_t l0bSize;
  uint64_t l0cSize;
  uint64_t l2CacheSize;
  int64_t coreNum;
  int32_t socVersion;
  uint32_t rsvd;
};

class TilingBaseClass {
 public:
  explicit TilingBaseClass(gert::TilingContext* context) : context_(context) {}
  virtual ~TilingBaseClass() = default;

  ge::graphStatus DoTiling() {
    using Step = ge::graphStatus (TilingBaseClass::*)();
    for (Step step : {&TilingBaseClass::GetShapeAttrsInfo, &TilingBaseClass::GetPlatformInfo}) {
      if (ge::graphStatus s = (this->*step)(); s != ge::GRAPH_SUCCESS) return s;
    }
    if (!IsCapable()) return ge::GRAPH_PARAM_INVALID;
    for (Step step : {&TilingBaseClass::DoOpTiling, &TilingBaseClass::DoLibApiTiling,
                      &TilingBaseClass::GetWorkspaceSize, &TilingBaseClass::PostTiling}) {
      if (ge::graphStatus s = (this->*step)(); s != ge::GRAPH_SUCCESS) return s;
    }
    context_->SetTilingKey(GetTilingKey());
    DumpTilingInfo();
    return ge::GRAPH_SUCCESS;
  }
  virtual void Reset(gert::TilingContext* context) { context_ = context; }

 protected:
  virtual bool IsCapable() = 0;
  virtual ge::graphStatus GetPlatformInfo() = 0;
  virtual ge::graphStatus GetShapeAttrsInfo() = 0;
  virtual ge::graphStatus DoOpTiling() = 0;
  virtual ge::graphStatus DoLibApiTiling() = 0;
  [[nodiscard]] virtual uint64_t GetTilingKey() const = 0;
  virtual ge::graphStatus GetWorkspaceSize() = 0;
  virtual ge::graphStatus PostTiling() = 0;
  virtual void DumpTilingInfo() { OP_LOGD(context_, "%s", GetTilingDataDebugStr().c_str()); }

  int64_t DefaultTilingInfoDump() {
    OP_LOGD(context_, "%s", GetTilingDataDebugStr().c_str());
    return 0;
  }
  static uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) {
    return platform_ascendc::PlatformAscendC().CalcTschBlockDim(sliceNum, aicCoreNum, aivCoreNum);
  }
  template <typename T>
  [[nodiscard]] std::string GetShapeDebugStr(const T& shape) const {
    std::ostringstream out;
    out << "[";
    for (size_t i = 0; i < shape.GetDimNum(); ++i) out << (i ? ", " : "") << shape.GetDim(i);
    out << "]";
    return out.str();
  }
  // The tiling data as int32 words, as the op base logs it.
  [[nodiscard]] std::string GetTilingDataDebugStr() const {
    gert::TilingData* raw = context_->GetRawTilingData();
    const int32_t* words = static_cast<const int32_t*>(raw->GetData());
    std::ostringstream out;
    for (size_t i = 0; i < raw->GetDataSize() / sizeof(int32_t); ++i) out << words[i] << ", ";
    return out.str();
  }

  gert::TilingContext* context_ = nullptr;
  std::unique_ptr<platform_ascendc::PlatformAscendC> ascendcPlatform_{nullptr};
  uint32_t blockDim_{0};
  uint64_t workspaceSize_{0};
  uint64_t tilingKey_{0};
  AiCoreParams aicoreParams_;
};

}  // namespace Base
}  // namespace Ops
