// Host tiling for the cann backend: runs a candidate's TilingFunc (built into tiling.so against the
// simulator's host headers, which provide our own gert::TilingContext and PlatformAscendC) for one
// shape case and writes the raw tiling bytes plus block dim, tiling key and workspace size. The
// device app then launches the kernel with exactly these bytes.
//
// usage: cann_tiling_runner SPEC
// SPEC lines: "op_type T", "tiling_so PATH", "tiling_out PATH", "result PATH", "param K V",
//             "input|output NAME DTYPE NDIM D0 D1 ...", "attr NAME KIND VALUE..." (as the sim harness).
#include <dlfcn.h>

#include <fstream>
#include <iostream>
#include <sstream>

#include "ascendc_sim/runtime.h"
#include "register/op_def_registry.h"

namespace {

using ascendc_sim::SimError;
using ascendc_sim::Status;

struct Spec {
  std::string opType, tilingSo, tilingOut, result;
  std::unordered_map<std::string, std::string> params;
  std::vector<std::pair<std::string, std::vector<int64_t>>> inputs, outputs;  // dtype, shape
  gert::RuntimeAttrs attrs;
};

ge::DataType ToDataType(const std::string& d) {
  static const std::unordered_map<std::string, ge::DataType> types = {
      {"float32", ge::DT_FLOAT}, {"float16", ge::DT_FLOAT16}, {"bfloat16", ge::DT_BF16}, {"int8", ge::DT_INT8},
      {"uint8", ge::DT_UINT8},   {"int16", ge::DT_INT16},     {"int32", ge::DT_INT32},   {"int64", ge::DT_INT64},
      {"bool", ge::DT_BOOL}};
  auto it = types.find(d);
  if (it == types.end()) throw SimError(Status::TILING_ERROR, "unsupported dtype " + d);
  return it->second;
}

Spec Parse(const char* path) {
  std::ifstream in(path);
  if (!in) throw SimError(Status::TILING_ERROR, std::string("cannot read ") + path);
  Spec s;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream l(line);
    std::string key;
    l >> key;
    if (key == "op_type") l >> s.opType;
    else if (key == "tiling_so") l >> s.tilingSo;
    else if (key == "tiling_out") l >> s.tilingOut;
    else if (key == "result") l >> s.result;
    else if (key == "param") {
      std::string k, v;
      l >> k >> v;
      s.params[k] = v;
    } else if (key == "input" || key == "output") {
      std::string name, dtype;
      size_t ndim;
      l >> name >> dtype >> ndim;
      std::vector<int64_t> shape(ndim);
      for (auto& d : shape) l >> d;
      (key == "input" ? s.inputs : s.outputs).emplace_back(dtype, shape);
    } else if (key == "attr") {
      ascendc_sim::ReadAttrLine(l, s.attrs);
    }
  }
  return s;
}

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
  Spec spec;
  std::ostringstream result;
  try {
    spec = Parse(argv[1]);
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
    if (def == nullptr) throw SimError(Status::TILING_ERROR, "no OpDef registered with OP_ADD for op type " + spec.opType);
    ops::TilingFunc fn = def->AICoreDef().GetTiling();
    if (fn == nullptr) throw SimError(Status::TILING_ERROR, "OpDef " + def->Type() + " has no AICore().SetTiling(...)");

    gert::TilingContext ctx;
    ctx.opType_ = def->Type();
    auto describe = [](const auto& arg, std::vector<gert::Tensor>& tensors, std::vector<gert::CompileTimeTensorDesc>& descs) {
      gert::Tensor t;
      t.shape_ = gert::StorageShape(gert::Shape(arg.second));
      t.dtype_ = ToDataType(arg.first);
      tensors.push_back(t);
      gert::CompileTimeTensorDesc desc;
      desc.SetDataType(t.dtype_);
      descs.push_back(desc);
    };
    for (const auto& a : spec.inputs) describe(a, ctx.inputs_, ctx.inputDescs_);
    for (const auto& a : spec.outputs) describe(a, ctx.outputs_, ctx.outputDescs_);
    ctx.attrs_ = spec.attrs;
    if (fn(&ctx) != ge::GRAPH_SUCCESS) throw SimError(Status::TILING_ERROR, "tiling function returned GRAPH_FAILED");

    const uint64_t bytes = ctx.GetRawTilingData()->GetDataSize();
    if (ctx.GetBlockDim() == 0 || ctx.GetBlockDim() > 65535)
      throw SimError(Status::TILING_ERROR, "block dim " + std::to_string(ctx.GetBlockDim()) + " out of range [1, 65535]");
    if (bytes > ctx.GetRawTilingData()->GetCapacity()) throw SimError(Status::TILING_ERROR, "tiling data exceeds its capacity");
    uint64_t workspace = 0;
    for (size_t w : ctx.workspaces_) workspace += w;
    std::ofstream(spec.tilingOut, std::ios::binary)
        .write(static_cast<const char*>(ctx.GetRawTilingData()->GetData()), static_cast<std::streamsize>(bytes));
    result << "{\"status\": \"OK\", \"message\": \"\", \"block_dim\": " << ctx.GetBlockDim() << ", \"tiling_key\": "
           << ctx.GetTilingKey() << ", \"workspace_bytes\": " << workspace << ", \"tiling_bytes\": " << bytes << "}\n";
  } catch (const std::exception& e) {
    result.str("");
    result << "{\"status\": \"TILING_ERROR\", \"message\": \"" << Escape(e.what()) << "\"}\n";
  }
  std::ofstream(spec.result.empty() ? "tiling.json" : spec.result) << result.str();
  return 0;
}
