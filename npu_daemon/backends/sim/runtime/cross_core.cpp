// Cross-core synchronisation: CrossCoreSetFlag / CrossCoreWaitFlag between the AIC and AIVs of a
// mixed launch, the Matmul service an AIV's request runs on its group's AIC, and flags in GM
// (gm_flags, race_checker.h).
//
// Each core has a counter per flag id, as the hardware does; the wait does not name a mode. A set's
// mode says when which counters count up: mode 2 from the AIC, each AIV of its group at once; mode 2
// from the AIVs, the AIC once every AIV of the group has set; mode 1, both AIVs of the group once
// both have set; mode 0, every core of the unit once all of them have set. A counted-up flag
// remembers the sets it needed (core and trace index) so the model can time the wait. Mode 0 is the
// one that crosses blocks: its wait orders GM as a SyncAll does (gm_flags::Merge / Join), the blocks'
// accesses before their sets before the waiter's after its wait.
#include <algorithm>
#include <deque>
#include <map>
#include <optional>
#include <tuple>
#include <utility>

#include "ascendc_sim/runtime.h"
#include "race_checker.h"

namespace ascendc_sim {

namespace {
struct CrossEvent {
  int core;
  int64_t index;
  gm_flags::Mark mark;  // what the setter had done by then (mode 0)
};
struct CrossSets {
  std::vector<CrossEvent> sets;
  bool barrier;  // mode 0: the wait joins `snapshot`, every setter's accesses before its set
  uint32_t snapshot;
  uint64_t generation;
};
// Sets waiting for their partners: (mode, scope, flag) -> per participant, its sets in order. A
// deque: each completed flag takes every setter's oldest set, which a vector's front erase made a
// move of all the sets behind it, quadratic in a kernel's sets for a few instructions of fuel each.
std::map<std::tuple<int, int, int>, std::map<int, std::deque<CrossEvent>>> g_crossPending;
std::map<std::pair<int, int>, std::vector<CrossSets>> g_crossCount;  // (core, flag) -> counted-up flags
std::map<std::pair<int, int>, size_t> g_crossTaken;                  // (core, flag) -> consumed

std::vector<int> Cores(const std::function<bool(const CoreSpec&)>& pick) {
  std::vector<int> out;
  const std::vector<CoreSpec>& specs = LaunchSpecs();
  for (size_t c = 0; c < specs.size(); ++c)
    if (pick(specs[c])) out.push_back(static_cast<int>(c));
  return out;
}
}  // namespace

void ResetCrossFlags() {
  g_crossPending.clear();
  g_crossCount.clear();
  g_crossTaken.clear();
}

void CrossCoreSet(int mode, int pipe, int flag, const SrcLoc& loc, const char* api) {
  Core& core = CurrentCore();
  ASCENDC_SIM_CHECK(mode == 0 || mode == 1 || mode == 2, loc, "%s: mode %d (0, 1 or 2 on this SoC)", api, mode);
  ASCENDC_SIM_CHECK(flag >= 0 && flag < 16, loc, "%s: flag id %d out of range [0, 15]", api, flag);
  ASCENDC_SIM_CHECK(pipe != PIPE_S && pipe != PIPE_ALL, loc, "%s: pipe %s is not allowed", api, PipeName(pipe));
  ASCENDC_SIM_CHECK(mode != 1 || core.Spec().type == CoreType::kAiv, loc, "%s: mode 1 synchronises the AIVs of a group",
                    api);
  Instr ins{};
  ins.pipe = static_cast<uint8_t>(pipe);
  ins.op = Op::kCrossSet;
  ins.link = -1;
  ins.gmPitch = static_cast<uint64_t>(flag);
  // No local access: the ordering is with another core.
  const int64_t index = core.IssueAccesses(ins, loc, api, nullptr, 0);
  const CrossEvent me{core.GlobalId(), index, mode == 0 ? gm_flags::MarkSet(core) : gm_flags::Mark{}};
  const int group = core.Spec().group;
  const CoreType type = core.Spec().type;
  std::vector<int> setters, targets;  // who must set before the flag counts up, and whose counter does
  if (mode == 2 && type == CoreType::kAic) {
    setters = {core.GlobalId()};
    targets = Cores([&](const CoreSpec& s) { return s.group == group && s.type == CoreType::kAiv; });
  } else if (mode == 2) {
    setters = Cores([&](const CoreSpec& s) { return s.group == group && s.type == CoreType::kAiv; });
    targets = Cores([&](const CoreSpec& s) { return s.group == group && s.type == CoreType::kAic; });
  } else if (mode == 1) {
    setters = targets = Cores([&](const CoreSpec& s) { return s.group == group && s.type == CoreType::kAiv; });
  } else {
    setters = targets = Cores([&](const CoreSpec& s) { return s.type == type; });
  }
  auto& pending = g_crossPending[{mode * 2 + static_cast<int>(type), mode == 0 ? 0 : group, flag}];
  pending[core.GlobalId()].push_back(me);
  for (int c : setters)
    if (pending[c].empty()) return;  // a partner has not set yet
  CrossSets round{{}, mode == 0, 0, gm_flags::Generation()};
  std::vector<gm_flags::Mark> marks;
  for (int c : setters) {
    round.sets.push_back(pending[c].front());
    marks.push_back(pending[c].front().mark);
    pending[c].pop_front();
  }
  if (round.barrier) round.snapshot = gm_flags::Merge(marks);
  for (int t : targets) g_crossCount[{t, flag}].push_back(round);
}

void CrossCoreWait(int mode, int pipe, int flag, const SrcLoc& loc, const char* api) {
  (void)mode;  // the waiting core only counts: the set's mode decided what counts
  Core& core = CurrentCore();
  ASCENDC_SIM_CHECK(flag >= 0 && flag < 16, loc, "%s: flag id %d out of range [0, 15]", api, flag);
  const std::pair<int, int> key{core.GlobalId(), flag};
  WaitUntil(
      [key] { return g_crossTaken[key] < g_crossCount[key].size(); },
      std::string("in ") + api + "(" + std::to_string(flag) + ") at " + loc.file + ":" + std::to_string(loc.line));
  const CrossSets round = g_crossCount[key][g_crossTaken[key]++];
  if (round.barrier) gm_flags::Join(core, round.snapshot, round.generation);
  for (const CrossEvent& e : round.sets) {
    Instr ins{};
    ins.pipe = static_cast<uint8_t>(pipe);
    ins.op = Op::kCrossWait;
    ins.link = e.index;
    ins.gmAddr = static_cast<uint64_t>(e.core);
    core.IssueAccesses(ins, loc, api, nullptr, 0);
  }
}

// The message's fields as dav_c220's GetffstMsg packs them: bit 0 set, the mode in bits 4-5, the flag
// id in bits 8-11; a message with other bits is not one the library builds.
void FftsCrossCoreSync(int pipe, uint64_t config, const SrcLoc& loc) {
  constexpr uint64_t kFields = 0x1 | (0x3 << 4) | (0xf << 8);
  ASCENDC_SIM_CHECK((config & 0x1) != 0 && (config & ~kFields) == 0, loc,
                    "ffts_cross_core_sync: config %#llx is no FFTS message (1 | mode << 4 | flag << 8)",
                    static_cast<unsigned long long>(config));
  CrossCoreSet(static_cast<int>((config >> 4) & 0x3), pipe, static_cast<int>((config >> 8) & 0xf), loc,
               "ffts_cross_core_sync");
}

// The Matmul service of a mixed kernel (the API's default MIX mode): every call of the AIV's Matmul
// client that the vendor's library turns into a message (REGIST_MATMUL_OBJ's INIT, each
// Iterate / IterateAll / GetTensorC, End) is posted by the AIV (a cross-core set) and received by the
// group's AIC, which pays the message framework's scalar work there (the wait's `elements`: the
// message bytes, costed by the model). A request's cube work follows on the AIC, which answers once
// its last instruction (on PIPE_FIX) is done; the AIV waits for that answer.
namespace {
Core* ServingAic(const Core& aiv, const SrcLoc& loc) {
  Core* aic = GroupCore(aiv.Spec().group, CoreType::kAic, 0);
  ASCENDC_SIM_CHECK(
      aic != nullptr, loc,
      "Matmul on a vector core with no cube core serving it: a mixed kernel (KERNEL_TYPE_MIX_AIC_1_2) needs "
      "REGIST_MATMUL_OBJ reached on the AIC, an AIV-only kernel has no cube unit");
  return aic;
}

// The AIV posts a message; the AIC receives it (switching the current core to the AIC).
void Post(Core& aiv, Core& aic, const SrcLoc& loc) {
  constexpr uint64_t kMessageBytes = 128;  // one KfcMsg
  Instr msg{};
  msg.pipe = PIPE_S;
  msg.op = Op::kCrossSet;
  msg.link = -1;
  const int64_t msgIndex = aiv.IssueAccesses(msg, loc, "Matmul message", nullptr, 0);
  SetCurrentCore(&aic);
  // The AIC was parked: the scalar work counted since is the AIVs' (each settled its own), so
  // the AIC's count resumes from here instead of taking it.
  aic.ResumeScalarInstrs();
  Instr in{};
  in.pipe = PIPE_S;
  in.op = Op::kCrossWait;
  in.link = msgIndex;
  in.gmAddr = static_cast<uint64_t>(aiv.GlobalId());
  in.elements = kMessageBytes;
  aic.IssueAccesses(in, loc, "Matmul message", nullptr, 0);
}
}  // namespace

void PostToGroupAic(const SrcLoc& loc) {
  Core& aiv = CurrentCore();
  if (aiv.Spec().type == CoreType::kAic) return;
  Core* aic = ServingAic(aiv, loc);
  try {
    Post(aiv, *aic, loc);
  } catch (...) {
    SetCurrentCore(&aiv);
    throw;
  }
  SetCurrentCore(&aiv);
}

void RunOnGroupAic(const std::function<void()>& work, const SrcLoc& loc) {
  Core& aiv = CurrentCore();
  if (aiv.Spec().type == CoreType::kAic) return work();
  Core* aic = ServingAic(aiv, loc);
  int64_t doneIndex = -1;
  try {
    Post(aiv, *aic, loc);
    work();
    Instr done{};
    done.pipe = PIPE_FIX;
    done.op = Op::kCrossSet;
    done.link = -1;
    doneIndex = aic->IssueAccesses(done, loc, "Matmul answer", nullptr, 0);
  } catch (...) {
    SetCurrentCore(&aiv);
    throw;
  }
  SetCurrentCore(&aiv);
  Instr wait{};
  wait.pipe = PIPE_S;
  wait.op = Op::kCrossWait;
  wait.link = doneIndex;
  wait.gmAddr = static_cast<uint64_t>(aic->GlobalId());
  aiv.IssueAccesses(wait, loc, "Matmul answer", nullptr, 0);
}

}  // namespace ascendc_sim

// ---- flags in GM ---------------------------------------------------------------------------
namespace ascendc_sim::gm_flags {
namespace {

// Writes of at most this many bytes may be flags (a 32 B block, a word, a byte per core): they keep
// the bytes they replaced. Up to kMaxWrites a stretch between SyncAlls; a write again of the same
// bytes by the same block updates its entry (a counter), so a spin costs one.
constexpr uint32_t kFlagBytes = 64;
constexpr size_t kMaxWrites = 4096;

struct FlagWrite {
  GmPattern g;
  int block, core;              // the writer's group (the checker's block) and core
  int64_t index;                // the write's instruction in the writer's trace (the model times it)
  uint64_t order;               // gm_epoch's order number of the (latest) write
  uint32_t know;                // the writer's knowledge then
  std::vector<uint8_t> before;  // the bytes before it
  std::vector<int> shown;       // blocks that read `before` (early) and have not yet observed it
  std::vector<int> observed;    // blocks that have, or wrote over it since
};
struct Observation {
  int reader, writer;
  GmPattern g;
};
struct Saved {
  uint8_t* at;
  std::vector<uint8_t> bytes;
};

std::multimap<uint64_t, FlagWrite> g_writes;                         // by start address
std::vector<std::vector<std::pair<int, uint64_t>>> g_snapshots{{}};  // per snapshot: (block, order + 1), by block
std::vector<uint32_t> g_current;                                     // per block: its snapshot
std::vector<Observation> g_observations;
std::vector<Saved> g_view;  // bytes an early view replaced, in the order replaced

bool Contains(const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }

uint64_t KnownUpTo(uint32_t snapshot, int block) {  // order + 1 of the last access of `block` known, 0: none
  const auto& s = g_snapshots[snapshot];
  auto it = std::lower_bound(s.begin(), s.end(), std::make_pair(block, uint64_t{0}));
  return it != s.end() && it->first == block ? it->second : 0;
}

// `core`'s block learns `k` too: its knowledge becomes the union of both, as a new snapshot unless
// nothing is new to `k`, whose own snapshot (`stored`, where it has one) then serves as it is.
void Learn(const Core& core, std::map<int, uint64_t> k, std::optional<uint32_t> stored) {
  const int b = core.Spec().group;
  bool more = !stored;
  for (const auto& [block, upTo] : g_snapshots[Knowledge(b)])
    if (upTo > k[block]) k[block] = upTo, more = true;
  if (more) g_snapshots.emplace_back(k.begin(), k.end());
  if (g_current.size() <= static_cast<size_t>(b)) g_current.resize(static_cast<size_t>(b) + 1, 0);
  g_current[static_cast<size_t>(b)] = more ? static_cast<uint32_t>(g_snapshots.size() - 1) : *stored;
  gm_epoch::Cut(core.GlobalId());  // its next records carry the new knowledge
}

// Whether every core of the launch runs at once, so the model can time one core's wait for another's
// instruction (a launch of more blocks than cores runs them in waves; polling across waves hangs
// on the device too).
bool AllAtOnce() {
  const std::vector<CoreSpec>& specs = LaunchSpecs();
  bool aic = false, aiv = false;
  for (const CoreSpec& c : specs) (c.type == CoreType::kAic ? aic : aiv) = true;
  return (aic && aiv) || static_cast<int64_t>(specs.size()) <= SocParamInt(aic ? "aic_cores" : "aiv_cores");
}

// `reader` observes `w`: it follows everything the writer had done or known by then, and, on the
// device, goes on once the write has landed (a cross-core wait in its trace, timed by the model).
void Acquire(Core& reader, FlagWrite& w, const SrcLoc& loc) {
  if (AllAtOnce()) {
    Instr wait{};
    wait.pipe = PIPE_S;
    wait.op = Op::kCrossWait;
    wait.link = w.index;
    wait.gmAddr = static_cast<uint64_t>(w.core);
    reader.IssueAccesses(wait, loc, "GM flag observed", nullptr, 0);
  }
  const int b = reader.Spec().group;
  std::map<int, uint64_t> k(g_snapshots[w.know].begin(), g_snapshots[w.know].end());
  k[w.block] = std::max(k[w.block], w.order + 1);
  Learn(reader, std::move(k), std::nullopt);
  gm_epoch::Cut(w.core);  // the writer's later accesses are not part of what was observed
  w.shown.erase(std::remove(w.shown.begin(), w.shown.end(), b), w.shown.end());
  w.observed.push_back(b);
  g_observations.push_back(Observation{b, w.block, w.g});
}

}  // namespace

uint64_t g_generation = 0;  // epochs so far: a snapshot index is valid in its own only

void Reset() {
  RestoreView();
  ++g_generation;
  g_writes.clear();
  g_snapshots.assign(1, {});
  g_current.clear();
  g_observations.clear();
}

uint32_t Knowledge(int block) {
  return static_cast<size_t>(block) < g_current.size() ? g_current[static_cast<size_t>(block)] : 0;
}

bool Known(uint32_t snapshot, int block, uint64_t order) { return order < KnownUpTo(snapshot, block); }

uint64_t Generation() { return g_generation; }

Mark MarkSet(const Core& setter) {
  gm_epoch::Cut(setter.GlobalId());  // its later accesses are not part of what the set releases
  const int block = setter.Spec().group;
  return Mark{block, gm_epoch::Now(), Knowledge(block), g_generation};
}

uint32_t Merge(const std::vector<Mark>& marks) {
  std::map<int, uint64_t> k;
  for (const Mark& m : marks) {
    if (m.generation != g_generation) continue;
    for (const auto& [block, upTo] : g_snapshots[m.know]) k[block] = std::max(k[block], upTo);
    k[m.block] = std::max(k[m.block], m.upTo);
  }
  g_snapshots.emplace_back(k.begin(), k.end());
  return static_cast<uint32_t>(g_snapshots.size() - 1);
}

void Join(Core& waiter, uint32_t snapshot, uint64_t generation) {
  if (generation != g_generation) return;  // a SyncAll since ordered everything before it
  Learn(waiter, std::map<int, uint64_t>(g_snapshots[snapshot].begin(), g_snapshots[snapshot].end()), snapshot);
}

bool Observed(int reader, int writer, const GmPattern& a, const GmPattern& b) {
  for (const Observation& o : g_observations)
    if (o.reader == reader && o.writer == writer && o.g.Overlaps(a) && o.g.Overlaps(b)) return true;
  return false;
}

namespace {
// A write of `g`, instruction `index` of the core's trace, whose bytes before were `before`
// (nullptr: GM holds them still).
void Keep(const Core& core, const GmPattern& g, int64_t index, const uint8_t* before) {
  const int block = core.Spec().group;
  // A core reads its own writes: older bytes of another block's write under this one are gone for it.
  for (auto it = g_writes.lower_bound(g.start >= kFlagBytes ? g.start - kFlagBytes : 0);
       it != g_writes.end() && it->first < g.End(); ++it) {
    FlagWrite& w = it->second;
    if (w.block != block && w.g.Overlaps(g) && !Contains(w.observed, block)) w.observed.push_back(block);
  }
  if (g.rows != 1 || g.rowBytes > kFlagBytes || !GmRangeValid(reinterpret_cast<const void*>(g.start), g.rowBytes))
    return;
  if (before == nullptr) before = GmHost(reinterpret_cast<const void*>(g.start));
  for (auto [it, end] = g_writes.equal_range(g.start); it != end; ++it) {
    FlagWrite& w = it->second;
    if (w.block == block && w.g.rowBytes == g.rowBytes) {  // the same flag written again: a new value
      w.before.assign(before, before + g.rowBytes);
      w.order = gm_epoch::Now();
      w.know = Knowledge(block);
      w.core = core.GlobalId();
      w.index = index;
      w.shown.clear();
      w.observed.clear();
      return;
    }
  }
  if (g_writes.size() >= kMaxWrites) return;
  g_writes.emplace(g.start, FlagWrite{g,
                                      block,
                                      core.GlobalId(),
                                      index,
                                      gm_epoch::Now(),
                                      Knowledge(block),
                                      std::vector<uint8_t>(before, before + g.rowBytes),
                                      {},
                                      {}});
}
}  // namespace

void Wrote(const Core& core, const GmPattern& g, int64_t index) { Keep(core, g, index, nullptr); }

void Stored(const Core& core, uint64_t at, const uint8_t* before, uint32_t bytes) {
  const uint8_t* now = GmHost(reinterpret_cast<const void*>(at));
  uint32_t lo = 0, hi = bytes;
  while (lo < hi && before[lo] == now[lo]) ++lo;
  while (hi > lo && before[hi - 1] == now[hi - 1]) --hi;
  // The scalar record the store's cost goes into is the core's next.
  const auto index = static_cast<int64_t>(core.Trace().instrs.size());
  if (lo < hi) Keep(core, GmPattern{at + lo, 1, hi - lo, hi - lo}, index, before + lo);
}

namespace {
// Visits the small writes of other blocks overlapping `g` that `core` does not follow yet.
template <typename Visit>
void Unordered(const Core& core, const GmPattern& g, const Visit& visit) {
  const int b = core.Spec().group;
  for (auto it = g_writes.lower_bound(g.start >= kFlagBytes ? g.start - kFlagBytes : 0);
       it != g_writes.end() && it->first < g.End(); ++it) {
    FlagWrite& w = it->second;
    if (w.block != b && w.g.Overlaps(g) && !Known(Knowledge(b), w.block, w.order) && !Contains(w.observed, b)) visit(w);
  }
}
}  // namespace

void Observe(Core& core, const GmPattern& g, const SrcLoc& loc) {
  const int b = core.Spec().group;
  Unordered(core, g, [&](FlagWrite& w) {
    if (Contains(w.shown, b)) Acquire(core, w, loc);
  });
}

void View(const Core& core, const GmPattern& g) {
  const int b = core.Spec().group;
  std::vector<FlagWrite*> early;
  Unordered(core, g, [&](FlagWrite& w) {
    if (!Contains(w.shown, b)) early.push_back(&w);
  });
  std::sort(early.begin(), early.end(), [](const FlagWrite* x, const FlagWrite* y) { return x->order > y->order; });
  for (FlagWrite* w : early) {  // latest first, so the earliest write's older bytes win
    uint8_t* at = GmHost(reinterpret_cast<const void*>(w->g.start));
    g_view.push_back(Saved{at, std::vector<uint8_t>(at, at + w->g.rowBytes)});
    std::memcpy(at, w->before.data(), w->before.size());
    w->shown.push_back(b);
  }
}

void RestoreView() {
  for (auto it = g_view.rbegin(); it != g_view.rend(); ++it) std::memcpy(it->at, it->bytes.data(), it->bytes.size());
  g_view.clear();
}

}  // namespace ascendc_sim::gm_flags
