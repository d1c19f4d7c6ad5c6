// The candidate process of the launch harness (launch.h): loads the candidate's tiling and kernel
// shared objects behind the syscall filter, runs the tiling function on a TilingContext built from
// the launch spec, runs the kernel once per block and sends each block's trace to the launcher.
#include <dlfcn.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <map>

#include "channel.h"
#include "confine.h"
#include "kernel_operator.h"
#include "launch.h"
#include "sampling.h"

namespace ascendc_sim {
namespace {

void* Open(const std::string& path) {
  void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (h == nullptr) throw SimError(Status::RUNTIME_ERROR, std::string("dlopen: ") + dlerror());
  return h;
}

void RunConstructors(void* lib) {
  auto* init = reinterpret_cast<void (*)()>(dlsym(lib, "ascendc_sim_candidate_init"));
  if (init == nullptr) throw SimError(Status::RUNTIME_ERROR, "a candidate library without its constructor runner");
  init();
}

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

void Send(int fd, channel::Kind kind, uint32_t status, std::initializer_list<std::pair<const void*, size_t>> parts) {
  uint64_t bytes = 0;
  for (const auto& p : parts) bytes += p.second;
  const channel::Header h{kind, status, bytes};
  bool ok = channel::WriteAll(fd, &h, sizeof h);
  for (const auto& p : parts) ok = ok && channel::WriteAll(fd, p.first, p.second);
  if (!ok) _exit(1);  // the launcher is gone: nobody to report to
}

void SendBlock(int fd, uint32_t globalId, uint32_t ubPeak, const std::vector<Instr>& trace,
               const std::vector<Site>& siteList) {
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
  const channel::BlockFrame b{globalId, ubPeak, trace.size(), siteList.size()};
  Send(fd, channel::Kind::kBlock, 0,
       {{&b, sizeof b}, {trace.data(), trace.size() * sizeof(Instr)}, {sites.data(), sites.size()}});
}

// Representative-block timing (sampling.h): the sampled blocks run as a launch of their own each
// time, with their own block indices; every block's trace, simulated or derived, goes out.
uint32_t RunSampled(const std::vector<CoreSpec>& specs, const std::function<void()>& kernel, int fd) {
  auto simulate = [&](const std::vector<uint32_t>& blocks, std::map<uint32_t, sampling::BlockRecord>& out) {
    std::vector<CoreSpec> subset;
    for (uint32_t b : blocks) subset.push_back(specs[b]);
    RunCores(subset, kernel, [&](Core& core) {
      out[blocks[static_cast<size_t>(core.GlobalId())]] =
          sampling::BlockRecord{core.UbPeak(), core.Trace().instrs, core.Trace().sites};
    });
  };
  return sampling::Run(static_cast<uint32_t>(specs.size()), simulate, [&](uint32_t b, const sampling::BlockRecord& r) {
    SendBlock(fd, b, r.ubPeak, r.trace, r.sites);
  });
}

// Tiling and kernel. The inputs and outputs in `gm` were mapped by the launcher (shared pages).
void RunCandidate(const LaunchSpec& l, const GmArgs& gm, int fd) {
  InstallSyscallFilter(SyscallStage::kLoading, fd);
  void* tilingLib = Open(l.tilingSo);
  void* kernelLib = Open(l.kernelSo);
  SetScalarInstrCounter(static_cast<const uint64_t*>(dlsym(kernelLib, "ascendc_sim_scalar_instrs")));
  InstallGuardHandlers();  // before the filter locks the handlers of SIGSEGV and SIGTRAP
  InstallSyscallFilter(SyscallStage::kRunning, fd);
  // The candidate's constructors (registrations included) run only now (backends/common/ctors.py).
  RunConstructors(tilingLib);
  RunConstructors(kernelLib);

  // ---- host: tiling ----
  const ops::OpDef* def = nullptr;
  for (const ops::OpDef* d : RegisteredOps())
    if (d->Type() == l.opType) def = d;
  if (def == nullptr && RegisteredOps().size() == 1) def = RegisteredOps().front();
  if (def == nullptr) throw SimError(Status::TILING_ERROR, "no OpDef registered with OP_ADD for op type " + l.opType);
  ops::TilingFunc tilingFunc = def->AICoreDef().GetTiling();
  // Newer projects register the tiling with IMPL_OP_OPTILING instead, with a compile-time parse.
  const gert::OpImplTiling* impl = RegisteredImpl(def->Type());
  if (tilingFunc == nullptr && impl != nullptr) tilingFunc = impl->tiling;
  if (tilingFunc == nullptr)
    throw SimError(Status::TILING_ERROR,
                   "OpDef " + def->Type() + " has no AICore().SetTiling(...) or IMPL_OP_OPTILING(...).Tiling(...)");

  gert::TilingContext ctx;
  ctx.opType_ = def->Type();
  std::shared_ptr<void> compileInfo;
  if (impl != nullptr && impl->parse != nullptr && impl->newCompileInfo != nullptr) {
    compileInfo = impl->newCompileInfo();
    gert::TilingParseContext parse;
    parse.compileInfo_ = compileInfo.get();
    parse.opType_ = ctx.opType_.c_str();
    if (impl->parse(&parse) != ge::GRAPH_SUCCESS)
      throw SimError(Status::TILING_ERROR, "TilingParse of " + def->Type() + " failed");
    ctx.compileInfo_ = compileInfo.get();
  }
  DescribeLaunch(l, ctx);
  // Host-visible values for the inputs the OpDef marks ValueDepend (axes, paddings), up to 1 MiB;
  // the tiling sees no other input's values, as in CANN, so it cannot compute the operator.
  // (The OpDef's inputs are the IR inputs, in order; a dynamic one is several launch inputs.)
  const auto ir = IrInstances(l.inputs);
  for (size_t i = 0; i < ir.size() && i < def->Inputs().size(); ++i) {
    if (!def->Inputs()[i].IsValueDepend()) continue;
    for (size_t k = ir[i].first; k < ir[i].first + ir[i].second; ++k) {
      const TensorArg& t = l.inputs[k];
      if (t.absent || t.Bytes() > (1u << 20)) continue;
      const uint8_t* host = gm.inputs[k]->Host();
      ctx.inputs_[k].data_.assign(host, host + t.Bytes());
    }
  }
  ge::graphStatus st;
  try {
    st = tilingFunc(&ctx);
  } catch (const SimError& e) {
    throw SimError(Status::TILING_ERROR, e.what());
  }
  if (st != ge::GRAPH_SUCCESS) throw SimError(Status::TILING_ERROR, "tiling function returned GRAPH_FAILED");
  channel::LaunchFrame launch{};
  launch.blockDim = ctx.GetBlockDim();
  launch.tilingKey = ctx.GetTilingKey();
  launch.tilingBytes = ctx.GetRawTilingData()->GetDataSize();
  if (launch.blockDim == 0 || launch.blockDim > 65535)
    throw SimError(Status::TILING_ERROR, "block dim " + std::to_string(launch.blockDim) + " out of range [1, 65535]");
  if (launch.tilingBytes > ctx.GetRawTilingData()->GetCapacity())
    throw SimError(Status::TILING_ERROR, "tiling data of " + std::to_string(launch.tilingBytes) +
                                             " bytes exceeds the capacity of " +
                                             std::to_string(ctx.GetRawTilingData()->GetCapacity()));
  for (size_t w : ctx.workspaces_) launch.workspaceBytes += w;
  SetTilingKey(launch.tilingKey);

  // ---- device: one kernel run per block ----
  std::vector<Gm> args;
  for (const GmBuffer* b : gm.params) args.push_back(b != nullptr ? b->Kernel() : nullptr);
  // The runtime hands out the workspace uninitialised (no aclrtMemset): a checked run fills it as an
  // output, so a kernel that accumulates into it without zeroing it first is caught.
  GmBuffer workspace(std::max<uint64_t>(launch.workspaceBytes, 32), gm.fill, "workspace");
  SetSysWorkspace(workspace.Kernel());
  args.push_back(launch.workspaceBytes > 0 ? workspace.Kernel() : nullptr);
  GmBuffer tiling(ctx.GetRawTilingData()->GetCapacity(), 0, "tiling", "", false);  // host data GET_TILING_DATA reads
  std::memcpy(tiling.Host(), ctx.GetRawTilingData()->GetData(), launch.tilingBytes);
  args.push_back(tiling.Kernel());
  // get_para_base's block: the arguments, then a copy of the tiling data (unguarded, as the tiling).
  GmBuffer params(args.size() * sizeof(Gm) + launch.tilingBytes, 0, "kernel parameters", "", false);
  std::memcpy(params.Host(), args.data(), args.size() * sizeof(Gm));
  std::memcpy(params.Host() + args.size() * sizeof(Gm), ctx.GetRawTilingData()->GetData(), launch.tilingBytes);
  SetParaBase(params.Kernel());
  // The launcher names GM addresses as this process does (the model keys L2 by buffer and offset).
  launch.workspaceAddr = reinterpret_cast<uintptr_t>(workspace.Kernel());
  launch.workspaceSize = workspace.mem.bytes;
  launch.tilingAddr = reinterpret_cast<uintptr_t>(tiling.Kernel());
  launch.tilingSize = tiling.mem.bytes;
  launch.paramsAddr = reinterpret_cast<uintptr_t>(params.Kernel());
  launch.paramsSize = params.mem.bytes;

  void* entry = dlsym(kernelLib, l.kernel.c_str());
  if (entry == nullptr)
    throw SimError(Status::RUNTIME_ERROR, "kernel entry '" + l.kernel + "' not found (extern \"C\" missing?)");
  Send(fd, channel::Kind::kLaunch, 0, {{&launch, sizeof launch}});
  const std::vector<CoreSpec> cores = LaunchCores(l.kernelType, launch.blockDim);
  const std::function<void()> kernel = [&] { CallKernel(entry, args, std::make_index_sequence<32>{}); };
  // Mixed launches stay whole: their AIC and AIV cores wait on each other.
  if (l.sampled && cores.size() == launch.blockDim) {
    const uint32_t simulated = RunSampled(cores, kernel, fd);
    Send(fd, channel::Kind::kSampled, 0, {{&simulated, sizeof simulated}});
  } else {
    RunCores(cores, kernel, [&](Core& core) {
      SendBlock(fd, static_cast<uint32_t>(core.GlobalId()), core.UbPeak(), core.Trace().instrs, core.Trace().sites);
    });
  }
  std::fflush(nullptr);  // the launcher ends this process once it has the end record
  for (const std::string& w : Warnings()) Send(fd, channel::Kind::kWarning, 0, {{w.data(), w.size()}});
  Send(fd, channel::Kind::kEnd, 0, {});
}

}  // namespace

[[noreturn]] void CandidateMain(const LaunchSpec& l, const GmArgs& gm, int fd) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  try {
    RunCandidate(l, gm, fd);
  } catch (const SimError& e) {
    std::fflush(nullptr);
    Send(fd, channel::Kind::kError, static_cast<uint32_t>(e.status), {{e.what(), std::strlen(e.what())}});
  } catch (const std::exception& e) {
    std::fflush(nullptr);
    const std::string what = std::string("uncaught C++ exception: ") + e.what();
    Send(fd, channel::Kind::kError, static_cast<uint32_t>(Status::RUNTIME_ERROR), {{what.data(), what.size()}});
  }
  _exit(0);  // no exit handlers or static destructors of candidate code
}

}  // namespace ascendc_sim
