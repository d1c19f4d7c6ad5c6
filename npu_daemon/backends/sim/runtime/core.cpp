// The per-core pipe/queue core: the current core, its construction, recording of every pipe
// instruction (each first checked by its race checker, race_checker.h), flags and barriers, the
// TPipe's buffer allocation, and the error and warning reporting every API uses. Blocks are run by
// scheduler.cpp, raw pointer accesses charged by raw_access.cpp, cross-core flags in cross_core.cpp.
#include <algorithm>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "ascendc_sim/runtime.h"
#include "channel.h"
#include "kernel_operator.h"
#include "race_checker.h"
#include "scheduler.h"

namespace ascendc_sim {

namespace {
thread_local Core* g_core = nullptr;
}

Core& CurrentCore() {
  if (g_core == nullptr) throw SimError(Status::RUNTIME_ERROR, "AscendC API called outside a kernel launch");
  return *g_core;
}
Core* RunningCore() { return g_core; }
void SetCurrentCore(Core* core) { g_core = core; }

namespace {
const uint64_t* g_scalarInstrs[2] = {};  // by CoreType
double g_cyclesPerInstr = 0;
uint64_t ScalarInstrsNow(CoreType type) {
  const uint64_t* counter = g_scalarInstrs[static_cast<int>(type)];
  return counter != nullptr ? *counter : 0;
}
}  // namespace
void SetScalarInstrCounter(const uint64_t* counter, double cyclesPerCount, const uint64_t* aicCounter) {
  g_scalarInstrs[static_cast<int>(CoreType::kAiv)] = counter;
  g_scalarInstrs[static_cast<int>(CoreType::kAic)] = aicCounter != nullptr ? aicCounter : counter;
  g_cyclesPerInstr = cyclesPerCount;
}

void Fail(Status status, const SrcLoc& loc, const char* fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  std::string msg = std::string(loc.file) + ":" + std::to_string(loc.line) + ": " + buf;
  if (g_core != nullptr)
    msg = "block " + std::to_string(g_core->Spec().blockIdx) + (g_core->Spec().type == CoreType::kAic ? " (AIC)" : "") +
          ": " + msg;
  throw SimError(status, msg);
}

namespace {
std::vector<std::string> g_warnings;
std::mutex g_warningsMutex;
}  // namespace

void DeviceTolerated(const SrcLoc& loc, const char* fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (SimStrict()) Fail(Status::RUNTIME_ERROR, loc, "%s", buf);
  const std::string site = std::string(loc.file) + ":" + std::to_string(loc.line) + ": ";
  std::lock_guard<std::mutex> lock(g_warningsMutex);
  for (const std::string& w : g_warnings)  // one warning per call site
    if (w.compare(0, site.size(), site) == 0) return;
  if (g_warnings.size() < 16) g_warnings.push_back((site + buf).substr(0, channel::kMaxWarningBytes));
}
const std::vector<std::string>& Warnings() { return g_warnings; }

LocalLayout LocalLayout::FromSoc() {
  static const char* keys[] = {"ub_bytes", "l1_bytes", "l0ab_bytes", "l0ab_bytes", "l0c_bytes", "bt_bytes", "fb_bytes"};
  LocalLayout l;
  uint64_t at = 0;
  for (int b = 0; b < static_cast<int>(LocalBuf::kCount); ++b) {
    l.base[b] = static_cast<uint32_t>(at);
    l.size[b] = static_cast<uint32_t>(SocParamInt(keys[b]));
    at = (at + l.size[b] + 65535) / 65536 * 65536;
  }
  l.total = static_cast<uint32_t>(at);
  return l;
}

const char* LocalBufName(LocalBuf b) {
  static const char* names[] = {"UB", "L1", "L0A", "L0B", "L0C", "BT", "FB"};
  return names[static_cast<int>(b)];
}

Core::Core(const CoreSpec& spec, int globalId)
    : spec_(spec),
      local_(LocalLayout::FromSoc()),
      mem_(local_.total, "UB"),
      ubCapacity_(static_cast<uint32_t>(SocParamInt("ub_bytes") - SocParamInt("ub_reserved_bytes"))),
      scalarUbCycles_(static_cast<uint32_t>(SocParamInt("scalar_ub_access_cycles"))),
      scalarGmCycles_(static_cast<uint32_t>(SocParamInt("scalar_gm_access_cycles"))),
      scalarInstrCycles_(g_cyclesPerInstr),
      seenInstrs_(ScalarInstrsNow(spec.type)),
      scalarGmHitCycles_(static_cast<uint32_t>(SocParamInt("scalar_dcache_hit_cycles"))),
      dcacheLineShift_(static_cast<uint32_t>(__builtin_ctzll(static_cast<uint64_t>(SocParamInt("dcache_line_bytes"))))),
      dcacheSets_(static_cast<uint32_t>(SocParamInt("dcache_bytes") / SocParamInt("dcache_line_bytes") /
                                        SocParamInt("dcache_ways"))),
      dcacheWays_(static_cast<uint32_t>(SocParamInt("dcache_ways"))),
      dcache_(static_cast<size_t>(dcacheSets_) * dcacheWays_, 0),
      preloadCycles_(static_cast<uint32_t>(SocParamInt("dcache_preload_cycles"))),
      preloadSlots_(static_cast<uint32_t>(SocParamInt("dcache_preload_slots"))),
      race_(std::make_unique<RaceChecker>(trace_.sites, trace_.timed, local_.Size(LocalBuf::kUB), mem_.bytes,
                                          mem_.host)) {
  trace_.globalId = globalId;
  trace_.type = spec.type;
}

Core::~Core() { AscendC::ForgetQueues(this); }

uint32_t Core::Site_(const SrcLoc& loc, const char* api) {
  // Interned: a loop of scalar UB writes names one site, not one per access.
  auto [it, added] =
      siteIndex_.try_emplace(std::make_tuple(api, loc.file, loc.line), static_cast<uint32_t>(trace_.sites.size()));
  if (added) trace_.sites.push_back(Site{api, loc.file, loc.line});
  return it->second;
}

void Core::SettleScalarInstrs() {
  const uint64_t now = ScalarInstrsNow(spec_.type);
  const double cycles = static_cast<double>(now - seenInstrs_) * scalarInstrCycles_ + instrCyclesCarry_;
  const auto whole = static_cast<uint64_t>(cycles);
  pendingScalar_ += whole;
  instrCyclesCarry_ = cycles - static_cast<double>(whole);
  seenInstrs_ = now;
}

void Core::ResumeScalarInstrs() { seenInstrs_ = ScalarInstrsNow(spec_.type); }

bool Core::TouchLine_(uint64_t line) {
  uint64_t* set = &dcache_[line % dcacheSets_ * dcacheWays_];
  uint32_t way = 0;
  while (way < dcacheWays_ && set[way] != line + 1) ++way;
  for (uint32_t k = std::min(way, dcacheWays_ - 1); k > 0; --k) set[k] = set[k - 1];  // LRU: to the front
  set[0] = line + 1;
  return way < dcacheWays_;
}

uint64_t Core::ScalarClock_() {
  SettleScalarInstrs();  // the loop's own instructions since the last access overlap a fill too
  return flushedScalar_ + pendingScalar_;
}

uint64_t Core::FillWait_(uint64_t line, uint64_t now) {
  fills_.erase(std::remove_if(fills_.begin(), fills_.end(), [now](const LineFill& f) { return f.ready <= now; }),
               fills_.end());
  for (const LineFill& f : fills_)
    if (f.line == line) return f.ready - now;
  return 0;
}

uint32_t Core::ScalarGmCost(uintptr_t addr, uint32_t bytes) {
  uint64_t cycles = 0;
  const uint64_t now = fills_.empty() ? 0 : ScalarClock_();
  const uint64_t last = (addr + std::max(bytes, 1u) - 1) >> dcacheLineShift_;
  for (uint64_t line = addr >> dcacheLineShift_; line <= last; ++line) {
    if (!TouchLine_(line)) {
      cycles += scalarGmCycles_;
      continue;
    }
    const uint64_t wait = fills_.empty() ? 0 : FillWait_(line, now + cycles);
    cycles += std::max<uint64_t>(scalarGmHitCycles_, wait);
  }
  return static_cast<uint32_t>(cycles);
}

void Core::PreloadDataCache(uintptr_t addr) {
  const uint64_t now = ScalarClock_();
  const uint64_t line = addr >> dcacheLineShift_;
  FillWait_(line, now);  // retires the fills done by now
  if (fills_.size() >= preloadSlots_) {
    Scalar(fills_.front().ready - now);
    fills_.erase(fills_.begin());
    return;
  }
  if (!TouchLine_(line)) fills_.push_back(LineFill{line, now + preloadCycles_});
}

void PreloadDataCache(const void* base, int64_t offset, const SrcLoc& loc) {
  const auto at = reinterpret_cast<uintptr_t>(base) + static_cast<uintptr_t>(offset);
  if (!GmRangeValid(reinterpret_cast<const void*>(at), 1))
    Fail(Status::RUNTIME_ERROR, loc, "DataCachePreload: byte %lld past %s is outside every GM buffer",
         static_cast<long long>(offset), DescribeGm(reinterpret_cast<uintptr_t>(base)).c_str());
  CurrentCore().PreloadDataCache(at);
}

uint64_t Core::ScalarGmWordsCost(uintptr_t addr, uint64_t bytes) {
  uint64_t cycles = 0;
  for (uint64_t at = 0; at < bytes; at += 4)
    cycles += ScalarGmCost(addr + at, static_cast<uint32_t>(std::min<uint64_t>(4, bytes - at)));
  return cycles;
}

void Core::InvalidateDataCache(uintptr_t addr, bool entire) {
  const uint64_t line = (addr >> dcacheLineShift_) + 1;
  for (uint64_t& tag : dcache_)
    if (entire || tag == line) tag = 0;
  fills_.erase(
      std::remove_if(fills_.begin(), fills_.end(), [&](const LineFill& f) { return entire || f.line + 1 == line; }),
      fills_.end());
}

// The scalar work since the last instruction goes into the trace as PIPE_S records before the next
// instruction; flushed first by whoever needs that instruction's trace index before appending it.
void Core::FlushScalar() {
  SettleScalarInstrs();
  if (pendingScalar_ == 0 && pendingStoreBytes_ == 0) return;
  Instr s{};
  s.pipe = PIPE_S;
  s.op = Op::kScalar;
  s.link = -1;
  s.elements = std::exchange(pendingStoreBytes_, 0);
  do {  // over 2^32 cycles: several records
    s.scalarCycles = static_cast<uint32_t>(std::min<uint64_t>(pendingScalar_, UINT32_MAX));
    trace_.instrs.push_back(s);
    pendingScalar_ -= s.scalarCycles;
    flushedScalar_ += s.scalarCycles;
    s.elements = 0;
  } while (pendingScalar_ > 0);
}

void Core::Append(Instr ins) {
  FlushScalar();
  if (ins.pipe == PIPE_V) {
    lastVector_ = static_cast<int64_t>(trace_.instrs.size());
    pollRead_ = GmPattern{};  // work between two reads: not a poll
  }
  trace_.instrs.push_back(ins);
}

int64_t Core::IssueAccesses(Instr ins, const SrcLoc& loc, const char* api, const UbAccess* acc, size_t n) {
  gm_flags::RestoreView();  // a DMA's own checks read GM
  if (n > 0) CheckUnit(ins.pipe, loc, api);
  for (size_t i = 0; i < n; ++i) CheckReach(acc[i].addr, acc[i].bytes, loc, api);
  ins.site = Site_(loc, api);
  FlushScalar();  // the instruction's trace index is then the trace's size
  race_->Instruction(ins.pipe, ins.site, static_cast<int64_t>(trace_.instrs.size()), acc, n, loc, api);
  Append(ins);
  return static_cast<int64_t>(trace_.instrs.size()) - 1;
}

// The device's local buffers are separate memories, each of one unit: a vector core (AIV) has the
// UB alone (past it, where InitBuffer may place a buffer, the hardware has no memory), a cube core
// (AIC) has L1, L0A, L0B, L0C and the tables but no UB, and its compile leaves the vector
// instructions out (asc-devkit's dav_c220 impls run under `if ASCEND_IS_AIV`). The emulation's
// local memory is one array from the UB on through the cube's buffers, so an access is held to the
// one buffer it starts in, of the core's own unit: else a move runs from one buffer into the next,
// or an AIC does vector work the device has no unit for.
//
// A cube core's local memory is reached by its MTE and cube pipes alone: it has no vector unit, and
// its scalar unit's GetValue / SetValue are UB accesses (a tensor that TPipe placed past the UB lies
// over L1 or L0 here, over nothing on the device).
void Core::CheckUnit(int pipe, const SrcLoc& loc, const char* api) const {
  ASCENDC_SIM_CHECK(spec_.type != CoreType::kAic || (pipe != PIPE_V && pipe != PIPE_S), loc,
                    "%s: the %s unit's access of local memory on a cube core (AIC), which has no vector unit and no "
                    "UB: guard vector code with `if ASCEND_IS_AIV`",
                    api, pipe == PIPE_V ? "vector" : "scalar");
}

void Core::CheckReach(uint32_t addr, uint64_t bytes, const SrcLoc& loc, const char* api) const {
  if (spec_.type == CoreType::kAiv) {
    const uint32_t ub = local_.Size(LocalBuf::kUB);
    ASCENDC_SIM_CHECK(addr + bytes <= ub, loc, "%s: touches UB [%u, %llu), past the end of the %u-byte UB", api, addr,
                      static_cast<unsigned long long>(addr + bytes), ub);
    return;
  }
  if (bytes == 0) return;
  const LocalBuf buf = local_.Of(addr);
  ASCENDC_SIM_CHECK(buf != LocalBuf::kUB, loc,
                    "%s: touches the UB on a cube core (AIC), which has no UB and no vector unit: guard vector code "
                    "with `if ASCEND_IS_AIV`",
                    api);
  const uint32_t base = local_.Base(buf), size = local_.Size(buf);
  ASCENDC_SIM_CHECK(addr + bytes <= static_cast<uint64_t>(base) + size, loc,
                    "%s: touches %s [%u, %llu), past the end of its %u bytes", api, LocalBufName(buf), addr - base,
                    static_cast<unsigned long long>(addr - base + bytes), size);
}

void Core::ScalarUb(uint32_t addr, uint32_t bytes, bool write, const SrcLoc& loc, const char* api) {
  CheckUnit(PIPE_S, loc, api);
  CheckReach(addr, bytes, loc, api);
  if (lastVector_ >= 0 && race_->VectorAhead()) {
    // Compiler-inserted PIPE_V -> PIPE_S sync before the scalar unit touches UB.
    race_->SyncVectorToScalar();
    Instr w{};
    w.pipe = PIPE_S;
    w.op = Op::kWaitFlag;
    w.link = lastVector_;
    w.site = Site_(loc, "auto V->S sync");
    Append(w);
  }
  pendingScalar_ += scalarUbCycles_;
  race_->ScalarAccess(addr, write, loc, api, [&] { return Site_(loc, api); });
  (void)bytes;
}

void Core::LibraryVectorToScalar() { race_->LibraryVectorToScalar(); }

void ScalarGm(uintptr_t at, uint64_t index, uint32_t bytes, bool write, const SrcLoc& loc, const char* api) {
  const void* p = reinterpret_cast<const void*>(at);
  if (!GmRangeValid(p, bytes)) {
    // A read just past a buffer gets the memory that follows on the device (zeros here), a write
    // into the rest of its allocator block touches no other tensor.
    ASCENDC_SIM_CHECK(GmRangeTolerated(p, bytes, write), loc, "%s at element %llu is outside every GM buffer", api,
                      static_cast<unsigned long long>(index));
    DeviceTolerated(loc,
                    write ? "%s at element %llu writes past the buffer's padding, inside its 512 B allocator block"
                          : "%s at element %llu reads past the buffer (the device reads the memory that follows)",
                    api, static_cast<unsigned long long>(index));
  }
  Core& core = CurrentCore();
  core.Scalar(core.ScalarGmCost(at, bytes));
  if (write) core.NoteScalarStore(bytes);
  core.GmAccess(PIPE_S, GmPattern{at, 1, bytes, bytes}, write, loc, api);
}

void TilingCopy(void* dst, const uint8_t* tiling, uint64_t bytes) {
  std::memcpy(dst, tiling, bytes);
  Core& core = CurrentCore();
  core.Scalar(core.ScalarGmWordsCost(reinterpret_cast<uintptr_t>(tiling), bytes));
}

void Core::SetFlag(int src, int dst, uint64_t key, const SrcLoc& loc, const char* api) {
  ASCENDC_SIM_CHECK(src >= 0 && src < kPipes && dst >= 0 && dst < kPipes, loc, "%s: invalid pipes %d -> %d", api, src,
                    dst);
  Instr ins{};
  ins.pipe = static_cast<uint8_t>(src);
  ins.op = Op::kSetFlag;
  ins.link = -1;
  ins.site = Site_(loc, api);
  FlushScalar();  // the SetFlag's trace index is then the trace's size
  race_->SetFlag(src, dst, key, static_cast<int64_t>(trace_.instrs.size()), ins.site);
  Append(ins);
}

void Core::WaitFlag(int src, int dst, uint64_t key, const SrcLoc& loc, const char* api) {
  ASCENDC_SIM_CHECK(src >= 0 && src < kPipes && dst >= 0 && dst < kPipes, loc, "%s: invalid pipes %d -> %d", api, src,
                    dst);
  Instr ins{};
  ins.pipe = static_cast<uint8_t>(dst);
  ins.op = Op::kWaitFlag;
  ins.link = race_->WaitFlag(src, dst, key, loc, api);
  ins.site = Site_(loc, api);
  Append(ins);
}

void Core::Barrier(int pipe, const SrcLoc& loc, const char* api) {
  ASCENDC_SIM_CHECK(pipe >= 0 && pipe <= PIPE_ALL, loc, "%s: invalid pipe %d", api, pipe);
  race_->Barrier(pipe);
  Instr ins{};
  ins.pipe = static_cast<uint8_t>(pipe);
  ins.op = Op::kBarrier;
  ins.link = -1;
  ins.site = Site_(loc, api);
  Append(ins);
}

namespace {

// FNV-1a over the bytes a GM pattern covers.
uint64_t HashGm(const GmPattern& g) {
  uint64_t h = 1469598103934665603ull;
  for (uint32_t r = 0; r < g.rows; ++r) {
    const uint8_t* row = GmHost(reinterpret_cast<const void*>(g.start + r * g.pitch));
    for (uint32_t i = 0; i < g.rowBytes; ++i) h = (h ^ row[i]) * 1099511628211ull;
  }
  return h;
}

bool SamePattern(const GmPattern& a, const GmPattern& b) {
  return a.start == b.start && a.rows == b.rows && a.rowBytes == b.rowBytes && a.pitch == b.pitch;
}

}  // namespace

// Hashed from the second read of a pattern on: a range read once is never hashed.
void Core::NotePoll_(const GmPattern& g, const SrcLoc& loc) {
  if (!SamePattern(g, pollRead_) || uint64_t{g.rows} * g.rowBytes > kPollBytes) {
    pollRead_ = g;
    pollRepeats_ = 1;
    pollIdle_ = 0;
    return;
  }
  const uint64_t h = HashGm(g);
  if (pollRepeats_ < 2 || h != pollHash_) {  // the bytes changed: another core wrote them
    pollHash_ = h;
    pollRepeats_ = 2;
    pollIdle_ = 0;
    return;
  }
  if (++pollRepeats_ < kPollYield) return;
  const std::string what = "polling GM " + DescribeGm(g.start) + ".." + std::to_string(g.End() - g.start) + " B at " +
                           loc.file + ":" + std::to_string(loc.line);
  if (OtherCoreRunnable()) {
    WaitUntil([g, h] { return HashGm(g) != h; }, what, true);
    pollRepeats_ = 0;
    return;
  }
  if (++pollIdle_ < kPollIdle) return;
  Fail(Status::RUNTIME_ERROR, loc,
       "deadlock: %s, its bytes unchanged through %u reads while no other core can run to change them%s", what.c_str(),
       kPollIdle, OtherWaits().c_str());
}

void Core::GmAccess(int pipe, const GmPattern& g, bool write, const SrcLoc& loc, const char* api, bool sameBytes) {
  gm_flags::RestoreView();
  if (g.rows == 0 || g.rowBytes == 0) return;
  if (pipe != PIPE_S) race_->GmAccess(pipe, g, write, trace_.instrs.back().site, loc, api);  // the DMA just recorded
  // Atomic GM writes: UB -> GM copies (MTE3) and Fixpipe (L0C -> GM) under the core's atomic mode.
  const bool atomic = regs_.atomicOp != AtomicOp::kNone && (pipe == PIPE_MTE3 || pipe == PIPE_FIX);
  // An operation with no type (the CCE set_atomic_add / _max / _min without set_atomic_f32 and its
  // kin): the device combines in the type register's format, which the kernel never set; StoreGm
  // has no type to combine in, and the cross-core check would take a plain copy as atomic.
  ASCENDC_SIM_CHECK(!(write && atomic && regs_.atomicType == AtomicType::kNone), loc,
                    "%s: a GM write under an atomic operation with no atomic type set (set_atomic_add / _max / _min "
                    "need set_atomic_f32, _f16, _bf16, _s8, _s16 or _s32 first)",
                    api);
  if (write) {
    // A DMA's write is its record, just appended; a scalar store's cost goes into the next record. A
    // raw store is recorded once it ran (gm_flags::Stored).
    const auto size = static_cast<int64_t>(trace_.instrs.size());
    if (std::strcmp(api, "raw GM store") != 0) gm_flags::Wrote(*this, g, pipe == PIPE_S ? size : size - 1);
    pollRead_ = GmPattern{};
  } else {
    gm_flags::Observe(*this, g, loc);  // before the record: an acquiring read is ordered after what it observed
  }
  gm_epoch::Record(*this, g, !write ? 0 : atomic ? 2 : sameBytes ? 3 : pipe == PIPE_S ? 4 : 1, loc, api);
  if (write) return;
  NotePoll_(g, loc);         // may yield: the copy then moves the bytes GM holds when it resumes
  gm_flags::View(*this, g);  // last: the copy reads what the view shows
}

void Core::SyncAll(const SrcLoc& loc) {
  const int64_t cores = SocParamInt("aiv_cores");
  ASCENDC_SIM_CHECK(
      spec_.blockNum <= cores, loc,
      "SyncAll with %d blocks on %lld vector cores: blocks waiting for a core would never start (deadlock)",
      spec_.blockNum, static_cast<long long>(cores));
  Barrier(PIPE_ALL, loc, "SyncAll");
  Instr ins{};
  ins.pipe = PIPE_S;
  ins.op = Op::kSyncAll;
  ins.link = -1;
  ins.site = Site_(loc, "SyncAll");
  Append(ins);
  race_->ForgetGm();
  ParkAtSyncAll(*this, loc);
}

void Core::Finish() {
  gm_flags::RestoreView();
  race_->Finish();
  Append(Instr{PIPE_S, Op::kScalar, 0, 0, 0, 0, 0, 0, {0, 0, 0}, -1, 0});
}

}  // namespace ascendc_sim

namespace AscendC {

// Constructing a TPipe makes it the core's global pipe, as on the device (GetTPipePtr).
TPipe::TPipe() { ascendc_sim::CurrentCore().Registers().tpipe = this; }
TPipe::~TPipe() {
  if (ascendc_sim::CurrentCore().Registers().tpipe == this) ascendc_sim::CurrentCore().Registers().tpipe = nullptr;
}

namespace {
// The bound queues of each core, so a buffer enqueued on or freed to a queue it does not belong to
// is found in its own. Never destroyed: a queue at namespace scope unbinds after static destructors.
std::map<const ascendc_sim::Core*, std::vector<TQueBase*>>& Queues() {
  static auto* queues = new std::map<const ascendc_sim::Core*, std::vector<TQueBase*>>;
  return *queues;
}
constexpr uint32_t kMaxHeldPerPosition = 8;

// The producer and consumer pipes of each queue that has allocated (a queue's position).
std::map<const TQueBase*, std::pair<pipe_t, pipe_t>>& Pipes() {
  static auto* pipes = new std::map<const TQueBase*, std::pair<pipe_t, pipe_t>>;
  return *pipes;
}

// A position by its pipes, for messages.
const char* PositionName(pipe_t producer, pipe_t consumer) {
  if (producer == PIPE_MTE2 && consumer == PIPE_V) return "VECIN";
  if (producer == PIPE_V && consumer == PIPE_MTE3) return "VECOUT";
  if (producer == PIPE_V && consumer == PIPE_V) return "VECCALC";
  return "same";
}
}  // namespace

void TQueBase::Bind(uint32_t base, uint8_t num, uint32_t len) {
  base_ = base;
  num_ = num;
  len_ = len;
  for (auto& s : slots_) s = Slot{};
  if (core_ == nullptr) {
    core_ = &ascendc_sim::CurrentCore();
    Queues()[core_].push_back(this);
  }
}

TQueBase::~TQueBase() {
  Pipes().erase(this);
  auto it = Queues().find(core_);
  if (it != Queues().end()) it->second.erase(std::remove(it->second.begin(), it->second.end(), this), it->second.end());
}

void ForgetQueues(const ascendc_sim::Core* core) { Queues().erase(core); }

bool TQueBase::Holds(uint32_t addr) const {
  return len_ > 0 && addr >= base_ && addr < base_ + num_ * len_ && (addr - base_) % len_ == 0;
}

// The device keeps a buffer's state and its queue events with the buffer (TBufType), not with the
// queue it is enqueued on or freed to, and checks the buffer's queue only in the library's CPU debug
// build: a buffer of another queue of the same position works there.
std::pair<TQueBase*, int> TQueBase::Owner(uint32_t addr, const SrcLoc& loc) {
  if ((len_ == 0 && addr == base_) || Holds(addr)) return {this, SlotOf(addr, loc)};
  auto it = Queues().find(core_);
  if (it != Queues().end())
    for (TQueBase* q : it->second)
      if (q->Holds(addr)) {
        ascendc_sim::DeviceTolerated(
            loc,
            "tensor at UB address %u belongs to another queue (the device keeps a buffer's state and "
            "events with the buffer)",
            addr);
        return {q, q->SlotOf(addr, loc)};
      }
  return {this, SlotOf(addr, loc)};  // fails: the address is no queue's buffer
}

int TQueBase::SlotOf(uint32_t addr, const SrcLoc& loc) const {
  if (len_ == 0 && addr == base_) {  // zero-length buffers share one address: the oldest in use
    for (int i = 0; i < num_; ++i)
      if (slots_[i].inUse) return i;
    return 0;
  }
  ASCENDC_SIM_CHECK(len_ > 0 && addr >= base_ && addr < base_ + num_ * len_ && (addr - base_) % len_ == 0, loc,
                    "tensor at UB address %u does not belong to this queue", addr);
  return static_cast<int>((addr - base_) / len_);
}

uint32_t TQueBase::Alloc(pipe_t producer, pipe_t consumer, const SrcLoc& loc) {
  ASCENDC_SIM_CHECK(num_ > 0, loc, "AllocTensor on a queue that was never given buffers by TPipe::InitBuffer");
  int slot = -1;
  for (int i = 0; i < num_; ++i) {
    int s = (next_ + i) % num_;
    if (!slots_[s].inUse) {
      slot = s;
      break;
    }
  }
  ASCENDC_SIM_CHECK(slot >= 0, loc,
                    "AllocTensor with all %u buffers of the queue in use (FreeTensor missing): the core would deadlock",
                    num_);
  // The A2 holds at most 8 tensors allocated at once on one position, over all its queues (asc-devkit
  // TQue AllocTensor, constraints): each takes one of the position's 8 queue events. Buffers a
  // TPipe gave but nobody holds take none. A queue's position is its pair of pipes (MTE2 -> V for
  // VECIN, V -> MTE3 for VECOUT, ...), recorded here so that the queue's layout stays the kernel's.
  Pipes()[this] = {producer, consumer};
  uint32_t held = 1;
  auto it = Queues().find(core_);
  if (it != Queues().end())
    for (const TQueBase* q : it->second) {
      auto p = Pipes().find(q);
      if (p != Pipes().end() && p->second == std::make_pair(producer, consumer))
        for (int i = 0; i < q->num_; ++i) held += q->slots_[i].inUse ? 1 : 0;
    }
  ASCENDC_SIM_CHECK(held <= kMaxHeldPerPosition, loc,
                    "AllocTensor: %u tensors allocated at once on the %s position (at most %u; FreeTensor first): "
                    "the device would run out of queue events and hang",
                    held, PositionName(producer, consumer), kMaxHeldPerPosition);
  next_ = static_cast<uint8_t>((slot + 1) % num_);
  if (slots_[slot].freedOnce && producer != consumer)
    ascendc_sim::CurrentCore().WaitFlag(consumer, producer, Key(slot, true), loc, "TQue::AllocTensor");
  slots_[slot] = Slot{true, false};
  return base_ + slot * len_;
}

void TQueBase::Free(uint32_t addr, pipe_t producer, pipe_t consumer, const SrcLoc& loc) {
  auto [owner, slot] = Owner(addr, loc);
  ASCENDC_SIM_CHECK(owner->slots_[slot].inUse, loc, "FreeTensor of a buffer that is not allocated");
  owner->slots_[slot].inUse = false;
  if (producer != consumer) {
    ascendc_sim::CurrentCore().SetFlag(consumer, producer, owner->Key(slot, true), loc, "TQue::FreeTensor");
    owner->slots_[slot].freedOnce = true;
  }
}

void TQueBase::Enqueue(uint32_t addr, uint32_t bytes, pipe_t producer, pipe_t consumer, const SrcLoc& loc) {
  auto [owner, slot] = Owner(addr, loc);
  ASCENDC_SIM_CHECK(count_ < num_, loc, "EnQue on a full queue");
  if (producer != consumer)
    ascendc_sim::CurrentCore().SetFlag(producer, consumer, owner->Key(slot, false), loc, "TQue::EnQue");
  fifo_[(head_ + count_) % 8] = addr;
  sizes_[(head_ + count_) % 8] = bytes;
  ++count_;
}

uint32_t TQueBase::Dequeue(pipe_t producer, pipe_t consumer, const SrcLoc& loc) {
  ASCENDC_SIM_CHECK(count_ > 0, loc, "DeQue on an empty queue: the core would wait forever");
  const uint32_t addr = fifo_[head_];
  head_ = (head_ + 1) % 8;
  --count_;
  auto [owner, slot] = Owner(addr, loc);
  if (producer != consumer)
    ascendc_sim::CurrentCore().WaitFlag(producer, consumer, owner->Key(slot, false), loc, "TQue::DeQue");
  return addr;
}

uint32_t TPipe::Allocate(ascendc_sim::LocalBuf buf, uint64_t bytes, const SrcLoc& loc, uint32_t len, uint32_t num) {
  ascendc_sim::Core& core = ascendc_sim::CurrentCore();
  if (buf != ascendc_sim::LocalBuf::kUB) {
    uint32_t& used = cubeUsed_[static_cast<int>(buf)];
    const uint32_t cap = core.Local().Size(buf);
    ASCENDC_SIM_CHECK(used + bytes <= cap, loc,
                      "InitBuffer of %u x %u bytes needs %s [%u, %llu) but the %s holds only %u bytes", num, len,
                      ascendc_sim::LocalBufName(buf), used, static_cast<unsigned long long>(used + bytes),
                      ascendc_sim::LocalBufName(buf), cap);
    const uint32_t base = core.Local().Base(buf) + used;
    used += static_cast<uint32_t>(bytes);
    return base;
  }
  // TPipe only hands out addresses (the library checks the UB size in its CPU debug build only):
  // past the UB the device fails when an instruction touches those addresses, which every UB access
  // checks (Core::IssueAccesses, Core::ScalarUb). The local memory behind the UB bounds the emulation.
  ASCENDC_SIM_CHECK(used_ + bytes <= core.LocalBytes(), loc,
                    "InitBuffer of %u x %u bytes needs UB [%u, %llu) but only %u bytes are available", num, len, used_,
                    static_cast<unsigned long long>(used_ + bytes), core.UbCapacity());
  if (used_ + bytes > core.Local().Size(ascendc_sim::LocalBuf::kUB)) {
    ascendc_sim::DeviceTolerated(
        loc,
        "InitBuffer of %u x %u bytes needs UB [%u, %llu) but only %u bytes are available (an access past the "
        "%u-byte UB is an error)",
        num, len, used_, static_cast<unsigned long long>(used_ + bytes), core.UbCapacity(),
        core.Local().Size(ascendc_sim::LocalBuf::kUB));
  } else {  // into the bytes the runtime reserves at the top of the UB: the device does not stop it
    ASCENDC_SIM_WARN_UNLESS(
        used_ + bytes <= core.UbCapacity(), loc,
        "InitBuffer of %u x %u bytes needs UB [%u, %llu), into the %llu bytes the runtime reserves above %u", num, len,
        used_, static_cast<unsigned long long>(used_ + bytes),
        static_cast<unsigned long long>(core.Local().Size(ascendc_sim::LocalBuf::kUB) - core.UbCapacity()),
        core.UbCapacity());
  }
  uint32_t base = used_;
  used_ += static_cast<uint32_t>(bytes);
  core.NoteUbInUse(used_);
  return base;
}

}  // namespace AscendC
