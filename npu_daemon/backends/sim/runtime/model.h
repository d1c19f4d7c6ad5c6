// Performance model: per-core pipe timelines from the recorded instruction streams, combined into
// a chip-level Task Duration. Every constant comes from the SoC preset (soc/*.toml).
#pragma once

#include <vector>

#include "ascendc_sim/core.h"

namespace ascendc_sim {

struct PipeTotals {
  double busy[kPipes] = {};  // cycles each pipe was busy
  double total = 0;          // cycles from launch to the core's last instruction
  uint64_t gmRead = 0;
  uint64_t gmWritten = 0;
  uint64_t bankConflicts = 0;
};

struct ChipTiming {
  double taskDurationUs = 0;
  double headUs = 0;              // launch overhead
  double gmBoundUs = 0;           // time the shared GM bandwidth alone needs
  PipeTotals meanBlock;           // averaged over blocks (msprof reports per-block means)
  uint32_t blockDim = 0;
  uint32_t coresUsed = 0;
};

PipeTotals TimeCore(const std::vector<Instr>& trace);
ChipTiming TimeChip(const std::vector<PipeTotals>& blocks);

}  // namespace ascendc_sim
