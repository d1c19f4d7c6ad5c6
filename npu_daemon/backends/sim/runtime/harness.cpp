// The launch harness: loads a candidate's tiling and kernel shared objects, runs the tiling function
// on a TilingContext built from the launch spec, runs the kernel once per block, times the recorded
// traces with the performance model and writes outputs plus result.json.
//
// usage: ascendc_sim_harness LAUNCH_SPEC
// The spec is line-oriented ("key value..."), written by npu_daemon/backends/sim/backend.py.
#include <dlfcn.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <utility>

#include "ascendc_sim/runtime.h"
#include "kernel_operator.h"
#include "model.h"
#include "register/op_def_registry.h"

namespace ascendc_sim {
namespace {

struct TensorArg {
  std::string name, dtype, path;
  std::vector<int64_t> shape;
  uint64_t Bytes() const {
    uint64_t n = 1;
    for (int64_t d : shape) n *= static_cast<uint64_t>(d);
    return n * static_cast<uint64_t>(ge::DataTypeBytes(DataType(dtype)));
  }
  static ge::DataType DataType(const std::string& d) {
    static const std::unordered_map<std::string, ge::DataType> types = {
        {"float32", ge::DT_FLOAT}, {"float16", ge::DT_FLOAT16}, {"bfloat16", ge::DT_BF16}, {"int8", ge::DT_INT8},
        {"uint8", ge::DT_UINT8},   {"int16", ge::DT_INT16},     {"uint16", ge::DT_UINT16}, {"int32", ge::DT_INT32},
        {"uint32", ge::DT_UINT32}, {"int64", ge::DT_INT64},     {"uint64", ge::DT_UINT64}, {"bool", ge::DT_BOOL}};
    auto it = types.find(d);
    if (it == types.end()) throw SimError(Status::RUNTIME_ERROR, "unsupported dtype " + d);
    return it->second;
  }
};

struct Launch {
  std::string opType, kernel, tilingSo, kernelSo, result;
  std::string kernelType = "KERNEL_TYPE_AIV_ONLY";  // decides which cores run (LaunchCores)
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
// address it cannot touch directly, the emulation and the harness work on `Host()`. An input's
// bytes come from its file; only the rest is filled.
struct GmBuffer {
  GmBuffer(uint64_t bytes, uint8_t fill, const std::string& name, const std::string& source = "", bool guarded = true)
      : mem((bytes + 31) / 32 * 32 + 32, name.c_str(), guarded) {
    uint64_t loaded = 0;
    if (!source.empty()) {
      std::ifstream f(source, std::ios::binary);
      if (!f.read(reinterpret_cast<char*>(mem.host), static_cast<std::streamsize>(bytes)))
        throw SimError(Status::RUNTIME_ERROR, "cannot read input " + source);
      loaded = bytes;
    }
    std::memset(mem.host + loaded, fill, mem.mapped - loaded);
    RegisterGm(mem.guard, mem.bytes, name, guarded ? mem.host : nullptr, mem.mapped);
  }
  uint8_t* Kernel() const { return mem.guard; }
  uint8_t* Host() const { return mem.host; }
  GuardedMemory mem;
};

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

struct Outcome {
  Status status = Status::OK;
  std::string message;
  uint32_t blockDim = 0;
  uint64_t tilingKey = 0;
  uint64_t workspaceBytes = 0;
  uint64_t tilingBytes = 0;
  uint32_t ubPeak = 0;
  double latencyUs = 0;
  std::string profileJson;  // the model's msprof-style report
};

void WriteResult(const std::string& path, const Outcome& o) {
  static const char* statusNames[] = {"OK", "TILING_ERROR", "RUNTIME_ERROR", "RACE_DETECTED"};
  std::ofstream out(path);
  out << "{\"status\": \"" << statusNames[static_cast<int>(o.status)] << "\", \"message\": \"" << JsonEscape(o.message)
      << "\", \"block_dim\": " << o.blockDim << ", \"tiling_key\": " << o.tilingKey << ", \"workspace_bytes\": " << o.workspaceBytes
      << ", \"tiling_bytes\": " << o.tilingBytes;
  if (o.status == Status::OK) {
    out.precision(10);
    out << ", \"latency_us\": " << o.latencyUs << ", \"profile\": " << o.profileJson;
  }
  out << "}\n";
}

void Run(const Launch& l, Outcome& o) {
  SetSocParams(l.params);
  // ---- host: tiling ----
  void* tilingLib = Open(l.tilingSo);
  (void)tilingLib;
  const ops::OpDef* def = nullptr;
  for (const ops::OpDef* d : RegisteredOps())
    if (d->Type() == l.opType) def = d;
  if (def == nullptr && RegisteredOps().size() == 1) def = RegisteredOps().front();
  if (def == nullptr) throw SimError(Status::TILING_ERROR, "no OpDef registered with OP_ADD for op type " + l.opType);
  ops::TilingFunc tilingFunc = def->AICoreDef().GetTiling();
  if (tilingFunc == nullptr) throw SimError(Status::TILING_ERROR, "OpDef " + def->Type() + " has no AICore().SetTiling(...)");

  gert::TilingContext ctx;
  ctx.opType_ = def->Type();
  auto describe = [](const TensorArg& t, std::vector<gert::Tensor>& tensors, std::vector<gert::CompileTimeTensorDesc>& descs) {
    gert::Tensor tensor;
    tensor.shape_ = gert::StorageShape(gert::Shape(t.shape));
    tensor.dtype_ = TensorArg::DataType(t.dtype);
    tensors.push_back(tensor);
    gert::CompileTimeTensorDesc desc;
    desc.SetDataType(tensor.dtype_);
    descs.push_back(desc);
  };
  for (const auto& t : l.inputs) describe(t, ctx.inputs_, ctx.inputDescs_);
  for (const auto& t : l.outputs) describe(t, ctx.outputs_, ctx.outputDescs_);
  ctx.attrs_ = l.attrs;
  ge::graphStatus st;
  try {
    st = tilingFunc(&ctx);
  } catch (const SimError& e) {
    throw SimError(Status::TILING_ERROR, e.what());
  }
  if (st != ge::GRAPH_SUCCESS) throw SimError(Status::TILING_ERROR, "tiling function returned GRAPH_FAILED");
  o.blockDim = ctx.GetBlockDim();
  o.tilingKey = ctx.GetTilingKey();
  o.tilingBytes = ctx.GetRawTilingData()->GetDataSize();
  if (o.blockDim == 0 || o.blockDim > 65535)
    throw SimError(Status::TILING_ERROR, "block dim " + std::to_string(o.blockDim) + " out of range [1, 65535]");
  if (o.tilingBytes > ctx.GetRawTilingData()->GetCapacity())
    throw SimError(Status::TILING_ERROR, "tiling data of " + std::to_string(o.tilingBytes) + " bytes exceeds the capacity of " +
                                             std::to_string(ctx.GetRawTilingData()->GetCapacity()));
  for (size_t w : ctx.workspaces_) o.workspaceBytes += w;
  SetTilingKey(o.tilingKey);

  // ---- device: GM buffers, one kernel run per block ----
  std::vector<std::unique_ptr<GmBuffer>> gm;
  std::vector<Gm> args;
  for (const auto& t : l.inputs) {
    gm.push_back(std::make_unique<GmBuffer>(t.Bytes(), 0, t.name, t.path));
    args.push_back(gm.back()->Kernel());
  }
  for (const auto& t : l.outputs) {
    gm.push_back(std::make_unique<GmBuffer>(t.Bytes(), 0xFF, t.name));  // NaN / -1: unwritten output shows as wrong
    args.push_back(gm.back()->Kernel());
  }
  GmBuffer workspace(std::max<uint64_t>(o.workspaceBytes, 32), 0, "workspace");
  SetSysWorkspace(workspace.Kernel());
  args.push_back(o.workspaceBytes > 0 ? workspace.Kernel() : nullptr);
  GmBuffer tiling(ctx.GetRawTilingData()->GetCapacity(), 0, "tiling", "", false);  // host data GET_TILING_DATA reads
  std::memcpy(tiling.Host(), ctx.GetRawTilingData()->GetData(), o.tilingBytes);
  args.push_back(tiling.Kernel());

  void* kernelLib = Open(l.kernelSo);
  void* entry = dlsym(kernelLib, l.kernel.c_str());
  if (entry == nullptr) throw SimError(Status::RUNTIME_ERROR, "kernel entry '" + l.kernel + "' not found (extern \"C\" missing?)");

  // Wall time spent in the model, reported so its overhead over the functional run can be measured.
  using Clock = std::chrono::steady_clock;
  Clock::duration modelTime{};
  const std::vector<CoreSpec> cores = LaunchCores(l.kernelType, o.blockDim);
  LaunchModel model(cores, l.model);
  RunCores(cores, [&] { CallKernel(entry, args, std::make_index_sequence<32>{}); },
            [&](Core& core) {
              o.ubPeak = std::max(o.ubPeak, core.ubPeak);
              const Clock::time_point t0 = Clock::now();
              model.AddBlock(core);
              modelTime += Clock::now() - t0;
            });
  const Clock::time_point t0 = Clock::now();
  o.latencyUs = model.Run().taskDurationUs;
  modelTime += Clock::now() - t0;
  o.profileJson = model.Profile().Json(o.ubPeak);
  o.profileJson.insert(1, "\"model_wall_s\": " + std::to_string(std::chrono::duration<double>(modelTime).count()) + ", ");

  for (size_t k = 0; k < l.outputs.size(); ++k) {
    std::ofstream f(l.outputs[k].path, std::ios::binary);
    f.write(reinterpret_cast<const char*>(gm[l.inputs.size() + k]->Host()), static_cast<std::streamsize>(l.outputs[k].Bytes()));
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
  } catch (const SimError& e) {
    outcome.status = e.status;
    outcome.message = e.what();
  } catch (const std::exception& e) {
    outcome.status = Status::RUNTIME_ERROR;
    outcome.message = std::string("uncaught C++ exception: ") + e.what();
  }
  std::fflush(stdout);
  WriteResult(launch.result.empty() ? "result.json" : launch.result, outcome);
  return 0;
}
