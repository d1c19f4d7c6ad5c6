#include "model/gm_system.h"

#include <algorithm>

namespace ascendc_sim::model {

namespace {
constexpr uint32_t kSliceRing = 1u << 14;  // buckets: ~1 M cycles of backlog and disorder tolerated

uint64_t Mix(uint64_t x) {  // spreads host addresses over sets and slices
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  return x;
}
}  // namespace

L2Cache::L2Cache(uint64_t capacityBytes, uint32_t granuleBytes)
    : lines_(MakeZeroArray<Line>(std::max<uint64_t>(capacityBytes / granuleBytes / kWays, 1) * kWays)),
      sets_(std::max<uint64_t>(capacityBytes / granuleBytes / kWays, 1)) {}

L2Cache::Access L2Cache::Touch(uint64_t granule, bool write, bool allocate) {
  Line* set = &lines_[(Mix(granule) % sets_) * kWays];
  Line* victim = set;
  ++clock_;
  for (uint32_t w = 0; w < kWays; ++w) {
    Line& l = set[w];
    if (l.tag == granule + 1) {
      l.stamp = clock_;
      l.dirty |= write && allocate;
      return {true, false, &l};
    }
    if (l.stamp < victim->stamp) victim = &l;
  }
  if (!allocate) return {false, false, nullptr};
  const bool evictedDirty = victim->tag != 0 && victim->dirty;
  *victim = Line{granule + 1, 0, clock_, write};
  return {false, evictedDirty, victim};
}

// A core's ports are used in program order by one pipe each (MTE2 reads, MTE3 writes: A1 case 1
// shows a core's writes overlapping its reads), so a cursor per port times them exactly.
GmSystem::GmSystem(const Params& p, uint32_t cores)
    : p_(p), l2_(p.l2Bytes, p.granuleBytes), portFree_(2 * static_cast<size_t>(cores), 0.0) {
  const uint64_t buckets = uint64_t{p.gmSlices + p.l2Slices} * kSliceRing;
  used_ = MakeZeroArray<float>(buckets);
  jump_ = MakeZeroArray<uint16_t>(buckets);
  uint64_t at = 0;
  auto add = [&](std::vector<Calendar>& to, uint32_t n, double capacityPerCycle, uint32_t ring) {
    to.reserve(n);
    for (uint32_t i = 0; i < n; ++i, at += ring) to.emplace_back(capacityPerCycle, ring, &used_[at], &jump_[at]);
  };
  add(hbm_, p.gmSlices, p.hbmBytesPerCycle / p.gmSlices, kSliceRing);
  add(l2Slices_, p.l2Slices, p.l2BytesPerCycle / p.l2Slices, kSliceRing);
}

uint32_t GmSystem::Interleave(uint64_t granule, uint32_t ways) {
  // Power-of-two ways: XOR-fold every group of address bits, as memory controllers hash addresses.
  // Consecutive granules then land on distinct channels and strided rows still spread out.
  if (ways <= 1) return 0;
  if ((ways & (ways - 1)) != 0) return static_cast<uint32_t>(Mix(granule) % ways);
  const int bits = __builtin_ctz(ways);
  uint64_t folded = 0;
  for (uint64_t x = granule; x != 0; x >>= bits) folded ^= x;
  return static_cast<uint32_t>(folded & (ways - 1));
}

DmaTiming GmSystem::Transfer(const DmaRequest& r, double start) {
  DmaTiming t{start, start, Stall::kNone, 0, 0, 0, 0};
  const double portCyclesPerByte = 1.0 / (r.write ? p_.mte3BytesPerCycle : p_.mte2BytesPerCycle);
  // DISABLE: no allocation on a miss (a resident line still serves the access); writes then go
  // straight to HBM. NORMAL / LAST / PERSISTENT allocate (the latter two differ only in
  // replacement priority, which this LRU does not model).
  const bool allocate = r.cacheMode != static_cast<uint8_t>(CacheMode::CACHE_MODE_DISABLE);
  const uint64_t g = p_.granuleBytes;
  double& port = portFree_[2 * r.core + (r.write ? 1 : 0)];
  double portAt = start, portOnly = start, end = start;
  bool memoryBound = false;
  for (uint32_t b = 0; b < r.bursts; ++b) {
    const uint64_t lo = r.gmAddr + b * r.gmPitch, hi = lo + r.rowBytes;
    for (uint64_t gran = lo / g; gran * g < hi; ++gran) {
      const uint64_t bytes = std::min(hi, (gran + 1) * g) - std::max(lo, gran * g);
      const uint64_t rows = (bytes + 31) / 32 * 32;  // UB side moves whole 32 B rows
      const double issued = std::max(portAt, port);
      portAt = port = issued + rows * portCyclesPerByte;
      portOnly += rows * portCyclesPerByte;
      const L2Cache::Access a = l2_.Touch(gran, r.write, allocate);
      Calendar& channel = hbm_[Interleave(gran, p_.gmSlices)];
      Calendar& slice = l2Slices_[Interleave(gran, p_.l2Slices)];
      double served;
      // Writes allocate into L2 (write-back: HBM pays when the dirty line is evicted) unless DISABLE
      // sends them through; reads are served by L2 on a hit, once an in-flight fill has arrived.
      if (r.write ? allocate : a.hit) {
        // A read of a line whose fill is in flight waits for it (the miss is not issued twice).
        served = slice.Reserve(r.write ? issued : std::max(issued, a.line->ready), static_cast<double>(rows));
        t.l2HitBytes += a.hit ? rows : 0;
      } else {  // a read miss fetches, a write-through stores, the whole granule
        served = channel.Reserve(issued, static_cast<double>(g));
        if (!r.write) served += p_.hbmLatency;  // HBM is further away than an L2 slice
        if (!r.write && allocate) {  // the fill is written into its slice, behind the slice's queue
          served = slice.Reserve(served, static_cast<double>(g));
          a.line->ready = served;
        }
        t.hbmBytes += g;
      }
      if (a.evictedDirty) {
        served = std::max(served, channel.Reserve(issued, static_cast<double>(g)));
        t.hbmBytes += g;
      }
      memoryBound |= served > portAt;
      end = std::max({end, served, portAt});
      t.bytes += bytes;
    }
  }
  t.issued = portAt;
  t.end = end;
  t.stallCycles = std::max(0.0, end - portOnly);
  if (t.stallCycles > 0) t.stall = memoryBound ? Stall::kGmBandwidth : Stall::kCorePort;
  return t;
}

}  // namespace ascendc_sim::model
