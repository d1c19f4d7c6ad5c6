// The memory side of DMA: every core's GM ports, the chip's HBM channels and L2 slices (both
// interleaved by 512 B granule), and the L2 contents (write-back, LRU, CacheMode hints honoured).
//
// A DMA is split into granule requests. The core's port for its direction (MTE2 reads, MTE3
// writes) moves them one after another; each request then takes its bytes from one HBM channel
// (miss: the whole granule, plus a dirty line written back if one is evicted) or one L2 slice
// (hit). Many cores streaming different data spread over every channel; many cores touching the
// same few windows at once queue on the same slices, which is how same-address serialisation
// shows up.
//
// A read miss leaves its line in flight until the HBM data has been written into its L2 slice;
// reads of that line meanwhile (other cores on the same window) wait for the fill instead of
// hitting at once, and are then served one after another by the slice.
#pragma once

#include <cstdint>
#include <vector>

#include "ascendc_sim/core.h"
#include "model/calendar.h"
#include "model/events.h"
#include "model/params.h"

namespace ascendc_sim::model {

// One DMA as the memory side sees it.
struct DmaRequest {
  uint32_t core;
  bool write;          // UB -> GM
  uint8_t cacheMode;   // ascendc_sim::CacheMode
  uint64_t gmAddr;
  uint32_t bursts;
  uint32_t rowBytes;
  uint64_t gmPitch;
};

struct DmaTiming {
  double issued;       // last request through the core's port: the MTE pipe may start its next DMA
  double end;          // last byte served by memory
  Stall stall;         // what stretched it beyond the port's own time
  double stallCycles;
  uint64_t bytes, hbmBytes, l2HitBytes;
};

class L2Cache {
 public:
  L2Cache(uint64_t capacityBytes, uint32_t granuleBytes);
  struct Line {  // all zero: empty
    uint64_t tag;  // granule + 1
    double ready;  // a read miss's fill arrives then
    uint32_t stamp;
    bool dirty;
  };
  struct Access {
    bool hit;
    bool evictedDirty;
    Line* line;          // the granule's line (null when not resident and not allocated)
  };
  // Look up one granule; allocate it unless `allocate` is false (CACHE_MODE_DISABLE).
  Access Touch(uint64_t granule, bool write, bool allocate);

 private:
  static constexpr uint32_t kWays = 16;
  ZeroArray<Line> lines_;
  uint64_t sets_;
  uint32_t clock_ = 0;
};

class GmSystem {
 public:
  GmSystem(const Params& p, uint32_t cores);
  DmaTiming Transfer(const DmaRequest& r, double start);

 private:
  static uint32_t Interleave(uint64_t granule, uint32_t ways);  // a granule's HBM channel or L2 slice
  const Params& p_;
  L2Cache l2_;
  ZeroArray<float> used_;  // every calendar's ring, one block
  ZeroArray<uint16_t> jump_;
  std::vector<double> portFree_;  // per core: MTE2 read port, MTE3 write port
  std::vector<Calendar> hbm_, l2Slices_;
};

}  // namespace ascendc_sim::model
