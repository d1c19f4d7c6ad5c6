// Cross-pipe synchronisation: HardEvent flags, TQueSync, PipeBarrier and the CCE intrinsics.
#pragma once

#include "ascendc_sim/core.h"

namespace AscendC {

// Encoded as src * 8 + dst so the pipes can be recovered without a table.
#define ASCENDC_SIM_EVENT(src, dst) src##_##dst = PIPE_##src * 8 + PIPE_##dst
enum class HardEvent : uint8_t {
  ASCENDC_SIM_EVENT(MTE2, MTE1),
  ASCENDC_SIM_EVENT(MTE1, MTE2),
  ASCENDC_SIM_EVENT(MTE1, M),
  ASCENDC_SIM_EVENT(M, MTE1),
  ASCENDC_SIM_EVENT(MTE2, V),
  ASCENDC_SIM_EVENT(V, MTE2),
  ASCENDC_SIM_EVENT(MTE3, V),
  ASCENDC_SIM_EVENT(V, MTE3),
  ASCENDC_SIM_EVENT(M, V),
  ASCENDC_SIM_EVENT(V, M),
  ASCENDC_SIM_EVENT(V, V),
  ASCENDC_SIM_EVENT(MTE3, MTE1),
  ASCENDC_SIM_EVENT(MTE1, MTE3),
  ASCENDC_SIM_EVENT(MTE1, V),
  ASCENDC_SIM_EVENT(MTE2, M),
  ASCENDC_SIM_EVENT(M, MTE2),
  ASCENDC_SIM_EVENT(V, MTE1),
  ASCENDC_SIM_EVENT(M, FIX),
  ASCENDC_SIM_EVENT(FIX, M),
  ASCENDC_SIM_EVENT(MTE3, MTE2),
  ASCENDC_SIM_EVENT(MTE2, MTE3),
  ASCENDC_SIM_EVENT(S, V),
  ASCENDC_SIM_EVENT(V, S),
  ASCENDC_SIM_EVENT(S, MTE2),
  ASCENDC_SIM_EVENT(MTE2, S),
  ASCENDC_SIM_EVENT(S, MTE3),
  ASCENDC_SIM_EVENT(MTE3, S),
  ASCENDC_SIM_EVENT(MTE2, FIX),
  ASCENDC_SIM_EVENT(FIX, MTE2),
  ASCENDC_SIM_EVENT(FIX, S),
  ASCENDC_SIM_EVENT(M, S),
  ASCENDC_SIM_EVENT(FIX, MTE3),
};
#undef ASCENDC_SIM_EVENT

constexpr int EventSrc(HardEvent e) { return static_cast<int>(e) / 8; }
constexpr int EventDst(HardEvent e) { return static_cast<int>(e) % 8; }

template <HardEvent event>
__aicore__ inline void SetFlag(int32_t eventID, ASCENDC_SIM_LOC) {
  ascendc_sim::CurrentCore().SetFlag(EventSrc(event), EventDst(event), static_cast<uint64_t>(eventID), loc, "SetFlag");
}
template <HardEvent event>
__aicore__ inline void WaitFlag(int32_t eventID, ASCENDC_SIM_LOC) {
  ascendc_sim::CurrentCore().WaitFlag(EventSrc(event), EventDst(event), static_cast<uint64_t>(eventID), loc,
                                      "WaitFlag");
}

template <pipe_t pipe>
__aicore__ inline void PipeBarrier(ASCENDC_SIM_LOC) {
  ascendc_sim::CurrentCore().Barrier(pipe, loc, "PipeBarrier");
}

// DataSyncBarrier: the scalar unit waits until its earlier memory accesses (GM, UB, or both) are
// done. The emulation's scalar loads and stores are PIPE_S records, so it is a barrier of that pipe.
enum class MemDsbT : uint8_t { ALL = 0, DDR, UB, SEQ };
template <MemDsbT arg0>
__aicore__ inline void DataSyncBarrier(ASCENDC_SIM_LOC) {
  ascendc_sim::CurrentCore().Barrier(PIPE_S, loc, "DataSyncBarrier");
}

template <pipe_t src, pipe_t dst>
class TQueSync {
 public:
  __aicore__ void SetFlag(int32_t eventID, ASCENDC_SIM_LOC) {
    ascendc_sim::CurrentCore().SetFlag(src, dst, static_cast<uint64_t>(eventID), loc, "TQueSync::SetFlag");
  }
  __aicore__ void WaitFlag(int32_t eventID, ASCENDC_SIM_LOC) {
    ascendc_sim::CurrentCore().WaitFlag(src, dst, static_cast<uint64_t>(eventID), loc, "TQueSync::WaitFlag");
  }
};

}  // namespace AscendC

// CCE intrinsics that real kernels call directly.
__aicore__ inline void set_flag(pipe_t src, pipe_t dst, event_t id, ASCENDC_SIM_LOC) {
  ascendc_sim::CurrentCore().SetFlag(src, dst, id, loc, "set_flag");
}
__aicore__ inline void wait_flag(pipe_t src, pipe_t dst, event_t id, ASCENDC_SIM_LOC) {
  ascendc_sim::CurrentCore().WaitFlag(src, dst, id, loc, "wait_flag");
}
// The same with the event id as an integer (conv kernels pass a uint16_t ping-pong flag).
__aicore__ inline void set_flag(pipe_t src, pipe_t dst, int32_t id, ASCENDC_SIM_LOC) {
  ascendc_sim::CurrentCore().SetFlag(src, dst, static_cast<uint64_t>(id), loc, "set_flag");
}
__aicore__ inline void wait_flag(pipe_t src, pipe_t dst, int32_t id, ASCENDC_SIM_LOC) {
  ascendc_sim::CurrentCore().WaitFlag(src, dst, static_cast<uint64_t>(id), loc, "wait_flag");
}
__aicore__ inline void pipe_barrier(pipe_t pipe, ASCENDC_SIM_LOC) {
  ascendc_sim::CurrentCore().Barrier(pipe, loc, "pipe_barrier");
}
