// Performance model of the Ascend 910B vector cores: the harness hands it every block's finished
// core (its CoreTrace), then times the launch as a whole. The pieces live in model/: Params
// (constants from ascend_core/soc/presets.toml and backends/sim/soc/model.toml), VectorUnit,
// GmSystem (port, HBM, L2), CoreModel (in-order pipes), ChipModel (all cores, waves, SyncAll,
// head), and listeners building reports from the model's events.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ascendc_sim/core.h"
#include "ascendc_sim/runtime.h"
#include "model/events.h"
#include "model/params.h"
#include "model/program.h"
#include "model/reports.h"
#include "model/timed_order.h"
#include "model/vector_unit.h"

namespace ascendc_sim {

struct LaunchOptions {
  std::string timelinePath;  // chrome://tracing JSON; empty: none
  uint64_t timelineMaxEvents = 2000000;
  uint64_t noiseSeed = 0;          // used only when the SoC's noise_sigma > 0
  model::TimingProtocol protocol;  // L2 flushed or resident, the launch first or repeated
  uint64_t memsetBytes = 0;        // InitValue outputs the op framework clears before the kernel
};

class LaunchModel {
 public:
  LaunchModel(const std::vector<CoreSpec>& cores, LaunchOptions options);
  // Keep a finished block (called once per block, one block at a time).
  void AddBlock(const CoreTrace& block);
  // Time the launch; the profile listener holds the per-block report afterwards. A vector / DMA
  // pair of the same UB bytes that only timing orders and that overlaps is a race (SimError).
  model::LaunchEvent Run();
  const model::ProfileListener& Profile() const { return profile_; }
  // The warning for such pairs that the timeline orders ("" if none), once Run has returned.
  const std::string& TimedWarning() const { return timedWarning_; }

 private:
  model::Params params_;
  model::VectorUnit vec_;
  LaunchOptions options_;
  std::vector<model::Program> blocks_;
  std::vector<CoreSpec> cores_;
  model::ProfileListener profile_;
  model::TimedOrder timed_;
  std::string timedWarning_;
};

}  // namespace ascendc_sim
