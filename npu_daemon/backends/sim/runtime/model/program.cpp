#include "model/program.h"

#include <cstring>
#include <map>
#include <string>

namespace ascendc_sim::model {

namespace {
bool IsDma(Op op) {
  return op == Op::kCopyGmToUb || op == Op::kCopyUbToGm || op == Op::kCopyGmToL1 || op == Op::kFixpipe;
}

// Host heap addresses change from run to run; L2 sets and memory slices must not. A GM address
// becomes (hash of its buffer's name) << 40 | offset into the buffer.
class CanonicalGm {
 public:
  uint64_t operator()(uint64_t addr) {
    auto it = bases_.upper_bound(addr);
    if (it != bases_.begin()) {
      --it;
      if (GmRangeValid(reinterpret_cast<const void*>(it->first), addr - it->first + 1))
        return it->second + (addr - it->first);
    }
    const std::string where = DescribeGm(addr);  // "name+offset"
    const size_t plus = where.rfind('+');
    const uint64_t offset = plus == std::string::npos ? 0 : std::stoull(where.substr(plus + 1));
    uint64_t h = 1469598103934665603ull;  // FNV-1a of the name
    for (char ch : where.substr(0, plus)) h = (h ^ static_cast<uint8_t>(ch)) * 1099511628211ull;
    const uint64_t canonical = (h & 0xfffffull) << 40;
    bases_[addr - offset] = canonical;
    return canonical + offset;
  }

 private:
  std::map<uint64_t, uint64_t> bases_;
};

// GM -> L1 (the cube's MTE2, ND2NZ on the way): rows that start and end on 256 B boundaries stream
// at the port's rate (the Matmul tiling case's 3406 GB/s over 20 cores is the port itself); other
// rows pay `nd2nz_burst_cycles` each, the low bandwidth of on-the-fly ND2NZ on an inner axis that
// is not 256 B aligned (asc-devkit, "AIV核上的ND2NZ格式转换").
double Nd2NzRowCycles(const Step& s, const Params& p) {
  constexpr uint64_t kAlign = 256;
  const bool aligned = s.gmAddr % kAlign == 0 && s.rowBytes % kAlign == 0 && (s.bursts <= 1 || s.gmPitch % kAlign == 0);
  return aligned ? 0.0 : p.nd2nzBurst;
}
}  // namespace

Program Compile(const CoreTrace& block, const Params& p, const VectorUnit& vec, bool keepSites) {
  Program prog;
  prog.block = static_cast<uint32_t>(block.globalId);
  prog.aic = block.type == CoreType::kAic;
  if (keepSites) prog.sites = block.sites;
  prog.steps.reserve(block.instrs.size());
  CanonicalGm canonical;
  for (const Instr& i : block.instrs) {
    Step s{};
    s.pipe = i.pipe;
    s.op = i.op;
    s.cacheMode = i.cacheMode;
    s.site = i.site;
    s.link = i.link;
    switch (i.op) {
      case Op::kScalar:
        s.cost = i.scalarCycles;
        break;
      case Op::kSetFlag:
      case Op::kWaitFlag:
        s.cost = p.flagCycles;
        break;
      case Op::kBarrier:
      case Op::kSyncAll:
        s.cost = p.barrierCycles;
        break;
      case Op::kCrossSet:
        s.cost = p.flagCycles;
        break;
      case Op::kCrossWait:  // a flag, or a Matmul message the AIC receives and dispatches (MIX mode)
        s.cost = i.elements > 0 ? p.mmMsgCycles : p.flagCycles;
        s.peer = static_cast<int32_t>(i.gmAddr);
        break;
      // The cube unit: a start cost plus its data (MTE1, FIX) or its fractal steps (M).
      case Op::kLoadL0:
        s.cost = p.mte1Start + i.elements / p.l0LoadBytesPerCycle;
        break;
      case Op::kCopyL1:
        s.cost = p.mte1Start + i.elements / p.l0LoadBytesPerCycle;
        break;
      // Fill / InitConstValue: into L0A / L0B at LoadData's rate on MTE1; into L1 on MTE2 with a DMA's
      // start, at the AIC's MTE2 rate, with no GM traffic.
      case Op::kFillCube:
        s.cost = i.pipe == PIPE_MTE1 ? p.mte1Start + i.elements / p.l0LoadBytesPerCycle
                                     : p.dmaStart + i.elements / p.aicMte2BytesPerCycle;
        break;
      case Op::kMmad:
        // HF32 doubles the f322f32 Mmad's rate (asc-devkit, Mmad's HF32 page).
        s.cost = p.mmadStart + i.repeats * (i.elemBytes == 4   ? p.cubeCyclesFp32 / (i.hf32 ? 2 : 1)
                                            : i.elemBytes == 1 ? p.cubeCyclesInt8
                                                               : p.cubeCyclesB16);
        break;
      case Op::kFixpipeUb:
        s.cost = p.fixStart + i.elements / p.fixBytesPerCycle;
        break;
      default:
        if (IsDma(i.op)) {
          // DataCopyPad pads every UB row to 32 B, one extra step per burst.
          const bool pad = i.site < block.sites.size() && std::strcmp(block.sites[i.site].api, "DataCopyPad") == 0;
          s.bursts = i.repeats;
          s.rowBytes = i.unitBytes;
          s.gmAddr = canonical(i.gmAddr);
          s.gmPitch = i.gmPitch ? i.gmPitch : i.unitBytes;
          const double burst = i.op == Op::kCopyGmToL1 ? Nd2NzRowCycles(s, p) : p.dmaBurst;
          s.cost = (i.op == Op::kFixpipe ? p.fixStart : p.dmaStart) + (i.repeats > 0 ? i.repeats - 1 : 0) * burst +
                   (pad ? i.repeats * p.dmaPadBurst : 0);
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
