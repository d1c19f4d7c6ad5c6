// The per-core execution context: trace recording and the race checker.
//
// Ordering is tracked with vector clocks, one per pipe (FastTrack style). An instruction on pipe P
// ticks P's clock; SetFlag snapshots the source pipe's clock, WaitFlag joins it into the
// destination's; PIPE_ALL joins every pipe. Scalar <-> vector ordering is implied (the real
// compiler inserts those syncs); MTE2/MTE3 are ordered against other pipes only by flags and queues.
// Each 32 B UB block remembers its last writer and its last reader per pipe; an access whose
// earlier conflicting access is not ordered before it is a race.
//
// GM is checked twice: within a core, a DMA pipe's access to a GM range another DMA pipe of the
// same core wrote (or read, for a write) must be ordered by flags the same way; across cores,
// blocks run one at a time between SyncAlls (see RunBlocks), and at every SyncAll the GM
// footprints of the epoch are compared: a write overlapping another block's access is a race
// unless both are atomic.
#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <condition_variable>
#include <exception>
#include <map>
#include <mutex>
#include <thread>
#include <tuple>
#include <utility>

#include "ascendc_sim/runtime.h"
#include "guard.h"
#include "kernel_operator.h"

namespace ascendc_sim {

namespace {
thread_local Core* g_core = nullptr;
}

Core& CurrentCore() {
  if (g_core == nullptr) throw SimError(Status::RUNTIME_ERROR, "AscendC API called outside a kernel launch");
  return *g_core;
}
void SetCurrentCore(Core* core) { g_core = core; }

void Fail(Status status, const SrcLoc& loc, const char* fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  std::string msg = std::string(loc.file) + ":" + std::to_string(loc.line) + ": " + buf;
  if (g_core != nullptr)
    msg = "block " + std::to_string(g_core->blockIdx) + (g_core->coreType == CoreType::kAic ? " (AIC)" : "") + ": " + msg;
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
  if (g_warnings.size() < 16) g_warnings.push_back(site + buf);
}
const std::vector<std::string>& Warnings() { return g_warnings; }

using Clock = std::array<uint32_t, kPipes>;

struct Core::Ordering {
  Clock vc[kPipes] = {};
  struct Snapshot {
    Clock clock;
    int64_t setIndex;  // trace index of the SetFlag
    uint32_t site;
  };
  std::map<std::tuple<int, int, uint64_t>, std::vector<Snapshot>> flags;  // FIFO per flag
  struct Block {
    uint8_t writer = 0;
    uint32_t writeClock = 0;  // 0: never written
    uint32_t writeSite = 0;
    uint32_t readClock[kPipes] = {};
    uint32_t readSite[kPipes] = {};
  };
  std::vector<Block> shadow;
  int64_t lastVector = -1;  // trace index of the latest PIPE_V instruction

  // GM accesses of the DMA pipes not yet known to be ordered, keyed by start address.
  struct GmRec {
    GmPattern g;
    uint8_t pipe;
    uint32_t clock;
    uint32_t site;
  };
  std::multimap<uint64_t, GmRec> gmWrites, gmReads;
  uint64_t gmMaxSpan = 0;
  std::map<std::tuple<const char*, const char*, int>, uint32_t> siteIndex;  // (api, file, line) -> sites

  static void Join(Clock& into, const Clock& from) {
    for (int i = 0; i < kPipes; ++i) into[i] = std::max(into[i], from[i]);
  }
};

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

Core::Core(int idx, int num)
    : blockIdx(idx),
      blockNum(num),
      local(LocalLayout::FromSoc()),
      ub(local.total, "UB"),
      ubCapacity(static_cast<uint32_t>(SocParamInt("ub_bytes") - SocParamInt("ub_reserved_bytes"))),
      scalarUbCycles(static_cast<uint32_t>(SocParamInt("scalar_ub_access_cycles"))),
      scalarGmCycles(static_cast<uint32_t>(SocParamInt("scalar_gm_access_cycles"))),
      ord_(new Ordering) {
  ord_->shadow.resize(local.Size(LocalBuf::kUB) / 32);  // grown on the first cube-buffer access
}

Core::~Core() { delete ord_; }

uint32_t Core::Site_(const SrcLoc& loc, const char* api) {
  // Interned: a loop of scalar UB writes names one site, not one per access.
  auto [it, added] = ord_->siteIndex.try_emplace(std::make_tuple(api, loc.file, loc.line), static_cast<uint32_t>(sites.size()));
  if (added) sites.push_back(Site{api, loc.file, loc.line});
  return it->second;
}

void Core::Append(Instr ins) {
  if (pendingScalar_ > 0) {
    Instr s{};
    s.pipe = PIPE_S;
    s.op = Op::kScalar;
    s.link = -1;
    for (; pendingScalar_ > 0; pendingScalar_ -= s.scalarCycles) {  // over 2^32 cycles: several records
      s.scalarCycles = static_cast<uint32_t>(std::min<uint64_t>(pendingScalar_, UINT32_MAX));
      trace.push_back(s);
    }
  }
  if (ins.pipe == PIPE_V) ord_->lastVector = static_cast<int64_t>(trace.size());
  trace.push_back(ins);
}

static std::string Describe(const Site& s) {
  const char* slash = std::strrchr(s.file, '/');
  return std::string(s.api) + " at " + (slash ? slash + 1 : s.file) + ":" + std::to_string(s.line);
}

void Core::IssueAccesses(Instr ins, const SrcLoc& loc, const char* api, const UbAccess* acc, size_t n) {
  Ordering& o = *ord_;
  const int p = ins.pipe;
  if (p == PIPE_V) Ordering::Join(o.vc[PIPE_V], o.vc[PIPE_S]);  // compiler-inserted S -> V sync
  Clock& vc = o.vc[p];
  ++vc[p];
  ins.site = Site_(loc, api);
  for (size_t k = 0; k < n; ++k) {
    const UbAccess& a = acc[k];
    if (a.bytes == 0) continue;
    ASCENDC_SIM_CHECK(static_cast<uint64_t>(a.addr) + a.bytes <= ub.bytes, loc, "%s: UB range [%u, %llu) outside the Unified Buffer",
                      api, a.addr, static_cast<unsigned long long>(a.addr) + a.bytes);
    if ((a.addr + a.bytes + 31) / 32 > o.shadow.size()) o.shadow.resize(ub.bytes / 32);
    for (uint32_t b = a.addr / 32; b <= (a.addr + a.bytes - 1) / 32; ++b) {
      Ordering::Block& blk = o.shadow[b];
      if (blk.writeClock != 0 && blk.writer != p && blk.writeClock > vc[blk.writer])
        Fail(Status::RACE_DETECTED, loc, "%s on %s %s UB [%u, %u) while %s on %s may still be writing it (no flag orders them)",
             api, PipeName(p), a.write ? "writes" : "reads", b * 32, b * 32 + 32, Describe(sites[blk.writeSite]).c_str(),
             PipeName(blk.writer));
      if (a.write) {
        for (int q = 0; q < kPipes; ++q)
          if (q != p && blk.readClock[q] > vc[q])
            Fail(Status::RACE_DETECTED, loc, "%s on %s writes UB [%u, %u) while %s on %s may still be reading it (no flag orders them)",
                 api, PipeName(p), b * 32, b * 32 + 32, Describe(sites[blk.readSite[q]]).c_str(), PipeName(q));
        blk = Ordering::Block{};
        blk.writer = static_cast<uint8_t>(p);
        blk.writeClock = vc[p];
        blk.writeSite = ins.site;
      } else {
        blk.readClock[p] = vc[p];
        blk.readSite[p] = ins.site;
      }
    }
  }
  Append(ins);
}

void Core::ScalarUb(uint32_t addr, uint32_t bytes, bool write, const SrcLoc& loc, const char* api) {
  Ordering& o = *ord_;
  bool vectorAhead = false;  // PIPE_V has done or waited for work the scalar unit has not seen
  for (int q = 0; q < kPipes; ++q) vectorAhead = vectorAhead || o.vc[PIPE_V][q] > o.vc[PIPE_S][q];
  if (o.lastVector >= 0 && vectorAhead) {
    // Compiler-inserted PIPE_V -> PIPE_S sync before the scalar unit touches UB; it also carries
    // what PIPE_V waited for (WaitFlag<MTE2_V> then GetValue is ordered on the device).
    Ordering::Join(o.vc[PIPE_S], o.vc[PIPE_V]);
    Instr w{};
    w.pipe = PIPE_S;
    w.op = Op::kWaitFlag;
    w.link = o.lastVector;
    w.site = Site_(loc, "auto V->S sync");
    Append(w);
  }
  pendingScalar_ += scalarUbCycles;
  Clock& vc = o.vc[PIPE_S];
  ++vc[PIPE_S];
  if (addr / 32 >= o.shadow.size()) o.shadow.resize(ub.bytes / 32);
  Ordering::Block& blk = o.shadow[addr / 32];
  auto describe = [&](uint32_t site) { return Describe(sites[site]); };
  if (blk.writeClock != 0 && blk.writer != PIPE_S && blk.writeClock > vc[blk.writer])
    Fail(Status::RACE_DETECTED, loc, "%s %s UB address %u while %s on %s may still be writing it (no flag orders them)", api,
         write ? "writes" : "reads", addr, describe(blk.writeSite).c_str(), PipeName(blk.writer));
  if (write) {
    for (int q = 0; q < kPipes; ++q)
      if (q != PIPE_S && blk.readClock[q] > vc[q])
        Fail(Status::RACE_DETECTED, loc, "%s writes UB address %u while %s on %s may still be reading it (no flag orders them)", api,
             addr, describe(blk.readSite[q]).c_str(), PipeName(q));
    // Scalar writes are sub-block: keep the block's history, record the scalar as its writer.
    blk.writer = PIPE_S;
    blk.writeClock = vc[PIPE_S];
    blk.writeSite = Site_(loc, api);
  } else {
    blk.readClock[PIPE_S] = vc[PIPE_S];
  }
  (void)bytes;
}

// ---- across cores: GM footprints of the current epoch (between SyncAlls) ----------------------
namespace {

struct EpochRec {
  GmPattern g;
  int block;
  uint8_t kind;  // 0 read, 1 write, 2 atomic write
  const char* api;
  const char* file;
  int line;
};

// Footprints are merged as they arrive, so a loop's accesses cost one record however many there
// are: each (block, kind) remembers its most recently extended records, one per stream, and an
// access that continues one of them (the next bytes, or the next row of a fixed pitch) extends it.
// What no stream continues (a gather, say) gets a record of its own, up to kMaxEpochRecords per
// epoch; past that the launch stops with RUNTIME_ERROR instead of exhausting memory.
constexpr size_t kStreams = 8;
constexpr size_t kMaxEpochRecords = size_t{1} << 22;  // ~200 MB of records

struct Epoch {
  std::vector<EpochRec> recs;
  std::vector<std::array<std::array<int64_t, kStreams>, 3>> last;  // per block and kind, most recent first
};
Epoch g_epoch;  // touched only by the block holding the baton, or the launcher between turns

// Extend `r` by `g` when the union is exactly one pattern again (the same site only): the next
// bytes of a run, the next row at the record's pitch, or (`newPitch`) a second row of a one-row
// record in the same GM buffer.
bool Extend(EpochRec& r, const GmPattern& g, const SrcLoc& loc, bool newPitch) {
  if (r.line != loc.line || r.file != loc.file || g.rows != 1) return false;
  GmPattern& p = r.g;
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
  if (!newPitch || p.rows != 1 || !GmRangeValid(reinterpret_cast<const void*>(p.start), g.End() - p.start)) return false;
  p.pitch = g.start - p.start;
  p.rows = 2;
  return true;
}

void RecordGmEpoch(const Core& core, const GmPattern& g, uint8_t kind, const SrcLoc& loc, const char* api) {
  if (g_epoch.last.size() <= static_cast<size_t>(core.globalId)) {
    std::array<int64_t, kStreams> none;
    none.fill(-1);
    g_epoch.last.resize(core.globalId + 1, {none, none, none});
  }
  std::array<int64_t, kStreams>& last = g_epoch.last[core.globalId][kind];
  auto find = [&](bool newPitch) {  // the first stream g extends, or the first free slot, or kStreams
    size_t i = 0;
    while (i < kStreams && last[i] >= 0 && !Extend(g_epoch.recs[static_cast<size_t>(last[i])], g, loc, newPitch)) ++i;
    return i;
  };
  size_t i = find(false);  // a continuation first, so two streams never pair up into a pitch
  if (i == kStreams || last[i] < 0) i = find(true);
  int64_t rec = i < kStreams ? last[i] : -1;
  if (rec < 0) {
    if (g_epoch.recs.size() >= kMaxEpochRecords)
      Fail(Status::RUNTIME_ERROR, loc,
           "%zu GM footprints between SyncAlls that do not merge into runs or fixed-pitch rows (the last: %s "
           "at %s); the cross-core race checker keeps one record per such access and stops at %zu to stay within memory: "
           "scattered scalar GM accesses (GetValue/SetValue, raw pointers) on this scale cost ~%u cycles each on the device "
           "too; move the data with DataCopy",
           g_epoch.recs.size(), api, DescribeGm(g.start).c_str(), kMaxEpochRecords, core.scalarGmCycles);
    rec = static_cast<int64_t>(g_epoch.recs.size());
    g_epoch.recs.push_back(EpochRec{g, core.group, kind, api, loc.file, loc.line});
  }
  for (size_t j = std::min(i, kStreams - 1); j > 0; --j) last[j] = last[j - 1];  // most recent first
  last[0] = rec;
}

std::string DescribeRec(const EpochRec& r) {
  static const char* kinds[] = {"reading", "writing", "atomically updating"};
  const char* slash = std::strrchr(r.file, '/');
  return "block " + std::to_string(r.block) + " " + kinds[r.kind] + " " + DescribeGm(r.g.start) + ".." +
         std::to_string(r.g.End() - r.g.start) + " B with " + r.api + " at " + (slash ? slash + 1 : r.file) + ":" +
         std::to_string(r.line);
}

// Sweep the epoch's footprints in address order; `active` holds those still extending past the cursor.
void CheckEpoch(const char* boundary) {
  std::vector<EpochRec>& recs = g_epoch.recs;
  std::sort(recs.begin(), recs.end(), [](const EpochRec& a, const EpochRec& b) { return a.g.start < b.g.start; });
  std::vector<const EpochRec*> active;
  for (const EpochRec& r : recs) {
    active.erase(std::remove_if(active.begin(), active.end(), [&](const EpochRec* a) { return a->g.End() <= r.g.start; }),
                 active.end());
    for (const EpochRec* a : active) {
      if (a->block == r.block || (a->kind == 0 && r.kind == 0) || (a->kind == 2 && r.kind == 2)) continue;
      if (a->g.Overlaps(r.g))
        throw SimError(Status::RACE_DETECTED, DescribeRec(*a) + " and " + DescribeRec(r) + " overlap with no " + boundary +
                                                  " between them (cross-core GM race; use SyncAll or atomics)");
    }
    active.push_back(&r);
  }
  recs.clear();
  g_epoch.last.clear();
}

// ---- raw pointer accesses: charged one by one, then stopped ------------------------------------
// Kernel code only ever holds guard addresses (GuardedMemory), so a plain C++ load or store on GM or
// UB faults. The SIGSEGV handler charges it as the scalar access it is on the device (what
// GetValue/SetValue record: same cycles, same race checks), opens the page and sets the x86 trap
// flag so the instruction runs once; the SIGTRAP that follows closes the page again (both through
// GuardSyscall, the only call the syscall filter lets change guarded pages or these handlers). Blocks run
// one at a time, so no other block's code runs while a page is open. Each trap costs microseconds
// of host time, hence the cap per launch.
constexpr uint64_t kMaxRawAccesses = 1u << 16;  // 65536 x ~200 cycles: ms of device time, seconds of traps
const SrcLoc kRawLoc{"kernel code", 0};

struct RawAccesses {
  uint64_t count = 0;
  std::string first;  // "buffer+offset" of the first access
  uintptr_t open[4] = {};  // pages opened for the instruction being stepped
  int nOpen = 0;
};
RawAccesses g_raw;  // touched only by the block holding the baton
thread_local sigjmp_buf* t_escape = nullptr;  // set while this thread runs kernel code
thread_local std::exception_ptr t_escaped;
const uintptr_t kPage = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));

std::string RawLimitMessage(const Core& core) {
  return "block " + std::to_string(core.blockIdx) + ": " + std::to_string(g_raw.count) +
         " raw pointer accesses in this launch, the first to " + g_raw.first +
         ": kernel code loads or stores GM/UB through a plain C++ pointer, bypassing the AscendC API. On the device each is a "
         "scalar-unit access (~" + std::to_string(core.scalarGmCycles) + " cycles on GM, ~" + std::to_string(core.scalarUbCycles) +
         " on UB, like GetValue/SetValue); the simulator charges them so and stops past " + std::to_string(kMaxRawAccesses) +
         " per launch. Move data with DataCopy and compute with vector instructions";
}

// Back to the default action, through GuardSyscall: the syscall filter refuses candidate code any
// change to the handlers of the signals the guard relies on. A zeroed kernel sigaction is SIG_DFL.
void ResetToDefault(int sig) {
  const uint64_t act[4] = {};
  GuardSyscall(__NR_rt_sigaction, sig, reinterpret_cast<long>(act), 0, 8);
}

void OnFault(int, siginfo_t* info, void* ctx) {
  auto* uc = static_cast<ucontext_t*>(ctx);
  const auto addr = reinterpret_cast<uintptr_t>(info->si_addr);
  Core* core = g_core;
  const auto ubGuard = core ? reinterpret_cast<uintptr_t>(core->ub.guard) : 0;
  const bool ub = core && addr >= ubGuard && addr < ubGuard + core->ub.mapped;
  if (t_escape == nullptr || core == nullptr || !(ub || InGuardedGm(addr)) || g_raw.nOpen == 4) {
    ResetToDefault(SIGSEGV);  // not a guarded access: crash as any other wild access would
    return;
  }
#if defined(__x86_64__)
  const bool write = uc->uc_mcontext.gregs[REG_ERR] & 2;  // page-fault error code, bit 1: write
  constexpr bool kCanStep = true;
#else
  const bool write = false;
  constexpr bool kCanStep = false;  // no trap flag: every raw access stops the launch
#endif
  try {
    if (g_raw.count++ == 0) g_raw.first = ub ? "UB+" + std::to_string(addr - ubGuard) : DescribeGm(addr);
    if (g_raw.count > kMaxRawAccesses || !kCanStep) throw SimError(Status::RUNTIME_ERROR, RawLimitMessage(*core));
    if (ub) {
      core->ScalarUb(static_cast<uint32_t>(addr - ubGuard), 1, write, kRawLoc, write ? "raw UB store" : "raw UB load");
    } else {
      core->Scalar(core->scalarGmCycles);
      core->GmAccess(PIPE_S, GmPattern{addr, 1, 1, 1}, write, kRawLoc, write ? "raw GM store" : "raw GM load");
    }
  } catch (...) {
    t_escaped = std::current_exception();
    siglongjmp(*t_escape, 1);
  }
  const uintptr_t page = addr & ~(kPage - 1);
  GuardSyscall(__NR_mprotect, static_cast<long>(page), static_cast<long>(kPage), PROT_READ | PROT_WRITE);
  g_raw.open[g_raw.nOpen++] = page;
#if defined(__x86_64__)
  uc->uc_mcontext.gregs[REG_EFL] |= 0x100;  // TF: trap after the faulting instruction
#endif
}

void OnTrap(int, siginfo_t*, void* ctx) {
  if (g_raw.nOpen == 0) {  // not our single step: die of it as without the handler
    ResetToDefault(SIGTRAP);
    raise(SIGTRAP);
    return;
  }
  for (int k = 0; k < g_raw.nOpen; ++k)
    GuardSyscall(__NR_mprotect, static_cast<long>(g_raw.open[k]), static_cast<long>(kPage), PROT_NONE);
  g_raw.nOpen = 0;
#if defined(__x86_64__)
  static_cast<ucontext_t*>(ctx)->uc_mcontext.gregs[REG_EFL] &= ~0x100LL;
#endif
}

bool g_handlersSet = false;
void SetRawAccessHandlers() {
  struct sigaction sa {};
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  sa.sa_sigaction = OnFault;
  sigaction(SIGSEGV, &sa, nullptr);
  sa.sa_sigaction = OnTrap;
  sigaction(SIGTRAP, &sa, nullptr);
  g_handlersSet = true;
}
void InstallRawAccessHandlers() {
  if (!g_handlersSet) SetRawAccessHandlers();
}

// Run kernel code with raw accesses trapped; an error raised in the handler resumes here.
void RunKernel(const std::function<void()>& kernel) {
  sigjmp_buf env;
  if (sigsetjmp(env, 1) != 0) {
    t_escape = nullptr;
    std::rethrow_exception(std::exchange(t_escaped, nullptr));
  }
  t_escape = &env;
  try {
    kernel();
  } catch (...) {
    t_escape = nullptr;
    throw;
  }
  t_escape = nullptr;
}

// ---- blocks on threads, one at a time ---------------------------------------------------------
struct AbortUnwind {};  // unwinds a block parked in SyncAll when the launch has failed

struct Scheduler {
  enum State : uint8_t { kNew, kReady, kRunning, kAtSyncAll, kWaiting, kDone, kFailed };
  std::mutex m;
  std::condition_variable cv;
  int turn = -1;  // block holding the baton; -1: the launcher
  bool abort = false;
  std::vector<State> state;
  std::vector<CoreSpec> specs;
  std::vector<Core*> cores;                   // each running core (nullptr before and after)
  std::vector<std::function<bool()>> wakeIf;  // kWaiting: when the core may go on
  std::vector<std::string> waitingFor;        // kWaiting: what it waits for, for the deadlock message
  std::exception_ptr error;
  SrcLoc syncSite{"", 0};

  // Launcher: hand the baton to block b and wait until it is handed back.
  void Give(int b) {
    std::unique_lock<std::mutex> lk(m);
    turn = b;
    cv.notify_all();
    cv.wait(lk, [&] { return turn == -1; });
  }
  // Block b: hand the baton back, wait for it again.
  void Yield(int b) {
    std::unique_lock<std::mutex> lk(m);
    turn = -1;
    cv.notify_all();
    cv.wait(lk, [&] { return turn == b; });
    if (abort) throw AbortUnwind{};
  }
};
Scheduler* g_sched = nullptr;

}  // namespace

void InstallGuardHandlers() { SetRawAccessHandlers(); }  // again: whatever code loaded before set

std::vector<CoreSpec> LaunchCores(const std::string& kernelType, uint32_t blockDim) {
  std::vector<CoreSpec> specs;
  const int n = static_cast<int>(blockDim);
  const bool mix12 = kernelType == "KERNEL_TYPE_MIX_AIC_1_2", mix11 = kernelType == "KERNEL_TYPE_MIX_AIC_1_1";
  for (int g = 0; g < n; ++g) {
    if (mix12 || mix11) {
      const int ratio = mix12 ? 2 : 1;
      specs.push_back(CoreSpec{CoreType::kAic, g, n, g, 0, 1});
      for (int sub = 0; sub < ratio; ++sub) specs.push_back(CoreSpec{CoreType::kAiv, g * ratio + sub, n, g, sub, ratio});
    } else {
      const bool aic = kernelType == "KERNEL_TYPE_AIC_ONLY" || kernelType == "KERNEL_TYPE_MIX_AIC_1_0";
      specs.push_back(CoreSpec{aic ? CoreType::kAic : CoreType::kAiv, g, n, g, 0, 1});
    }
  }
  return specs;
}

const std::vector<CoreSpec>& LaunchSpecs() { return g_sched->specs; }

Core* GroupCore(int group, CoreType type, int sub) {
  for (size_t c = 0; c < g_sched->specs.size(); ++c) {
    const CoreSpec& s = g_sched->specs[c];
    if (s.group == group && s.type == type && (type == CoreType::kAic || s.sub == sub)) return g_sched->cores[c];
  }
  return nullptr;
}

bool GroupAivsDone(int group) {
  for (size_t c = 0; c < g_sched->specs.size(); ++c)
    if (g_sched->specs[c].group == group && g_sched->specs[c].type == CoreType::kAiv && g_sched->state[c] != Scheduler::kDone)
      return false;
  return true;
}

void WaitUntil(const std::function<bool()>& ready, const std::string& what) {
  if (ready()) return;
  Core& core = CurrentCore();
  const int c = core.globalId;
  g_sched->wakeIf[c] = ready;
  g_sched->waitingFor[c] = what;
  g_sched->state[c] = Scheduler::kWaiting;
  g_sched->Yield(c);
  SetCurrentCore(&core);
}

// ---- cross-core flags (CrossCoreSetFlag / CrossCoreWaitFlag) -----------------------------------
// Each core has a counter per flag id, as the hardware does; the wait does not name a mode. A set's
// mode says when which counters count up: mode 2 from the AIC, each AIV of its group at once; mode 2
// from the AIVs, the AIC once every AIV of the group has set; mode 1, both AIVs of the group once
// both have set; mode 0, every core of the unit once all of them have set. A counted-up flag
// remembers the sets it needed (core and trace index) so the model can time the wait.
namespace {
struct CrossEvent {
  int core;
  int64_t index;
};
using CrossSets = std::vector<CrossEvent>;
// Sets waiting for their partners: (mode, scope, flag) -> per participant, its sets in order.
std::map<std::tuple<int, int, int>, std::map<int, std::vector<CrossEvent>>> g_crossPending;
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

void CrossCoreSet(int mode, int pipe, int flag, const SrcLoc& loc) {
  Core& core = CurrentCore();
  ASCENDC_SIM_CHECK(mode == 0 || mode == 1 || mode == 2, loc, "CrossCoreSetFlag: mode %d (0, 1 or 2 on this SoC)", mode);
  ASCENDC_SIM_CHECK(flag >= 0 && flag < 16, loc, "CrossCoreSetFlag: flag id %d out of range [0, 15]", flag);
  ASCENDC_SIM_CHECK(pipe != PIPE_S && pipe != PIPE_ALL, loc, "CrossCoreSetFlag: pipe %s is not allowed", PipeName(pipe));
  ASCENDC_SIM_CHECK(mode != 1 || core.coreType == CoreType::kAiv, loc, "CrossCoreSetFlag: mode 1 synchronises the AIVs of a group");
  Instr ins{};
  ins.pipe = static_cast<uint8_t>(pipe);
  ins.op = Op::kCrossSet;
  ins.link = -1;
  ins.gmPitch = static_cast<uint64_t>(flag);
  core.IssueAccesses(ins, loc, "CrossCoreSetFlag", nullptr, 0);  // no local access: the ordering is with another core
  const CrossEvent me{core.globalId, static_cast<int64_t>(core.trace.size() - 1)};
  const int group = core.group;
  const CoreType type = core.coreType;
  std::vector<int> setters, targets;  // who must set before the flag counts up, and whose counter does
  if (mode == 2 && type == CoreType::kAic) {
    setters = {core.globalId};
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
  pending[core.globalId].push_back(me);
  for (int c : setters)
    if (pending[c].empty()) return;  // a partner has not set yet
  CrossSets sets;
  for (int c : setters) {
    sets.push_back(pending[c].front());
    pending[c].erase(pending[c].begin());
  }
  for (int t : targets) g_crossCount[{t, flag}].push_back(sets);
}

void CrossCoreWait(int mode, int pipe, int flag, const SrcLoc& loc) {
  (void)mode;  // the waiting core only counts: the set's mode decided what counts
  Core& core = CurrentCore();
  ASCENDC_SIM_CHECK(flag >= 0 && flag < 16, loc, "CrossCoreWaitFlag: flag id %d out of range [0, 15]", flag);
  const std::pair<int, int> key{core.globalId, flag};
  WaitUntil([key] { return g_crossTaken[key] < g_crossCount[key].size(); },
            "in CrossCoreWaitFlag(" + std::to_string(flag) + ") at " + loc.file + ":" + std::to_string(loc.line));
  const CrossSets sets = g_crossCount[key][g_crossTaken[key]++];
  for (const CrossEvent& e : sets) {
    Instr ins{};
    ins.pipe = static_cast<uint8_t>(pipe);
    ins.op = Op::kCrossWait;
    ins.link = e.index;
    ins.gmAddr = static_cast<uint64_t>(e.core);
    core.IssueAccesses(ins, loc, "CrossCoreWaitFlag", nullptr, 0);
  }
}

// The Matmul service of a mixed kernel: an AIV's request runs on its group's AIC. The AIV records
// the message (a cross-core set) and waits for the answer; the AIC waits for the message, records
// the cube work, and answers once its last instruction (on PIPE_FIX) is done.
void RunOnGroupAic(const std::function<void()>& work, const SrcLoc& loc) {
  Core& aiv = CurrentCore();
  if (aiv.coreType == CoreType::kAic) return work();
  Core* aic = GroupCore(aiv.group, CoreType::kAic, 0);
  ASCENDC_SIM_CHECK(aic != nullptr, loc,
                    "Matmul on a vector core with no cube core serving it: a mixed kernel (KERNEL_TYPE_MIX_AIC_1_2) needs "
                    "REGIST_MATMUL_OBJ reached on the AIC, an AIV-only kernel has no cube unit");
  Instr msg{};
  msg.pipe = PIPE_S;
  msg.op = Op::kCrossSet;
  msg.link = -1;
  aiv.IssueAccesses(msg, loc, "Matmul request", nullptr, 0);
  const int64_t msgIndex = static_cast<int64_t>(aiv.trace.size() - 1);
  SetCurrentCore(aic);
  try {
    Instr in{};
    in.pipe = PIPE_S;
    in.op = Op::kCrossWait;
    in.link = msgIndex;
    in.gmAddr = static_cast<uint64_t>(aiv.globalId);
    aic->IssueAccesses(in, loc, "Matmul request", nullptr, 0);
    work();
    Instr done{};
    done.pipe = PIPE_FIX;
    done.op = Op::kCrossSet;
    done.link = -1;
    aic->IssueAccesses(done, loc, "Matmul answer", nullptr, 0);
  } catch (...) {
    SetCurrentCore(&aiv);
    throw;
  }
  SetCurrentCore(&aiv);
  Instr wait{};
  wait.pipe = PIPE_S;
  wait.op = Op::kCrossWait;
  wait.link = static_cast<int64_t>(aic->trace.size() - 1);
  wait.gmAddr = static_cast<uint64_t>(aic->globalId);
  aiv.IssueAccesses(wait, loc, "Matmul answer", nullptr, 0);
}

void RunBlocks(uint32_t n, const std::function<void()>& kernel, const std::function<void(Core&)>& done) {
  RunCores(LaunchCores("KERNEL_TYPE_AIV_ONLY", n), kernel, done);
}

void RunCores(const std::vector<CoreSpec>& specs, const std::function<void()>& kernel, const std::function<void(Core&)>& done) {
  const uint32_t n = static_cast<uint32_t>(specs.size());
  Scheduler s;
  s.state.assign(n, Scheduler::kNew);
  s.specs = specs;
  s.cores.assign(n, nullptr);
  s.wakeIf.resize(n);
  s.waitingFor.resize(n);
  std::vector<std::thread> threads(n);
  g_sched = &s;
  g_epoch = Epoch{};
  g_raw = RawAccesses{};
  ResetCrossFlags();
  InstallRawAccessHandlers();
  auto body = [&](int b) {
    {
      std::unique_lock<std::mutex> lk(s.m);
      s.cv.wait(lk, [&] { return s.turn == b; });
    }
    try {
      const CoreSpec& spec = s.specs[b];
      Core core(spec.blockIdx, spec.blockNum);
      core.coreType = spec.type;
      core.group = spec.group;
      core.subBlockIdx = spec.sub;
      core.taskRatio = spec.ratio;
      core.globalId = b;
      s.cores[b] = &core;
      SetCurrentCore(&core);
      RunKernel(kernel);
      core.Finish();
      done(core);
      s.cores[b] = nullptr;
      s.state[b] = Scheduler::kDone;
    } catch (const AbortUnwind&) {
      s.cores[b] = nullptr;
      s.state[b] = Scheduler::kDone;
    } catch (...) {
      s.cores[b] = nullptr;
      s.error = std::current_exception();
      s.state[b] = Scheduler::kFailed;
    }
    SetCurrentCore(nullptr);
    std::lock_guard<std::mutex> lk(s.m);
    s.turn = -1;
    s.cv.notify_all();
  };
  // Wake blocks parked in SyncAll or a wait so they unwind, then join every thread.
  auto teardown = [&] {
    s.abort = true;
    for (uint32_t b = 0; b < n; ++b)
      if (s.state[b] == Scheduler::kAtSyncAll || s.state[b] == Scheduler::kWaiting) s.Give(static_cast<int>(b));
    for (auto& t : threads)
      if (t.joinable()) t.join();
    g_sched = nullptr;
  };
  try {
    for (;;) {
      uint32_t parked = 0, finished = 0, waiting = 0;
      bool progress = false;
      for (uint32_t b = 0; b < n; ++b) {
        if (s.state[b] == Scheduler::kNew) {
          threads[b] = std::thread(body, static_cast<int>(b));
          s.state[b] = Scheduler::kRunning;
          s.Give(static_cast<int>(b));
          progress = true;
        } else if (s.state[b] == Scheduler::kReady) {
          s.state[b] = Scheduler::kRunning;
          s.Give(static_cast<int>(b));
          progress = true;
        } else if (s.state[b] == Scheduler::kWaiting && s.wakeIf[b]()) {
          s.state[b] = Scheduler::kRunning;
          s.Give(static_cast<int>(b));
          progress = true;
        }
        if (s.state[b] == Scheduler::kFailed) std::rethrow_exception(s.error);
        if (s.state[b] == Scheduler::kDone && threads[b].joinable()) threads[b].join();
      }
      for (uint32_t b = 0; b < n; ++b) {
        parked += s.state[b] == Scheduler::kAtSyncAll;
        finished += s.state[b] == Scheduler::kDone;
        waiting += s.state[b] == Scheduler::kWaiting;
      }
      if (finished == n) break;
      if (waiting > 0) {
        if (progress) continue;
        std::string msg = "deadlock: every remaining core waits for another";
        for (uint32_t b = 0; b < n; ++b)
          if (s.state[b] == Scheduler::kWaiting) msg += "; core " + std::to_string(b) + " " + s.waitingFor[b];
        throw SimError(Status::RUNTIME_ERROR, msg);
      }
      if (finished > 0) {
        const char* slash = std::strrchr(s.syncSite.file, '/');
        throw SimError(Status::RUNTIME_ERROR, std::string("SyncAll at ") + (slash ? slash + 1 : s.syncSite.file) + ":" +
                                                  std::to_string(s.syncSite.line) + ": " + std::to_string(finished) + " of " +
                                                  std::to_string(n) + " blocks ended without reaching it; the other " +
                                                  std::to_string(parked) + " would wait forever");
      }
      CheckEpoch("SyncAll");
      for (uint32_t b = 0; b < n; ++b) s.state[b] = Scheduler::kReady;
    }
    CheckEpoch("SyncAll");
  } catch (...) {
    teardown();
    throw;
  }
  teardown();
}

void Core::SyncAll(const SrcLoc& loc) {
  const int64_t cores = SocParamInt("aiv_cores");
  ASCENDC_SIM_CHECK(blockNum <= cores, loc,
                    "SyncAll with %d blocks on %lld vector cores: blocks waiting for a core would never start (deadlock)",
                    blockNum, static_cast<long long>(cores));
  Barrier(PIPE_ALL, loc, "SyncAll");
  Instr ins{};
  ins.pipe = PIPE_S;
  ins.op = Op::kSyncAll;
  ins.link = -1;
  ins.site = Site_(loc, "SyncAll");
  Append(ins);
  ++syncAlls;
  ord_->gmWrites.clear();  // everything before is complete
  ord_->gmReads.clear();
  if (g_sched->syncSite.line == 0) g_sched->syncSite = loc;
  g_sched->state[globalId] = Scheduler::kAtSyncAll;
  g_sched->Yield(globalId);
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

void Core::GmAccess(int pipe, const GmPattern& g, bool write, const SrcLoc& loc, const char* api) {
  if (g.rows == 0 || g.rowBytes == 0) return;
  if (pipe != PIPE_S) CheckGmOrder(pipe, g, write, trace.back().site, loc, api);  // the DMA just recorded
  RecordGmEpoch(*this, g, write ? (atomicOp != AtomicOp::kNone && pipe == PIPE_MTE3 ? 2 : 1) : 0, loc, api);
}

void Core::CheckGmOrder(int p, const GmPattern& g, bool write, uint32_t site, const SrcLoc& loc, const char* api) {
  Ordering& o = *ord_;
  auto scan = [&](std::multimap<uint64_t, Ordering::GmRec>& recs, const char* what) {
    const uint64_t from = g.start > o.gmMaxSpan ? g.start - o.gmMaxSpan : 0;
    for (auto it = recs.lower_bound(from); it != recs.end() && it->first < g.End();) {
      const Ordering::GmRec& r = it->second;
      if (r.pipe == p || r.clock <= o.vc[p][r.pipe]) {  // same pipe, or ordered by flags: never again a race
        if (r.pipe != p) { it = recs.erase(it); continue; }
        ++it;
        continue;
      }
      if (r.g.Overlaps(g))
        Fail(Status::RACE_DETECTED, loc, "%s on %s %s %s while %s on %s may still be %s it (no flag orders them)", api, PipeName(p),
             write ? "writes" : "reads", DescribeGm(g.start).c_str(), Describe(sites[r.site]).c_str(), PipeName(r.pipe), what);
      ++it;
    }
  };
  scan(o.gmWrites, "writing");
  if (write) scan(o.gmReads, "reading");
  o.gmMaxSpan = std::max(o.gmMaxSpan, g.End() - g.start);
  (write ? o.gmWrites : o.gmReads).emplace(g.start, Ordering::GmRec{g, static_cast<uint8_t>(p), o.vc[p][p], site});
}

void Core::SetFlag(int src, int dst, uint64_t key, const SrcLoc& loc, const char* api) {
  Ordering& o = *ord_;
  ASCENDC_SIM_CHECK(src >= 0 && src < kPipes && dst >= 0 && dst < kPipes, loc, "%s: invalid pipes %d -> %d", api, src, dst);
  if (src == PIPE_V) Ordering::Join(o.vc[PIPE_V], o.vc[PIPE_S]);
  Instr ins{};
  ins.pipe = static_cast<uint8_t>(src);
  ins.op = Op::kSetFlag;
  ins.link = -1;
  ins.site = Site_(loc, api);
  o.flags[{src, dst, key}].push_back({o.vc[src], static_cast<int64_t>(trace.size() + (pendingScalar_ ? 1 : 0)), ins.site});
  Append(ins);
}

void Core::WaitFlag(int src, int dst, uint64_t key, const SrcLoc& loc, const char* api) {
  Ordering& o = *ord_;
  ASCENDC_SIM_CHECK(src >= 0 && src < kPipes && dst >= 0 && dst < kPipes, loc, "%s: invalid pipes %d -> %d", api, src, dst);
  auto it = o.flags.find({src, dst, key});
  if (it == o.flags.end() || it->second.empty())
    Fail(Status::RUNTIME_ERROR, loc,
         "%s(%s -> %s, id %llu) has no earlier SetFlag to match: %s would wait forever", api, PipeName(src), PipeName(dst),
         static_cast<unsigned long long>(key & 0xffff), PipeName(dst));
  Ordering::Snapshot snap = it->second.front();
  it->second.erase(it->second.begin());
  Ordering::Join(o.vc[dst], snap.clock);
  Instr ins{};
  ins.pipe = static_cast<uint8_t>(dst);
  ins.op = Op::kWaitFlag;
  ins.link = snap.setIndex;
  ins.site = Site_(loc, api);
  Append(ins);
}

void Core::Barrier(int pipe, const SrcLoc& loc, const char* api) {
  Ordering& o = *ord_;
  ASCENDC_SIM_CHECK(pipe >= 0 && pipe <= PIPE_ALL, loc, "%s: invalid pipe %d", api, pipe);
  if (pipe == PIPE_ALL) {
    Clock all{};
    for (const Clock& c : o.vc) Ordering::Join(all, c);
    for (Clock& c : o.vc) c = all;
  }
  Instr ins{};
  ins.pipe = static_cast<uint8_t>(pipe);
  ins.op = Op::kBarrier;
  ins.link = -1;
  ins.site = Site_(loc, api);
  Append(ins);
}

void Core::Finish() {
  for (const auto& [flag, pending] : ord_->flags) {
    const uint64_t key = std::get<2>(flag);
    const bool queueFlag = key >> 63;
    // A freed queue buffer signals its producer; nobody needs to wait for the last signals.
    if (pending.empty() || (queueFlag && (key & 1u))) continue;
    const Site& s = sites[pending.front().site];
    SrcLoc loc{s.file, s.line};
    if (queueFlag)
      Fail(Status::RUNTIME_ERROR, loc, "kernel ended with a tensor still in a queue (%s never matched by DeQue/AllocTensor)", s.api);
    Fail(Status::RUNTIME_ERROR, loc, "kernel ended with %s(%s -> %s, id %llu) never waited for", s.api,
         PipeName(std::get<0>(flag)), PipeName(std::get<1>(flag)), static_cast<unsigned long long>(std::get<2>(flag)));
  }
  Append(Instr{PIPE_S, Op::kScalar, 0, 0, 0, 0, 0, 0, {0, 0, 0}, -1, 0});
}

}  // namespace ascendc_sim

namespace AscendC {

// Constructing a TPipe makes it the core's global pipe, as on the device (GetTPipePtr).
TPipe::TPipe() { ascendc_sim::CurrentCore().tpipe = this; }
TPipe::~TPipe() {
  if (ascendc_sim::CurrentCore().tpipe == this) ascendc_sim::CurrentCore().tpipe = nullptr;
}

uint32_t TPipe::Allocate(ascendc_sim::LocalBuf buf, uint64_t bytes, const SrcLoc& loc, uint32_t len, uint32_t num) {
  ascendc_sim::Core& core = ascendc_sim::CurrentCore();
  if (buf != ascendc_sim::LocalBuf::kUB) {
    uint32_t& used = cubeUsed_[static_cast<int>(buf)];
    const uint32_t cap = core.local.Size(buf);
    ASCENDC_SIM_CHECK(used + bytes <= cap, loc, "InitBuffer of %u x %u bytes needs %s [%u, %llu) but the %s holds only %u bytes", num,
                      len, ascendc_sim::LocalBufName(buf), used, static_cast<unsigned long long>(used + bytes),
                      ascendc_sim::LocalBufName(buf), cap);
    const uint32_t base = core.local.Base(buf) + used;
    used += static_cast<uint32_t>(bytes);
    return base;
  }
  ASCENDC_SIM_CHECK(used_ + bytes <= core.local.Size(ascendc_sim::LocalBuf::kUB), loc,
                    "InitBuffer of %u x %u bytes needs UB [%u, %llu) but only %u bytes are available", num, len, used_,
                    static_cast<unsigned long long>(used_ + bytes), core.ubCapacity);
  // Into the bytes the runtime reserves at the top of the UB: the device does not stop it.
  ASCENDC_SIM_WARN_UNLESS(used_ + bytes <= core.ubCapacity, loc,
                          "InitBuffer of %u x %u bytes needs UB [%u, %llu), into the %llu bytes the runtime reserves above %u",
                          num, len, used_, static_cast<unsigned long long>(used_ + bytes),
                          static_cast<unsigned long long>(core.local.Size(ascendc_sim::LocalBuf::kUB) - core.ubCapacity), core.ubCapacity);
  uint32_t base = used_;
  used_ += static_cast<uint32_t>(bytes);
  core.ubPeak = std::max(core.ubPeak, used_);
  return base;
}

}  // namespace AscendC
