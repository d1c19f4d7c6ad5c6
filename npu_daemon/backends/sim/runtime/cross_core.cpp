// Cross-core synchronisation: CrossCoreSetFlag / CrossCoreWaitFlag between the AIC and AIVs of a
// mixed launch, and the Matmul service an AIV's request runs on its group's AIC.
//
// Each core has a counter per flag id, as the hardware does; the wait does not name a mode. A set's
// mode says when which counters count up: mode 2 from the AIC, each AIV of its group at once; mode 2
// from the AIVs, the AIC once every AIV of the group has set; mode 1, both AIVs of the group once
// both have set; mode 0, every core of the unit once all of them have set. A counted-up flag
// remembers the sets it needed (core and trace index) so the model can time the wait.
#include <map>
#include <tuple>
#include <utility>

#include "ascendc_sim/runtime.h"

namespace ascendc_sim {

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
  ASCENDC_SIM_CHECK(mode == 0 || mode == 1 || mode == 2, loc, "CrossCoreSetFlag: mode %d (0, 1 or 2 on this SoC)",
                    mode);
  ASCENDC_SIM_CHECK(flag >= 0 && flag < 16, loc, "CrossCoreSetFlag: flag id %d out of range [0, 15]", flag);
  ASCENDC_SIM_CHECK(pipe != PIPE_S && pipe != PIPE_ALL, loc, "CrossCoreSetFlag: pipe %s is not allowed",
                    PipeName(pipe));
  ASCENDC_SIM_CHECK(mode != 1 || core.Spec().type == CoreType::kAiv, loc,
                    "CrossCoreSetFlag: mode 1 synchronises the AIVs of a group");
  Instr ins{};
  ins.pipe = static_cast<uint8_t>(pipe);
  ins.op = Op::kCrossSet;
  ins.link = -1;
  ins.gmPitch = static_cast<uint64_t>(flag);
  // No local access: the ordering is with another core.
  const CrossEvent me{core.GlobalId(), core.IssueAccesses(ins, loc, "CrossCoreSetFlag", nullptr, 0)};
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
  const std::pair<int, int> key{core.GlobalId(), flag};
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
