// The whole launch: blocks placed on the AI Vector cores (in waves when blockDim exceeds them),
// all cores advanced together so that their DMAs meet in one memory system in time order,
// SyncAll as a chip-wide barrier, and the head overhead of launching the cores.
#pragma once

#include <memory>
#include <vector>

#include "model/core_model.h"
#include "model/gm_system.h"

namespace ascendc_sim::model {

class ChipModel {
 public:
  ChipModel(const Params& p, std::vector<Listener*> listeners, uint64_t noiseSeed);
  LaunchEvent Run(const std::vector<Program>& blocks);

 private:
  const Params& p_;
  std::vector<Listener*> listeners_;
  uint64_t noiseSeed_;
};

}  // namespace ascendc_sim::model
