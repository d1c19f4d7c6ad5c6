// Host tiling for the cann backend: runs a candidate's TilingFunc (built into tiling.so against the
// simulator's host headers, which provide our own gert::TilingContext and PlatformAscendC) for one
// shape case and writes the raw tiling bytes plus block dim, tiling key and workspace size. The
// device app then launches the kernel with exactly these bytes.
//
// usage: cann_tiling_runner SPEC
// SPEC: the launch spec (ascendc_sim/launch_spec.h, written by npu_daemon/backends/common/launch.py);
// this program reads op_type, tiling_so, tiling_out, result, param, input, output and attr.
#include <dlfcn.h>

#include <fstream>
#include <iostream>
#include <sstream>

#include "ascendc_sim/launch_spec.h"

namespace {

using ascendc_sim::SimError;
using ascendc_sim::Status;

std::string Escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    o += (c == '\n' || c == '\r') ? ' ' : c;
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: cann_tiling_runner SPEC\n";
    return 2;
  }
  ascendc_sim::LaunchSpec spec;
  std::ostringstream result;
  try {
    spec = ascendc_sim::ParseLaunchSpec(argv[1]);
    ascendc_sim::SetSocParams(spec.params);
    void* lib = dlopen(spec.tilingSo.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (lib == nullptr) throw SimError(Status::TILING_ERROR, std::string("dlopen: ") + dlerror());
    // Its constructors (the OP_ADD registrations) were moved out of .init_array by the build
    // (backends/common/ctors.py): the runner linked into it runs them.
    auto* init = reinterpret_cast<void (*)()>(dlsym(lib, "ascendc_sim_candidate_init"));
    if (init == nullptr) throw SimError(Status::TILING_ERROR, "tiling.so without its constructor runner");
    init();
    const ops::OpDef* def = nullptr;
    for (const ops::OpDef* d : ascendc_sim::RegisteredOps())
      if (d->Type() == spec.opType) def = d;
    if (def == nullptr && ascendc_sim::RegisteredOps().size() == 1) def = ascendc_sim::RegisteredOps().front();
    if (def == nullptr)
      throw SimError(Status::TILING_ERROR, "no OpDef registered with OP_ADD for op type " + spec.opType);
    ops::TilingFunc fn = def->AICoreDef().GetTiling();
    if (fn == nullptr) throw SimError(Status::TILING_ERROR, "OpDef " + def->Type() + " has no AICore().SetTiling(...)");

    gert::TilingContext ctx;
    ctx.opType_ = def->Type();
    ascendc_sim::DescribeLaunch(spec, ctx);
    if (fn(&ctx) != ge::GRAPH_SUCCESS) throw SimError(Status::TILING_ERROR, "tiling function returned GRAPH_FAILED");

    const uint64_t bytes = ctx.GetRawTilingData()->GetDataSize();
    if (ctx.GetBlockDim() == 0 || ctx.GetBlockDim() > 65535)
      throw SimError(Status::TILING_ERROR,
                     "block dim " + std::to_string(ctx.GetBlockDim()) + " out of range [1, 65535]");
    if (bytes > ctx.GetRawTilingData()->GetCapacity())
      throw SimError(Status::TILING_ERROR, "tiling data exceeds its capacity");
    uint64_t workspace = 0;
    for (size_t w : ctx.workspaces_) workspace += w;
    std::ofstream(spec.tilingOut, std::ios::binary)
        .write(static_cast<const char*>(ctx.GetRawTilingData()->GetData()), static_cast<std::streamsize>(bytes));
    result << "{\"status\": \"OK\", \"message\": \"\", \"block_dim\": " << ctx.GetBlockDim()
           << ", \"tiling_key\": " << ctx.GetTilingKey() << ", \"workspace_bytes\": " << workspace
           << ", \"tiling_bytes\": " << bytes << "}\n";
  } catch (const std::exception& e) {
    result.str("");
    result << "{\"status\": \"TILING_ERROR\", \"message\": \"" << Escape(e.what()) << "\"}\n";
  }
  std::ofstream(spec.result.empty() ? "tiling.json" : spec.result) << result.str();
  return 0;
}
