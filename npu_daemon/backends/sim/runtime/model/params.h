// Every constant of the performance model, read once from the SoC parameters (the part's figures in
// ascend_core/soc/presets.toml, the fitted costs in backends/sim/soc/model.toml). Nothing in the
// model hard-codes a hardware number.
#pragma once

#include <cstdint>

namespace ascendc_sim::model {

// How a launch is timed (docs/performance_model.md, Timing protocol): the two temperatures of a
// device measurement, chosen independently.
struct TimingProtocol {
  bool l2Resident = false;      // L2 holds what the launch before of the same kernel left; else flushed (empty)
  bool launchRepeated = false;  // a repeated launch's head, after warm-up launches; else a first launch's
};

struct Params {
  // chip
  double clockGhz;
  uint32_t aivCores;
  uint32_t aicCores;
  double hbmBytesPerCycle;           // aggregate GM (HBM) bandwidth shared by every core's reads and writes
  double l2BytesPerCycle;            // aggregate bandwidth of L2 hits
  uint64_t l2Bytes;                  // L2 capacity
  double launchUs, launchUsPerCore;  // head overhead of a first launch: fixed + per core launched
  double launchRepeatedUs, launchRepeatedUsPerCore;  // the same for a repeated launch (after warm-up launches)
  double blockSwitchCycles;                          // a core starting its next block (blockDim above the core count)
  double syncAllCycles;                              // cross-core barrier once every core arrived
  // scalar unit
  double issueCycles;  // issuing one pipe instruction
  double flagCycles, barrierCycles;
  // vector unit
  double vecStart;
  double cprBinary, cprUnary, cprCast, cprTranscHalf, cprTranscFloat, cprDiv, cprFma;
  double cprReduceHalf, cprReduceFloat, cprCompare, cprSelect, cprGather, cprIndex, cprMergeSort;
  double rwConflictFactor;  // cycles per repeat multiplier when dst and a source share a UB bank
  uint32_t bankGroups;
  uint32_t bankBytes;  // UB bytes per bank third (a bank = group x third)
  // DMA
  double dmaStart;                // per DMA instruction, before data flows
  double dmaBurst;                // per extra burst of a multi-burst copy
  double dmaPadBurst;             // DataCopyPad: per burst, padding the UB row to 32 B
  double dmaLatency;              // GM round trip: completion trails the last byte by this much
  double hbmLatency;              // a read miss: HBM access beyond an L2 hit's round trip
  double mte2BytesPerCycle;       // per-core port, reads (MTE2) from HBM
  double mte2L2HitBytesPerCycle;  // per-core port, reads (MTE2) that hit in L2
  double mte3BytesPerCycle;       // per-core port, writes (MTE3): its own path, overlapping reads
  uint32_t granuleBytes;          // GM request granule
  uint32_t gmSlices;              // HBM channels, interleaved by granule address
  uint32_t l2Slices;  // L2 slices, interleaved by granule address; one serves a window's requests one at a time
  // cube unit (AIC)
  double mte1Start;                                      // LoadData / L1 -> BT: per instruction
  double l0LoadBytesPerCycle;                            // L1 -> L0A/L0B
  double mmadStart;                                      // per Mmad
  double cubeCyclesB16, cubeCyclesFp32, cubeCyclesInt8;  // per 16 x 16 x k0 fractal step
  double fixStart;                                       // per Fixpipe
  double fixBytesPerCycle;                               // L0C -> UB / L1
  double aicMte2BytesPerCycle;                           // a cube core's GM port, reads (GM -> L1)
  double nd2nzBurst;                                     // GM -> L1 (ND2NZ): per extra row of a copy
  double mmMsgCycles;                                    // MIX mode: the AIC's scalar work per Matmul message received
  // measurement noise (off when sigma is 0)
  double noiseSigma;

  static Params FromSoc();  // reads SocParam* (throws on a missing key)
};

}  // namespace ascendc_sim::model
