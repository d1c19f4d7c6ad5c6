#include "model/chip_model.h"

#include <algorithm>
#include <cmath>
#include <queue>
#include <random>

namespace ascendc_sim::model {

namespace {
// The previous launch's copies into L2, untimed: each wave's blocks side by side (one copy of each
// block in turn, in program order), the waves one after another, so that what stays is what the
// cores touched last, as when they ran together.
void WarmL2(GmSystem& gm, const std::vector<Program>& blocks, uint32_t cores) {
  auto isDma = [](const Step& s) {
    return s.op == Op::kCopyGmToUb || s.op == Op::kCopyUbToGm || s.op == Op::kCopyGmToL1 || s.op == Op::kFixpipe;
  };
  for (size_t first = 0; first < blocks.size(); first += cores) {
    const size_t end = std::min<size_t>(blocks.size(), first + cores);
    std::vector<size_t> pc(end - first, 0);
    for (bool any = true; any;) {
      any = false;
      for (size_t b = first; b < end; ++b) {
        const std::vector<Step>& steps = blocks[b].steps;
        size_t& k = pc[b - first];
        while (k < steps.size() && !isDma(steps[k])) ++k;
        if (k == steps.size()) continue;
        const Step& s = steps[k++];
        const bool write = s.op == Op::kCopyUbToGm || s.op == Op::kFixpipe;
        gm.Warm(DmaRequest{0, write, s.cacheMode, s.gmAddr, s.bursts, s.rowBytes, s.gmPitch, blocks[b].aic});
        any = true;
      }
    }
  }
}
}  // namespace

ChipModel::ChipModel(const Params& p, std::vector<Listener*> listeners, uint64_t noiseSeed)
    : p_(p), listeners_(std::move(listeners)), noiseSeed_(noiseSeed) {}

LaunchEvent ChipModel::Run(const std::vector<Program>& blocks, const std::vector<CoreSpec>& specs,
                           TimingProtocol protocol, uint64_t memsetBytes) {
  const uint32_t n = static_cast<uint32_t>(blocks.size());
  bool aic = false, aiv = false;
  for (const CoreSpec& s : specs) (s.type == CoreType::kAic ? aic : aiv) = true;
  const bool mixed = aic && aiv;
  uint32_t groups = 0;
  for (const CoreSpec& s : specs) groups = std::max<uint32_t>(groups, static_cast<uint32_t>(s.group) + 1);
  if (mixed && groups > p_.aicCores)
    throw SimError(Status::RUNTIME_ERROR, "mixed (AIC + AIV) launch of " + std::to_string(groups) + " groups on " +
                                              std::to_string(p_.aicCores) +
                                              " cube cores: the model runs a mixed launch in one wave");
  const uint32_t cores = mixed ? n : std::min(n, aic ? p_.aicCores : p_.aivCores);
  GmSystem gm(p_, cores);
  if (protocol.l2Resident) WarmL2(gm, blocks, cores);
  std::vector<CoreModel> core;
  core.reserve(cores);
  for (uint32_t c = 0; c < cores; ++c) core.emplace_back(c, p_, listeners_);
  for (CoreModel& m : core) m.SetPeers(&core);
  std::vector<uint32_t> crossWaiting;  // cores stopped at a CrossCoreWaitFlag whose set is not timed yet

  // Cores with a DMA ready, earliest first: memory requests are timed close to time order.
  using Entry = std::pair<double, uint32_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> ready;
  // Cores that have just taken their next block, by its start: a core is advanced into it only
  // when the launch's time reaches that start, so that blocks go to the cores wave by wave even
  // when they do no DMA (else a core that never waits on memory would run every later block).
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> starting;
  std::vector<uint32_t> atSyncAll;
  uint32_t nextBlock = 0;
  std::vector<double> started(n, 0);
  double last = 0;

  // Run core c until it needs the memory system or the chip; start its next block when it ends.
  auto pump = [&](uint32_t c) {
    for (;;) {
      switch (core[c].Advance()) {
        case CoreModel::State::kDma:
          ready.push({core[c].NextDmaStart(), c});
          return;
        case CoreModel::State::kSyncAll:
          atSyncAll.push_back(c);
          return;
        case CoreModel::State::kCrossWait:
          crossWaiting.push_back(c);
          return;
        case CoreModel::State::kDone: {
          const double end = core[c].Finish();
          last = std::max(last, end);
          const uint32_t b = core[c].Block();
          for (Listener* l : listeners_) l->OnBlock(BlockEvent{b, c, started[b], end});
          if (nextBlock >= n) return;
          started[nextBlock] = end + p_.blockSwitchCycles;
          core[c].Start(blocks[nextBlock], started[nextBlock]);
          starting.push({started[nextBlock], c});
          ++nextBlock;
          return;
        }
      }
    }
  };
  for (uint32_t c = 0; c < cores; ++c) core[c].Start(blocks[nextBlock++], 0);
  for (uint32_t c = 0; c < cores; ++c) pump(c);
  for (;;) {
    if (!starting.empty() && (ready.empty() || starting.top().first <= ready.top().first)) {
      const uint32_t c = starting.top().second;
      starting.pop();
      pump(c);
      continue;
    }
    if (!ready.empty()) {
      const uint32_t c = ready.top().second;
      ready.pop();
      if (!ready.empty()) gm.Prefetch(core[ready.top().second].NextDma());  // likely the next one timed
      core[c].ExecuteDma(gm);
      pump(c);
      continue;
    }
    if (!crossWaiting.empty()) {  // retry the cores whose cross-core sets may now be timed
      std::vector<uint32_t> retry;
      retry.swap(crossWaiting);
      size_t before = 0, after = 0;
      for (uint32_t c : retry) before += core[c].Pc();
      for (uint32_t c : retry) pump(c);
      for (uint32_t c : retry) after += core[c].Pc();
      if (after > before || !ready.empty()) continue;
      throw SimError(Status::RUNTIME_ERROR, "performance model: cross-core waits that no core can satisfy");
    }
    if (atSyncAll.empty()) break;
    // Every running core is parked at SyncAll (the harness refuses SyncAll in waves).
    double at = 0;
    for (uint32_t c : atSyncAll) at = std::max(at, core[c].SyncAllArrival());
    at += p_.syncAllCycles;
    std::vector<uint32_t> release;
    release.swap(atSyncAll);
    for (uint32_t c : release) core[c].ReleaseSyncAll(at);
    for (uint32_t c : release) pump(c);
  }

  LaunchEvent launch{};
  launch.blockDim = n;
  launch.coresUsed = cores;
  launch.clockGhz = p_.clockGhz;
  const auto head = [&](uint32_t launched) {
    return protocol.launchRepeated ? p_.launchRepeatedUs + p_.launchRepeatedUsPerCore * launched
                                   : p_.launchUs + p_.launchUsPerCore * launched;
  };
  launch.headUs = head(cores);
  // Outputs with an InitValue are cleared by the op framework's memset, a task of its own before the
  // kernel: its head on the same cores and its bytes at their write ports, at most the chip's GM
  // rate (an assumption, unfitted). Counted in the head: it is no part of the kernel's body.
  if (memsetBytes > 0) {
    const double rate = std::min(p_.hbmBytesPerCycle, p_.mte3BytesPerCycle * cores);
    launch.memsetUs = head(cores) + static_cast<double>(memsetBytes) / rate / (p_.clockGhz * 1e3);
    launch.headUs += launch.memsetUs;
  }
  launch.endCycles = last;
  launch.taskDurationUs = launch.headUs + last / (p_.clockGhz * 1e3);
  if (p_.noiseSigma > 0) {  // hardware run-to-run spread: log-normal, seeded per request
    std::mt19937_64 rng(noiseSeed_);
    std::normal_distribution<double> z(0.0, 1.0);
    launch.taskDurationUs *= std::exp(p_.noiseSigma * z(rng) - 0.5 * p_.noiseSigma * p_.noiseSigma);
  }
  for (Listener* l : listeners_) l->OnLaunch(launch);
  return launch;
}

}  // namespace ascendc_sim::model
