// Synchronisation between the cube and vector cores of a mixed kernel (docs/ascendc.md API 9):
// CrossCoreSetFlag / CrossCoreWaitFlag. Mode 0: every core of the unit; mode 1: the AIVs of a group;
// mode 2: a group's AIC with its AIVs (one AIC set releases each AIV's wait; the AIC's wait needs a
// set from every AIV). Flag ids 0-15. The wait parks the core until the sets it needs exist.
// IBSet / IBWait: flags in GM between vector cores, polled as the library polls them.
#pragma once

#include "ascendc_sim/core.h"
#include "ascendc_sim/data_copy.h"
#include "ascendc_sim/sync.h"

namespace AscendC {

template <uint8_t modeId, pipe_t pipe>
__aicore__ inline void CrossCoreSetFlag(uint16_t flagId, ASCENDC_SIM_LOC) {
  ascendc_sim::CrossCoreSet(modeId, pipe, flagId, loc);
}
template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
__aicore__ inline void CrossCoreWaitFlag(uint16_t flagId, ASCENDC_SIM_LOC) {
  ascendc_sim::CrossCoreWait(modeId, pipe, flagId, loc);
}
// The library's own names for them on the A2 (kernel_operator_block_sync_intf_impl.h): NotifyEvent
// is a mode-2 set (between a group's AIC and its AIVs), WaitEvent a wait.
template <pipe_t pipe>
__aicore__ inline void NotifyEvent(uint16_t flagId, ASCENDC_SIM_LOC) {
  ascendc_sim::CrossCoreSet(2, pipe, flagId, loc, "NotifyEvent");
}
template <pipe_t pipe = PIPE_S>
__aicore__ inline void WaitEvent(uint16_t flagId, ASCENDC_SIM_LOC) {
  ascendc_sim::CrossCoreWait(0, pipe, flagId, loc, "WaitEvent");
}

// ---- IBSet / IBWait: a flag per (block, event) in GM --------------------------------------------
// As the library writes them (asc-devkit kernel_operator_block_sync_intf_impl.h): the slot is the
// 32 B block at int32 index blockNum * 8 * eventID + blockIdx * 8 of a zeroed workspace (blockNum
// twice GetBlockNum in MIX mode); IBSet polls it until it holds 0 and writes 1, IBWait polls it until
// it holds 1 and writes 0 back, each between PIPE_ALL barriers; on a cube core both return at once.
// The polls are GM reads like a hand-written one's: the scheduler yields them, the race check takes
// what they observe as an acquire (gm_flags), and each iteration's copy and scalar work is traced.
template <bool isAIVOnly = true>
__aicore__ inline void IBHandshake(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
                                   int32_t blockIdx, int32_t eventID, int32_t from, const char* api,
                                   const ascendc_sim::SrcLoc& loc) {
  if (ascendc_sim::CurrentCore().Spec().type == ascendc_sim::CoreType::kAic) return;
  const int64_t blockNum = isAIVOnly ? GetBlockNum() : GetBlockNum() * 2;
  ASCENDC_SIM_CHECK(blockIdx >= 0 && blockIdx < blockNum && eventID >= 0, loc,
                    "%s: blockIdx %d outside [0, %lld) or eventID %d negative", api, blockIdx,
                    static_cast<long long>(blockNum), eventID);
  constexpr int32_t kSlot = 32 / sizeof(int32_t);
  const GlobalTensor<int32_t> slot = gmWorkspace[static_cast<uint64_t>(blockNum) * kSlot * eventID + blockIdx * kSlot];
  PipeBarrier<PIPE_ALL>(loc);
  for (;;) {
    DataCopy(ubWorkspace, slot, kSlot, loc);
    SetFlag<HardEvent::MTE2_S>(EVENT_ID0, loc);
    WaitFlag<HardEvent::MTE2_S>(EVENT_ID0, loc);
    if (ubWorkspace.GetValue(0, loc) == from) break;
  }
  ubWorkspace.SetValue(0, 1 - from, loc);
  SetFlag<HardEvent::S_MTE3>(EVENT_ID0, loc);
  WaitFlag<HardEvent::S_MTE3>(EVENT_ID0, loc);
  DataCopy(slot, ubWorkspace, kSlot, loc);
  PipeBarrier<PIPE_ALL>(loc);
}
template <bool isAIVOnly = true>
__aicore__ inline void IBSet(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
                             int32_t blockIdx, int32_t eventID, ASCENDC_SIM_LOC) {
  IBHandshake<isAIVOnly>(gmWorkspace, ubWorkspace, blockIdx, eventID, 0, "IBSet", loc);
}
template <bool isAIVOnly = true>
__aicore__ inline void IBWait(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
                              int32_t blockIdx, int32_t eventID, ASCENDC_SIM_LOC) {
  IBHandshake<isAIVOnly>(gmWorkspace, ubWorkspace, blockIdx, eventID, 1, "IBWait", loc);
}

}  // namespace AscendC

// The CCE intrinsics under them (dav_c220 NotifyEventImpl / WaitEventImpl): the set takes an FFTS
// message (AscendC::GetffstMsg), the wait a flag id and blocks the scalar unit.
__aicore__ inline void ffts_cross_core_sync(pipe_t pipe, uint64_t config, ASCENDC_SIM_LOC) {
  ascendc_sim::FftsCrossCoreSync(pipe, config, loc);
}
__aicore__ inline void wait_flag_dev(int64_t flagId, ASCENDC_SIM_LOC) {
  const int flag = flagId < 0 || flagId > INT32_MAX ? -1 : static_cast<int>(flagId);  // refused past 15
  ascendc_sim::CrossCoreWait(0, PIPE_S, flag, loc, "wait_flag_dev");
}
