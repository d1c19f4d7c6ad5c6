// The candidate process of the launch harness (launch.h): loads the candidate's kernel library
// behind the syscall filter, runs the kernel once per block with the tiling process's tiling data
// and sends each block's trace to the launcher.
#include <dlfcn.h>

#include <algorithm>
#include <functional>
#include <map>

#include "channel.h"
#include "confine.h"
#include "guest/guest.h"
#include "kernel_operator.h"
#include "launch.h"
#include "sampling.h"

namespace ascendc_sim {
namespace {

// Kernel entries take only GM_ADDR parameters: call with N of them.
using Gm = uint8_t*;
template <size_t... I>
void CallWith(void* fn, Gm* a, std::index_sequence<I...>) {
  using F = void (*)(decltype((void)I, Gm{})...);
  reinterpret_cast<F>(fn)(a[I]...);
}
template <size_t... N>
void CallKernel(void* fn, std::vector<Gm>& args, std::index_sequence<N...>) {
  using Caller = void (*)(void*, Gm*);
  static constexpr Caller callers[] = {[](void* f, Gm* a) { CallWith(f, a, std::make_index_sequence<N>{}); }...};
  if (args.size() >= sizeof...(N)) throw SimError(Status::RUNTIME_ERROR, "kernel has too many parameters");
  callers[args.size()](fn, args.data());
}

void SendBlock(int fd, uint32_t globalId, uint32_t ubPeak, const std::vector<Instr>& trace,
               const std::vector<TimedPair>& timed, const std::vector<Site>& siteList, bool derived = false) {
  std::string sites;
  for (const Site& s : siteList) {
    const char* api = s.api ? s.api : "";
    const char* file = s.file ? s.file : "";
    const channel::SiteFrame f{s.line, static_cast<uint32_t>(std::strlen(api)),
                               static_cast<uint32_t>(std::strlen(file)), 0};
    sites.append(reinterpret_cast<const char*>(&f), sizeof f).append(api, f.apiBytes).append(file, f.fileBytes);
  }
  // `blockIdx` carries the core's index among the launch's cores (LaunchCores), which the launcher
  // maps back to its unit and block.
  const channel::BlockFrame b{globalId, ubPeak, trace.size(), siteList.size(), derived, 0, timed.size()};
  channel::Send(fd, channel::Kind::kBlock, 0,
                {{&b, sizeof b},
                 {trace.data(), trace.size() * sizeof(Instr)},
                 {timed.data(), timed.size() * sizeof(TimedPair)},
                 {sites.data(), sites.size()}});
}

// Representative-block timing (sampling.h): the sampled blocks run as a launch of their own each
// time, with their own block indices; every block's trace, simulated or derived, goes out. `seed`
// is the launcher's draw of the random probes.
uint32_t RunSampled(const std::vector<CoreSpec>& specs, uint64_t seed, const std::function<void()>& kernel, int fd) {
  auto simulate = [&](const std::vector<uint32_t>& blocks, std::map<uint32_t, sampling::BlockRecord>& out) {
    std::vector<CoreSpec> subset;
    for (uint32_t b : blocks) subset.push_back(specs[b]);
    RunCores(subset, kernel, [&](Core& core) {
      out[blocks[static_cast<size_t>(core.GlobalId())]] =
          sampling::BlockRecord{core.UbPeak(), core.Trace().instrs, core.Trace().sites, core.Trace().timed};
    });
  };
  return sampling::Run(static_cast<uint32_t>(specs.size()), seed, simulate,
                       [&](uint32_t b, const sampling::BlockRecord& r, bool derived) {
                         SendBlock(fd, b, r.ubPeak, r.trace, r.timed, r.sites, derived);
                       });
}

// The kernel's arguments and the GM they name, laid out as the launch needs them: the launcher's
// buffers, the workspace, the tiling data and get_para_base's block.
struct KernelGm {
  std::vector<Gm> args;
  GmBuffer workspace, tilingData, params;
  KernelGm(const GmArgs& gm, const Tiling& tiling)
      // The runtime hands out the workspace uninitialised (no aclrtMemset): a checked run fills it as
      // an output, so a kernel that accumulates into it without zeroing it first is caught.
      : workspace(std::max<uint64_t>(tiling.frame.workspaceBytes, 32), gm.fill, "workspace"),
        tilingData(tiling.frame.tilingCapacity, 0, "tiling", "", false),  // host data GET_TILING_DATA reads
        params((gm.params.size() + 2) * sizeof(Gm) + tiling.frame.tilingBytes, 0, "kernel parameters", "", false) {
    const channel::TilingFrame& t = tiling.frame;
    for (const GmBuffer* b : gm.params) args.push_back(b != nullptr ? b->Kernel() : nullptr);
    SetSysWorkspace(workspace.Kernel());
    args.push_back(t.workspaceBytes > 0 ? workspace.Kernel() : nullptr);
    std::memcpy(tilingData.Host(), tiling.data.data(), t.tilingBytes);
    args.push_back(tilingData.Kernel());
    // get_para_base's block: the arguments, then a copy of the tiling data (unguarded, as the tiling).
    std::memcpy(params.Host(), args.data(), args.size() * sizeof(Gm));
    std::memcpy(params.Host() + args.size() * sizeof(Gm), tiling.data.data(), t.tilingBytes);
    SetParaBase(params.Kernel());
  }
  // The launcher names GM addresses as this process does (the model keys L2 by buffer and offset).
  channel::LaunchFrame Frame() const {
    channel::LaunchFrame launch{};
    launch.workspaceAddr = reinterpret_cast<uintptr_t>(workspace.Kernel());
    launch.workspaceSize = workspace.mem.bytes;
    launch.tilingAddr = reinterpret_cast<uintptr_t>(tilingData.Kernel());
    launch.tilingSize = tilingData.mem.bytes;
    launch.paramsAddr = reinterpret_cast<uintptr_t>(params.Kernel());
    launch.paramsSize = params.mem.bytes;
    return launch;
  }
};

// Every block of the launch, their traces sent as they finish (sampled or whole).
void RunBlocks(const LaunchSpec& l, const Tiling& tiling, uint64_t probeSeed, const std::function<void()>& kernel,
               int fd) {
  const std::vector<CoreSpec> cores = LaunchCores(l.kernelType, tiling.frame.blockDim);
  // Mixed launches stay whole: their AIC and AIV cores wait on each other.
  if (l.sampled && cores.size() == tiling.frame.blockDim) {
    const uint32_t simulated = RunSampled(cores, probeSeed, kernel, fd);
    channel::Send(fd, channel::Kind::kSampled, 0, {{&simulated, sizeof simulated}});
  } else {
    RunCores(cores, kernel, [&](Core& core) {
      const CoreTrace& t = core.Trace();
      SendBlock(fd, static_cast<uint32_t>(core.GlobalId()), core.UbPeak(), t.instrs, t.timed, t.sites);
    });
  }
  std::fflush(nullptr);  // the launcher ends this process once it has the end record
  for (const std::string& w : Warnings()) channel::Send(fd, channel::Kind::kWarning, 0, {{w.data(), w.size()}});
  channel::Send(fd, channel::Kind::kEnd, 0, {});
}

const uint64_t* ScalarCounter(void* lib) {
  return static_cast<const uint64_t*>(dlsym(lib, "ascendc_sim_scalar_instrs"));
}

void* KernelEntry(void* lib, const std::string& name) {
  void* entry = dlsym(lib, name.c_str());
  if (entry == nullptr)
    throw SimError(Status::RUNTIME_ERROR, "kernel entry '" + name + "' not found (extern \"C\" missing?)");
  return entry;
}

// The kernel, with the tiling process's choice. The inputs and outputs in `gm` were mapped by the
// launcher (shared pages). A kernel built per core type has the AIC cores' library too: each core
// calls the entry of the build of the type the launcher started it as, never one the kernel names.
void RunCandidate(const LaunchSpec& l, const GmArgs& gm, const Tiling& tiling, uint64_t probeSeed, int fd) {
  const std::vector<void*> libs = !l.kernelSoAic.empty() ? LoadCandidates({l.kernelSo, l.kernelSoAic}, fd)
                                                         : std::vector<void*>{LoadCandidate(l.kernelSo, fd)};
  void* aicLib = libs.back();
  SetScalarInstrCounter(ScalarCounter(libs[0]), SocParamDouble("scalar_instr_cycles"), ScalarCounter(aicLib));
  for (void* lib : libs) RunConstructors(lib);
  SetTilingKey(tiling.frame.tilingKey);
  KernelGm k(gm, tiling);
  void* entry = KernelEntry(libs[0], l.kernel);
  void* aicEntry = KernelEntry(aicLib, l.kernel);
  const channel::LaunchFrame launch = k.Frame();
  channel::Send(fd, channel::Kind::kLaunch, 0, {{&launch, sizeof launch}});
  RunBlocks(
      l, tiling, probeSeed,
      [&] {
        const bool aic = CurrentCore().Spec().type == CoreType::kAic;
        CallKernel(aic ? aicEntry : entry, k.args, std::make_index_sequence<32>{});
      },
      fd);
}

// The guest engine (runtime/guest): the kernel as a wasm32 module run metered in this process,
// which holds every byte of tensor memory; the module's imports are the API, run here.
void RunGuest(const LaunchSpec& l, const GmArgs& gm, const Tiling& tiling, uint64_t probeSeed, int fd) {
  SetTilingKey(tiling.frame.tilingKey);
  KernelGm k(gm, tiling);
  guest::LaunchGm lg;
  std::vector<uint32_t> args;
  for (size_t i = 0; i + 2 < k.args.size(); ++i) {
    const GmBuffer* b = gm.params[i];
    args.push_back(b != nullptr ? lg.map.Add(b->Kernel(), b->mem.bytes, b->mem.mapped) : 0);
  }
  // A list's descriptor holds its members' GM addresses (word 0: the byte offset of the first):
  // the guest's own names for them, which it casts to __gm__ pointers.
  for (const auto& [descriptor, members] : gm.lists) {
    auto* words = reinterpret_cast<uint64_t*>(descriptor->Host());
    for (size_t m = 0; m < members.size(); ++m)
      words[words[0] / sizeof(uint64_t) + m] =
          lg.map.Add(members[m]->Kernel(), members[m]->mem.bytes, members[m]->mem.mapped);
  }
  lg.workspace = lg.map.Add(k.workspace.Kernel(), k.workspace.mem.bytes, k.workspace.mem.mapped);
  args.push_back(tiling.frame.workspaceBytes > 0 ? lg.workspace : 0);
  lg.tiling = lg.map.Add(k.tilingData.Kernel(), k.tilingData.mem.bytes, k.tilingData.mem.mapped);
  args.push_back(lg.tiling);
  lg.tilingData = tiling.data.data();
  lg.tilingBytes = tiling.frame.tilingBytes;
  lg.params = args;
  lg.paramsAt = reinterpret_cast<uintptr_t>(k.params.Kernel());
  InstallGuardHandlers();
  // Compiled before the filter closes executable memory; the guest has no system call to make.
  guest::Module module(l.kernelWasm, l.kernelWasmAic, l.kernel, "op_kernel", std::move(lg));
  // The kernel's __gm__ globals, loaded into GM with the binary as on the device: one more buffer of
  // the launch, a copy the guest's own memory never aliases.
  const std::vector<uint8_t> image = module.GmData();
  std::unique_ptr<GmBuffer> data;
  if (!image.empty()) {
    data = std::make_unique<GmBuffer>(image.size(), 0, "kernel data");
    std::memcpy(data->Host(), image.data(), image.size());
    module.MapGmData(data->Kernel(), data->mem.bytes, data->mem.mapped);
  }
  InstallSyscallFilter(SyscallStage::kRunning, fd);
  SetScalarInstrCounter(module.ScalarCounter(), SocParamDouble("guest_fuel_cycles"));
  channel::LaunchFrame launch = k.Frame();
  if (data != nullptr) {
    launch.dataAddr = reinterpret_cast<uintptr_t>(data->Kernel());
    launch.dataSize = data->mem.bytes;
  }
  channel::Send(fd, channel::Kind::kLaunch, 0, {{&launch, sizeof launch}});
  RunBlocks(l, tiling, probeSeed, [&] { module.Run(args); }, fd);
}

}  // namespace

[[noreturn]] void CandidateMain(const LaunchSpec& l, const GmArgs& gm, const Tiling& tiling, uint64_t probeSeed,
                                int fd) {
  RunConfined(fd, [&] {
    if (l.kernelWasm.empty())
      RunCandidate(l, gm, tiling, probeSeed, fd);
    else
      RunGuest(l, gm, tiling, probeSeed, fd);
  });
}

}  // namespace ascendc_sim
