// What the model tells its listeners. The model only emits these typed events; listeners (the
// msprof-style profile, the chrome trace) turn them into reports. llvm-mca's split, kept small.
#pragma once

#include <cstdint>

#include "ascendc_sim/core.h"

namespace ascendc_sim::model {

// Why a pipe sat idle before an instruction (the gap between the pipe's previous instruction and
// this one's start), or why a DMA's data took longer than the core's port alone would need.
enum class Stall : uint8_t {
  kNone,
  kScalarIssue,  // the scalar unit had not issued it yet (scalar-bound code)
  kFlag,         // WaitFlag: the matching SetFlag had not run
  kPipeDrain,    // SetFlag / PipeBarrier: earlier work of the pipe still completing (DMA latency)
  kBarrierAll,   // PIPE_ALL barrier: every pipe draining
  kSyncAll,      // cross-core barrier: waiting for the slowest core
  kCorePort,     // DMA: the core's own GM port (MTE2 or MTE3) was still moving earlier copies
  kGmBandwidth,  // DMA: HBM channels or L2 slices busy with other requests (same-window
                 // requests from many cores land on the same slice and queue there)
  kCount
};
const char* StallName(Stall s);

// One timed instruction of one block. Times are cycles from the launch of the kernel.
struct InstrEvent {
  uint32_t block;
  uint32_t core;
  uint32_t index;  // position in the block's trace
  uint8_t pipe;
  Op op;
  uint32_t site;
  double issue;  // when the scalar unit issued it
  double start;
  double end;   // pipe free again (DMA: last request issued)
  double done;  // work complete for flags and barriers (DMA: end + GM latency)
  Stall stall;  // why the pipe idled before `start`
  double stallCycles;
  double issueCycles;  // scalar-unit cycles spent issuing it
  // DMA only
  Stall dataStall;  // dominant reason the data phase exceeded the unloaded port time
  double dataStallCycles;
  uint64_t bytes;     // bytes the instruction moves
  uint64_t hbmBytes;  // HBM traffic it caused (whole granules, write-backs included)
  uint64_t l2HitBytes;
  bool write;  // UB -> GM
  // vector only
  uint32_t bankConflictRepeats;
};

struct BlockEvent {
  uint32_t block;
  uint32_t core;
  double start;
  double end;
};

struct LaunchEvent {
  uint32_t blockDim;
  uint32_t coresUsed;
  double clockGhz;
  double headUs;  // the launch's head, and the InitValue memset's task (memsetUs) before it
  double memsetUs;
  double endCycles;       // last core's finish
  double taskDurationUs;  // head + end, with noise when enabled
};

class Listener {
 public:
  virtual ~Listener() = default;
  virtual void OnInstr(const InstrEvent&) {}
  virtual void OnBlock(const BlockEvent&) {}
  virtual void OnLaunch(const LaunchEvent&) {}
};

}  // namespace ascendc_sim::model
