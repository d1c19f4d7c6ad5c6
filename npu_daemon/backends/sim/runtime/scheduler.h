// The block scheduler: every core of a launch on its own thread, one thread at a time (the baton).
// A core runs until it ends, parks in SyncAll or waits for another core (WaitUntil); the launcher
// then hands the baton to the next core in index order, so results are deterministic. The entry
// points (RunCores, RunBlocks, LaunchCores) are in ascendc_sim/runtime.h, the queries a kernel-side
// API needs (GroupCore, WaitUntil, ...) in ascendc_sim/core.h.
#pragma once

#include "ascendc_sim/core.h"

namespace ascendc_sim {

// The current core has drained its pipes at a SyncAll: park it until every core of the launch has
// reached that SyncAll (and their GM footprints have been checked against each other).
void ParkAtSyncAll(const Core& core, const SrcLoc& loc);

}  // namespace ascendc_sim
