// A block's instruction trace reduced to what timing needs, so that every block of a launch can be
// kept until the chip is timed as a whole. Fixed costs (vector cycles, DMA start) are computed
// once here; everything that depends on other cores (GM) is left to the chip model.
#pragma once

#include <cstdint>
#include <vector>

#include "ascendc_sim/core.h"
#include "model/params.h"
#include "model/vector_unit.h"

namespace ascendc_sim::model {

struct Step {
  uint8_t pipe;
  Op op;
  uint8_t cacheMode;
  uint32_t site;
  int64_t link;  // kWaitFlag: index of its SetFlag in this block
  double cost;   // cycles on its pipe (DMA: before data flows)
  uint32_t conflictRepeats;
  uint32_t bursts, rowBytes;  // DMA
  uint64_t gmAddr, gmPitch;
  int32_t peer = -1;  // kCrossWait: the core whose step `link` it waits for
};

struct Program {
  uint32_t block = 0;
  bool aic = false;  // a cube core's program (aic_* profile fields)
  std::vector<Step> steps;
  std::vector<Site> sites;  // API name and kernel line of each Step::site (kept for timelines only)
};

// Reduces one finished core's trace.
Program Compile(const CoreTrace& block, const Params& p, const VectorUnit& vec, bool keepSites);

}  // namespace ascendc_sim::model
