// The launch contract's C++ side: parses the line-oriented spec that
// npu_daemon/backends/common/launch.py writes (its docstring lists the lines), for the sim harness
// and the cann tiling runner alike, and describes its tensors and attributes to a TilingContext.
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ascendc_sim/runtime.h"
#include "register/op_def_registry.h"

namespace ascendc_sim {

struct TensorArg {
  std::string name, dtype, path;
  std::vector<int64_t> shape;
  std::string alias;         // output: the input whose buffer it is (in-place ops)
  bool param = true;         // output with an alias: also passed to the kernel as its own parameter
  bool absent = false;       // input: an optional input left out (null GM address)
  std::string list;          // a member of this dynamic (list) input or output
  bool valueDepend = false;  // input: the spec lets the tiling read its values (the OpDef's mark does not)
  uint64_t Bytes() const {
    uint64_t n = 1;
    for (int64_t d : shape) n *= static_cast<uint64_t>(d);
    return n * static_cast<uint64_t>(ge::DataTypeBytes(DataType(dtype)));
  }
  static ge::DataType DataType(const std::string& d) {
    // A table, kept as one.
    // clang-format off
    static const std::unordered_map<std::string, ge::DataType> types = {
        {"float32", ge::DT_FLOAT},  {"float16", ge::DT_FLOAT16},    {"bfloat16", ge::DT_BF16}, {"int8", ge::DT_INT8},
        {"uint8", ge::DT_UINT8},    {"int16", ge::DT_INT16},        {"uint16", ge::DT_UINT16}, {"int32", ge::DT_INT32},
        {"uint32", ge::DT_UINT32},  {"int64", ge::DT_INT64},        {"uint64", ge::DT_UINT64}, {"bool", ge::DT_BOOL},
        {"float64", ge::DT_DOUBLE}, {"complex64", ge::DT_COMPLEX64},
        {"float8_e4m3fn", ge::DT_FLOAT8_E4M3FN}, {"float8_e5m2", ge::DT_FLOAT8_E5M2},
        {"float8_e8m0", ge::DT_FLOAT8_E8M0},     {"hifloat8", ge::DT_HIFLOAT8}};
    // clang-format on
    auto it = types.find(d);
    if (it == types.end()) throw SimError(Status::RUNTIME_ERROR, "unsupported dtype " + d);
    return it->second;
  }
};

struct LaunchSpec {
  std::string opType, kernel, tilingSo, kernelSo, tilingOut, result;
  std::string kernelSoAic;    // the AIC cores' library when built per core type (kernelSo: the AIV cores')
  std::string kernelWasm;     // the guest engine: the kernel as a wasm32 module (runtime/guest), in place of kernelSo
  std::string kernelWasmAic;  // the AIC cores' module when built per core type (kernelWasm: the AIV cores')
  std::string kernelType = "KERNEL_TYPE_AIV_ONLY";  // decides which cores run (LaunchCores)
  int resultFd = -1;
  bool timingOnly = false;      // no output is read: GM is mapped lazily
  bool sampled = false;         // representative-block timing (sampling.h)
  bool l2Resident = false;      // timing protocol: L2 holds the launch before's data (else flushed)
  bool launchRepeated = false;  // timing protocol: a repeated launch's head (else a first launch's)
  std::string traceJson;        // the model's chrome://tracing timeline; empty: none
  uint64_t noiseSeed = 0;
  std::unordered_map<std::string, std::string> params;
  std::vector<TensorArg> inputs, outputs;
  gert::RuntimeAttrs attrs;
};

inline LaunchSpec ParseLaunchSpec(const char* path) {
  std::ifstream in(path);
  if (!in) throw SimError(Status::RUNTIME_ERROR, std::string("cannot read launch spec ") + path);
  LaunchSpec l;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream s(line);
    std::string key;
    s >> key;
    if (key == "op_type")
      s >> l.opType;
    else if (key == "kernel")
      s >> l.kernel;
    else if (key == "tiling_so")
      s >> l.tilingSo;
    else if (key == "kernel_so")
      s >> l.kernelSo;
    else if (key == "kernel_so_aic")
      s >> l.kernelSoAic;
    else if (key == "kernel_wasm")
      s >> l.kernelWasm;
    else if (key == "kernel_wasm_aic")
      s >> l.kernelWasmAic;
    else if (key == "kernel_type")
      s >> l.kernelType;
    else if (key == "tiling_out")
      s >> l.tilingOut;
    else if (key == "result")
      s >> l.result;
    else if (key == "result_fd")
      s >> l.resultFd;
    else if (key == "timing_only")
      l.timingOnly = true;
    else if (key == "sample_blocks")
      l.sampled = true;
    else if (key == "l2_resident")
      l.l2Resident = true;
    else if (key == "launch_repeated")
      l.launchRepeated = true;
    else if (key == "trace_json")
      s >> l.traceJson;
    else if (key == "noise_seed")
      s >> l.noiseSeed;
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
        if (word == "alias")
          s >> t.alias;
        else if (word == "noparam")
          t.param = false;
        else if (word == "absent")
          t.absent = true;
        else if (word == "list")
          s >> t.list;
        else if (word == "value_depend")
          t.valueDepend = true;
      }
      (key == "input" ? l.inputs : l.outputs).push_back(t);
    } else if (key == "attr") {
      ReadAttrLine(s, l.attrs);
    }
  }
  return l;
}

// Per OpDef parameter of `args`: its first instance and instance count (a list has one per member).
inline std::vector<std::pair<size_t, size_t>> IrInstances(const std::vector<TensorArg>& args) {
  std::vector<std::pair<size_t, size_t>> ir;
  for (size_t k = 0; k < args.size();) {
    size_t n = 1;
    while (!args[k].list.empty() && k + n < args.size() && args[k + n].list == args[k].list) ++n;
    ir.emplace_back(k, n);
    k += n;
  }
  return ir;
}

// The TilingContext's view of the launch: shapes, dtypes, absent inputs, instances, attributes.
inline void DescribeLaunch(const LaunchSpec& l, gert::TilingContext& ctx) {
  auto describe = [](const TensorArg& t, std::vector<gert::Tensor>& tensors,
                     std::vector<gert::CompileTimeTensorDesc>& descs) {
    gert::Tensor tensor;
    tensor.shape_ = gert::StorageShape(gert::Shape(t.shape));
    tensor.dtype_ = TensorArg::DataType(t.dtype);
    tensors.push_back(tensor);
    gert::CompileTimeTensorDesc desc;
    desc.SetDataType(tensor.dtype_);
    descs.push_back(desc);
  };
  for (const TensorArg& t : l.inputs) {
    describe(t, ctx.inputs_, ctx.inputDescs_);
    ctx.absent_.push_back(t.absent);
  }
  for (const TensorArg& t : l.outputs) describe(t, ctx.outputs_, ctx.outputDescs_);
  for (const auto& [start, num] : IrInstances(l.inputs)) ctx.irInputs_.emplace_back(start, num);
  for (const auto& [start, num] : IrInstances(l.outputs)) ctx.irOutputs_.emplace_back(start, num);
  ctx.attrs_ = l.attrs;
}

}  // namespace ascendc_sim
