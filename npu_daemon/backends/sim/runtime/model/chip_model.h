// The whole launch: blocks placed on the AI Vector cores (in waves when blockDim exceeds them),
// all cores advanced together so that their DMAs meet in one memory system in time order,
// SyncAll as a chip-wide barrier, and the head overhead of launching the cores. The timing protocol
// sets L2 at the start (resident: what the previous launch of the same kernel left; flushed: empty)
// and the head (a repeated launch's or a first launch's): docs/performance_model.md, Timing protocol.
#pragma once

#include <memory>
#include <vector>

#include "model/core_model.h"
#include "model/gm_system.h"
#include "ascendc_sim/runtime.h"

namespace ascendc_sim::model {

class ChipModel {
 public:
  ChipModel(const Params& p, std::vector<Listener*> listeners, uint64_t noiseSeed);
  // `cores` says which unit runs each program: AIV-only and AIC-only launches place blocks on that
  // unit's cores in waves; a mixed launch runs every group at once (one wave).
  LaunchEvent Run(const std::vector<Program>& blocks, const std::vector<CoreSpec>& cores, TimingProtocol protocol,
                  uint64_t memsetBytes = 0);

 private:
  const Params& p_;
  std::vector<Listener*> listeners_;
  uint64_t noiseSeed_;
};

}  // namespace ascendc_sim::model
