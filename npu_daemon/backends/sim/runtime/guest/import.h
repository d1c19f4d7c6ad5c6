// What the guest engine's import units share (guest.h, docs/trust_boundary.md): a core's store,
// the running module, the trampoline that turns a host function into an import of module "ascendc",
// and the checks that hold the guest's handles (element types, tensors, queues) to what the
// emulation made. Each api_*.cpp unit serves one family of the API and defines its imports.
#pragma once

#include <algorithm>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "../../guest/include/ascendc_guest/abi.h"
#include "guest.h"
#include "kernel_operator.h"
#include "wasmtime_c.h"

namespace ascendc_sim::guest {

using ascendc_guest::Dtype;

// Raises a wasmtime error as the emulation's RUNTIME_ERROR, naming `what`.
void Check(wasmtime_error_t* e, const char* what);

// An object of the API the kernel holds by handle (a Matmul), owned by its core.
struct HostObject {
  virtual ~HostObject() = default;
};

// One core's instance: its store (fuel, memory, stack) and what the kernel made through the API.
struct GuestCore {
  wasmtime_store_t* store = nullptr;
  wasmtime_context_t* cx = nullptr;
  wasmtime_memory_t memory{};
  uint64_t used = 0;               // fuel this store has burnt, as last counted
  std::exception_ptr failure;      // an emulation error raised in an import, rethrown past the guest
  wasmtime_instance_t instance{};  // the running instance, for the host's calls into the kernel
  std::vector<std::unique_ptr<AscendC::TPipe>> pipes;
  std::vector<std::unique_ptr<AscendC::TQueBase>> queues;
  std::vector<std::unique_ptr<HostObject>> matmuls;
  ~GuestCore() {
    matmuls.clear();
    queues.clear();
    pipes.clear();
    if (store) wasmtime_store_delete(store);
  }
};

struct Module::Impl {
  wasm_engine_t* engine = nullptr;
  wasmtime_module_t* module = nullptr;
  wasmtime_module_t* aicModule = nullptr;  // the AIC cores' build, when the kernel has one per core type
  wasmtime_linker_t* linker = nullptr;
  std::string entry, kernelFile;
  LaunchGm gm;
  uint64_t scalar = 0;  // fuel over every core: the kernel's own instructions

  ~Impl() {
    if (linker) wasmtime_linker_delete(linker);
    if (module) wasmtime_module_delete(module);
    if (aicModule) wasmtime_module_delete(aicModule);
    if (engine) wasm_engine_delete(engine);
  }
};

extern thread_local GuestCore* t_core;  // the core whose guest is running on this thread
extern Module::Impl* g_module;          // one launch per process

// What the host holds for a core's kernel outside its 64 MiB: objects its API calls make, each for a
// few instructions of fuel. Unbounded, a loop of pipe_new held 2 million TPipes (45 s of the
// harness's time in every later tensor check), one of pipe_init_que a queue registry whose teardown
// is quadratic, and one of forged lines a site per call in the core's tables.
constexpr size_t kMaxPipes = 64;             // alive at once (a destroyed one's slot is used again)
constexpr size_t kMaxQueues = 16384;         // bound over the core's run (InitBuffer after Reset binds again)
constexpr int32_t kMaxLine = (1 << 16) - 1;  // a line past it is reported as it: one site, not one per line

// One import call: the guest's memory for pointer arguments, and the fuel burnt since the last.
struct Call {
  wasmtime_caller_t* caller;
  SrcLoc Loc(int32_t line) const { return {g_module->kernelFile.c_str(), std::clamp(line, 0, kMaxLine)}; }
  // `n` bytes of guest memory at guest address `p` (a pointer argument), bounds checked.
  uint8_t* Bytes(uint32_t p, uint64_t n, const char* api) const {
    const size_t size = wasmtime_memory_data_size(t_core->cx, &t_core->memory);
    if (static_cast<uint64_t>(p) + n > size)
      throw SimError(Status::RUNTIME_ERROR, std::string(api) + ": pointer argument outside the kernel's memory");
    return wasmtime_memory_data(t_core->cx, &t_core->memory) + p;
  }
  // A struct the guest passed by address, copied out of its memory (bounds checked).
  template <typename S>
  S Read(uint32_t p, const char* api) const {
    static_assert(std::is_trivially_copyable_v<S>);
    S s;
    std::memcpy(&s, Bytes(p, sizeof s, api), sizeof s);
    return s;
  }
};

// A call the emulation refuses: the kernel stops with RUNTIME_ERROR naming the API and why.
[[noreturn]] inline void Refuse(const char* api, const std::string& why) {
  throw SimError(Status::RUNTIME_ERROR, std::string(api) + ": " + why);
}

// Calls the running kernel's export `name` from within an import (a Matmul's user copy): the
// parameters of the given wasm kinds, no result; its fuel is the kernel's, its traps and the
// errors of the imports it calls stop the kernel as any.
void CallGuest(const char* name, std::vector<wasmtime_val_raw_t> values, const std::vector<uint8_t>& kinds);

// Charge the guest instructions run since the previous import to the running core (guest.cpp),
// less the `args` that set up this import's arguments: the native count leaves out argument moves
// too, and every import is charged by the emulation itself.
void Meter(uint64_t args);

template <typename T>
struct Raw;
template <>
struct Raw<int32_t> {
  static constexpr uint8_t kKind = WASM_I32;
  static int32_t Get(const wasmtime_val_raw_t& v) { return v.i32; }
  static void Put(wasmtime_val_raw_t& v, int32_t x) { v.i32 = x; }
};
template <>
struct Raw<uint32_t> {
  static constexpr uint8_t kKind = WASM_I32;
  static uint32_t Get(const wasmtime_val_raw_t& v) { return static_cast<uint32_t>(v.i32); }
  static void Put(wasmtime_val_raw_t& v, uint32_t x) { v.i32 = static_cast<int32_t>(x); }
};
template <>
struct Raw<float> {
  static constexpr uint8_t kKind = WASM_F32;
  static float Get(const wasmtime_val_raw_t& v) { return v.f32; }
  static void Put(wasmtime_val_raw_t& v, float x) { v.f32 = x; }
};
template <>
struct Raw<int64_t> {
  static constexpr uint8_t kKind = WASM_I64;
  static int64_t Get(const wasmtime_val_raw_t& v) { return v.i64; }
  static void Put(wasmtime_val_raw_t& v, int64_t x) { v.i64 = x; }
};

// The import trampoline of `Fn(Call&, args...)`: arguments unpacked by type, the emulation's
// errors held for the host and turned into a trap, so no C++ exception crosses guest frames.
template <auto Fn>
struct Import;
template <typename R, typename... A, R (*Fn)(const Call&, A...)>
struct Import<Fn> {
  template <size_t... I>
  static void Invoke(const Call& c, wasmtime_val_raw_t* v, std::index_sequence<I...>) {
    if constexpr (std::is_void_v<R>)
      Fn(c, Raw<A>::Get(v[I])...);
    else
      Raw<R>::Put(v[0], Fn(c, Raw<A>::Get(v[I])...));
  }
  static wasm_trap_t* Callback(void*, wasmtime_caller_t* caller, wasmtime_val_raw_t* v, size_t) {
    // No core runs the guest while the host reads the module's GM data (Module::GmData): a start
    // function calling the API there is stopped before any of the emulation is reached.
    if (t_core == nullptr) {
      static constexpr char kOutside[] = "an API call outside a core";
      return wasmtime_trap_new(kOutside, sizeof kOutside - 1);
    }
    try {
      Meter(sizeof...(A));
      Invoke(Call{caller}, v, std::index_sequence_for<A...>{});
      return nullptr;
    } catch (...) {
      t_core->failure = std::current_exception();
      static constexpr char kMsg[] = "the emulation stopped the kernel";
      return wasmtime_trap_new(kMsg, sizeof kMsg - 1);
    }
  }
  static void Define(wasmtime_linker_t* linker, const char* name) {
    wasm_valtype_t* params[] = {wasm_valtype_new(Raw<A>::kKind)..., nullptr};
    wasm_valtype_vec_t p, r;
    wasm_valtype_vec_new(&p, sizeof...(A), params);
    if constexpr (std::is_void_v<R>) {
      wasm_valtype_vec_new(&r, 0, nullptr);
    } else {
      wasm_valtype_t* result[] = {wasm_valtype_new(Raw<R>::kKind)};
      wasm_valtype_vec_new(&r, 1, result);
    }
    wasm_functype_t* ty = wasm_functype_new(&p, &r);
    Check(wasmtime_linker_define_func_unchecked(linker, "ascendc", 7, name, std::strlen(name), ty, Callback, nullptr,
                                                nullptr),
          name);
    wasm_functype_delete(ty);
  }
};

template <typename T>
struct Tag {
  using type = T;
};
// f(Tag<T>) for the element type the guest named.
template <typename F>
decltype(auto) WithType(int32_t code, F&& f) {
  switch (static_cast<Dtype>(code)) {
    case Dtype::kF16:
      return f(Tag<half>{});
    case Dtype::kF32:
      return f(Tag<float>{});
    case Dtype::kBf16:
      return f(Tag<bfloat16_t>{});
    case Dtype::kI8:
      return f(Tag<int8_t>{});
    case Dtype::kU8:
      return f(Tag<uint8_t>{});
    case Dtype::kI16:
      return f(Tag<int16_t>{});
    case Dtype::kU16:
      return f(Tag<uint16_t>{});
    case Dtype::kI32:
      return f(Tag<int32_t>{});
    case Dtype::kU32:
      return f(Tag<uint32_t>{});
    case Dtype::kI64:
      return f(Tag<int64_t>{});
    case Dtype::kU64:
      return f(Tag<uint64_t>{});
    case Dtype::kF64:
      throw SimError(Status::RUNTIME_ERROR, "double elements are not supported by the guest engine");
    case Dtype::kF8E4M3FN:
    case Dtype::kF8E5M2:
    case Dtype::kF8E8M0:
    case Dtype::kHiF8:
      throw SimError(Status::RUNTIME_ERROR, "one-byte float elements: the guest engine copies and casts them only");
  }
  throw SimError(Status::RUNTIME_ERROR, "element type code " + std::to_string(code) + " unknown to the guest engine");
}
// WithType, and Ascend 950's one-byte floats: tensors of them are made, copied, read and cast.
template <typename F>
decltype(auto) WithTypeOrFp8(int32_t code, F&& f) {
  switch (static_cast<Dtype>(code)) {
    case Dtype::kF8E4M3FN:
      return f(Tag<fp8_e4m3fn_t>{});
    case Dtype::kF8E5M2:
      return f(Tag<fp8_e5m2_t>{});
    case Dtype::kF8E8M0:
      return f(Tag<fp8_e8m0_t>{});
    case Dtype::kHiF8:
      return f(Tag<hifloat8_t>{});
    default:
      return WithType(code, std::forward<F>(f));
  }
}
template <typename T>
constexpr bool kFloating = std::is_same_v<T, half> || std::is_same_v<T, float>;
template <typename T>
constexpr bool kArith = kFloating<T> || std::is_same_v<T, int16_t> || std::is_same_v<T, int32_t>;

// The guest's uint8_t repeatTime; a forged wider one is refused rather than truncated.
inline uint8_t Repeat(int32_t repeat) {
  if (repeat < 0 || repeat > static_cast<int32_t>(AscendC::MAX_REPEAT_TIMES))
    throw SimError(Status::RUNTIME_ERROR, "repeatTime " + std::to_string(repeat) + " out of range [0, 255]");
  return static_cast<uint8_t>(repeat);
}
[[noreturn]] inline void Unsupported(const char* api, int32_t code) {
  throw SimError(Status::RUNTIME_ERROR, std::string(api) + " for element type code " + std::to_string(code) +
                                            ": not in the guest engine's API yet (docs/trust_boundary.md)");
}
using ascendc_guest::BitsOf;
using ascendc_guest::FromBits;
// A global tensor the guest names, of the size it declared: the `reach` elements an API call
// touches from its start must lie in one GM buffer of the launch.
template <typename T>
AscendC::GlobalTensor<T> Global(uint32_t addr, int64_t size, int64_t reach, const char* api) {
  AscendC::GlobalTensor<T> g;
  // Past 2^32 elements no buffer of the guest's 2 GiB of GM holds them, and the byte count would
  // wrap to a small one (InitGlobalMemory of 2^62 floats wrote on past its buffer).
  if (reach > (int64_t{1} << 32))
    throw SimError(Status::RUNTIME_ERROR,
                   std::string(api) + ": " + std::to_string(reach) + " elements reach past the GM");
  const uint64_t bytes = static_cast<uint64_t>(std::max<int64_t>(reach, 1)) * sizeof(T);
  g.SetGlobalBuffer(reinterpret_cast<T*>(g_module->gm.map.Resolve(addr, bytes, api)), static_cast<uint64_t>(size));
  return g;
}

// A queue of the host: TQueBind's operations with the pipes its positions name.
struct HostQue : AscendC::TQueBase {
  pipe_t producer, consumer;
  AscendC::TPosition src;
  HostQue(AscendC::TPosition s, AscendC::TPosition d)
      : producer(AscendC::ProducerPipe(s)), consumer(AscendC::ConsumerPipe(d)), src(s) {}
  using TQueBase::Alloc;
  using TQueBase::Dequeue;
  using TQueBase::Enqueue;
  using TQueBase::Free;
  uint32_t Head() const { return sizes_[head_]; }
  int32_t Queued() const { return count_; }
  int32_t Idle() const {
    return static_cast<int32_t>(std::count_if(slots_, slots_ + num_, [](const Slot& s) { return !s.inUse; }));
  }
};
inline HostQue& Que(int32_t id) {
  if (id < 0 || static_cast<size_t>(id) >= t_core->queues.size())
    throw SimError(Status::RUNTIME_ERROR, "a queue used before TPipe::InitBuffer bound it");
  return static_cast<HostQue&>(*t_core->queues[static_cast<size_t>(id)]);
}
inline AscendC::TPipe& Pipe(int32_t id) {
  if (id < 0 || static_cast<size_t>(id) >= t_core->pipes.size() || !t_core->pipes[static_cast<size_t>(id)])
    throw SimError(Status::RUNTIME_ERROR, "a TPipe used after its end");
  return *t_core->pipes[static_cast<size_t>(id)];
}
inline AscendC::TPosition Position(int32_t p) {
  if (p < 0 || p >= static_cast<int32_t>(AscendC::TPosition::MAX))
    throw SimError(Status::RUNTIME_ERROR, "position code " + std::to_string(p) + " out of range");
  return static_cast<AscendC::TPosition>(p);
}

// Where a tensor in buffer `b` may end (a core's buffers share one address space): the buffer's
// end, and for the UB what the core's pipes handed out past it, since TPipe tolerates an InitBuffer
// past the UB as the device does (core.cpp, TPipe::Allocate; an access there is the emulation's
// error), within the core's local memory.
inline uint64_t LocalEnd(ascendc_sim::LocalBuf b) {
  const auto& local = ascendc_sim::CurrentCore().Local();
  uint64_t end = static_cast<uint64_t>(local.Base(b)) + local.Size(b);
  if (b == ascendc_sim::LocalBuf::kUB)
    for (const auto& pipe : t_core->pipes)
      if (pipe) end = std::max<uint64_t>(end, pipe->UsedBytes());
  return end;
}

// A local tensor the guest names: its bytes must lie inside what its position's buffer can hand
// out, since the emulation trusts a tensor's own extent (on the native engine only the library
// made tensors).
template <typename T>
AscendC::LocalTensor<T> Local(uint32_t addr, uint32_t size,
                              int32_t pos = static_cast<int32_t>(AscendC::TPosition::VECCALC)) {
  const AscendC::TPosition p = Position(pos);
  const ascendc_sim::LocalBuf b = AscendC::BufferOf(p);
  const uint64_t base = ascendc_sim::CurrentCore().Local().Base(b), end = LocalEnd(b);
  if (addr < base || static_cast<uint64_t>(addr) + static_cast<uint64_t>(size) * sizeof(T) > end)
    throw SimError(Status::RUNTIME_ERROR, "a LocalTensor of " + std::to_string(size) + " elements at byte " +
                                              std::to_string(addr) + " lies past the " + std::to_string(end - base) +
                                              " B of its buffer");
  return AscendC::LocalTensor<T>(addr, size, p);
}

// The UB byte address of a guest __ubuf__ pointer: LocalTensor::GetPhyAddr's kUbBase + address, or
// the bare address, as the device's pointers are (kernels form them from integers). Not yet held
// to the UB: Local<> and the native intrinsics do that.
inline uint32_t UbOfPointer(uint32_t p) { return p >= ascendc_guest::kUbBase ? p - ascendc_guest::kUbBase : p; }

// Each family's imports, defined on the module's linker (guest.cpp calls them all).
void DefineCoreImports(wasmtime_linker_t* l);
void DefineDataImports(wasmtime_linker_t* l);
void DefineVectorImports(wasmtime_linker_t* l);
void DefineAdvImports(wasmtime_linker_t* l);
void DefineVecCoreImports(wasmtime_linker_t* l);
void DefineCubeImports(wasmtime_linker_t* l);
void DefineMatmulImports(wasmtime_linker_t* l);
void DefineVecFamilyImports(wasmtime_linker_t* l);  // vec_families.cpp
void DefineRawImports(wasmtime_linker_t* l);
void DefineCceImports(wasmtime_linker_t* l);
void DefineCceCubeImports(wasmtime_linker_t* l);  // api_cce_cube.cpp
void DefineSliceImports(wasmtime_linker_t* l);
void DefineSetupImports(wasmtime_linker_t* l);
void DefineInt4Imports(wasmtime_linker_t* l);
void DefineFp8Imports(wasmtime_linker_t* l);  // api_fp8.cpp
void DefineAdvSoftmaxFlashImports(wasmtime_linker_t* l);
void DefineAdvQuantImports(wasmtime_linker_t* l);
void DefineAdvNormImports(wasmtime_linker_t* l);  // api_adv_norm.cpp

}  // namespace ascendc_sim::guest
