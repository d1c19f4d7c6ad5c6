#include "model.h"

#include <algorithm>

#include "ascendc_sim/runtime.h"

namespace ascendc_sim {

namespace {

struct Costs {
  double issue, flag, barrier;
  double vecStart, cprBinary, cprUnary, cprCast, cprTranscHalf, cprTranscFloat, cprDiv, cprFma, cprReduce;
  double mte2Start, mte3Start, burstCycles, mte2Bpc, mte3Bpc;
  int bankGroups;

  static Costs Load() {
    Costs c{};
    c.issue = SocParamDouble("issue_cycles");
    c.flag = SocParamDouble("flag_cycles");
    c.barrier = SocParamDouble("barrier_cycles");
    c.vecStart = SocParamDouble("vec_start_cycles");
    c.cprBinary = SocParamDouble("vec_cpr_binary");
    c.cprUnary = SocParamDouble("vec_cpr_unary");
    c.cprCast = SocParamDouble("vec_cpr_cast");
    c.cprTranscHalf = SocParamDouble("vec_cpr_transc_half");
    c.cprTranscFloat = SocParamDouble("vec_cpr_transc_float");
    c.cprDiv = SocParamDouble("vec_cpr_div");
    c.cprFma = SocParamDouble("vec_cpr_fma");
    c.cprReduce = SocParamDouble("vec_cpr_reduce");
    c.mte2Start = SocParamDouble("mte2_start_cycles");
    c.mte3Start = SocParamDouble("mte3_start_cycles");
    c.burstCycles = SocParamDouble("dma_burst_cycles");
    c.mte2Bpc = SocParamDouble("mte2_bytes_per_cycle");
    c.mte3Bpc = SocParamDouble("mte3_bytes_per_cycle");
    c.bankGroups = static_cast<int>(SocParamInt("ub_bank_groups"));
    return c;
  }

  // Two sources whose 8-block repeat windows share a bank group take two cycles per repeat.
  bool BankConflict(const Instr& i) const {
    if (i.op != Op::kVecBinary) return false;
    const int g0 = static_cast<int>(i.ubAddr[1] / 32 % bankGroups), g1 = static_cast<int>(i.ubAddr[2] / 32 % bankGroups);
    const int d = (g0 - g1 + bankGroups) % bankGroups;
    return d != bankGroups / 2;
  }

  double Cycles(const Instr& i) const {
    switch (i.op) {
      case Op::kVecBinary: return vecStart + i.repeats * cprBinary * (BankConflict(i) ? 2 : 1);
      case Op::kVecUnary: return vecStart + i.repeats * cprUnary;
      case Op::kVecCast: return vecStart + i.repeats * cprCast;
      case Op::kVecTransc: return vecStart + i.repeats * (i.elemBytes == 2 ? cprTranscHalf : cprTranscFloat);
      case Op::kVecDiv: return vecStart + i.repeats * cprDiv;
      case Op::kVecFma: return vecStart + i.repeats * cprFma;
      case Op::kVecReduce: return vecStart + i.repeats * cprReduce;
      case Op::kVecMask: return 1;
      case Op::kCopyGmToUb: return mte2Start + i.repeats * burstCycles + double(i.repeats) * i.unitBytes / mte2Bpc;
      case Op::kCopyUbToGm: return mte3Start + i.repeats * burstCycles + double(i.repeats) * i.unitBytes / mte3Bpc;
      case Op::kCopyUbToUb: return vecStart + double(i.repeats) * i.unitBytes / 256.0 * cprUnary;
      case Op::kSetFlag: case Op::kWaitFlag: return flag;
      case Op::kBarrier: return barrier;
      default: return 0;
    }
  }
};

}  // namespace

// In-order pipes issued by the scalar unit in program order: an instruction starts when its pipe
// is free, it has been issued, and the flag it waits for (if any) has been set.
PipeTotals TimeCore(const std::vector<Instr>& trace) {
  static const Costs c = Costs::Load();
  PipeTotals t;
  double ready[kPipes] = {};  // when each pipe finishes its queued work
  std::vector<double> end(trace.size(), 0);
  double& scalar = ready[PIPE_S];
  for (size_t k = 0; k < trace.size(); ++k) {
    const Instr& i = trace[k];
    if (i.op == Op::kScalar) {
      scalar += i.scalarCycles;
      t.busy[PIPE_S] += i.scalarCycles;
      end[k] = scalar;
      continue;
    }
    if (i.op == Op::kBarrier && i.pipe == PIPE_ALL) {
      double all = *std::max_element(ready, ready + kPipes) + c.barrier;
      std::fill(ready, ready + kPipes, all);
      end[k] = all;
      continue;
    }
    const int p = i.pipe;
    if (p != PIPE_S) {
      scalar += c.issue;
      t.busy[PIPE_S] += c.issue;
    }
    double start = std::max(ready[p], scalar);
    if (i.op == Op::kWaitFlag && i.link >= 0) start = std::max(start, end[static_cast<size_t>(i.link)]);
    const double cost = c.Cycles(i);
    end[k] = start + cost;
    ready[p] = end[k];
    t.busy[p] += cost;
    if (i.op == Op::kCopyGmToUb) t.gmRead += uint64_t(i.repeats) * i.unitBytes;
    if (i.op == Op::kCopyUbToGm) t.gmWritten += uint64_t(i.repeats) * i.unitBytes;
    if (c.BankConflict(i)) ++t.bankConflicts;
  }
  t.total = *std::max_element(ready, ready + kPipes);
  return t;
}

// Blocks run in waves over the vector cores; the chip cannot move GM bytes faster than its
// bandwidth, and each launch pays a head overhead that grows with the cores it starts.
ChipTiming TimeChip(const std::vector<PipeTotals>& blocks) {
  ChipTiming chip;
  const uint32_t cores = static_cast<uint32_t>(SocParamInt("aiv_cores"));
  const double clockGhz = SocParamDouble("clock_ghz");
  chip.blockDim = static_cast<uint32_t>(blocks.size());
  chip.coresUsed = std::min(chip.blockDim, cores);
  std::vector<double> coreCycles(chip.coresUsed, 0);
  uint64_t gmBytes = 0;
  for (size_t b = 0; b < blocks.size(); ++b) {
    coreCycles[b % chip.coresUsed] += blocks[b].total;
    gmBytes += blocks[b].gmRead + blocks[b].gmWritten;
    for (int p = 0; p < kPipes; ++p) chip.meanBlock.busy[p] += blocks[b].busy[p] / blocks.size();
    chip.meanBlock.total += blocks[b].total / blocks.size();
    chip.meanBlock.gmRead += blocks[b].gmRead;
    chip.meanBlock.gmWritten += blocks[b].gmWritten;
    chip.meanBlock.bankConflicts += blocks[b].bankConflicts;
  }
  const double coreUs = *std::max_element(coreCycles.begin(), coreCycles.end()) / (clockGhz * 1e3);
  chip.gmBoundUs = gmBytes / (SocParamDouble("gm_bandwidth_gbps") * 1e3);
  chip.headUs = SocParamDouble("launch_us") + SocParamDouble("launch_us_per_core") * chip.coresUsed;
  chip.taskDurationUs = std::max(coreUs, chip.gmBoundUs) + chip.headUs;
  return chip;
}

}  // namespace ascendc_sim
