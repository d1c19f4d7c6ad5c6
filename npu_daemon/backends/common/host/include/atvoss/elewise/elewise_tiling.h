// The op base's elementwise tiling (opbase atvoss/elewise/elewise_tiling.h) for the arch35
// (Ascend 950) regbase kernels: `ElewiseBaseTiling(ctx).DoTiling<Dag>(tilingData, ...)` sizes the
// UB split from the buffers the DAG's schedule plans and writes EleBaseTilingData, which only the
// arch35 kernels read. That buffer planning (the DAG's live-node analysis under its MemLevel) and
// those kernels are not emulated, so DoTiling refuses with a TILING_ERROR instead of returning
// numbers no kernel here could check. A2 tilings reach it only behind
// Ops::Base::IsRegbaseSocVersion, false for every simulated SoC; their files must still compile.
#pragma once

#include <cstdint>
#include <string>

#include "atvoss/util/dag.h"
#include "exe_graph/runtime/tiling_context.h"
#include "op_common/log/log.h"
#include "register/tilingdata_base.h"

namespace ascendc_sim {
[[noreturn]] void TilingError(const std::string& message);
}  // namespace ascendc_sim

namespace Ops {
namespace Base {

using namespace optiling;

// The tiling data of the regbase elementwise kernels, as they read it.
struct EleBaseTilingData {
  int64_t dim0;
  int32_t coreNum;
  int32_t ubFormer;
  int64_t blockFormer;
  int64_t blockNum;
  int64_t ubLoopOfFormerBlock;
  int64_t ubLoopOfTailBlock;
  int64_t ubTailOfFormerBlock;
  int64_t ubTailOfTailBlock;
  int64_t elemNum;
  uint64_t scheMode;
};
using EleBaseTilingDataV2 = EleBaseTilingData;

class ElewiseBaseTiling {
 public:
  explicit ElewiseBaseTiling(gert::TilingContext* context) : context_(context) {}

  template <typename OpDag, bool CheckShape = true>
  ge::graphStatus DoTiling(EleBaseTilingData&, int64_t /*extraSize*/ = 0, int64_t /*extraBufferNum*/ = 0) {
    ascendc_sim::TilingError(std::string(context_->GetNodeName()) +
                             ": ElewiseBaseTiling::DoTiling, the op base's elementwise tiling of the arch35 "
                             "regbase (Ascend 950) kernels, is not emulated: the simulated SoC is an A2");
  }

 private:
  gert::TilingContext* context_;
};

}  // namespace Base
}  // namespace Ops
