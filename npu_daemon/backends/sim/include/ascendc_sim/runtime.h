// The simulator runtime's internal interface between the harness and the kernel-side headers.
#pragma once

#include <functional>
#include <string>
#include <unordered_map>

#include "ascendc_sim/core.h"
#include "register/op_impl_registry.h"

namespace ops {
class OpDef;
}

namespace ascendc_sim {

void SetCurrentCore(Core* core);
// The engine's scalar instruction counter (nullptr: none) and the cycles it charges per count:
// the native kernel object's scalar_count.py symbol at scalar_instr_cycles (x86 instructions), the
// guest engine's fuel at guest_fuel_cycles (wasm instructions). `aicCounter`: the AIC cores' own
// when the native kernel is built per core type (each library counts its own code).
void SetScalarInstrCounter(const uint64_t* counter, double cyclesPerCount, const uint64_t* aicCounter = nullptr);
Core* RunningCore();  // the thread's current core; nullptr outside a launch (CurrentCore throws)
void SetSocParams(std::unordered_map<std::string, std::string> params);
void SetTilingKey(uint64_t key);
void SetSysWorkspace(uint8_t* ws);
// The launch's parameter block (get_para_base): each kernel argument as an 8 B GM address, then
// the tiling data inline, as the runtime lays out a framework launch's arguments.
void SetParaBase(uint8_t* base);
// GM buffers the harness allocated; every DMA and scalar GM access must fall inside one. A guarded
// buffer also names its host mapping and the size of its guard mapping (GuardedMemory).
void RegisterGm(const void* base, uint64_t bytes, const std::string& name = "", const void* host = nullptr,
                uint64_t mapped = 0);
bool InGuardedGm(uintptr_t addr);  // inside the guard mapping of a GM buffer
// The SIGSEGV/SIGTRAP handlers that charge raw GM/UB accesses (RunCores installs them too); the
// harness installs them before its syscall filter locks those handlers.
void InstallGuardHandlers();
// Runs `kernel` once per block, each block on its own thread, one thread at a time: a block runs
// until it ends or reaches SyncAll, then hands the baton to the next block in index order, so
// results are deterministic. `done` sees each block's finished core (on that block's thread).
// GM accesses are checked across blocks at every SyncAll and at the end.
void RunBlocks(uint32_t blockDim, const std::function<void()>& kernel, const std::function<void(Core&)>& done);
// The cores a launch starts: blockDim blocks of one unit, or blockDim groups of one AIC and its AIVs
// (KERNEL_TYPE_MIX_AIC_1_2 / 1_1), in group order, each group's AIC first.
std::vector<CoreSpec> LaunchCores(const std::string& kernelType, uint32_t blockDim);
// RunBlocks over explicit cores; a core may park in WaitUntil (cross-core flags, the Matmul server)
// and is resumed once its condition holds; if every remaining core waits, the launch deadlocks.
void RunCores(const std::vector<CoreSpec>& specs, const std::function<void()>& kernel,
              const std::function<void(Core&)>& done);
const std::vector<ops::OpDef*>& RegisteredOps();
// IMPL_OP_OPTILING registrations by op type (register/op_impl_registry.h).
const gert::OpImplTiling* RegisteredImpl(const std::string& type);
double SocParamDouble(const char* key);
bool SimStrict();  // `param sim_strict 1`: device-tolerated conditions are errors

}  // namespace ascendc_sim
