#include "model/program.h"

#include <cstring>

namespace ascendc_sim::model {

namespace {
bool IsDma(Op op) { return op == Op::kCopyGmToUb || op == Op::kCopyUbToGm; }
}  // namespace

Program Compile(const Core& core, const Params& p, const VectorUnit& vec, bool keepSites) {
  Program prog;
  prog.block = static_cast<uint32_t>(core.blockIdx);
  if (keepSites) prog.sites = core.sites;
  prog.steps.reserve(core.trace.size());
  for (const Instr& i : core.trace) {
    Step s{};
    s.pipe = i.pipe;
    s.op = i.op;
    s.cacheMode = i.cacheMode;
    s.site = i.site;
    s.link = i.link;
    switch (i.op) {
      case Op::kScalar: s.cost = i.scalarCycles; break;
      case Op::kSetFlag: case Op::kWaitFlag: s.cost = p.flagCycles; break;
      case Op::kBarrier: case Op::kSyncAll: s.cost = p.barrierCycles; break;
      default:
        if (IsDma(i.op)) {
          // DataCopyPad pads every UB row to 32 B, one extra step per burst.
          const bool pad = i.site < core.sites.size() && std::strcmp(core.sites[i.site].api, "DataCopyPad") == 0;
          s.cost = p.dmaStart + (i.repeats > 0 ? i.repeats - 1 : 0) * p.dmaBurst + (pad ? i.repeats * p.dmaPadBurst : 0);
          s.bursts = i.repeats;
          s.rowBytes = i.unitBytes;
          s.gmAddr = i.gmAddr;
          s.gmPitch = i.gmPitch ? i.gmPitch : i.unitBytes;
        } else {
          const VectorCost c = vec.Cost(i);
          s.cost = c.cycles;
          s.conflictRepeats = c.conflictRepeats;
        }
    }
    prog.steps.push_back(s);
  }
  return prog;
}

}  // namespace ascendc_sim::model
