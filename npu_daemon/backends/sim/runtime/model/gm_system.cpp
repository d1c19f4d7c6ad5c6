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

uint32_t Interleave(uint64_t granule, uint32_t ways) {  // a granule's HBM channel or L2 slice
  // Power-of-two ways: XOR-fold every group of address bits, as memory controllers hash addresses.
  // Consecutive granules then land on distinct channels and strided rows still spread out.
  if (ways <= 1) return 0;
  if ((ways & (ways - 1)) != 0) return static_cast<uint32_t>(Mix(granule) % ways);
  // Halving folds: the low `bits` bits end up the XOR of every `bits`-wide group of the address.
  const uint32_t bits = __builtin_ctz(ways);
  uint32_t groups = 1;  // covering 64 bits, a power of two
  while (groups * bits < 64) groups *= 2;
  uint64_t x = granule;
  for (uint32_t half = groups / 2; half >= 1; half /= 2) x ^= x >> (half * bits);
  return static_cast<uint32_t>(x & (ways - 1));
}
// Calls f(granule, lo, hi) for every granule a copy touches, burst by burst ([lo, hi) the burst's
// bytes); stops early when f returns false.
template <typename F>
void ForEachGranule(const DmaRequest& r, uint64_t granuleBytes, F f) {
  for (uint32_t b = 0; b < r.bursts; ++b) {
    const uint64_t lo = r.gmAddr + b * r.gmPitch, hi = lo + r.rowBytes;
    for (uint64_t gran = lo / granuleBytes; gran * granuleBytes < hi; ++gran)
      if (!f(gran, lo, hi)) return;
  }
}
}  // namespace

L2Cache::L2Cache(uint64_t capacityBytes, uint32_t granuleBytes)
    : sets_(MakeZeroArray<Set>(std::max<uint64_t>(capacityBytes / granuleBytes / kWays, 1))),
      nSets_(std::max<uint64_t>(capacityBytes / granuleBytes / kWays, 1)) {}

L2Cache::Access L2Cache::Touch(uint64_t granule, bool write, bool allocate) {
  Set& s = sets_[Mix(granule) % nSets_];
  const uint64_t tag = granule + 1;
  ++clock_;
  for (uint32_t w = 0; w < kWays; ++w) {
    if ((s.tag[w] & ~kDirty) == tag) {
      s.stamp[w] = clock_;
      if (write && allocate) s.tag[w] |= kDirty;
      return {true, false, &s.ready[w]};
    }
  }
  if (!allocate) return {false, false, nullptr};
  uint32_t victim = 0;  // least recently used, the first such way on a tie (empty ways have stamp 0)
  for (uint32_t w = 1; w < kWays; ++w)
    if (s.stamp[w] < s.stamp[victim]) victim = w;
  const bool evictedDirty = (s.tag[victim] & kDirty) != 0;
  s.tag[victim] = tag | (write ? kDirty : 0);
  s.stamp[victim] = clock_;
  s.ready[victim] = 0;
  return {false, evictedDirty, &s.ready[victim]};
}

void L2Cache::Prefetch(uint64_t granule) const {
  const char* set = reinterpret_cast<const char*>(&sets_[Mix(granule) % nSets_]);
  for (size_t line = 0; line < sizeof(Set); line += 64) __builtin_prefetch(set + line, 1);
}

// A core's ports are used in program order by one pipe each (MTE2 reads, MTE3 writes: A1 case 1
// shows a core's writes overlapping its reads), so a cursor per port times them exactly.
GmSystem::GmSystem(const Params& p, uint32_t cores)
    : p_(p), l2_(p.l2Bytes, p.granuleBytes), portFree_(2 * static_cast<size_t>(cores), 0.0) {
  const uint32_t calendars = p.gmSlices + p.l2Slices;
  buckets_ = MakeZeroArray<Calendar::Bucket>(uint64_t{calendars} * kSliceRing);
  uint32_t column = 0;
  auto add = [&](std::vector<Calendar>& to, uint32_t n, double capacityPerCycle) {
    to.reserve(n);
    for (uint32_t i = 0; i < n; ++i) to.emplace_back(capacityPerCycle, kSliceRing, &buckets_[column++], calendars);
  };
  add(hbm_, p.gmSlices, p.hbmBytesPerCycle / p.gmSlices);
  add(l2Slices_, p.l2Slices, p.l2BytesPerCycle / p.l2Slices);
}

void GmSystem::Prefetch(const DmaRequest& r, uint32_t maxGranules) const {
  uint32_t n = 0;
  ForEachGranule(r, p_.granuleBytes, [&](uint64_t gran, uint64_t, uint64_t) {
    if (n++ == maxGranules) return false;
    l2_.Prefetch(gran);
    return true;
  });
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
  Prefetch(r, 64);  // its sets' misses then overlap instead of coming one granule at a time
  double portAt = start, portOnly = start, end = start;
  bool memoryBound = false;
  ForEachGranule(r, g, [&](uint64_t gran, uint64_t lo, uint64_t hi) {
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
      served = slice.Reserve(r.write ? issued : std::max(issued, *a.ready), static_cast<double>(rows));
      t.l2HitBytes += a.hit ? rows : 0;
    } else {  // a read miss fetches, a write-through stores, the whole granule
      served = channel.Reserve(issued, static_cast<double>(g));
      if (!r.write) served += p_.hbmLatency;  // HBM is further away than an L2 slice
      if (!r.write && allocate) {  // the fill is written into its slice, behind the slice's queue
        served = slice.Reserve(served, static_cast<double>(g));
        *a.ready = served;
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
    return true;
  });
  t.issued = portAt;
  t.end = end;
  t.stallCycles = std::max(0.0, end - portOnly);
  if (t.stallCycles > 0) t.stall = memoryBound ? Stall::kGmBandwidth : Stall::kCorePort;
  return t;
}

}  // namespace ascendc_sim::model
