// The block scheduler (scheduler.h).
#include "scheduler.h"

#include <condition_variable>
#include <cstring>
#include <exception>
#include <mutex>
#include <thread>

#include "ascendc_sim/runtime.h"
#include "race_checker.h"
#include "raw_access.h"

namespace ascendc_sim {

namespace {

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
  std::vector<bool> serving;                  // kWaiting in REGIST_MATMUL_OBJ: an AIC serving its AIVs
  std::vector<bool> polling;                  // kWaiting for GM bytes to change (Core::kPollYield)
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
    gm_flags::RestoreView();
    if (cores[b] != nullptr) cores[b]->SettleScalarInstrs();  // other blocks count while it is parked
    std::unique_lock<std::mutex> lk(m);
    turn = -1;
    cv.notify_all();
    cv.wait(lk, [&] { return turn == b; });
    if (abort) throw AbortUnwind{};
    if (cores[b] != nullptr) cores[b]->ResumeScalarInstrs();
  }
};
Scheduler* g_sched = nullptr;

}  // namespace

std::vector<CoreSpec> LaunchCores(const std::string& kernelType, uint32_t blockDim) {
  std::vector<CoreSpec> specs;
  const int n = static_cast<int>(blockDim);
  const bool mix12 = kernelType == "KERNEL_TYPE_MIX_AIC_1_2", mix11 = kernelType == "KERNEL_TYPE_MIX_AIC_1_1";
  for (int g = 0; g < n; ++g) {
    if (mix12 || mix11) {
      const int ratio = mix12 ? 2 : 1;
      specs.push_back(CoreSpec{CoreType::kAic, g, n, g, 0, 1});
      for (int sub = 0; sub < ratio; ++sub)
        specs.push_back(CoreSpec{CoreType::kAiv, g * ratio + sub, n, g, sub, ratio});
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

namespace {
bool GroupAivsDone(int group) {
  for (size_t c = 0; c < g_sched->specs.size(); ++c)
    if (g_sched->specs[c].group == group && g_sched->specs[c].type == CoreType::kAiv &&
        g_sched->state[c] != Scheduler::kDone)
      return false;
  return true;
}
}  // namespace

void ServeGroupAivs(int group) {
  const int c = CurrentCore().GlobalId();
  g_sched->serving[c] = true;
  WaitUntil([group] { return GroupAivsDone(group); }, "in REGIST_MATMUL_OBJ serving its AIVs");
  g_sched->serving[c] = false;
}

void WaitUntil(const std::function<bool()>& ready, const std::string& what, bool poll) {
  if (ready()) return;
  Core& core = CurrentCore();
  const int c = core.GlobalId();
  g_sched->wakeIf[c] = ready;
  g_sched->waitingFor[c] = what;
  g_sched->polling[c] = poll;
  g_sched->state[c] = Scheduler::kWaiting;
  g_sched->Yield(c);
  g_sched->polling[c] = false;
  SetCurrentCore(&core);
}

bool OtherCoreRunnable() {
  const size_t self = static_cast<size_t>(CurrentCore().GlobalId());
  for (size_t b = 0; b < g_sched->state.size(); ++b) {
    const Scheduler::State s = g_sched->state[b];
    if (b != self &&
        (s == Scheduler::kNew || s == Scheduler::kReady || (s == Scheduler::kWaiting && g_sched->wakeIf[b]())))
      return true;
  }
  return false;
}

std::string OtherWaits() {
  std::string out;
  const size_t self = static_cast<size_t>(CurrentCore().GlobalId());
  for (size_t b = 0; b < g_sched->state.size(); ++b)
    if (b != self && g_sched->state[b] == Scheduler::kWaiting)
      out += "; core " + std::to_string(b) + " " + g_sched->waitingFor[b];
    else if (b != self && g_sched->state[b] == Scheduler::kAtSyncAll)
      out += "; core " + std::to_string(b) + " in SyncAll";
  return out;
}

void ParkAtSyncAll(const Core& core, const SrcLoc& loc) {
  if (g_sched->syncSite.line == 0) g_sched->syncSite = loc;
  g_sched->state[core.GlobalId()] = Scheduler::kAtSyncAll;
  g_sched->Yield(core.GlobalId());
}

void RunBlocks(uint32_t n, const std::function<void()>& kernel, const std::function<void(Core&)>& done) {
  RunCores(LaunchCores("KERNEL_TYPE_AIV_ONLY", n), kernel, done);
}

void RunCores(const std::vector<CoreSpec>& specs, const std::function<void()>& kernel,
              const std::function<void(Core&)>& done) {
  const uint32_t n = static_cast<uint32_t>(specs.size());
  Scheduler s;
  s.state.assign(n, Scheduler::kNew);
  s.specs = specs;
  s.cores.assign(n, nullptr);
  s.wakeIf.resize(n);
  s.waitingFor.resize(n);
  s.serving.assign(n, false);
  s.polling.assign(n, false);
  std::vector<std::thread> threads(n);
  g_sched = &s;
  gm_epoch::Reset();
  ResetCrossFlags();
  ResetRawAccesses();
  auto body = [&](int b) {
    {
      std::unique_lock<std::mutex> lk(s.m);
      s.cv.wait(lk, [&] { return s.turn == b; });
    }
    try {
      Core core(s.specs[b], b);
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
  // Wake blocks parked in SyncAll or a wait so they unwind, then join every thread. A block
  // released from SyncAll (kReady) is still parked until it gets the baton: an earlier block may
  // fail before it does.
  auto teardown = [&] {
    s.abort = true;
    for (uint32_t b = 0; b < n; ++b)
      if (s.state[b] == Scheduler::kAtSyncAll || s.state[b] == Scheduler::kWaiting || s.state[b] == Scheduler::kReady)
        s.Give(static_cast<int>(b));
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
      // An AIC serving its AIVs' Matmul requests takes no part in their SyncAll (the vector cores'
      // barrier, SyncAll's default): the barrier is met when every other core reached it.
      for (uint32_t b = 0; b < n; ++b) {
        parked += s.state[b] == Scheduler::kAtSyncAll;
        finished += s.state[b] == Scheduler::kDone;
      }
      for (uint32_t b = 0; b < n; ++b) waiting += s.state[b] == Scheduler::kWaiting && !(parked > 0 && s.serving[b]);
      if (finished == n) break;
      if (waiting > 0) {
        if (progress) continue;
        // No core can run: a core polling GM reads on (its loop may end by itself; Core::kPollIdle).
        uint32_t poller = 0;
        while (poller < n && !(s.state[poller] == Scheduler::kWaiting && s.polling[poller])) ++poller;
        if (poller < n) {
          s.state[poller] = Scheduler::kRunning;
          s.Give(static_cast<int>(poller));
          continue;
        }
        std::string msg = "deadlock: every remaining core waits for another";
        for (uint32_t b = 0; b < n; ++b)
          if (s.state[b] == Scheduler::kWaiting) msg += "; core " + std::to_string(b) + " " + s.waitingFor[b];
        throw SimError(Status::RUNTIME_ERROR, msg);
      }
      if (finished > 0) {
        const char* slash = std::strrchr(s.syncSite.file, '/');
        throw SimError(Status::RUNTIME_ERROR, std::string("SyncAll at ") + (slash ? slash + 1 : s.syncSite.file) + ":" +
                                                  std::to_string(s.syncSite.line) + ": " + std::to_string(finished) +
                                                  " of " + std::to_string(n) +
                                                  " blocks ended without reaching it; the other " +
                                                  std::to_string(parked) + " would wait forever");
      }
      gm_epoch::Check("SyncAll");
      for (uint32_t b = 0; b < n; ++b)
        if (s.state[b] == Scheduler::kAtSyncAll) s.state[b] = Scheduler::kReady;
    }
    gm_epoch::Check("SyncAll");
  } catch (...) {
    teardown();
    throw;
  }
  teardown();
}

}  // namespace ascendc_sim
