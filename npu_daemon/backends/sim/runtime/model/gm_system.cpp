#include "model/gm_system.h"

#include <algorithm>

namespace ascendc_sim::model {

Interleave::Interleave(uint32_t ways) : ways_(std::max<uint32_t>(ways, 1)), mod_(ways_) {
  if ((ways_ & (ways_ - 1)) != 0 || ways_ == 1) return;
  // Halving folds: the low `bits` bits end up the XOR of every `bits`-wide group of the address.
  const uint32_t bits = __builtin_ctz(ways_);
  uint32_t groups = 1;  // covering 64 bits, a power of two
  while (groups * bits < 64) groups *= 2;
  for (uint32_t half = groups / 2; half >= 1; half /= 2) shifts_[folds_++] = static_cast<uint8_t>(half * bits);
}

namespace {
constexpr uint32_t kSliceRing = 1u << 14;  // buckets: ~1 M cycles of backlog and disorder tolerated

// Walks the granules a copy touches, burst by burst ([Lo(), Hi()) the burst's bytes).
class GranuleWalk {
 public:
  GranuleWalk(const DmaRequest& r, const Divisor& granuleBytes) : r_(r), g_(granuleBytes) { Seek(); }
  bool Done() const { return b_ >= r_.bursts; }
  uint64_t Granule() const { return gran_; }
  uint64_t Lo() const { return lo_; }
  uint64_t Hi() const { return hi_; }
  void Next() {
    if (++gran_ * g_.Value() >= hi_) {
      ++b_;
      Seek();
    }
  }

 private:
  void Seek() {  // to the first granule of burst b_ or a later one (an empty burst touches none)
    for (; b_ < r_.bursts; ++b_) {
      lo_ = r_.gmAddr + b_ * r_.gmPitch;
      hi_ = lo_ + r_.rowBytes;
      gran_ = g_.Quotient(lo_);
      if (gran_ * g_.Value() < hi_) return;
    }
  }
  const DmaRequest& r_;
  const Divisor& g_;
  uint32_t b_ = 0;
  uint64_t lo_ = 0, hi_ = 0, gran_ = 0;
};
}  // namespace

L2Cache::L2Cache(uint64_t capacityBytes, uint32_t granuleBytes)
    : sets_(MakeZeroArray<Set>(std::max<uint64_t>(capacityBytes / granuleBytes / kWays, 1))),
      setOf_(std::max<uint64_t>(capacityBytes / granuleBytes / kWays, 1)) {}

namespace {
// `order` with way w moved to the most recent end.
uint64_t MakeRecent(uint64_t order, uint32_t w) {
  constexpr uint64_t kOnes = 0x1111111111111111ull;
  const uint64_t x = order ^ (kOnes * w);  // w's nibble becomes 0, and it is the lowest zero nibble
  const uint32_t at = __builtin_ctzll((x - kOnes) & ~x & (kOnes << 3)) & ~3u;  // its bit position
  const uint64_t below = (uint64_t{1} << at) - 1;
  return (order & below) | ((order >> 4) & ~below) | (uint64_t{w} << 60);
}
}  // namespace

// LRU as a recency order rather than a clock per way: the same victim (least recently touched,
// the lowest empty way first) without searching, and no 32-bit clock to wrap after 2^32 lookups.
L2Cache::Access L2Cache::Touch(uint64_t granule, bool write, bool allocate) {
  const uint64_t h = Mix(granule);
  Set& s = sets_[setOf_.Remainder(h)];
  const uint16_t print = static_cast<uint16_t>(h >> 48);
  const uint64_t tag = granule + 1;
  uint32_t match = 0;
  for (uint32_t w = 0; w < kWays; ++w) match |= static_cast<uint32_t>(s.print[w] == print) << w;
  for (; match != 0; match &= match - 1) {
    const uint32_t w = __builtin_ctz(match);
    Way& way = s.way[w];
    if ((way.tag & ~kDirty) == tag) {
      s.order = MakeRecent(s.order, w);
      if (write && allocate) way.tag |= kDirty;
      return {true, false, &way.ready};
    }
  }
  if (!allocate) return {false, false, nullptr};
  if (s.order == 0) s.order = kFirstOrder;
  const uint32_t victim = s.order & 15;
  s.order = (s.order >> 4) | (uint64_t{victim} << 60);
  Way& way = s.way[victim];
  const bool evictedDirty = (way.tag & kDirty) != 0;
  way.tag = tag | (write ? kDirty : 0);
  way.ready = 0;
  s.print[victim] = print;
  return {false, evictedDirty, &way.ready};
}

void L2Cache::Prefetch(uint64_t granule) const {
  const char* set = reinterpret_cast<const char*>(&sets_[setOf_.Remainder(Mix(granule))]);
  for (size_t line = 0; line < sizeof(Set); line += 64) __builtin_prefetch(set + line, 1);
}

// A core's ports are used in program order by one pipe each (MTE2 reads, MTE3 writes: A1 case 1
// shows a core's writes overlapping its reads), so a cursor per port times them exactly.
GmSystem::GmSystem(const Params& p, uint32_t cores)
    : p_(p),
      l2_(p.l2Bytes, p.granuleBytes),
      granule_(p.granuleBytes),
      channelOf_(p.gmSlices),
      sliceOf_(p.l2Slices),
      portFree_(2 * static_cast<size_t>(cores), 0.0) {
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

void GmSystem::Prefetch(const DmaRequest& r) const {
  GranuleWalk w(r, granule_);
  for (uint32_t n = 0; n < kPrefetchAhead && !w.Done(); ++n, w.Next()) l2_.Prefetch(w.Granule());
}

void GmSystem::Warm(const DmaRequest& r) {
  const bool allocate = r.cacheMode != static_cast<uint8_t>(CacheMode::CACHE_MODE_DISABLE);
  for (GranuleWalk w(r, granule_); !w.Done(); w.Next()) l2_.Touch(w.Granule(), r.write, allocate);
}

DmaTiming GmSystem::Transfer(const DmaRequest& r, double start) {
  DmaTiming t{start, start, Stall::kNone, 0, 0, 0, 0};
  const double portCyclesPerByte = 1.0 / (r.write ? p_.mte3BytesPerCycle
                                          : r.aic ? p_.aicMte2BytesPerCycle
                                                  : p_.mte2BytesPerCycle);
  // A vector core's read that hits in L2 streams at its own, faster rate (docs/performance_model.md,
  // L2-hit streaming); the port's rate above is the one fitted to reads from HBM.
  const double hitCyclesPerByte = r.write || r.aic ? portCyclesPerByte : 1.0 / p_.mte2L2HitBytesPerCycle;
  // DISABLE: no allocation on a miss (a resident line still serves the access); writes then go
  // straight to HBM. NORMAL / LAST / PERSISTENT allocate (the latter two differ only in
  // replacement priority, which this LRU does not model).
  const bool allocate = r.cacheMode != static_cast<uint8_t>(CacheMode::CACHE_MODE_DISABLE);
  const uint64_t g = p_.granuleBytes;
  double& port = portFree_[2 * r.core + (r.write ? 1 : 0)];
  // Sets are loaded kPrefetchAhead granules ahead of their lookup (the first ones while the previous
  // DMA was timed), so that their misses overlap. Not a copy's 64 sets up front: with 320 lines
  // asked for at once most lookups still waited for their set (the CPU cannot keep that many).
  GranuleWalk ahead(r, granule_);
  for (uint32_t n = 0; n < kPrefetchAhead && !ahead.Done(); ++n) ahead.Next();
  double portAt = start, portOnly = start, end = start;
  bool memoryBound = false;
  for (GranuleWalk w(r, granule_); !w.Done(); w.Next()) {
    if (!ahead.Done()) {
      l2_.Prefetch(ahead.Granule());
      ahead.Next();
    }
    const uint64_t gran = w.Granule(), lo = w.Lo(), hi = w.Hi();
    const uint64_t bytes = std::min(hi, (gran + 1) * g) - std::max(lo, gran * g);
    const uint64_t rows = (bytes + 31) / 32 * 32;  // UB side moves whole 32 B rows
    const L2Cache::Access a = l2_.Touch(gran, r.write, allocate);
    const double perByte = a.hit ? hitCyclesPerByte : portCyclesPerByte;
    const double issued = std::max(portAt, port);
    portAt = port = issued + rows * perByte;
    portOnly += rows * perByte;
    Calendar& channel = hbm_[channelOf_(gran)];
    Calendar& slice = l2Slices_[sliceOf_(gran)];
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
      if (!r.write && allocate) {             // the fill is written into its slice, behind the slice's queue
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
  }
  t.issued = portAt;
  t.end = end;
  t.stallCycles = std::max(0.0, end - portOnly);
  if (t.stallCycles > 0) t.stall = memoryBound ? Stall::kGmBandwidth : Stall::kCorePort;
  return t;
}

}  // namespace ascendc_sim::model
