// The guest engine's host side: the wasmtime store per core, the metering, and the imports of
// module "ascendc", each run by the emulation on memory the guest cannot address (guest.h).
#include "guest.h"

#include <algorithm>
#include <cstring>
#include <exception>
#include <fstream>
#include <iterator>
#include <tuple>
#include <type_traits>
#include <utility>

#include "../../guest/include/ascendc_guest/abi.h"
#include "kernel_operator.h"
#include "wasmtime_c.h"

namespace ascendc_sim::guest {

using ascendc_guest::Dtype;
using ascendc_guest::kGmBase;

uint32_t GmMap::Add(uint8_t* kernel, uint64_t bytes) {
  const uint64_t at = kGmBase + next_;
  if (at + bytes > 0x100000000ull)
    throw SimError(Status::RUNTIME_ERROR, "the launch's GM exceeds the guest engine's 2 GiB of GM addresses");
  ranges_.push_back({static_cast<uint32_t>(at), bytes, kernel});
  next_ += (bytes + 4095) / 4096 * 4096;  // a page apart: a stray offset lands in no other buffer
  return static_cast<uint32_t>(at);
}

uint8_t* GmMap::Resolve(uint32_t addr, uint64_t bytes, const char* api) const {
  for (const Range& r : ranges_)
    if (addr >= r.guest && static_cast<uint64_t>(addr) - r.guest + bytes <= r.bytes) return r.kernel + (addr - r.guest);
  char where[64];
  std::snprintf(where, sizeof where, "GM address 0x%x (+%llu B)", addr, static_cast<unsigned long long>(bytes));
  throw SimError(Status::RUNTIME_ERROR, std::string(api) + ": " + where + " is in no GM buffer of the launch");
}

namespace {

constexpr uint64_t kFuel = 1ull << 62;
constexpr int64_t kGuestMemoryBytes = 1ll << 30;  // below kGmBase: a GM address never names guest memory

std::string Take(wasm_byte_vec_t& v) {
  std::string s(v.data, v.size);
  wasm_byte_vec_delete(&v);
  return s;
}
void Check(wasmtime_error_t* e, const char* what) {
  if (e == nullptr) return;
  wasm_byte_vec_t m;
  wasmtime_error_message(e, &m);
  wasmtime_error_delete(e);
  throw SimError(Status::RUNTIME_ERROR, std::string(what) + ": " + Take(m));
}

}  // namespace

// One core's instance: its store (fuel, memory, stack) and what the kernel made through the API.
struct GuestCore {
  wasmtime_store_t* store = nullptr;
  wasmtime_context_t* cx = nullptr;
  wasmtime_memory_t memory{};
  uint64_t used = 0;           // fuel this store has burnt, as last counted
  std::exception_ptr failure;  // an emulation error raised in an import, rethrown past the guest
  std::vector<std::unique_ptr<AscendC::TPipe>> pipes;
  std::vector<std::unique_ptr<AscendC::TQueBase>> queues;
  ~GuestCore() {
    queues.clear();
    pipes.clear();
    if (store) wasmtime_store_delete(store);
  }
};

struct Module::Impl {
  wasm_engine_t* engine = nullptr;
  wasmtime_module_t* module = nullptr;
  wasmtime_linker_t* linker = nullptr;
  std::string entry, kernelFile;
  LaunchGm gm;
  uint64_t scalar = 0;  // fuel over every core: the kernel's own instructions

  ~Impl() {
    if (linker) wasmtime_linker_delete(linker);
    if (module) wasmtime_module_delete(module);
    if (engine) wasm_engine_delete(engine);
  }
};

namespace {

thread_local GuestCore* t_core = nullptr;  // the core whose guest is running on this thread
Module::Impl* g_module = nullptr;          // one launch per process

// One import call: the guest's memory for pointer arguments, and the fuel burnt since the last.
struct Call {
  wasmtime_caller_t* caller;
  SrcLoc Loc(int32_t line) const { return {g_module->kernelFile.c_str(), line}; }
  // `n` bytes of guest memory at guest address `p` (a pointer argument), bounds checked.
  uint8_t* Bytes(uint32_t p, uint64_t n, const char* api) const {
    const size_t size = wasmtime_memory_data_size(t_core->cx, &t_core->memory);
    if (static_cast<uint64_t>(p) + n > size)
      throw SimError(Status::RUNTIME_ERROR, std::string(api) + ": pointer argument outside the kernel's memory");
    return wasmtime_memory_data(t_core->cx, &t_core->memory) + p;
  }
};

// Charge the guest instructions run since the previous import to the running core: the core's
// next trace record settles them as scalar work before it (Core::SettleScalarInstrs).
void Meter() {
  uint64_t left = 0;
  Check(wasmtime_context_get_fuel(t_core->cx, &left), "fuel");
  const uint64_t used = kFuel - left;
  g_module->scalar += used - t_core->used;
  t_core->used = used;
}

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
    try {
      Meter();
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

// ---- the API, run by the emulation -----------------------------------------------------------

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
  }
  throw SimError(Status::RUNTIME_ERROR, "element type code " + std::to_string(code) + " unknown to the guest engine");
}
template <typename T>
constexpr bool kFloating = std::is_same_v<T, half> || std::is_same_v<T, float>;
template <typename T>
constexpr bool kArith = kFloating<T> || std::is_same_v<T, int16_t> || std::is_same_v<T, int32_t>;

[[noreturn]] void Unsupported(const char* api, int32_t code) {
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
};
HostQue& Que(int32_t id) {
  if (id < 0 || static_cast<size_t>(id) >= t_core->queues.size())
    throw SimError(Status::RUNTIME_ERROR, "a queue used before TPipe::InitBuffer bound it");
  return static_cast<HostQue&>(*t_core->queues[static_cast<size_t>(id)]);
}
AscendC::TPipe& Pipe(int32_t id) {
  if (id < 0 || static_cast<size_t>(id) >= t_core->pipes.size() || !t_core->pipes[static_cast<size_t>(id)])
    throw SimError(Status::RUNTIME_ERROR, "a TPipe used after its end");
  return *t_core->pipes[static_cast<size_t>(id)];
}
AscendC::TPosition Position(int32_t p) {
  if (p < 0 || p >= static_cast<int32_t>(AscendC::TPosition::MAX))
    throw SimError(Status::RUNTIME_ERROR, "position code " + std::to_string(p) + " out of range");
  return static_cast<AscendC::TPosition>(p);
}

// A local tensor the guest names: its bytes must lie inside its position's buffer, since the
// emulation trusts a tensor's own extent (on the native engine only the library made tensors).
template <typename T>
AscendC::LocalTensor<T> Local(uint32_t addr, uint32_t size,
                              int32_t pos = static_cast<int32_t>(AscendC::TPosition::VECCALC)) {
  const AscendC::TPosition p = Position(pos);
  const uint64_t cap = ascendc_sim::CurrentCore().Local().Size(AscendC::BufferOf(p));
  if (static_cast<uint64_t>(addr) + static_cast<uint64_t>(size) * sizeof(T) > cap)
    throw SimError(Status::RUNTIME_ERROR, "a LocalTensor of " + std::to_string(size) + " elements at byte " +
                                              std::to_string(addr) + " lies past the " + std::to_string(cap) +
                                              " B of its buffer");
  return AscendC::LocalTensor<T>(addr, size, p);
}

int32_t BlockIdx(const Call&) { return static_cast<int32_t>(AscendC::GetBlockIdx()); }
int32_t BlockNum(const Call&) { return static_cast<int32_t>(AscendC::GetBlockNum()); }

void TilingRead(const Call& c, uint32_t dst, uint32_t gm, uint32_t bytes) {
  const LaunchGm& l = g_module->gm;
  if (gm < l.tiling || static_cast<uint64_t>(gm) - l.tiling + bytes > l.tilingBytes)
    throw SimError(Status::RUNTIME_ERROR, "GET_TILING_DATA: the tiling argument reads past the tiling data");
  std::memcpy(c.Bytes(dst, bytes, "GET_TILING_DATA"), l.tilingData + (gm - l.tiling), bytes);
}

int32_t PipeNew(const Call&) {
  t_core->pipes.push_back(std::make_unique<AscendC::TPipe>());
  return static_cast<int32_t>(t_core->pipes.size() - 1);
}
void PipeDelete(const Call&, int32_t id) {
  Pipe(id);  // a live pipe, or the error
  t_core->pipes[static_cast<size_t>(id)].reset();
}
int32_t PipeInitQue(const Call& c, int32_t pipe, int32_t src, int32_t dst, int32_t, int32_t num, uint32_t len,
                    int32_t line) {
  auto q = std::make_unique<HostQue>(Position(src), Position(dst));
  Pipe(pipe).InitQueue(*q, Position(src), static_cast<uint8_t>(num), len, c.Loc(line));
  t_core->queues.push_back(std::move(q));
  return static_cast<int32_t>(t_core->queues.size() - 1);
}
uint32_t PipeInitBuf(const Call& c, int32_t pipe, int32_t pos, int32_t num, uint32_t len, int32_t line) {
  return Pipe(pipe).InitScratch(Position(pos), static_cast<uint8_t>(num), len, c.Loc(line));
}
uint32_t QueAlloc(const Call& c, int32_t id, int32_t line) {
  HostQue& q = Que(id);
  return q.Alloc(q.producer, q.consumer, c.Loc(line));
}
void QueFree(const Call& c, int32_t id, uint32_t addr, int32_t line) {
  HostQue& q = Que(id);
  q.Free(addr, q.producer, q.consumer, c.Loc(line));
}
void QueEnque(const Call& c, int32_t id, uint32_t addr, uint32_t bytes, int32_t line) {
  HostQue& q = Que(id);
  q.Enqueue(addr, bytes, q.producer, q.consumer, c.Loc(line));
}
int64_t QueDeque(const Call& c, int32_t id, int32_t line) {
  HostQue& q = Que(id);
  const uint32_t bytes = q.Head();
  const uint32_t addr = q.Dequeue(q.producer, q.consumer, c.Loc(line));
  return static_cast<int64_t>(addr) | static_cast<int64_t>(bytes) << 32;
}

void CopyGmUb(const Call& c, int32_t t, int32_t toGm, uint32_t gm, int64_t gmSize, uint32_t ub, uint32_t ubSize,
              int32_t pos, uint32_t count, int32_t line) {
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto l = Local<T>(ub, ubSize, pos);
    const auto g = Global<T>(gm, gmSize, count, "DataCopy");
    if (toGm)
      AscendC::DataCopy(g, l, count, c.Loc(line));
    else
      AscendC::DataCopy(l, g, count, c.Loc(line));
  });
}
void CopyPadGmUb(const Call& c, int32_t t, int32_t toGm, uint32_t gm, int64_t gmSize, uint32_t ub, uint32_t ubSize,
                 int32_t pos, uint32_t params, uint32_t pad, int32_t line) {
  // The guest's DataCopyExtParams: the same five fields with wasm32's natural alignment.
  struct ExtParams {
    uint16_t blockCount;
    uint32_t blockLen, srcStride, dstStride, rsv;
  };
  ExtParams e;
  std::memcpy(&e, c.Bytes(params, sizeof e, "DataCopyPad"), sizeof e);
  const AscendC::DataCopyExtParams p(e.blockCount, e.blockLen, e.srcStride, e.dstStride, e.rsv);
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto l = Local<T>(ub, ubSize, pos);
    // The GM the copy reaches: its bursts and the gaps between them.
    const int64_t bursts = std::max<int64_t>(e.blockCount, 1), gap = toGm ? e.dstStride : e.srcStride;
    const int64_t reach = (bursts * e.blockLen + (bursts - 1) * gap + sizeof(T) - 1) / static_cast<int64_t>(sizeof(T));
    const auto g = Global<T>(gm, gmSize, reach, "DataCopyPad");
    if (toGm) {
      AscendC::DataCopyPad(g, l, p, c.Loc(line));
    } else {
      // The guest's DataCopyPadExtParams<T>: isPad, leftPadding, rightPadding, then the value.
      struct PadHead {
        bool isPad;
        uint8_t left, right;
      };
      PadHead h;
      std::memcpy(&h, c.Bytes(pad, sizeof h, "DataCopyPad"), sizeof h);
      constexpr uint32_t kValueAt = (3 + alignof(T) - 1) / alignof(T) * alignof(T);  // after the three bytes
      T value;
      std::memcpy(&value, c.Bytes(pad + kValueAt, sizeof(T), "DataCopyPad"), sizeof(T));
      AscendC::DataCopyPad(l, g, p, AscendC::DataCopyPadExtParams<T>(h.isPad, h.left, h.right, value), c.Loc(line));
    }
  });
}

void VecBinary(const Call& c, int32_t op, int32_t t, uint32_t d, uint32_t dn, uint32_t a, uint32_t an, uint32_t b,
               uint32_t bn, int32_t count, int32_t line) {
  using ascendc_guest::Binary;
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto D = Local<T>(d, dn), A = Local<T>(a, an), B = Local<T>(b, bn);
    const SrcLoc loc = c.Loc(line);
    if constexpr (kArith<T>) {
      switch (static_cast<Binary>(op)) {
        case Binary::kAdd:
          return AscendC::Add(D, A, B, count, loc);
        case Binary::kSub:
          return AscendC::Sub(D, A, B, count, loc);
        case Binary::kMul:
          return AscendC::Mul(D, A, B, count, loc);
        case Binary::kMax:
          return AscendC::Max(D, A, B, count, loc);
        case Binary::kMin:
          return AscendC::Min(D, A, B, count, loc);
        case Binary::kDiv:
          if constexpr (kFloating<T>) return AscendC::Div(D, A, B, count, loc);
          break;
        default:
          break;
      }
    }
    if constexpr (std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t>) {
      if (static_cast<Binary>(op) == Binary::kAnd) return AscendC::And(D, A, B, count, loc);
      if (static_cast<Binary>(op) == Binary::kOr) return AscendC::Or(D, A, B, count, loc);
    }
    Unsupported("a binary vector instruction", t);
  });
}
void VecUnary(const Call& c, int32_t op, int32_t t, uint32_t d, uint32_t dn, uint32_t a, uint32_t an, int32_t count,
              int32_t line) {
  using ascendc_guest::Unary;
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kFloating<T>) {
      const auto D = Local<T>(d, dn), A = Local<T>(a, an);
      const SrcLoc loc = c.Loc(line);
      switch (static_cast<Unary>(op)) {
        case Unary::kExp:
          return AscendC::Exp(D, A, count, loc);
        case Unary::kLn:
          return AscendC::Ln(D, A, count, loc);
        case Unary::kAbs:
          return AscendC::Abs(D, A, count, loc);
        case Unary::kReciprocal:
          return AscendC::Reciprocal(D, A, count, loc);
        case Unary::kSqrt:
          return AscendC::Sqrt(D, A, count, loc);
        case Unary::kRsqrt:
          return AscendC::Rsqrt(D, A, count, loc);
        case Unary::kRelu:
          return AscendC::Relu(D, A, count, loc);
      }
    }
    Unsupported("a unary vector instruction", t);
  });
}
void VecScalar(const Call& c, int32_t op, int32_t t, uint32_t d, uint32_t dn, uint32_t a, uint32_t an, int64_t s,
               int32_t count, int32_t line) {
  using ascendc_guest::WithScalar;
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kArith<T>) {
      const auto D = Local<T>(d, dn), A = Local<T>(a, an);
      const T v = FromBits<T>(s);
      const SrcLoc loc = c.Loc(line);
      switch (static_cast<WithScalar>(op)) {
        case WithScalar::kAdds:
          return AscendC::Adds(D, A, v, count, loc);
        case WithScalar::kMuls:
          return AscendC::Muls(D, A, v, count, loc);
        case WithScalar::kMaxs:
          return AscendC::Maxs(D, A, v, count, loc);
        case WithScalar::kMins:
          return AscendC::Mins(D, A, v, count, loc);
        case WithScalar::kLeakyRelu:
          if constexpr (kFloating<T>) return AscendC::LeakyRelu(D, A, v, count, loc);
          break;
      }
    }
    Unsupported("a vector-scalar instruction", t);
  });
}
void VecDup(const Call& c, int32_t t, uint32_t d, uint32_t dn, int64_t value, int32_t count, int32_t line) {
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    AscendC::Duplicate(Local<T>(d, dn), FromBits<T>(value), count, c.Loc(line));
  });
}
int64_t UbGet(const Call& c, int32_t t, uint32_t addr, uint32_t size, uint32_t index, int32_t line) {
  return WithType(t, [&](auto tag) -> int64_t {
    using T = typename decltype(tag)::type;
    return BitsOf(Local<T>(addr, size).GetValue(index, c.Loc(line)));
  });
}
void UbSet(const Call& c, int32_t t, uint32_t addr, uint32_t size, uint32_t index, int64_t bits, int32_t line) {
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    Local<T>(addr, size).SetValue(index, FromBits<T>(bits), c.Loc(line));
  });
}
int64_t GmGet(const Call& c, int32_t t, uint32_t gm, int64_t offset, int32_t line) {
  return WithType(t, [&](auto tag) -> int64_t {
    using T = typename decltype(tag)::type;
    return BitsOf(Global<T>(gm + static_cast<uint32_t>(offset * static_cast<int64_t>(sizeof(T))), 1, 1, "GetValue")
                      .GetValue(0, c.Loc(line)));
  });
}
void GmSet(const Call& c, int32_t t, uint32_t gm, int64_t offset, int64_t bits, int32_t line) {
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    Global<T>(gm + static_cast<uint32_t>(offset * static_cast<int64_t>(sizeof(T))), 1, 1, "SetValue")
        .SetValue(0, FromBits<T>(bits), c.Loc(line));
  });
}
void VecCast(const Call& c, int32_t dt, int32_t st, int32_t round, uint32_t d, uint32_t dn, uint32_t a, uint32_t an,
             int32_t count, int32_t line) {
  if (round < 0 || round > static_cast<int32_t>(AscendC::RoundMode::CAST_ODD))
    throw SimError(Status::RUNTIME_ERROR, "Cast: round mode " + std::to_string(round) + " out of range");
  WithType(dt, [&](auto dtag) {
    using D = typename decltype(dtag)::type;
    WithType(st, [&](auto stag) {
      using S = typename decltype(stag)::type;
      if constexpr (ascendc_sim::CastSupported<D, S>())
        AscendC::Cast(Local<D>(d, dn), Local<S>(a, an), static_cast<AscendC::RoundMode>(round),
                      static_cast<uint32_t>(count), c.Loc(line));
      else
        Unsupported("Cast", dt * 16 + st);
    });
  });
}
void VecReduce(const Call& c, int32_t op, int32_t t, uint32_t d, uint32_t dn, uint32_t a, uint32_t an, uint32_t w,
               uint32_t wn, int32_t count, int32_t calIndex, int32_t line) {
  using ascendc_guest::Reduce;
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kFloating<T>) {
      const auto D = Local<T>(d, dn), A = Local<T>(a, an), W = Local<T>(w, wn);
      const SrcLoc loc = c.Loc(line);
      switch (static_cast<Reduce>(op)) {
        case Reduce::kSum:
          return AscendC::ReduceSum(D, A, W, count, loc);
        case Reduce::kMax:
          return AscendC::ReduceMax(D, A, W, count, calIndex != 0, loc);
        case Reduce::kMin:
          return AscendC::ReduceMin(D, A, W, count, calIndex != 0, loc);
      }
    }
    Unsupported("a whole-range reduction", t);
  });
}
int64_t TilingKeyImport(const Call&) { return static_cast<int64_t>(ascendc_sim::TilingKey()); }
uint32_t UserWorkspace(const Call&, uint32_t workspace) {
  return workspace + static_cast<uint32_t>(ascendc_sim::SocParamInt("lib_workspace_bytes"));
}
uint32_t SysWorkspace(const Call&) { return g_module->gm.workspace; }
void SyncAllImport(const Call& c, int32_t line) { ascendc_sim::CurrentCore().SyncAll(c.Loc(line)); }
void PipeBarrierImport(const Call& c, int32_t pipe, int32_t line) {
  if (pipe < PIPE_S || pipe > PIPE_ALL) throw SimError(Status::RUNTIME_ERROR, "PipeBarrier: pipe out of range");
  ascendc_sim::CurrentCore().Barrier(static_cast<pipe_t>(pipe), c.Loc(line), "PipeBarrier");
}
void SetFlagImport(const Call& c, int32_t event, int32_t id, int32_t line) {
  ascendc_sim::CurrentCore().SetFlag(event / 8, event % 8, static_cast<uint64_t>(id), c.Loc(line), "SetFlag");
}
void WaitFlagImport(const Call& c, int32_t event, int32_t id, int32_t line) {
  ascendc_sim::CurrentCore().WaitFlag(event / 8, event % 8, static_cast<uint64_t>(id), c.Loc(line), "WaitFlag");
}

void DefineImports(wasmtime_linker_t* l) {
  Import<BlockIdx>::Define(l, "block_idx");
  Import<BlockNum>::Define(l, "block_num");
  Import<TilingRead>::Define(l, "tiling_read");
  Import<PipeNew>::Define(l, "pipe_new");
  Import<PipeDelete>::Define(l, "pipe_delete");
  Import<PipeInitQue>::Define(l, "pipe_init_que");
  Import<PipeInitBuf>::Define(l, "pipe_init_buf");
  Import<QueAlloc>::Define(l, "que_alloc");
  Import<QueFree>::Define(l, "que_free");
  Import<QueEnque>::Define(l, "que_enque");
  Import<QueDeque>::Define(l, "que_deque");
  Import<CopyGmUb>::Define(l, "copy_gm_ub");
  Import<CopyPadGmUb>::Define(l, "copy_pad_gm_ub");
  Import<VecBinary>::Define(l, "vec_binary");
  Import<VecUnary>::Define(l, "vec_unary");
  Import<VecScalar>::Define(l, "vec_scalar");
  Import<VecDup>::Define(l, "vec_dup");
  Import<UbGet>::Define(l, "ub_get");
  Import<UbSet>::Define(l, "ub_set");
  Import<GmGet>::Define(l, "gm_get");
  Import<GmSet>::Define(l, "gm_set");
  Import<VecCast>::Define(l, "vec_cast");
  Import<VecReduce>::Define(l, "vec_reduce");
  Import<TilingKeyImport>::Define(l, "tiling_key");
  Import<UserWorkspace>::Define(l, "user_workspace");
  Import<SysWorkspace>::Define(l, "sys_workspace");
  Import<SyncAllImport>::Define(l, "sync_all");
  Import<PipeBarrierImport>::Define(l, "pipe_barrier");
  Import<SetFlagImport>::Define(l, "set_flag");
  Import<WaitFlagImport>::Define(l, "wait_flag");
}

}  // namespace

Module::Module(const std::string& wasmPath, const std::string& entry, const std::string& kernelFile, LaunchGm gm)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.entry = entry;
  m.kernelFile = kernelFile;
  m.gm = std::move(gm);
  std::ifstream f(wasmPath, std::ios::binary);
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (bytes.empty()) throw SimError(Status::RUNTIME_ERROR, "cannot read the kernel module " + wasmPath);
  wasm_config_t* config = wasm_config_new();
  wasmtime_config_consume_fuel_set(config, true);
  wasmtime_config_parallel_compilation_set(config, false);  // no compiler threads in a confined process
  // Explicit bounds checks instead of signal handlers: the emulation owns SIGSEGV (raw_access.cpp).
  wasmtime_config_signals_based_traps_set(config, false);
  m.engine = wasm_engine_new_with_config(config);
  Check(wasmtime_module_new(m.engine, bytes.data(), bytes.size(), &m.module), "compiling the kernel module");
  m.linker = wasmtime_linker_new(m.engine);
  DefineImports(m.linker);
  g_module = &m;
}

Module::~Module() { g_module = nullptr; }

const uint64_t* Module::ScalarCounter() const { return &impl_->scalar; }

void Module::Run(const std::vector<uint32_t>& args) {
  Impl& m = *impl_;
  GuestCore core;
  core.store = wasmtime_store_new(m.engine, nullptr, nullptr);
  wasmtime_store_limiter(core.store, kGuestMemoryBytes, -1, -1, -1, -1);
  core.cx = wasmtime_store_context(core.store);
  Check(wasmtime_context_set_fuel(core.cx, kFuel), "fuel");
  t_core = &core;
  struct Reset {
    ~Reset() { t_core = nullptr; }
  } reset;
  wasmtime_instance_t instance;
  wasm_trap_t* trap = nullptr;
  Check(wasmtime_linker_instantiate(m.linker, core.cx, m.module, &instance, &trap), "instantiating the kernel");
  auto call = [&](const char* name, std::vector<wasmtime_val_raw_t> values) {
    wasmtime_extern_t fn;
    if (!wasmtime_instance_export_get(core.cx, &instance, name, std::strlen(name), &fn) ||
        fn.kind != WASMTIME_EXTERN_FUNC)
      return false;
    trap = nullptr;
    if (values.empty()) values.resize(1);
    wasmtime_error_t* error = wasmtime_func_call_unchecked(core.cx, &fn.of.func, values.data(), values.size(), &trap);
    Meter();
    if (core.failure) std::rethrow_exception(core.failure);
    Check(error, "running the kernel");
    if (trap != nullptr) {
      wasm_byte_vec_t msg;
      wasm_trap_message(trap, &msg);
      wasm_trap_delete(trap);
      throw SimError(Status::RUNTIME_ERROR, "the kernel trapped: " + Take(msg));
    }
    return true;
  };
  wasmtime_extern_t memory;
  if (!wasmtime_instance_export_get(core.cx, &instance, "memory", 6, &memory) || memory.kind != WASMTIME_EXTERN_MEMORY)
    throw SimError(Status::RUNTIME_ERROR, "the kernel module exports no memory");
  core.memory = memory.of.memory;
  call("__wasm_call_ctors", {});
  std::vector<wasmtime_val_raw_t> values(args.size());
  for (size_t i = 0; i < args.size(); ++i) values[i].i32 = static_cast<int32_t>(args[i]);
  if (!call(m.entry.c_str(), values))
    throw SimError(Status::RUNTIME_ERROR, "kernel entry '" + m.entry + "' not found (extern \"C\" missing?)");
}

}  // namespace ascendc_sim::guest
