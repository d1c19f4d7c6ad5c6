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
#include "model/divisor.h"
#include "model/params.h"

namespace ascendc_sim::model {

// One DMA as the memory side sees it.
struct DmaRequest {
  uint32_t core;
  bool write;         // UB -> GM
  uint8_t cacheMode;  // ascendc_sim::CacheMode
  uint64_t gmAddr;
  uint32_t bursts;
  uint32_t rowBytes;
  uint64_t gmPitch;
  bool aic = false;  // a cube core's DMA (GM -> L1 reads use the AIC's own MTE2 port rate)
};

struct DmaTiming {
  double issued;  // last request through the core's port: the MTE pipe may start its next DMA
  double end;     // last byte served by memory
  Stall stall;    // what stretched it beyond the port's own time
  double stallCycles;
  uint64_t bytes, hbmBytes, l2HitBytes;
};

inline uint64_t Mix(uint64_t x) {  // spreads host addresses over sets and slices
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  return x;
}

// A granule's HBM channel or L2 slice among `ways`. Power-of-two ways: the XOR of every group of
// address bits, as memory controllers hash addresses (consecutive granules land on distinct ways and
// strided rows still spread out); other counts: the hashed address modulo the ways.
class Interleave {
 public:
  explicit Interleave(uint32_t ways);
  uint32_t operator()(uint64_t granule) const {
    if (folds_ == 0) return static_cast<uint32_t>(mod_.Remainder(Mix(granule)));
    uint64_t x = granule;
    for (uint32_t k = 0; k < folds_; ++k) x ^= x >> shifts_[k];
    return static_cast<uint32_t>(x & (ways_ - 1));
  }

 private:
  uint32_t ways_;
  Divisor mod_;
  uint32_t folds_ = 0;
  uint8_t shifts_[8] = {};  // right shifts, widest first
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
  // Ways in recency order, least recent first, one 4-bit way number each: every way appears once,
  // so a set in use is never 0. A fresh set holds ways 0..15 in that order: empty ways are taken
  // first, lowest first.
  static constexpr uint64_t kFirstOrder = 0xfedcba9876543210ull;
  // A lookup reads the first line (a 16-bit print of each way's granule, the recency order) and
  // then only the way whose print matches, or the victim: two lines of five. All zero: empty.
  struct Way {
    uint64_t tag;  // granule + 1, | kDirty
    double ready;
  };
  struct alignas(64) Set {
    uint16_t print[kWays];  // top 16 bits of the granule's hash: a filter, the tag confirms
    uint64_t order;
    alignas(64) Way way[kWays];
  };
  ZeroArray<Set> sets_;
  Divisor setOf_;  // hashed granule -> set
};

class GmSystem {
 public:
  GmSystem(const Params& p, uint32_t cores);
  DmaTiming Transfer(const DmaRequest& r, double start);
  // Leave r's granules in L2 as the copy would, untimed: a previous launch's copies (warm protocol).
  void Warm(const DmaRequest& r);
  static constexpr uint32_t kPrefetchAhead = 8;  // granules
  // Start loading the L2 sets of r's first kPrefetchAhead granules into the CPU cache: the model's
  // time goes mostly to cache misses on sets scattered over megabytes, and this lets them overlap.
  void Prefetch(const DmaRequest& r) const;

 private:
  const Params& p_;
  L2Cache l2_;
  Divisor granule_;  // GM bytes per granule
  Interleave channelOf_, sliceOf_;
  ZeroArray<Calendar::Bucket> buckets_;  // every calendar's ring, one block
  std::vector<double> portFree_;         // per core: MTE2 read port, MTE3 write port
  std::vector<Calendar> hbm_, l2Slices_;
};

}  // namespace ascendc_sim::model
