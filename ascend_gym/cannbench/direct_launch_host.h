// The host side of a cann-bench direct-launch operator as a tiling program (cannbench/direct_launch.py).
//
// Such a project's host side is its PyTorch plugin: a torch::Tensor function, registered with
// TORCH_LIBRARY_IMPL, that calls the project's tiling function and launches the kernel with
// `kernel<<<blocks, l2ctrl, stream>>>(args)` inside a launch wrapper. Here the plugin runs as it is
// against the small part of the torch API it uses: its tensors are the case's (shape and dtype,
// no data), their data pointers stand for the GM of the kernel's parameters, and its launch is
// recorded, not run: which launch statement, the block count and every argument. The record is
// the tiling data the simulator hands the generated kernel entry, which makes that very call.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "../op_kernel/cann_bench_launch_record.h"
#include "register/op_def_registry.h"

#include <stdexcept>

namespace cann_bench_direct {
// What the plugin does that no launch can be made of: the candidate's runtime error, said.
[[noreturn]] inline void Fail(const std::string& message) { throw std::runtime_error(message); }
}  // namespace cann_bench_direct

#ifndef GM_ADDR
#define GM_ADDR uint8_t*
#endif
// The kernel file's host part may size buffers by the device types.
struct half {
  uint16_t bits;
};
struct bfloat16_t {
  uint16_t bits;
};
struct fp8_e4m3fn_t {
  uint8_t bits;
};
struct fp8_e5m2_t {
  uint8_t bits;
};
struct fp8_e8m0_t {
  uint8_t bits;
};
struct hifloat8_t {
  uint8_t bits;
};

namespace c10 {
enum class ScalarType : int8_t {
  Byte,
  Char,
  Short,
  Int,
  Long,
  Half,
  Float,
  Double,
  Bool,
  BFloat16,
  Float8_e5m2,
  Float8_e4m3fn,
  Float8_e8m0fnu,
  Undefined
};
enum class DeviceType : int8_t { CPU, PrivateUse1 };
struct Device {
  DeviceType type = DeviceType::PrivateUse1;
};
struct OptionalDeviceGuard {
  explicit OptionalDeviceGuard(Device) {}
};
using IntArrayRef = std::vector<int64_t>;
template <typename T>
using optional = std::optional<T>;
using std::nullopt;

inline int64_t ElementSize(ScalarType t) {
  switch (t) {
    case ScalarType::Byte:
    case ScalarType::Char:
    case ScalarType::Bool:
    case ScalarType::Float8_e5m2:
    case ScalarType::Float8_e4m3fn:
    case ScalarType::Float8_e8m0fnu:
      return 1;
    case ScalarType::Short:
    case ScalarType::Half:
    case ScalarType::BFloat16:
      return 2;
    case ScalarType::Int:
    case ScalarType::Float:
      return 4;
    default:
      return 8;
  }
}

struct TensorOptions {
  ScalarType type = ScalarType::Float;
  TensorOptions dtype(ScalarType t) const { return TensorOptions{t}; }
  ScalarType dtype() const { return type; }
};

// A tensor of the case: its shape and dtype, and an address naming it (cann_bench_direct::kBase).
class Tensor {
 public:
  Tensor() = default;
  Tensor(std::vector<int64_t> sizes, ScalarType dtype);
  bool defined() const { return id_ >= 0; }
  const std::vector<int64_t>& sizes() const { return sizes_; }
  int64_t size(int64_t d) const { return sizes_.at(d < 0 ? d + dim() : d); }
  int64_t dim() const { return static_cast<int64_t>(sizes_.size()); }
  int64_t numel() const {
    int64_t n = 1;
    for (int64_t d : sizes_) n *= d;
    return n;
  }
  ScalarType scalar_type() const { return dtype_; }
  ScalarType dtype() const { return dtype_; }
  int64_t element_size() const { return ElementSize(dtype_); }
  int64_t nbytes() const { return numel() * element_size(); }
  TensorOptions options() const { return TensorOptions{dtype_}; }
  Device device() const { return Device{}; }
  bool is_contiguous() const { return true; }
  Tensor contiguous() const { return *this; }
  void* data_ptr() const;
  template <typename T>
  T* data_ptr() const {
    return static_cast<T*>(data_ptr());
  }
  int id() const { return id_; }

 private:
  std::vector<int64_t> sizes_;
  ScalarType dtype_ = ScalarType::Undefined;
  int id_ = -1;
};
}  // namespace c10

namespace cann_bench_direct {
// Tensor k's data sits at kBase + k * kSpan: a pointer argument names its tensor and byte offset.
constexpr uintptr_t kBase = uintptr_t{1} << 44;
constexpr uintptr_t kSpan = uintptr_t{1} << 36;

inline int& TensorCount() {
  static int n = 0;
  return n;
}
}  // namespace cann_bench_direct

inline c10::Tensor::Tensor(std::vector<int64_t> sizes, ScalarType dtype)
    : sizes_(std::move(sizes)), dtype_(dtype), id_(cann_bench_direct::TensorCount()++) {}
inline void* c10::Tensor::data_ptr() const {
  if (!defined()) return nullptr;
  return reinterpret_cast<void*>(cann_bench_direct::kBase + static_cast<uintptr_t>(id_) * cann_bench_direct::kSpan);
}

namespace at {
using c10::IntArrayRef;
using c10::ScalarType;
using c10::Tensor;
using c10::TensorOptions;
}  // namespace at

namespace torch {
using c10::IntArrayRef;
using c10::ScalarType;
using c10::Tensor;
using c10::TensorOptions;
constexpr ScalarType kUInt8 = ScalarType::Byte, kInt8 = ScalarType::Char, kInt16 = ScalarType::Short,
                     kInt32 = ScalarType::Int, kInt = ScalarType::Int, kInt64 = ScalarType::Long,
                     kLong = ScalarType::Long, kFloat16 = ScalarType::Half, kHalf = ScalarType::Half,
                     kFloat32 = ScalarType::Float, kFloat = ScalarType::Float, kFloat64 = ScalarType::Double,
                     kDouble = ScalarType::Double, kBool = ScalarType::Bool, kBFloat16 = ScalarType::BFloat16,
                     kFloat8_e5m2 = ScalarType::Float8_e5m2, kFloat8_e4m3fn = ScalarType::Float8_e4m3fn,
                     kFloat8_e8m0fnu = ScalarType::Float8_e8m0fnu;
inline Tensor empty(IntArrayRef sizes, TensorOptions o = {}) { return Tensor(sizes, o.type); }
inline Tensor empty(IntArrayRef sizes, ScalarType t) { return Tensor(sizes, t); }
inline Tensor empty_like(const Tensor& t) { return Tensor(t.sizes(), t.scalar_type()); }
inline Tensor empty_like(const Tensor& t, TensorOptions o) { return Tensor(t.sizes(), o.type); }
inline TensorOptions dtype(ScalarType t) { return TensorOptions{t}; }
}  // namespace torch

#define TORCH_CHECK(cond, ...) \
  ((cond) ? (void)0 : ::cann_bench_direct::Fail(std::string("TORCH_CHECK failed: ") + #cond))

// ---- The operator library: TORCH_LIBRARY_FRAGMENT's schemas, TORCH_LIBRARY_IMPL's functions. ----
namespace cann_bench_direct {
using Value = std::variant<std::monostate, c10::Tensor, int64_t, double, bool, std::string, std::vector<int64_t>,
                           std::vector<double>>;
using Call = std::function<std::vector<c10::Tensor>(const std::vector<Value>&)>;

struct Op {
  std::string schema;
  Call device;  // the PrivateUse1 (NPU) implementation
};
inline std::map<std::string, Op>& Ops() {
  static std::map<std::string, Op> ops;
  return ops;
}

// A parameter of the implementation from the value its schema name was given.
template <typename P>
P Convert(const Value& v, size_t i) {
  using T = std::decay_t<P>;
  if constexpr (std::is_same_v<T, c10::Tensor>) {
    if (auto* t = std::get_if<c10::Tensor>(&v)) return *t;
    if (std::holds_alternative<std::monostate>(v)) return c10::Tensor();
  } else if constexpr (std::is_same_v<T, std::optional<c10::Tensor>>) {
    if (auto* t = std::get_if<c10::Tensor>(&v)) return *t;
    if (std::holds_alternative<std::monostate>(v)) return std::nullopt;
  } else if constexpr (std::is_same_v<T, bool>) {
    if (auto* b = std::get_if<bool>(&v)) return *b;
  } else if constexpr (std::is_integral_v<T>) {
    if (auto* n = std::get_if<int64_t>(&v)) return static_cast<T>(*n);
  } else if constexpr (std::is_floating_point_v<T>) {
    if (auto* d = std::get_if<double>(&v)) return static_cast<T>(*d);
    if (auto* n = std::get_if<int64_t>(&v)) return static_cast<T>(*n);
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (auto* s = std::get_if<std::string>(&v)) return *s;
  } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
    if (auto* l = std::get_if<std::vector<int64_t>>(&v)) return *l;
  } else if constexpr (std::is_same_v<T, std::vector<double>>) {
    if (auto* l = std::get_if<std::vector<double>>(&v)) return *l;
  }
  Fail("the plugin's argument " + std::to_string(i) + " has a type the case does not give");
}

template <typename R>
std::vector<c10::Tensor> Results(R r) {
  if constexpr (std::is_same_v<R, c10::Tensor>) {
    return {r};
  } else if constexpr (std::is_same_v<R, std::vector<c10::Tensor>>) {
    return r;
  } else {
    return std::apply([](auto&... t) { return std::vector<c10::Tensor>{t...}; }, r);
  }
}

template <typename R, typename... P, size_t... I>
std::vector<c10::Tensor> Invoke(R (*f)(P...), const std::vector<Value>& v, std::index_sequence<I...>) {
  if (v.size() != sizeof...(P))
    Fail("the plugin's function takes " + std::to_string(sizeof...(P)) + " arguments, its schema names " +
         std::to_string(v.size()));
  return Results(f(Convert<P>(v[I], I)...));
}

class Library {
 public:
  explicit Library(const char* key) : device_(std::strcmp(key, "PrivateUse1") == 0 || std::strcmp(key, "NPU") == 0) {}
  void def(const char* schema) {
    std::string s(schema);
    Ops()[s.substr(0, s.find('('))].schema = s;
  }
  template <typename R, typename... P>
  void impl(const char* name, R (*f)(P...)) {
    if (device_)
      Ops()[name].device = [f](const std::vector<Value>& v) { return Invoke(f, v, std::index_sequence_for<P...>{}); };
  }

 private:
  bool device_;
};
}  // namespace cann_bench_direct

namespace torch {
using Library = cann_bench_direct::Library;
}
#define CANN_BENCH_CAT2(a, b) a##b
#define CANN_BENCH_CAT(a, b) CANN_BENCH_CAT2(a, b)
#define CANN_BENCH_LIBRARY(key, m, n)                                \
  static void CANN_BENCH_CAT(cann_bench_lib_, n)(::torch::Library&); \
  static const int CANN_BENCH_CAT(cann_bench_reg_, n) = [] {         \
    ::torch::Library lib(key);                                       \
    CANN_BENCH_CAT(cann_bench_lib_, n)(lib);                         \
    return 0;                                                        \
  }();                                                               \
  static void CANN_BENCH_CAT(cann_bench_lib_, n)(::torch::Library & m)
#define TORCH_LIBRARY(ns, m) CANN_BENCH_LIBRARY("def", m, __COUNTER__)
#define TORCH_LIBRARY_FRAGMENT(ns, m) CANN_BENCH_LIBRARY("def", m, __COUNTER__)
#define TORCH_LIBRARY_IMPL(ns, key, m) CANN_BENCH_LIBRARY(#key, m, __COUNTER__)

// ---- The NPU runtime the plugin reaches: its stream, and OpCommand running the launch at once. ----
namespace c10_npu {
struct NPUStream {
  void* stream(bool = true) const { return nullptr; }
};
inline NPUStream getCurrentNPUStream(int = 0) { return {}; }
}  // namespace c10_npu
namespace at_npu::native {
struct OpCommand {
  template <typename F>
  static void RunOpApi(const char*, F&& launch) {
    launch();
  }
};
}  // namespace at_npu::native

// ---- The launch record: what `kernel<<<blocks, l2ctrl, stream>>>(args)` would have launched. ----
namespace cann_bench_direct {
inline LaunchRecord& Recorded() {
  static LaunchRecord r{};
  return r;
}
inline int& Launches() {
  static int n = 0;
  return n;
}

template <typename A>
LaunchArg Argument(const A& a) {
  LaunchArg arg{};
  if constexpr (std::is_pointer_v<A> || std::is_null_pointer_v<A>) {
    auto p = reinterpret_cast<uintptr_t>(a);
    if (p == 0) {
      arg.kind = kNullArg;
    } else if (p < kBase) {
      Fail("a launch argument points outside the plugin's tensors");
    } else {
      arg.kind = kTensorArg;
      arg.tensor = static_cast<int32_t>((p - kBase) / kSpan);
      arg.bits = static_cast<int64_t>((p - kBase) % kSpan);
    }
  } else if constexpr (std::is_floating_point_v<A>) {
    double d = a;
    arg.kind = kFloatArg;
    std::memcpy(&arg.bits, &d, sizeof d);
  } else if constexpr (std::is_integral_v<A> || std::is_enum_v<A>) {
    arg.kind = kIntArg;
    arg.bits = static_cast<int64_t>(a);
  } else {
    static_assert(std::is_trivially_copyable_v<A> && sizeof(A) <= sizeof(int64_t),
                  "a launch argument the record cannot hold");
    arg.kind = kIntArg;
    std::memcpy(&arg.bits, &a, sizeof a);
  }
  return arg;
}

struct Launcher {
  int32_t instance;
  int64_t blocks;
  template <typename... A>
  void operator()(const A&... args) const {
    static_assert(sizeof...(A) <= kMaxLaunchArgs, "a launch with more arguments than the record holds");
    if (++Launches() > 1) Fail("the plugin launches more than one kernel in a call");
    LaunchRecord& r = Recorded();
    r.instance = instance;
    r.blockDim = blocks;
    r.nargs = sizeof...(A);
    int k = 0;
    ((r.args[k++] = Argument(args)), ...);
  }
};
// `kernel<<<blocks, l2ctrl, stream>>>(` becomes `::cann_bench_direct::Launch(instance, blocks, l2ctrl, stream)(`.
template <typename... Rest>
Launcher Launch(int32_t instance, int64_t blocks, Rest&&...) {
  return Launcher{instance, blocks};
}

// ---- The tiling function: the case's tensors through the plugin, the launch into the tiling data. ----
inline c10::ScalarType TorchType(ge::DataType t) {
  switch (t) {
    case ge::DT_UINT8:
      return c10::ScalarType::Byte;
    case ge::DT_INT8:
      return c10::ScalarType::Char;
    case ge::DT_INT16:
      return c10::ScalarType::Short;
    case ge::DT_INT32:
      return c10::ScalarType::Int;
    case ge::DT_INT64:
      return c10::ScalarType::Long;
    case ge::DT_FLOAT16:
      return c10::ScalarType::Half;
    case ge::DT_FLOAT:
      return c10::ScalarType::Float;
    case ge::DT_DOUBLE:
      return c10::ScalarType::Double;
    case ge::DT_BOOL:
      return c10::ScalarType::Bool;
    case ge::DT_BF16:
      return c10::ScalarType::BFloat16;
    case ge::DT_FLOAT8_E5M2:
      return c10::ScalarType::Float8_e5m2;
    case ge::DT_FLOAT8_E4M3FN:
      return c10::ScalarType::Float8_e4m3fn;
    case ge::DT_FLOAT8_E8M0:
      return c10::ScalarType::Float8_e8m0fnu;
    case ge::DT_HIFLOAT8:  // torch has no HiFloat8: torch_npu keeps its data in a uint8 tensor
      return c10::ScalarType::Byte;
    default:
      Fail("a dtype the torch plugin cannot be handed");
  }
}

// A fresh call: tensor ids from 0 (the inputs first, in the entry's order), nothing launched.
inline void Begin() {
  TensorCount() = 0;
  Launches() = 0;
}

// The case's input i as a tensor (tensor id i: the kernel entry's i-th GM parameter), or none.
inline Value Input(gert::TilingContext* ctx, size_t i) {
  const gert::StorageShape* shape = ctx->GetInputShape(i);
  if (shape == nullptr) {
    ++TensorCount();  // keeps tensor ids in step with the entry's parameters
    return std::monostate{};
  }
  const gert::Shape& s = shape->GetStorageShape();
  std::vector<int64_t> dims(s.GetDimNum());
  for (size_t d = 0; d < dims.size(); ++d) dims[d] = s.GetDim(d);
  return c10::Tensor(dims, TorchType(ctx->GetInputDesc(i)->GetDataType()));
}

// Call `op` as cann-bench's evaluator calls it (the tensors in order to its schema's Tensor
// parameters, the attributes by name), check its results against the case's outputs, and write
// the launch it records as the tiling data.
inline ge::graphStatus Run(gert::TilingContext* ctx, const std::string& op, const std::vector<Value>& inputs,
                           const std::map<std::string, Value>& attrs) {
  auto it = Ops().find(op);
  if (it == Ops().end() && Ops().size() == 1) it = Ops().begin();
  if (it == Ops().end() || !it->second.device) Fail("the plugin registers no PrivateUse1 implementation of " + op);
  const std::string& schema = it->second.schema;
  std::vector<Value> args;
  size_t open = schema.find('('), close = schema.find(')'), tensors = 0;
  std::string params = open == std::string::npos ? "" : schema.substr(open + 1, close - open - 1);
  for (size_t at = 0; at < params.size();) {
    size_t comma = params.find(',', at);
    std::string p = params.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    at = comma == std::string::npos ? params.size() : comma + 1;
    p = p.substr(0, p.find('='));
    p.erase(p.find_last_not_of(" \t") + 1);
    p.erase(0, p.find_first_not_of(" \t"));
    if (p.empty()) continue;
    std::string name = p.substr(p.find_last_of(" \t*") + 1);
    if (p.rfind("Tensor", 0) == 0) {
      if (tensors == inputs.size()) Fail("the schema " + schema + " takes more tensors than the task's inputs");
      args.push_back(inputs[tensors++]);
    } else if (auto v = attrs.find(name); v != attrs.end()) {
      args.push_back(v->second);
    } else {
      Fail("the schema " + schema + " names " + name + ", not an attribute of the task");
    }
  }
  std::vector<c10::Tensor> outs = it->second.device(args);
  if (Launches() == 0) Recorded() = LaunchRecord{kNoLaunch, 0, 1, {}};  // its outputs stay unwritten, as on the NPU
  if (outs.size() != ctx->GetComputeNodeOutputNum())
    Fail("the plugin returns " + std::to_string(outs.size()) + " tensors, the task has " +
         std::to_string(ctx->GetComputeNodeOutputNum()) + " outputs");
  LaunchRecord& r = Recorded();
  const size_t ninputs = inputs.size();
  for (int k = 0; k < r.nargs; ++k) {  // an output's tensor id becomes its entry parameter's
    if (r.args[k].kind != kTensorArg || r.args[k].tensor < static_cast<int32_t>(ninputs)) continue;
    int32_t param = -1;
    for (size_t o = 0; o < outs.size(); ++o)
      if (outs[o].id() == r.args[k].tensor) param = static_cast<int32_t>(ninputs + o);
    if (param < 0) Fail("a launch argument points to a tensor the plugin does not return");
    r.args[k].tensor = param;
  }
  for (size_t o = 0; o < outs.size(); ++o) {
    const gert::Shape& s = ctx->GetOutputShape(o)->GetStorageShape();
    if (outs[o].numel() != s.GetShapeSize() || outs[o].scalar_type() != TorchType(ctx->GetOutputDesc(o)->GetDataType()))
      Fail("the plugin's output " + std::to_string(o) + " differs from the task's in size or dtype");
  }
  if (r.blockDim <= 0 || r.blockDim > 65535) Fail("launch with a block count out of range");
  ctx->SetBlockDim(static_cast<uint32_t>(r.blockDim));
  *ctx->GetWorkspaceSizes(1) = 0;
  LaunchRecord* data = ctx->GetTilingData<LaunchRecord>();
  if (data == nullptr) Fail("the launch record does not fit the tiling data");
  *data = r;
  return ge::GRAPH_SUCCESS;
}
}  // namespace cann_bench_direct
