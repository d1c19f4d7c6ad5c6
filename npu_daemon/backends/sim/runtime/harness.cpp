// The launch harness: loads a candidate's tiling and kernel shared objects, runs the tiling function
// on a TilingContext built from the launch spec, runs the kernel once per block, times the recorded
// traces with the performance model and writes outputs plus the result.
//
// Two processes. The launcher maps the GM inputs and outputs (shared pages) and forks the candidate
// process, which installs a syscall filter (confine.cpp) before it loads any candidate code, runs
// the tiling and the kernel, and streams each finished block's trace through a pipe (channel.h).
// The launcher never maps candidate code: it checks what arrives, runs the performance model on
// it, and alone holds the descriptor the result goes to. So a kernel cannot write its own result,
// and what it sends is parsed, not trusted.
//
// usage: ascendc_sim_harness LAUNCH_SPEC
// The spec is line-oriented ("key value..."), written by npu_daemon/backends/sim/backend.py;
// `result_fd N` (the daemon: an inherited descriptor) or `result PATH` (tools) names the result's
// destination.
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <set>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <utility>

#include "ascendc_sim/runtime.h"
#include "channel.h"
#include "confine.h"
#include "kernel_operator.h"
#include "model.h"
#include "sampling.h"
#include "register/op_def_registry.h"

namespace ascendc_sim {
namespace {

struct TensorArg {
  std::string name, dtype, path;
  std::vector<int64_t> shape;
  std::string alias;   // output: the input whose buffer it is (in-place ops)
  bool param = true;   // output with an alias: also passed to the kernel as its own parameter
  bool absent = false; // input: an optional input left out (null GM address)
  std::string list;    // a member of this dynamic (list) input or output
  uint64_t Bytes() const {
    uint64_t n = 1;
    for (int64_t d : shape) n *= static_cast<uint64_t>(d);
    return n * static_cast<uint64_t>(ge::DataTypeBytes(DataType(dtype)));
  }
  static ge::DataType DataType(const std::string& d) {
    static const std::unordered_map<std::string, ge::DataType> types = {
        {"float32", ge::DT_FLOAT}, {"float16", ge::DT_FLOAT16}, {"bfloat16", ge::DT_BF16}, {"int8", ge::DT_INT8},
        {"uint8", ge::DT_UINT8},   {"int16", ge::DT_INT16},     {"uint16", ge::DT_UINT16}, {"int32", ge::DT_INT32},
        {"uint32", ge::DT_UINT32}, {"int64", ge::DT_INT64},     {"uint64", ge::DT_UINT64}, {"bool", ge::DT_BOOL},
        {"float64", ge::DT_DOUBLE}, {"complex64", ge::DT_COMPLEX64}};
    auto it = types.find(d);
    if (it == types.end()) throw SimError(Status::RUNTIME_ERROR, "unsupported dtype " + d);
    return it->second;
  }
};

struct Launch {
  std::string opType, kernel, tilingSo, kernelSo, result;
  std::string kernelType = "KERNEL_TYPE_AIV_ONLY";  // decides which cores run (LaunchCores)
  int resultFd = -1;
  bool timingOnly = false;  // no output is read: GM is mapped lazily
  bool sampled = false;     // representative-block timing (sampling.h)
  LaunchOptions model;  // `trace_json PATH`, `noise_seed N`
  std::unordered_map<std::string, std::string> params;
  std::vector<TensorArg> inputs, outputs;
  gert::RuntimeAttrs attrs;
};

Launch ParseLaunch(const char* path) {
  std::ifstream in(path);
  if (!in) throw SimError(Status::RUNTIME_ERROR, std::string("cannot read launch spec ") + path);
  Launch l;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream s(line);
    std::string key;
    s >> key;
    if (key == "op_type") s >> l.opType;
    else if (key == "kernel") s >> l.kernel;
    else if (key == "tiling_so") s >> l.tilingSo;
    else if (key == "kernel_so") s >> l.kernelSo;
    else if (key == "kernel_type") s >> l.kernelType;
    else if (key == "result") s >> l.result;
    else if (key == "result_fd") s >> l.resultFd;
    else if (key == "timing_only") l.timingOnly = true;
    else if (key == "sample_blocks") l.sampled = true;
    else if (key == "trace_json") s >> l.model.timelinePath;
    else if (key == "noise_seed") s >> l.model.noiseSeed;
    else if (key == "param") {
      std::string k, v;
      s >> k >> v;
      l.params[k] = v;
    } else if (key == "input" || key == "output") {
      TensorArg t;
      size_t ndim;
      s >> t.name >> t.dtype >> ndim;
      t.shape.resize(ndim);
      for (auto& d : t.shape) s >> d;
      s >> t.path;
      for (std::string word; s >> word;) {
        if (word == "alias") s >> t.alias;
        else if (word == "noparam") t.param = false;
        else if (word == "absent") t.absent = true;
        else if (word == "list") s >> t.list;
      }
      (key == "input" ? l.inputs : l.outputs).push_back(t);
    } else if (key == "attr") {
      ascendc_sim::ReadAttrLine(s, l.attrs);
    }
  }
  return l;
}

// GM memory: page aligned, registered for bounds checks. Like aclrtMalloc, the usable size is the
// request rounded up to 32 B plus 32 B, so a kernel that moves whole 32 B blocks past a tensor's
// end stays inside its allocation, as on the device. Guarded (GuardedMemory): the kernel gets an
// address it cannot touch directly, the emulation and the harness work on `Host()`. Fresh pages
// are zero. A checked run reads an input's bytes from its file and fills an output with 0xFF; a
// timing-only run (`lazy`) maps the input file instead and leaves outputs unfilled, so GM takes
// memory only where the kernel touches it.
struct GmBuffer {
  GmBuffer(uint64_t bytes, uint8_t fill, const std::string& name, const std::string& source = "", bool guarded = true,
           bool lazy = false)
      : file(lazy && !source.empty() ? OpenInput(source, bytes) : -1),
        mem((bytes + 31) / 32 * 32 + 32, name.c_str(), guarded, file.fd, bytes),
        name(name) {
    if (!source.empty() && !lazy) {
      std::ifstream f(source, std::ios::binary);
      if (!f.read(reinterpret_cast<char*>(mem.host), static_cast<std::streamsize>(bytes)))
        throw SimError(Status::RUNTIME_ERROR, "cannot read input " + source);
    }
    if (fill != 0 && !lazy) std::memset(mem.host, fill, mem.mapped);
    RegisterGm(mem.guard, mem.bytes, name, guarded ? mem.host : nullptr, mem.mapped);
  }
  uint8_t* Kernel() const { return mem.guard; }
  uint8_t* Host() const { return mem.host; }

 private:
  struct Fd {
    int fd;
    Fd(int f) : fd(f) {}
    ~Fd() { if (fd >= 0) close(fd); }
  };
  static int OpenInput(const std::string& source, uint64_t bytes) {
    const int fd = open(source.c_str(), O_RDONLY | O_CLOEXEC);
    struct stat st{};
    if (fd >= 0 && fstat(fd, &st) == 0 && static_cast<uint64_t>(st.st_size) >= bytes) return fd;
    if (fd >= 0) close(fd);
    throw SimError(Status::RUNTIME_ERROR, "cannot read input " + source);
  }
  Fd file;  // the input a lazy buffer maps; closed once mapped

 public:
  GuardedMemory mem;
  std::string name;
};

// The launch's GM, mapped by the launcher before the fork: `params` in kernel parameter order
// (nullptr for an absent optional input; an in-place output is its input's buffer, passed again
// unless `noparam`), `inputs`/`outputs` by spec order (an output may be an input's buffer).
struct GmArgs {
  std::vector<std::unique_ptr<GmBuffer>> owned;
  std::vector<GmBuffer*> params, inputs, outputs;
  // Per OpDef input / output: its first instance and instance count (a list has one per member).
  std::vector<std::pair<size_t, size_t>> irInputs, irOutputs;
  std::vector<std::pair<const GmBuffer*, std::vector<uint8_t>>> before;  // in-place outputs: their input's bytes
  uint8_t fill = 0xFF;  // what the other outputs start as (a timing-only run's lazy GM: zeros)
};

// A dynamic (list) parameter's descriptor, as asc-devkit's ListTensorDesc decodes it
// (impl/basic_api/dav_c220/kernel_operator_list_tensor_impl.h): word 0 the byte offset of the data
// pointers; then per member one word of dim (low 32 bits) and index (high 32 bits) followed by its
// dim dims; then the members' GM addresses. Every member has the first member's rank.
GmBuffer* ListDescriptor(GmArgs& gm, const std::vector<TensorArg>& args, const std::vector<GmBuffer*>& buffers,
                         size_t first, size_t count) {
  const size_t dim = args[first].shape.size();
  std::vector<uint64_t> words{(1 + count * (1 + dim)) * sizeof(uint64_t)};
  for (size_t k = 0; k < count; ++k) {
    const TensorArg& t = args[first + k];
    if (t.shape.size() != dim) throw SimError(Status::RUNTIME_ERROR, "list " + t.list + ": members of different ranks");
    words.push_back(dim | static_cast<uint64_t>(k) << 32);
    for (int64_t d : t.shape) words.push_back(static_cast<uint64_t>(d));
  }
  for (size_t k = 0; k < count; ++k) words.push_back(reinterpret_cast<uintptr_t>(buffers[first + k]->Kernel()));
  gm.owned.push_back(std::make_unique<GmBuffer>(words.size() * sizeof(uint64_t), 0, args[first].list));
  std::memcpy(gm.owned.back()->Host(), words.data(), words.size() * sizeof(uint64_t));
  return gm.owned.back().get();
}

// The kernel parameters of `args` (mapped to `buffers`), one per OpDef parameter: a list's
// descriptor in place of its members. `ir` gets each parameter's instances.
void ListParams(GmArgs& gm, const std::vector<TensorArg>& args, const std::vector<GmBuffer*>& buffers,
                const std::vector<bool>& passed, std::vector<std::pair<size_t, size_t>>& ir) {
  for (size_t k = 0; k < args.size();) {
    size_t n = 1;
    while (!args[k].list.empty() && k + n < args.size() && args[k + n].list == args[k].list) ++n;
    ir.emplace_back(k, n);
    if (!args[k].list.empty()) gm.params.push_back(ListDescriptor(gm, args, buffers, k, n));
    else if (passed[k]) gm.params.push_back(buffers[k]);
    k += n;
  }
}

GmArgs MapGm(const Launch& l) {
  GmArgs gm;
  gm.fill = l.timingOnly ? 0 : 0xFF;
  for (const auto& t : l.inputs) {
    GmBuffer* b = nullptr;
    if (!t.absent) {
      gm.owned.push_back(std::make_unique<GmBuffer>(t.Bytes(), 0, t.name, t.path, true, l.timingOnly));
      b = gm.owned.back().get();
    }
    gm.inputs.push_back(b);
  }
  ListParams(gm, l.inputs, gm.inputs, std::vector<bool>(l.inputs.size(), true), gm.irInputs);
  std::vector<bool> passed;
  for (const auto& t : l.outputs) {
    passed.push_back(t.param);
    if (!t.alias.empty()) {  // in place: the input's own buffer
      GmBuffer* in = nullptr;
      for (const auto& b : gm.owned)
        if (b->name == t.alias) in = b.get();
      if (in == nullptr) throw SimError(Status::RUNTIME_ERROR, "output " + t.name + " aliases unknown input " + t.alias);
      gm.outputs.push_back(in);
      // A timing-only run maps inputs privately from their files: the launcher never sees writes
      // to them, so an in-place output is left out of CheckOutputsPaidFor (no bytes compared).
      gm.before.emplace_back(in, l.timingOnly ? std::vector<uint8_t>() : std::vector<uint8_t>(in->Host(), in->Host() + in->mem.mapped));
      continue;
    }
    // NaN / -1: an unwritten output shows as wrong
    gm.owned.push_back(std::make_unique<GmBuffer>(t.Bytes(), 0xFF, t.name, "", true, l.timingOnly));
    gm.outputs.push_back(gm.owned.back().get());
  }
  ListParams(gm, l.outputs, gm.outputs, passed, gm.irOutputs);
  return gm;
}

void* Open(const std::string& path) {
  void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (h == nullptr) throw SimError(Status::RUNTIME_ERROR, std::string("dlopen: ") + dlerror());
  return h;
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

std::string JsonEscape(const std::string& s) {
  std::string o;
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') { o += '\\'; o += static_cast<char>(c); }
    else if (c == '\n') o += "\\n";
    else if (c < 0x20) { char b[8]; std::snprintf(b, sizeof b, "\\u%04x", c); o += b; }
    else o += static_cast<char>(c);
  }
  return o;
}

// A failure of the launcher itself (it could not write an output: the daemon's disk), reported
// as such so the daemon answers DAEMON_ERROR instead of charging the candidate.
struct LauncherFault : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Outcome {
  Status status = Status::OK;
  std::string message;
  std::string fault;  // LauncherFault
  uint32_t blockDim = 0;
  uint64_t tilingKey = 0;
  uint64_t workspaceBytes = 0;
  uint64_t tilingBytes = 0;
  uint32_t ubPeak = 0;
  double latencyUs = 0;
  std::string profileJson;  // the model's msprof-style report
  std::vector<std::string> warnings;
};

void WriteResult(const Launch& l, const Outcome& o) {
  static const char* statusNames[] = {"OK", "TILING_ERROR", "RUNTIME_ERROR", "RACE_DETECTED"};
  std::ostringstream out;
  if (!o.fault.empty()) {
    out << "{\"status\": \"DAEMON_FAULT\", \"message\": \"" << JsonEscape(o.fault) << "\"}\n";
  } else {
    out << "{\"status\": \"" << statusNames[static_cast<int>(o.status)] << "\", \"message\": \"" << JsonEscape(o.message)
        << "\", \"block_dim\": " << o.blockDim << ", \"tiling_key\": " << o.tilingKey << ", \"workspace_bytes\": "
        << o.workspaceBytes << ", \"tiling_bytes\": " << o.tilingBytes;
    if (o.status == Status::OK) {
      out.precision(10);
      out << ", \"latency_us\": " << o.latencyUs << ", \"profile\": " << o.profileJson;
    }
    if (!o.warnings.empty()) {  // conditions the device runs through (strict mode fails them)
      out << ", \"warnings\": [";
      for (size_t i = 0; i < o.warnings.size(); ++i) out << (i ? ", " : "") << "\"" << JsonEscape(o.warnings[i]) << "\"";
      out << "]";
    }
    out << "}\n";
  }
  const std::string text = out.str();
  if (l.resultFd >= 0) {
    channel::WriteAll(l.resultFd, text.data(), text.size());
  } else {
    std::ofstream(l.result.empty() ? "result.json" : l.result) << text;
  }
}

// ---- the candidate process -------------------------------------------------------------------
void Send(int fd, channel::Kind kind, uint32_t status, std::initializer_list<std::pair<const void*, size_t>> parts) {
  uint64_t bytes = 0;
  for (const auto& p : parts) bytes += p.second;
  const channel::Header h{kind, status, bytes};
  bool ok = channel::WriteAll(fd, &h, sizeof h);
  for (const auto& p : parts) ok = ok && channel::WriteAll(fd, p.first, p.second);
  if (!ok) _exit(1);  // the launcher is gone: nobody to report to
}

void SendBlock(int fd, uint32_t globalId, uint32_t ubPeak, const std::vector<Instr>& trace, const std::vector<Site>& siteList) {
  std::string sites;
  for (const Site& s : siteList) {
    const char* api = s.api ? s.api : "";
    const char* file = s.file ? s.file : "";
    const channel::SiteFrame f{s.line, static_cast<uint32_t>(std::strlen(api)), static_cast<uint32_t>(std::strlen(file)), 0};
    sites.append(reinterpret_cast<const char*>(&f), sizeof f).append(api, f.apiBytes).append(file, f.fileBytes);
  }
  // `blockIdx` carries the core's index among the launch's cores (LaunchCores), which the launcher
  // maps back to its unit and block.
  const channel::BlockFrame b{globalId, ubPeak, trace.size(), siteList.size()};
  Send(fd, channel::Kind::kBlock, 0, {{&b, sizeof b}, {trace.data(), trace.size() * sizeof(Instr)}, {sites.data(), sites.size()}});
}

// Representative-block timing (sampling.h): the sampled blocks run as a launch of their own each
// time, with their own block indices; every block's trace, simulated or derived, goes out.
uint32_t RunSampled(const std::vector<CoreSpec>& specs, const std::function<void()>& kernel, int fd) {
  auto simulate = [&](const std::vector<uint32_t>& blocks, std::map<uint32_t, sampling::BlockRecord>& out) {
    std::vector<CoreSpec> subset;
    for (uint32_t b : blocks) subset.push_back(specs[b]);
    RunCores(subset, kernel, [&](Core& core) {
      out[blocks[static_cast<size_t>(core.GlobalId())]] = sampling::BlockRecord{core.UbPeak(), core.Trace().instrs, core.Trace().sites};
    });
  };
  return sampling::Run(static_cast<uint32_t>(specs.size()), simulate, [&](uint32_t b, const sampling::BlockRecord& r) {
    SendBlock(fd, b, r.ubPeak, r.trace, r.sites);
  });
}

// Tiling and kernel. The inputs and outputs in `gm` were mapped by the launcher (shared pages).
void RunCandidate(const Launch& l, const GmArgs& gm, int fd) {
  InstallSyscallFilter(SyscallStage::kLoading, fd);
  Open(l.tilingSo);
  void* kernelLib = Open(l.kernelSo);
  SetScalarInstrCounter(static_cast<const uint64_t*>(dlsym(kernelLib, "ascendc_sim_scalar_instrs")));
  InstallGuardHandlers();  // before the filter locks the handlers of SIGSEGV and SIGTRAP
  InstallSyscallFilter(SyscallStage::kRunning, fd);

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
    throw SimError(Status::TILING_ERROR, "OpDef " + def->Type() + " has no AICore().SetTiling(...) or IMPL_OP_OPTILING(...).Tiling(...)");

  gert::TilingContext ctx;
  ctx.opType_ = def->Type();
  std::shared_ptr<void> compileInfo;
  if (impl != nullptr && impl->parse != nullptr && impl->newCompileInfo != nullptr) {
    compileInfo = impl->newCompileInfo();
    gert::TilingParseContext parse;
    parse.compileInfo_ = compileInfo.get();
    parse.opType_ = ctx.opType_.c_str();
    if (impl->parse(&parse) != ge::GRAPH_SUCCESS) throw SimError(Status::TILING_ERROR, "TilingParse of " + def->Type() + " failed");
    ctx.compileInfo_ = compileInfo.get();
  }
  auto describe = [](const TensorArg& t, std::vector<gert::Tensor>& tensors, std::vector<gert::CompileTimeTensorDesc>& descs) {
    gert::Tensor tensor;
    tensor.shape_ = gert::StorageShape(gert::Shape(t.shape));
    tensor.dtype_ = TensorArg::DataType(t.dtype);
    tensors.push_back(tensor);
    gert::CompileTimeTensorDesc desc;
    desc.SetDataType(tensor.dtype_);
    descs.push_back(desc);
  };
  for (size_t k = 0; k < l.inputs.size(); ++k) {
    const TensorArg& t = l.inputs[k];
    describe(t, ctx.inputs_, ctx.inputDescs_);
    ctx.absent_.push_back(t.absent);
    if (!t.absent && t.Bytes() <= (1u << 20)) {  // host-visible values for ValueDepend inputs
      const uint8_t* host = gm.inputs[k]->Host();
      ctx.inputs_.back().data_.assign(host, host + t.Bytes());
    }
  }
  for (const auto& t : l.outputs) describe(t, ctx.outputs_, ctx.outputDescs_);
  for (const auto& [start, num] : gm.irInputs) ctx.irInputs_.emplace_back(start, num);
  for (const auto& [start, num] : gm.irOutputs) ctx.irOutputs_.emplace_back(start, num);
  ctx.attrs_ = l.attrs;
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
    throw SimError(Status::TILING_ERROR, "tiling data of " + std::to_string(launch.tilingBytes) + " bytes exceeds the capacity of " +
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
  if (entry == nullptr) throw SimError(Status::RUNTIME_ERROR, "kernel entry '" + l.kernel + "' not found (extern \"C\" missing?)");
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

[[noreturn]] void CandidateMain(const Launch& l, const GmArgs& gm, int fd) {
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

// ---- the launcher ----------------------------------------------------------------------------
using Clock = std::chrono::steady_clock;
constexpr uint64_t kMaxFrameBytes = 4ull << 30;  // a block's trace: millions of instructions at most
constexpr uint64_t kMaxMessageBytes = 64 << 10;

SimError Malformed(const std::string& why) {
  return SimError(Status::RUNTIME_ERROR, "the candidate process sent a malformed launch record (" + why +
                                             "): kernel code wrote to the simulator's channel or corrupted its trace");
}

template <typename T>
void Read(int fd, T* data, size_t n = 1) {
  if (!channel::ReadAll(fd, data, n * sizeof(T))) throw Malformed("truncated frame");
}

// Checks one block's trace before the model indexes anything with it.
void CheckTrace(const std::vector<Instr>& trace, size_t cores) {
  for (size_t k = 0; k < trace.size(); ++k) {
    const Instr& i = trace[k];
    if (i.pipe > PIPE_ALL) throw Malformed("instruction " + std::to_string(k) + " on pipe " + std::to_string(i.pipe));
    if (i.op == Op::kWaitFlag && i.link >= 0 && static_cast<size_t>(i.link) >= trace.size())
      throw Malformed("instruction " + std::to_string(k) + " waits on an instruction past the trace");
    if (i.op == Op::kCrossWait && (i.gmAddr >= cores || i.link < 0))
      throw Malformed("instruction " + std::to_string(k) + " waits on a core outside the launch");
  }
}

// Every output byte the launch changed must have been paid for by a write its trace records: a DMA
// or fixpipe store (its bytes), or a scalar store (GetValue/SetValue, a raw access: at most 64
// bytes for every scalar GM access's cycles in the trace). A kernel that wrote GM around the
// emulation (through a host view of its buffers) or cut its trace after writing fails here.
constexpr uint64_t kScalarStoreBytes = 64;  // the widest store one instruction makes (AVX-512)

// Counted in runs of 255 bytes into a byte-wide counter, which the compiler vectorises without
// widening every comparison to 64 bits (twice as fast on a large output).
template <typename Was>
uint64_t CountChanged(const uint8_t* now, uint64_t n, Was was) {
  uint64_t changed = 0;
  for (uint64_t i = 0; i < n; i += 255) {
    uint8_t run = 0;
    const uint64_t end = std::min<uint64_t>(n, i + 255);
    for (uint64_t j = i; j < end; ++j) run += now[j] != was(j);
    changed += run;
  }
  return changed;
}
uint64_t ChangedBytes(const uint8_t* now, const uint8_t* before, uint64_t n) {
  return CountChanged(now, n, [before](uint64_t i) { return before[i]; });
}
uint64_t ChangedBytes(const uint8_t* now, uint8_t fill, uint64_t n) {
  return CountChanged(now, n, [fill](uint64_t) { return fill; });
}

void CheckOutputsPaidFor(const GmArgs& gm, uint64_t gmWriteBytes, uint64_t scalarCycles) {
  uint64_t changed = 0;
  std::set<const GmBuffer*> counted;
  for (const auto& [buffer, bytes] : gm.before)
    if (counted.insert(buffer).second) changed += ChangedBytes(buffer->Host(), bytes.data(), bytes.size());
  for (const GmBuffer* b : gm.outputs)
    if (counted.insert(b).second) changed += ChangedBytes(b->Host(), gm.fill, b->mem.mapped);
  // The cheapest scalar GM access is a data cache hit: every such many cycles may have stored.
  const uint64_t paid = gmWriteBytes + kScalarStoreBytes * (scalarCycles / std::max<int64_t>(SocParamInt("scalar_dcache_hit_cycles"), 1));
  if (changed > paid)
    throw SimError(Status::RUNTIME_ERROR, "the launch changed " + std::to_string(changed) + " bytes of its outputs, but its trace " +
                                              "pays for writes of only " + std::to_string(paid) + " (DMA, fixpipe and scalar stores): " +
                                              "kernel code wrote GM around the simulator or altered its trace");
}

// What the launcher builds from the candidate process's frames.
struct Received {
  std::unique_ptr<LaunchModel> model;
  std::vector<CoreSpec> cores;    // the launch's cores (LaunchCores), indexed by a block record's index
  CoreTrace block;                // carries each received block into the model
  std::vector<bool> seen;
  uint32_t blocks = 0;
  uint32_t simulated = 0;       // sampled timing: blocks that ran (0: a full run)
  std::set<std::string> names;  // API and file names the sites point into
  uint64_t gmWriteBytes = 0;     // GM bytes the traces' DMA and fixpipe stores write
  uint64_t scalarCycles = 0;     // the traces' scalar work (scalar GM stores among it)
  Clock::duration modelTime{};
};

// Frames until the candidate process ends (false: it reported a failure, now in `o`, or stopped
// early) or has sent every block (true). Each block goes to the model as it arrives.
bool Receive(const Launch& l, int fd, Outcome& o, Received& r) {
  channel::Header h;
  while (channel::ReadAll(fd, &h, sizeof h)) {
    if (h.bytes > kMaxFrameBytes) throw Malformed("a record of " + std::to_string(h.bytes) + " bytes");
    switch (h.kind) {
      case channel::Kind::kLaunch: {
        channel::LaunchFrame f;
        if (r.model || h.bytes != sizeof f) throw Malformed("launch record");
        Read(fd, &f);
        if (f.blockDim == 0 || f.blockDim > 65535) throw Malformed("block dim " + std::to_string(f.blockDim));
        o.blockDim = f.blockDim;
        o.tilingKey = f.tilingKey;
        o.workspaceBytes = f.workspaceBytes;
        o.tilingBytes = f.tilingBytes;
        RegisterGm(reinterpret_cast<void*>(f.workspaceAddr), f.workspaceSize, "workspace", nullptr, 0);
        RegisterGm(reinterpret_cast<void*>(f.tilingAddr), f.tilingSize, "tiling", nullptr, 0);
        RegisterGm(reinterpret_cast<void*>(f.paramsAddr), f.paramsSize, "kernel parameters", nullptr, 0);
        r.cores = LaunchCores(l.kernelType, f.blockDim);
        r.model = std::make_unique<LaunchModel>(r.cores, l.model);
        r.seen.assign(r.cores.size(), false);
        break;
      }
      case channel::Kind::kBlock: {
        channel::BlockFrame b;
        if (!r.model || h.bytes < sizeof b) throw Malformed("block record before the launch record");
        Read(fd, &b);
        if (b.blockIdx >= r.cores.size() || r.seen[b.blockIdx]) throw Malformed("block " + std::to_string(b.blockIdx));
        uint64_t rest = h.bytes - sizeof b;
        if (b.instrs > rest / sizeof(Instr)) throw Malformed("trace length");
        rest -= b.instrs * sizeof(Instr);
        CoreTrace& t = r.block;
        t.instrs.resize(b.instrs);
        Read(fd, t.instrs.data(), b.instrs);
        t.sites.clear();
        for (uint64_t k = 0; k < b.sites; ++k) {
          channel::SiteFrame f;
          if (rest < sizeof f) throw Malformed("site list");
          Read(fd, &f);
          rest -= sizeof f;
          if (static_cast<uint64_t>(f.apiBytes) + f.fileBytes > rest) throw Malformed("site names");
          std::string api(f.apiBytes, '\0'), file(f.fileBytes, '\0');
          Read(fd, api.data(), api.size());
          Read(fd, file.data(), file.size());
          rest -= api.size() + file.size();
          t.sites.push_back(Site{r.names.insert(api).first->c_str(), r.names.insert(file).first->c_str(), f.line});
        }
        if (rest != 0) throw Malformed("block record size");
        CheckTrace(t.instrs, r.cores.size());
        for (const Instr& i : t.instrs) {
          if (i.op == Op::kCopyUbToGm || i.op == Op::kFixpipe)
            r.gmWriteBytes += std::max<uint64_t>(i.elements, static_cast<uint64_t>(i.repeats) * i.unitBytes);
          else if (i.op == Op::kScalar)
            r.scalarCycles += i.scalarCycles;
        }
        t.globalId = static_cast<int>(b.blockIdx);
        t.type = r.cores[b.blockIdx].type;
        o.ubPeak = std::max(o.ubPeak, b.ubPeak);
        r.seen[b.blockIdx] = true;
        ++r.blocks;
        const Clock::time_point t0 = Clock::now();
        r.model->AddBlock(t);
        r.modelTime += Clock::now() - t0;
        break;
      }
      case channel::Kind::kWarning: {
        if (h.bytes > kMaxMessageBytes || o.warnings.size() >= 16) throw Malformed("warning record");
        std::string message(h.bytes, '\0');
        Read(fd, message.data(), message.size());
        o.warnings.push_back(message);
        break;
      }
      case channel::Kind::kSampled:
        if (!l.sampled || h.bytes != sizeof r.simulated || r.simulated != 0) throw Malformed("sampled record");
        Read(fd, &r.simulated);
        if (r.simulated == 0 || r.simulated > r.cores.size()) throw Malformed("sampled record");
        break;
      case channel::Kind::kEnd:
        if (h.bytes != 0 || !r.model || r.blocks != r.cores.size()) throw Malformed("end record before every block");
        return true;
      case channel::Kind::kError: {
        if (h.status < 1 || h.status > 3 || h.bytes > kMaxMessageBytes) throw Malformed("error record");
        std::string message(h.bytes, '\0');
        Read(fd, message.data(), message.size());
        o.status = static_cast<Status>(h.status);
        o.message = message;
        return false;
      }
      default:
        throw Malformed("record kind " + std::to_string(static_cast<uint32_t>(h.kind)));
    }
  }
  return false;
}

void Run(const Launch& l, Outcome& o) {
  SetSocParams(l.params);
  // GM inputs and outputs: shared pages both processes see; outputs are read here once the
  // candidate process is done.
  const GmArgs gm = MapGm(l);

  int fds[2];
  if (pipe(fds) != 0) throw SimError(Status::RUNTIME_ERROR, std::string("pipe: ") + std::strerror(errno));
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) throw SimError(Status::RUNTIME_ERROR, std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    close(fds[0]);
    if (l.resultFd >= 0) close(l.resultFd);
    CandidateMain(l, gm, fds[1]);
  }
  close(fds[1]);
  prctl(PR_SET_DUMPABLE, 0);  // no process of this uid may ptrace the launcher or open its memory
  Received r;
  bool ended = false;
  try {
    ended = Receive(l, fds[0], o, r);
  } catch (...) {
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    throw;
  }
  if (ended || o.status != Status::OK) kill(pid, SIGKILL);  // it has flushed its output; nothing more is read
  int wstatus = 0;
  waitpid(pid, &wstatus, 0);
  close(fds[0]);
  if (o.status != Status::OK) return;
  if (!ended) {
    if (WIFSIGNALED(wstatus)) {  // die of it too: the daemon reports a crash as before the split
      std::signal(WTERMSIG(wstatus), SIG_DFL);
      raise(WTERMSIG(wstatus));
    }
    throw SimError(Status::RUNTIME_ERROR, "the kernel process exited (code " + std::to_string(WEXITSTATUS(wstatus)) +
                                              ") before its launch finished");
  }
  CheckOutputsPaidFor(gm, r.gmWriteBytes, r.scalarCycles);

  // Wall time spent in the model, reported so its overhead over the functional run can be measured.
  const Clock::time_point t0 = Clock::now();
  o.latencyUs = r.model->Run().taskDurationUs;
  r.modelTime += Clock::now() - t0;
  o.profileJson = r.model->Profile().Json(o.ubPeak);
  o.profileJson.insert(1, "\"model_wall_s\": " + std::to_string(std::chrono::duration<double>(r.modelTime).count()) + ", ");
  if (r.simulated > 0)
    o.profileJson.insert(1, "\"timing\": \"sampled\", \"blocks_simulated\": " + std::to_string(r.simulated) + ", ");

  for (size_t k = 0; k < l.outputs.size(); ++k) {
    if (l.timingOnly || l.outputs[k].path == "-") continue;  // a timing-only run: outputs unfilled, unread
    std::ofstream f(l.outputs[k].path, std::ios::binary);
    f.write(reinterpret_cast<const char*>(gm.outputs[k]->Host()), static_cast<std::streamsize>(l.outputs[k].Bytes()));
    f.close();
    if (!f) throw LauncherFault("cannot write output " + l.outputs[k].name + ": " + std::strerror(errno));
  }
}

}  // namespace
}  // namespace ascendc_sim

int main(int argc, char** argv) {
  using namespace ascendc_sim;
  if (argc != 2) {
    std::cerr << "usage: ascendc_sim_harness LAUNCH_SPEC\n";
    return 2;
  }
  Launch launch;
  Outcome outcome;
  try {
    launch = ParseLaunch(argv[1]);
    Run(launch, outcome);
  } catch (const LauncherFault& e) {
    outcome.fault = e.what();
  } catch (const SimError& e) {
    outcome.status = e.status;
    outcome.message = e.what();
  } catch (const std::exception& e) {
    outcome.status = Status::RUNTIME_ERROR;
    outcome.message = std::string("uncaught C++ exception: ") + e.what();
  }
  std::fflush(stdout);
  WriteResult(launch, outcome);
  return 0;
}
