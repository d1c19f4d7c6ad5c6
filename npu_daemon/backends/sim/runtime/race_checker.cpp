// The race checker (race_checker.h): vector clocks and shadow memory within a core, GM footprints
// across cores.
#include "race_checker.h"

#include <emmintrin.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include "ascendc_sim/runtime.h"

namespace ascendc_sim {

std::string Describe(const Site& s) {
  const char* slash = std::strrchr(s.file, '/');
  return std::string(s.api) + " at " + (slash ? slash + 1 : s.file) + ":" + std::to_string(s.line);
}

RaceChecker::RaceChecker(const std::vector<Site>& sites, std::vector<TimedPair>& timed, uint32_t ubBytes,
                         uint64_t localBytes, const uint8_t* local)
    : sites_(sites), timed_(timed), localBytes_(localBytes), local_(local), shadow_(ubBytes / 32) {}

void RaceChecker::Join(Clock& into, const Clock& from) {
  for (int i = 0; i < kPipes; ++i) into[i] = std::max(into[i], from[i]);
}

RaceChecker::Block& RaceChecker::ShadowOf(uint32_t addr) {
  if (addr / 32 >= shadow_.size()) shadow_.resize(localBytes_ / 32);
  return shadow_[addr / 32];
}

static bool VectorOrDma(int p) { return p == PIPE_V || p == PIPE_MTE2 || p == PIPE_MTE3; }

namespace {

// Bits of block `b` (bit i: byte i) in [from, to).
uint32_t BlockBits(uint64_t b, uint64_t from, uint64_t to) {
  const uint64_t lo = std::max(from, b * 32), hi = std::min(to, b * 32 + 32);
  if (lo >= hi) return 0;
  const uint64_t n = hi - lo;
  return (n == 32 ? ~0u : (1u << n) - 1) << (lo - b * 32);
}

// The bytes of block `b` access `a` touches: its range, or its rows.
uint32_t AccessBits(const UbAccess& a, uint64_t b) {
  const uint64_t end = uint64_t{a.addr} + a.bytes;
  if (a.pitch == 0) return BlockBits(b, a.addr, end);
  uint32_t bits = 0;
  const uint64_t lo = b * 32;
  uint64_t r = lo >= a.addr + uint64_t{a.rowBytes} ? (lo - a.addr - a.rowBytes) / a.pitch : 0;
  for (uint64_t at = a.addr + r * a.pitch; at < lo + 32 && at < end; at += a.pitch)
    bits |= BlockBits(b, at, std::min(at + a.rowBytes, end));
  return bits;
}

// " UB [from, to)" of block `b`, for messages.
std::string Range(uint64_t b) { return " UB [" + std::to_string(b * 32) + ", " + std::to_string(b * 32 + 32) + ")"; }

// The bytes that differ between two 32 B blocks.
uint32_t DiffBits(const uint8_t* x, const uint8_t* y) {
  const __m128i x0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(x));
  const __m128i y0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(y));
  const __m128i x1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(x + 16));
  const __m128i y1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(y + 16));
  const auto same0 = static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(x0, y0)));
  const auto same1 = static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(x1, y1)));
  return ~(same0 | same1 << 16);
}

}  // namespace

void RaceChecker::Instruction(int p, uint32_t site, int64_t index, const UbAccess* acc, size_t n, const SrcLoc& loc,
                              const char* api) {
  Settle();
  if (p == PIPE_V) Join(vc_[PIPE_V], vc_[PIPE_S]);  // compiler-inserted S -> V sync
  Clock& vc = vc_[p];
  Join(vc, issued_);
  ++vc[p];
  if (VectorOrDma(p)) traceIndex_[p].push_back(index);
  for (size_t k = 0; k < n; ++k) {
    const UbAccess& a = acc[k];
    if (a.bytes == 0) continue;
    ASCENDC_SIM_CHECK(static_cast<uint64_t>(a.addr) + a.bytes <= localBytes_, loc,
                      "%s: UB range [%u, %llu) outside the Unified Buffer", api, a.addr,
                      static_cast<unsigned long long>(a.addr) + a.bytes);
    if ((a.addr + a.bytes + 31) / 32 > shadow_.size()) shadow_.resize(localBytes_ / 32);
    if (!a.write) LogRead(p, vc[p], a);
    for (uint32_t b = a.addr / 32; b <= (a.addr + a.bytes - 1) / 32; ++b) {
      Block& blk = shadow_[b];
      const bool afterWrite = blk.writeClock != 0 && blk.writer != p && blk.writeClock > vc[blk.writer];
      // A write with an unordered pair: its bytes are copied, judged once the API has written them.
      bool unordered = a.write && afterWrite;
      for (int q = 0; a.write && q < kPipes; ++q) unordered = unordered || (q != p && blk.readClock[q] > vc[q]);
      if (kept_.held) {  // past the first write with an unordered pair: the rest waits for Settle, in order
        Keep(b, a, k, unordered);
        continue;
      }
      if (!a.write) {
        // Messages are built on a conflict only: this loop runs for every block of every access.
        if (afterWrite) WriterConflict(b, a, p, index, loc, api, false);
        if (blk.silent != 0) SilentReads(b, p, loc, api);
        blk.readClock[p] = vc[p];
        blk.readSite[p] = site;
        continue;
      }
      if (unordered) {  // rare: judged once the API has written, against the bytes copied here
        Hold(p, site, index, loc, api);
        Keep(b, a, k, true);
        continue;
      }
      const uint32_t defined = blk.defined | AccessBits(a, b);
      blk = Block{};
      blk.writer = static_cast<uint8_t>(p);
      blk.writeClock = vc[p];
      blk.writeSite = site;
      blk.defined = defined;
    }
  }
}

// A block of the kept instruction, in issue order; a write with an unordered pair has its bytes
// copied (the only blocks whose values can matter: Settle takes the others as changing every byte).
void RaceChecker::Hold(int p, uint32_t site, int64_t index, const SrcLoc& loc, const char* api) {
  kept_.held = true;
  kept_.pipe = p;
  kept_.site = site;
  kept_.index = index;
  kept_.loc = loc;
  kept_.api = api;
  kept_.last = SIZE_MAX;
  kept_.accesses.clear();
  kept_.blocks.clear();
  kept_.before.clear();
}

void RaceChecker::Keep(uint32_t b, const UbAccess& a, size_t k, bool copy) {
  if (kept_.last != k) {
    kept_.accesses.push_back(a);
    kept_.last = k;
  }
  kept_.blocks.push_back({static_cast<uint32_t>(kept_.accesses.size() - 1), b, copy});
  if (copy) kept_.before.insert(kept_.before.end(), local_ + uint64_t{b} * 32, local_ + uint64_t{b} * 32 + 32);
}

void RaceChecker::LogRead(int p, uint32_t clock, const UbAccess& a) {
  ReadLog& log = reads_[p];
  if (log.ring.size() < kReadLog)
    log.ring.push_back({clock, a});
  else
    log.ring[log.next] = {clock, a};
  log.next = (log.next + 1) & (kReadLog - 1);
}

// The bytes of block `b` pipe `q` read after its clock `after` (the reads a write of another pipe
// is not ordered after); every byte when the log no longer reaches back that far, or for the
// scalar unit, whose reads are not logged.
uint32_t RaceChecker::ReadBytes(int q, uint32_t b, uint32_t after) const {
  const ReadLog& log = reads_[q];
  if (q == PIPE_S) return ~0u;
  uint32_t bits = 0;
  const size_t n = log.ring.size();
  for (size_t i = 0; i < n; ++i) {
    const Read& r = log.ring[(log.next + n - 1 - i) % n];
    if (r.clock <= after) return bits;
    bits |= AccessBits(r.access, b);
  }
  return n < kReadLog ? bits : ~0u;
}

// By the next call the instruction's API has written its destination, with one exception: an API
// that issues several instructions before it computes (Extract's two GatherMasks) reaches here for
// the next one first, and the earlier one's bytes are then all as they were. So a write counts as
// leaving bytes unchanged only when the instruction changed some byte of a copied block it writes
// (`settled`): one that changed none stays judged as a write of every byte, as before.
void RaceChecker::Judge() {
  kept_.held = false;
  changed_.clear();
  bool settled = false;
  size_t at = 0;
  for (const KeptBlock& k : kept_.blocks) {
    if (!k.copied) continue;
    const UbAccess& a = kept_.accesses[k.access];
    const uint32_t bits = AccessBits(a, k.block);
    const uint32_t changed = DiffBits(kept_.before.data() + at, local_ + uint64_t{k.block} * 32) & bits;
    at += 32;
    // Not a sharedTmpBuffer: IssueVector fills one with 0xFF as it issues, before any value.
    settled = settled || (changed != 0 && !a.scratch);
    // Bytes no write of this core gave a value hold what the device left there (here: zeros), so
    // a write to them is never "unchanged".
    changed_.push_back(changed | (bits & ~shadow_[k.block].defined));
  }
  settled = settled && !SimStrict();
  size_t c = 0;
  for (const KeptBlock& k : kept_.blocks) {
    const UbAccess& a = kept_.accesses[k.access];
    Access(k.block, a, k.copied ? changed_[c++] : AccessBits(a, k.block), settled && k.copied, k.copied);
  }
}

void RaceChecker::WriterConflict(uint32_t b, const UbAccess& a, int p, int64_t index, const SrcLoc& loc,
                                 const char* api, bool silent) {
  const Block& blk = shadow_[b];
  const std::string what = std::string(api) + " on " + PipeName(p) + (a.write ? " writes" : " reads") + Range(b) +
                           " while " + Describe(sites_[blk.writeSite]) + " on " + PipeName(blk.writer) +
                           " may still be writing it";
  if (silent)
    SameValue(loc, what);
  else if (!ByTiming(blk.writer, blk.writeClock, p, index, b, a.write, true))
    Conflict(blk.writer, p, loc, what);
}

// A read of block `b` with an unordered same-value write before it (recorded as a read): counted.
void RaceChecker::SilentReads(uint32_t b, int p, const SrcLoc& loc, const char* api) {
  const Block& blk = shadow_[b];
  for (int q = 0; q < kPipes; ++q)
    if (q != p && (blk.silent >> q & 1u) && blk.readClock[q] > vc_[p][q])
      SameValue(loc, std::string(api) + " on " + PipeName(p) + " reads" + Range(b) + " while " +
                         Describe(sites_[blk.readSite[q]]) + " on " + PipeName(q) + " may still be writing it");
}

// One block of the kept instruction. `changed`: the bytes of the block its write changed;
// `settled`: whether those can be trusted (see Judge).
void RaceChecker::Access(uint32_t b, const UbAccess& a, uint32_t changed, bool settled, bool copied) {
  const int p = kept_.pipe;
  const Clock& vc = vc_[p];
  Block& blk = shadow_[b];
  const uint32_t bits = AccessBits(a, b);
  // A write that changed none of its bytes here: it cannot change what another access reads or
  // what the block ends up holding, and is recorded as a read (a later write must not pass it).
  const bool silent = a.write && settled && changed == 0;
  if (blk.writeClock != 0 && blk.writer != p && blk.writeClock > vc[blk.writer])
    WriterConflict(b, a, p, kept_.index, kept_.loc, kept_.api, silent);
  if (!a.write) {
    if (blk.silent != 0) SilentReads(b, p, kept_.loc, kept_.api);
    blk.readClock[p] = vc[p];
    blk.readSite[p] = kept_.site;
    return;
  }
  uint32_t keep = 0;  // readers a same-value write let pass: their records stay
  for (int q = 0; q < kPipes; ++q)
    if (q != p && blk.readClock[q] > vc[q]) {
      // Scalar reads keep no site (asked for on writes only, for speed).
      const std::string reader = q == PIPE_S ? std::string("a scalar read") : Describe(sites_[blk.readSite[q]]);
      const std::string what = std::string(kept_.api) + " on " + PipeName(p) + " writes" + Range(b) + " while " +
                               reader + " on " + PipeName(q) + " may still be reading it";
      if (settled && (changed & ReadBytes(q, b, vc[q])) == 0) {
        SameValue(kept_.loc, what);
        keep |= 1u << q;
      } else if (!ByTiming(q, blk.readClock[q], p, kept_.index, b, true, false)) {
        Conflict(q, p, kept_.loc, what);
      }
    }
  if (silent) {
    blk.readClock[p] = vc[p];
    blk.readSite[p] = kept_.site;
    blk.silent |= static_cast<uint8_t>(1u << p);
    LogRead(p, vc[p], a);
    return;
  }
  const Block old = blk;
  blk = Block{};
  for (int q = 0; q < kPipes; ++q)
    if (keep >> q & 1u) {
      blk.readClock[q] = old.readClock[q];
      blk.readSite[q] = old.readSite[q];
      blk.silent |= old.silent & static_cast<uint8_t>(1u << q);
    }
  blk.writer = static_cast<uint8_t>(p);
  blk.writeClock = vc[p];
  blk.writeSite = kept_.site;
  // A copied block's bytes have a value once the instruction settled; another's as it is written.
  blk.defined = old.defined | (settled || !copied ? bits : 0);
}

void RaceChecker::SameValue(const SrcLoc& loc, const std::string& what) {
  if (sameValue_++ == 0) {
    sameValueLoc_ = loc;
    sameValueWhat_ = what;
  }
}

void RaceChecker::Conflict(int from, int to, const SrcLoc& loc, const std::string& what) {
  const auto dma = [](int q) { return q == PIPE_MTE2 || q == PIPE_MTE3; };
  if (SimStrict() || !((from == PIPE_S && dma(to)) || (dma(from) && to == PIPE_S)))
    Fail(Status::RACE_DETECTED, loc, "%s (no flag orders them)", what.c_str());
  DeviceTolerated(loc,
                  "%s with no flag: ordered by the %s -> %s sync the compiler inserts (--cce-auto-sync, on by default)",
                  what.c_str(), PipeName(from), PipeName(to));
  Join(vc_[to], vc_[from]);
  if (to == PIPE_S) Join(issued_, vc_[from]);  // the scalar unit waited
}

// Pipe `to` runs in order: once this instruction starts after `from`'s access is done (what the
// model then checks), so does every later one of `to`.
bool RaceChecker::ByTiming(int from, uint32_t clock, int to, int64_t index, uint32_t block, bool secondWrites,
                           bool firstWrites) {
  if (SimStrict() || !VectorOrDma(from) || !VectorOrDma(to)) return false;
  timed_.push_back(TimedPair{traceIndex_[from][clock - 1], index, block * 32, secondWrites, firstWrites, {}});
  vc_[to][from] = std::max(vc_[to][from], clock);
  return true;
}

bool RaceChecker::VectorAhead() {
  Settle();
  // PIPE_V has done or waited for work the scalar unit has not seen.
  for (int q = 0; q < kPipes; ++q)
    if (vc_[PIPE_V][q] > vc_[PIPE_S][q]) return true;
  return false;
}

// It also carries what PIPE_V waited for (WaitFlag<MTE2_V> then GetValue is ordered on the device).
void RaceChecker::SyncVectorToScalar() {
  Settle();
  Join(vc_[PIPE_S], vc_[PIPE_V]);
  Join(issued_, vc_[PIPE_V]);
}

void RaceChecker::SetFlag(int src, int dst, uint64_t key, int64_t setIndex, uint32_t site) {
  Settle();
  if (src == PIPE_V) Join(vc_[PIPE_V], vc_[PIPE_S]);
  Join(vc_[src], issued_);
  flags_[{src, dst, key}].push_back({vc_[src], setIndex, site});
}

int64_t RaceChecker::WaitFlag(int src, int dst, uint64_t key, const SrcLoc& loc, const char* api) {
  Settle();
  auto it = flags_.find({src, dst, key});
  if (it == flags_.end() || it->second.empty())
    Fail(Status::RUNTIME_ERROR, loc, "%s(%s -> %s, id %llu) has no earlier SetFlag to match: %s would wait forever",
         api, PipeName(src), PipeName(dst), static_cast<unsigned long long>(key & 0xffff), PipeName(dst));
  const Snapshot snap = it->second.front();
  it->second.erase(it->second.begin());
  Join(vc_[dst], snap.clock);
  if (dst == PIPE_S) Join(issued_, snap.clock);  // the scalar unit stalls: nothing after it issues earlier
  return snap.setIndex;
}

void RaceChecker::Barrier(int pipe) {
  Settle();
  if (pipe != PIPE_ALL) return;
  Clock all{};
  for (const Clock& c : vc_) Join(all, c);
  for (Clock& c : vc_) c = all;
}

void RaceChecker::GmAccess(int p, const GmPattern& g, bool write, uint32_t site, const SrcLoc& loc, const char* api) {
  auto scan = [&](std::multimap<uint64_t, GmRec>& recs, const char* what) {
    const uint64_t from = g.start > gmMaxSpan_ ? g.start - gmMaxSpan_ : 0;
    for (auto it = recs.lower_bound(from); it != recs.end() && it->first < g.End();) {
      const GmRec& r = it->second;
      if (r.pipe == p || r.clock <= vc_[p][r.pipe]) {  // same pipe, or ordered by flags: never again a race
        if (r.pipe != p) {
          it = recs.erase(it);
          continue;
        }
        ++it;
        continue;
      }
      if (r.g.Overlaps(g))
        Fail(Status::RACE_DETECTED, loc, "%s on %s %s %s while %s on %s may still be %s it (no flag orders them)", api,
             PipeName(p), write ? "writes" : "reads", DescribeGm(g.start).c_str(), Describe(sites_[r.site]).c_str(),
             PipeName(r.pipe), what);
      ++it;
    }
  };
  scan(gmWrites_, "writing");
  if (write) scan(gmReads_, "reading");
  gmMaxSpan_ = std::max(gmMaxSpan_, g.End() - g.start);
  std::multimap<uint64_t, GmRec>& recs = write ? gmWrites_ : gmReads_;
  // The same access again (a poll) takes the place of the last one: a spin records one.
  for (auto [it, end] = recs.equal_range(g.start); it != end; ++it) {
    GmRec& r = it->second;
    if (r.pipe == p && r.site == site && r.g.rows == g.rows && r.g.rowBytes == g.rowBytes && r.g.pitch == g.pitch) {
      r.clock = vc_[p][p];
      return;
    }
  }
  recs.emplace(g.start, GmRec{g, static_cast<uint8_t>(p), vc_[p][p], site});
}

void RaceChecker::ForgetGm() {
  gmWrites_.clear();
  gmReads_.clear();
}

void RaceChecker::Finish() {
  Settle();
  if (sameValue_ != 0)
    DeviceTolerated(sameValueLoc_,
                    "%s with no flag, but the write leaves every byte the other touches as it was, so the result "
                    "does not depend on their order (%llu such pairs on this core)",
                    sameValueWhat_.c_str(), static_cast<unsigned long long>(sameValue_));
  for (const auto& [flag, pending] : flags_) {
    const uint64_t key = std::get<2>(flag);
    const bool queueFlag = key >> 63;
    // A freed queue buffer signals its producer; nobody needs to wait for the last signals.
    if (pending.empty() || (queueFlag && (key & 1u))) continue;
    const Site& s = sites_[pending.front().site];
    SrcLoc loc{s.file, s.line};
    if (queueFlag)
      Fail(Status::RUNTIME_ERROR, loc,
           "kernel ended with a tensor still in a queue (%s never matched by DeQue/AllocTensor)", s.api);
    Fail(Status::RUNTIME_ERROR, loc, "kernel ended with %s(%s -> %s, id %llu) never waited for", s.api,
         PipeName(std::get<0>(flag)), PipeName(std::get<1>(flag)), static_cast<unsigned long long>(std::get<2>(flag)));
  }
}

bool GmPattern::Overlaps(const GmPattern& o) const {
  if (rows == 0 || o.rows == 0 || End() <= o.start || o.End() <= start) return false;
  // Walk the pattern with fewer rows; for each row find the first row of the other ending after it.
  const GmPattern& a = rows <= o.rows ? *this : o;
  const GmPattern& b = rows <= o.rows ? o : *this;
  for (uint32_t r = 0; r < a.rows; ++r) {
    const uint64_t lo = a.start + r * a.pitch, hi = lo + a.rowBytes;
    uint64_t k = 0;
    if (lo >= b.start + b.rowBytes) k = (lo - b.start - b.rowBytes) / b.pitch + 1;
    if (k < b.rows && b.start + k * b.pitch < hi) return true;
  }
  return false;
}

// ---- across cores: GM footprints of the current epoch (between SyncAlls) ----------------------
namespace gm_epoch {
namespace {

struct EpochRec {
  GmPattern g;
  int block;
  uint8_t kind;          // 0 read, 1 write, 2 atomic write, 3 write of the bytes GM already held, 4 scalar write
  uint64_t first, last;  // order numbers of the first and the last access merged into the record
  uint32_t know;         // the block's knowledge of other blocks' accesses (gm_flags) when recorded
  const char* api;
  const char* file;
  int line;
};

// Footprints are merged as they arrive, so a loop's accesses cost one record however many there
// are: each (block, kind) remembers its most recently extended records, one per stream, and an
// access that continues one of them (the next bytes, or the next row of a fixed pitch) extends it.
// What no stream continues (a gather, say) gets a record of its own, up to kMaxEpochRecords per
// epoch; past that the epoch's further footprints are timed but not checked across cores (a
// warning says so): memory stays bounded and a kernel the device runs is not stopped.
constexpr size_t kStreams = 8;
constexpr size_t kMaxEpochRecords = size_t{1} << 22;  // ~200 MB of records

struct Epoch {
  std::vector<EpochRec> recs;
  std::vector<std::array<std::array<int64_t, kStreams>, 5>> last;  // per block and kind, most recent first
  uint64_t order = 0;                                              // accesses recorded so far
  bool full = false;  // past kMaxEpochRecords: the rest of the epoch is not recorded
};
Epoch g_epoch;

// Extend `r` by `g` when the union is exactly one pattern again (the same site only): the next
// bytes of a run, the next row at the record's pitch, or (`newPitch`) a second row of a one-row
// record in the same GM buffer.
bool Extend(EpochRec& r, const GmPattern& g, const SrcLoc& loc, bool newPitch) {
  if (r.line != loc.line || r.file != loc.file) return false;
  GmPattern& p = r.g;
  const uint64_t lastRow = p.start + (p.rows - 1) * p.pitch;
  if ((g.start == p.start && g.rows == p.rows && g.rowBytes == p.rowBytes && g.pitch == p.pitch) ||
      (g.rows == 1 && g.start == lastRow && g.rowBytes == p.rowBytes))
    return true;  // the same bytes again (a poll): the record covers them already
  if (g.rows != 1) return false;
  if (p.rows == 1 && p.End() == g.start && p.rowBytes + uint64_t{g.rowBytes} <= UINT32_MAX) {
    p.rowBytes += g.rowBytes;  // a loop walking forward
    p.pitch = p.rowBytes;
    return true;
  }
  if (p.rowBytes != g.rowBytes || p.rows == UINT32_MAX || g.start < p.End()) return false;
  if (p.rows > 1 && g.start == p.start + p.rows * p.pitch) {
    ++p.rows;  // the next row at that pitch
    return true;
  }
  if (!newPitch || p.rows != 1 || !GmRangeValid(reinterpret_cast<const void*>(p.start), g.End() - p.start))
    return false;
  p.pitch = g.start - p.start;
  p.rows = 2;
  return true;
}

std::string DescribeRec(const EpochRec& r) {
  static const char* kinds[] = {"reading", "writing", "atomically updating", "writing", "writing"};
  const char* slash = std::strrchr(r.file, '/');
  return "block " + std::to_string(r.block) + " " + kinds[r.kind] + " " + DescribeGm(r.g.start) + ".." +
         std::to_string(r.g.End() - r.g.start) + " B with " + r.api + " at " + (slash ? slash + 1 : r.file) + ":" +
         std::to_string(r.line);
}

// The data cache's 64 B lines `g` touches (SetValue: "后续写出时以Cache Line（64B）为单位"): each
// row widened to its lines, or, when the rows' lines do not repeat at the pitch, the whole span.
constexpr uint64_t kLine = 64;
GmPattern Lines(const GmPattern& g) {
  const uint64_t lo = g.start / kLine * kLine;
  const uint64_t row = (g.start + g.rowBytes + kLine - 1) / kLine * kLine - lo;
  if (g.rows > 1 && g.pitch % kLine == 0 && row < g.pitch && row <= UINT32_MAX)
    return GmPattern{lo, g.rows, static_cast<uint32_t>(row), g.pitch};
  const uint64_t span = (g.End() + kLine - 1) / kLine * kLine - lo;
  return GmPattern{lo, 1, static_cast<uint32_t>(std::min<uint64_t>(span, UINT32_MAX)), span};
}

// A scalar store of one block and a write of another into the same cache line (not the same bytes):
// the storing core writes its whole line back from its data cache, with its stale copy of the other
// block's bytes, so on the device one of them is lost at random (asc-devkit GlobalTensor SetValue:
// "多核操作GM地址时，要求不同核操作的地址...至少有Cache Line大小的偏移，否则会出现多核数据随机覆盖").
// A write of the bytes GM already held loses nothing.
bool SharesStoredLine(const EpochRec& a, const EpochRec& b) {
  const bool writes = a.kind != 0 && a.kind != 3 && b.kind != 0 && b.kind != 3;
  return writes && (a.kind == 4 || b.kind == 4) && Lines(a.g).Overlaps(Lines(b.g));
}

}  // namespace

void Reset() {
  g_epoch = Epoch{};
  gm_flags::Reset();
}

uint64_t Now() { return g_epoch.order; }

void Cut(int core) {
  if (static_cast<size_t>(core) < g_epoch.last.size())
    for (std::array<int64_t, kStreams>& streams : g_epoch.last[static_cast<size_t>(core)]) streams.fill(-1);
}

void Record(const Core& core, const GmPattern& g, uint8_t kind, const SrcLoc& loc, const char* api) {
  const auto id = static_cast<size_t>(core.GlobalId());
  if (g_epoch.last.size() <= id) {
    std::array<int64_t, kStreams> none;
    none.fill(-1);
    g_epoch.last.resize(id + 1, {none, none, none, none, none});
  }
  std::array<int64_t, kStreams>& last = g_epoch.last[id][kind];
  auto find = [&](bool newPitch) {  // the first stream g extends, or the first free slot, or kStreams
    size_t i = 0;
    while (i < kStreams && last[i] >= 0 && !Extend(g_epoch.recs[static_cast<size_t>(last[i])], g, loc, newPitch)) ++i;
    return i;
  };
  size_t i = find(false);  // a continuation first, so two streams never pair up into a pitch
  if (i == kStreams || last[i] < 0) i = find(true);
  int64_t rec = i < kStreams ? last[i] : -1;
  if (rec < 0) {
    if (g_epoch.full) return;
    if (g_epoch.recs.size() >= kMaxEpochRecords) {
      g_epoch.full = true;
      DeviceTolerated(loc,
                      "more than %zu GM footprints between SyncAlls that do not merge into runs or fixed-pitch rows "
                      "(from %s at %s on): the cross-core race check of this stretch covers the first %zu, the rest "
                      "are timed but not checked; scattered scalar GM accesses cost ~%u cycles each on the device "
                      "too: move the data with DataCopy",
                      kMaxEpochRecords, api, DescribeGm(g.start).c_str(), kMaxEpochRecords, core.ScalarGmCycles());
      return;
    }
    rec = static_cast<int64_t>(g_epoch.recs.size());
    const int block = core.Spec().group;
    g_epoch.recs.push_back(
        EpochRec{g, block, kind, g_epoch.order, 0, gm_flags::Knowledge(block), api, loc.file, loc.line});
  }
  g_epoch.recs[static_cast<size_t>(rec)].last = g_epoch.order++;
  for (size_t j = std::min(i, kStreams - 1); j > 0; --j) last[j] = last[j - 1];  // most recent first
  last[0] = rec;
}

// Whether one of two records of different blocks happens before the other through GM flags, or
// the reading one polled a flag the other wrote there (gm_flags).
static bool FlagOrdered(const EpochRec& a, const EpochRec& b) {
  if (gm_flags::Known(b.know, a.block, a.last) || gm_flags::Known(a.know, b.block, b.last)) return true;
  return (a.kind == 0 && gm_flags::Observed(a.block, b.block, a.g, b.g)) ||
         (b.kind == 0 && gm_flags::Observed(b.block, a.block, a.g, b.g));
}

// Whether the overlap of `a` and `b` (two blocks, one of them writing) leaves a result that does
// not depend on their order on the device: a write of the bytes GM already held is unobservable
// when every access it overlaps is a read, another such write, or a plain write that came before it.
static bool OrderFree(const EpochRec& a, const EpochRec& b) {
  if (a.kind != 3) return b.kind == 3 && OrderFree(b, a);
  return b.kind == 0 || b.kind == 3 || ((b.kind == 1 || b.kind == 4) && b.last < a.first);
}

// The epoch's writes by the 64 B line, when a scalar store is among them: only writes can lose
// bytes to a line written back, so reads (the bulk of scattered scalar accesses) stay out of it.
static void CheckStoredLines(const std::vector<EpochRec>& recs, const char* boundary) {
  std::vector<const EpochRec*> writes;
  for (const EpochRec& r : recs)
    if (r.kind != 0 && r.kind != 3) writes.push_back(&r);
  if (std::none_of(writes.begin(), writes.end(), [](const EpochRec* r) { return r->kind == 4; })) return;
  auto lo = [](const EpochRec* r) { return r->g.start / kLine; };
  auto hi = [](const EpochRec* r) { return (r->g.End() + kLine - 1) / kLine; };
  std::sort(writes.begin(), writes.end(), [&](const EpochRec* a, const EpochRec* b) { return lo(a) < lo(b); });
  std::vector<const EpochRec*> active;
  for (const EpochRec* r : writes) {
    active.erase(std::remove_if(active.begin(), active.end(), [&](const EpochRec* a) { return hi(a) <= lo(r); }),
                 active.end());
    for (const EpochRec* a : active)
      if (a->block != r->block && !a->g.Overlaps(r->g) && SharesStoredLine(*a, *r) && !FlagOrdered(*a, *r))
        throw SimError(Status::RACE_DETECTED,
                       DescribeRec(*a) + " and " + DescribeRec(*r) + " share a 64 B cache line with no " + boundary +
                           " between them: a core writes its scalar stores back a whole data cache line at a "
                           "time, so on the device one block's bytes are overwritten at random (SetValue and raw "
                           "GM stores need each core's addresses 64 B apart and 64 B aligned; or write through UB "
                           "with DataCopy)");
    active.push_back(r);
  }
}

// Whether `read`'s block wrote every byte `read` covers itself before reading them, with the bytes
// `write` had left there (a write of the bytes GM already held, after `write`): whenever the other
// block's write lands, the read returns those bytes (blocks each storing one table, then reading
// it back: ops-nn index_fill's repeat buffer).
static bool ReadsItsOwnCopy(const EpochRec& write, const EpochRec& read, const std::vector<const EpochRec*>& writes) {
  if (read.kind != 0 || (write.kind != 1 && write.kind != 4)) return false;
  for (const EpochRec* w : writes)
    if (w->block == read.block && w->kind == 3 && w->g.rows == 1 && w->g.start <= read.g.start &&
        read.g.End() <= w->g.End() && write.last < w->first && w->first < read.first)
      return true;
  return false;
}

// A write of one block overlapping an access of another, as the cross-core rule judges it.
static void CheckPair(const EpochRec& a, const EpochRec& r, const char* boundary,
                      const std::vector<const EpochRec*>& writes) {
  if (a.block == r.block || (a.kind == 2 && r.kind == 2) || !a.g.Overlaps(r.g) || FlagOrdered(a, r)) return;
  const std::string what = DescribeRec(a) + " and " + DescribeRec(r) + " overlap with no " + boundary + " between them";
  const bool ownCopy = ReadsItsOwnCopy(a, r, writes) || ReadsItsOwnCopy(r, a, writes);
  if ((!OrderFree(a, r) && !ownCopy) || SimStrict())
    throw SimError(Status::RACE_DETECTED, what + " (cross-core GM race; use SyncAll or atomics)");
  if (ownCopy) {
    const EpochRec& read = a.kind == 0 ? a : r;
    DeviceTolerated(SrcLoc{read.file, read.line},
                    "%s; the reading block wrote those bytes itself before, the same bytes, so the result does not "
                    "depend on their order",
                    what.c_str());
    return;
  }
  const EpochRec& same = a.kind == 3 ? a : r;
  DeviceTolerated(SrcLoc{same.file, same.line},
                  "%s; every overlapping write leaves the bytes GM already held, so the "
                  "result does not depend on their order",
                  what.c_str());
}

// Every pair with a write in it, the footprints in address order (writes first at one address):
// `open` holds the writes still extending past the cursor; a read meets them and, through a search
// of the writes by start, those starting inside it. Reads are never held open, so a gather's
// millions of read records (pairs at a wide pitch span much of their table) cost a search each.
void Check(const char* boundary) {
  std::vector<EpochRec>& recs = g_epoch.recs;
  auto order = [](const EpochRec& x) { return std::make_pair(x.g.start, x.kind == 0); };  // writes first
  std::sort(recs.begin(), recs.end(), [&](const EpochRec& a, const EpochRec& b) { return order(a) < order(b); });
  std::vector<const EpochRec*> writes, open;
  for (const EpochRec& r : recs)
    if (r.kind != 0) writes.push_back(&r);
  for (const EpochRec& r : recs) {
    open.erase(std::remove_if(open.begin(), open.end(), [&](const EpochRec* a) { return a->g.End() <= r.g.start; }),
               open.end());
    for (const EpochRec* a : open) CheckPair(*a, r, boundary, writes);
    if (r.kind != 0) {
      open.push_back(&r);
      continue;
    }
    auto w = std::upper_bound(writes.begin(), writes.end(), r.g.start,
                              [](uint64_t at, const EpochRec* x) { return at < x->g.start; });
    for (; w != writes.end() && (*w)->g.start < r.g.End(); ++w) CheckPair(r, **w, boundary, writes);
  }
  CheckStoredLines(recs, boundary);
  recs.clear();
  g_epoch.last.clear();
  g_epoch.full = false;
  gm_flags::Reset();
}

}  // namespace gm_epoch
}  // namespace ascendc_sim
