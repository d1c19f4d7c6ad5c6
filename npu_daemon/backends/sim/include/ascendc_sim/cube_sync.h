// Synchronisation between the cube and vector cores of a mixed kernel (docs/ascendc.md API 9):
// CrossCoreSetFlag / CrossCoreWaitFlag. Mode 0: every core of the unit; mode 1: the AIVs of a group;
// mode 2: a group's AIC with its AIVs (one AIC set releases each AIV's wait; the AIC's wait needs a
// set from every AIV). Flag ids 0-15. The wait parks the core until the sets it needs exist.
#pragma once

#include "ascendc_sim/core.h"

namespace AscendC {

template <uint8_t modeId, pipe_t pipe>
__aicore__ inline void CrossCoreSetFlag(uint16_t flagId, ASCENDC_SIM_LOC) {
  ascendc_sim::CrossCoreSet(modeId, pipe, flagId, loc);
}
template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
__aicore__ inline void CrossCoreWaitFlag(uint16_t flagId, ASCENDC_SIM_LOC) {
  ascendc_sim::CrossCoreWait(modeId, pipe, flagId, loc);
}

}  // namespace AscendC
