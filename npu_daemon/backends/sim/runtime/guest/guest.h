// The guest engine (docs/trust_boundary.md): a kernel compiled to WebAssembly runs metered inside
// this process, which owns everything the reward is computed from. The guest reaches tensor
// memory, the trace and the timing only through the imports of module "ascendc" (the api_*.cpp units), each
// the emulation's own API call run here; its own instructions, library code included, are counted
// by the runtime's fuel and charged as the kernel's scalar work.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ascendc_sim::guest {

// GM as the guest names it: each launch buffer at an address of the guest's GM range (abi.h).
class GmMap {
 public:
  // The guest's address of `bytes` of GM at the emulation's kernel address `kernel`, whose pages
  // span `mapped` bytes.
  uint32_t Add(uint8_t* kernel, uint64_t bytes, uint64_t mapped);
  // The kernel's __gm__ globals' image (Module::GmData) at kGmDataBase, where the guest's code names it.
  void AddData(uint8_t* kernel, uint64_t bytes, uint64_t mapped);
  // The emulation's kernel address of guest GM [addr, addr + bytes), or a RUNTIME_ERROR naming `api`.
  // Anything inside a non-empty buffer's pages resolves: the API's own GM checks then decide, as on
  // the native engine, what runs past the buffer (a tolerated read or write, or an error).
  uint8_t* Resolve(uint32_t addr, uint64_t bytes, const char* api) const;

 private:
  struct Range {
    uint32_t guest;
    uint64_t reach;  // the buffer's pages, 0 for an empty buffer
    uint8_t* kernel;
  };
  std::vector<Range> ranges_;
  uint64_t next_ = 0;
};

// What a launch hands the guest: its GM, and where in it the workspace and the tiling data are.
struct LaunchGm {
  GmMap map;
  uint32_t workspace = 0, tiling = 0;   // guest GM addresses
  const uint8_t* tilingData = nullptr;  // the tiling's bytes (GET_TILING_DATA copies them)
  uint64_t tilingBytes = 0;
  std::vector<uint32_t> params;  // the kernel's arguments, workspace and tiling: get_para_base's block
  uintptr_t paramsAt = 0;        // the block's emulation address on the native engine (its loads' lines)
};

// Compiles a wasm32 kernel module to the engine's machine code and writes it to `outPath`, once
// per build (guest_build.py), so that no launch compiles it again; a Module loads that form.
void Precompile(const std::string& wasmPath, const std::string& outPath);

class Module {
 public:
  // Loads the module (a wasm32 kernel built by backends/sim/guest_build.py, as Precompile wrote it) for `entry`,
  // and, when the kernel is built per core type, the AIC cores' module `aicWasmPath` (`wasmPath`: the AIV cores').
  Module(const std::string& wasmPath, const std::string& aicWasmPath, const std::string& entry,
         const std::string& kernelFile, LaunchGm gm);
  ~Module();
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  // Runs the entry on the current core (a fresh instance of its core type's module: its own memory
  // and stack) with these guest GM addresses; the emulation's errors come out as its SimError.
  void Run(const std::vector<uint32_t>& args);
  // The image of the kernel's __gm__ globals (guest_ir.gm_data) as the module's data initialises it,
  // read from an instance no guest code has run in; empty when the kernel declares none.
  std::vector<uint8_t> GmData() const;
  // Names the copy of that image the launch holds in GM (`kernel`, its pages `mapped`) at kGmDataBase.
  void MapGmData(uint8_t* kernel, uint64_t bytes, uint64_t mapped);
  // The guest instructions run so far over every core: the kernel's own scalar work.
  const uint64_t* ScalarCounter() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace ascendc_sim::guest
