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
  struct Access {
    bool hit;
    bool evictedDirty;
    double* ready;  // the granule's line: a read miss's fill arrives then (null when not resident and not allocated)
  };
  // Look up one granule; allocate it unless `allocate` is false (CACHE_MODE_DISABLE).
  Access Touch(uint64_t granule, bool write, bool allocate);
  // Start loading the granule's set into the CPU cache (a hint: nothing the model computes changes).
  void Prefetch(uint64_t granule) const;

 private:
  static constexpr uint32_t kWays = 16;
  static constexpr uint64_t kDirty = uint64_t{1} << 63;  // tag bit: written since filled (granules stay far below it)
  // Fields by kind on whole cache lines: a lookup reads the tags and stamps (three lines) and at most
  // one fill time. All zero: empty.
  struct alignas(64) Set {
    uint64_t tag[kWays];    // granule + 1, | kDirty
    uint32_t stamp[kWays];  // LRU clock of the last touch
    double ready[kWays];
  };
  ZeroArray<Set> sets_;
  uint64_t nSets_;
  uint32_t clock_ = 0;
};

class GmSystem {
 public:
  GmSystem(const Params& p, uint32_t cores);
  DmaTiming Transfer(const DmaRequest& r, double start);
  // Start loading the L2 sets of r's first `maxGranules` granules into the CPU cache: the model's
  // time goes mostly to cache misses on sets scattered over megabytes, and this lets them overlap.
  void Prefetch(const DmaRequest& r, uint32_t maxGranules) const;

 private:
  const Params& p_;
  L2Cache l2_;
  ZeroArray<Calendar::Bucket> buckets_;  // every calendar's ring, one block
  std::vector<double> portFree_;  // per core: MTE2 read port, MTE3 write port
  std::vector<Calendar> hbm_, l2Slices_;
};

}  // namespace ascendc_sim::model
