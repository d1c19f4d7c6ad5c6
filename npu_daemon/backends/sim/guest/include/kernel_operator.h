// The AscendC kernel API as a kernel compiled for the guest engine sees it (docs/trust_boundary.md).
// The kernel is compiled by clang to wasm32 and runs metered inside the host's WebAssembly runtime:
// it holds no tensor memory, no trace and no timing. A tensor here is a handle (a UB byte address,
// a size, a position; a GM address in the host's GM space), and every API call crosses into the
// host as an import of module "ascendc", where the emulation runs it on memory the guest cannot
// address. Element access (GetValue, SetValue) is such a call too, charged by the host.
#pragma once

// <limits.h>'s macros, unless the kernel included it first, are hidden again at the end (below).
// Parsed now, while they are defined: the libc++ headers that use them without including <climits>
// (<streambuf>, <sstream>), and <vector>, which includes it and follows in every tiling view.
#ifndef CHAR_BIT
#define ASCENDC_GUEST_HIDE_LIMITS
#include <climits>
#include <sstream>
#include <vector>
#endif

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "ascendc_guest/abi.h"
#include "ascendc_guest/params.h"

#ifndef __CCE_AICORE__
#define __CCE_AICORE__ 220
#endif
#ifndef __NPU_ARCH__
#define __NPU_ARCH__ 2201
#endif
// As the native engine (and CANN's CPU debug build): a kernel file's host-only launch wrappers
// (`#ifndef ASCENDC_CPU_DEBUG`) are left out.
#ifndef ASCENDC_CPU_DEBUG
#define ASCENDC_CPU_DEBUG 1
#endif
#define __aicore__
#define __global__
// A per-block variable (asc-devkit kernel_macros.h: `[[block_local]]`): each core has its own
// instance of the module (runtime/guest/guest.cpp), so a plain global already is the core's own.
#define __BLOCK_LOCAL__
// Address spaces, as on the device: an access through such a pointer is rewritten into a charged
// import (guest_ir.py, ascendc_guest/raw.h). Plain for a kernel clang's C++ refuses them in (an
// element of class type stored through one, guest_build.py); the marker below has guest_ir.py check
// the address of every access it cannot place in the kernel's own memory instead.
#ifndef ASCENDC_GUEST_PLAIN_POINTERS
#define __gm__ __attribute__((address_space(7)))
#define __ubuf__ __attribute__((address_space(8)))
#else
#define __gm__
#define __ubuf__
extern "C" __attribute__((used)) const char __ascendc_guest_plain_pointers = 1;
#endif
// The cube buffers' address spaces: a kernel never dereferences such a pointer (only the cube's
// intrinsics take it, ascendc_guest/cce_cube.h), so they are plain here.
#define __cbuf__
#define __ca__
#define __cb__
#define __cc__
#define GM_ADDR __gm__ uint8_t*
#define UB_ADDR __ubuf__ uint8_t*
// The device compiler's branch hints, which kernels use unqualified.
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

// An element of class type read through a __gm__ / __ubuf__ pointer (`half v = *p;`, `v = *p;`):
// its bits are one load there, which guest_ir.py makes a charged import. Templates, so the type
// stays trivially copyable. A store through such a pointer has no form: clang's C++ has no member
// function on an object in an address space (guest_build.py builds such a kernel without them).
#ifndef ASCENDC_GUEST_PLAIN_POINTERS
#define ASCENDC_GUEST_SPACE_LOADS(T)                                \
  template <int N>                                                  \
  T(const __attribute__((address_space(N))) T& o) : bits(o.bits) {} \
  template <int N>                                                  \
  T& operator=(const __attribute__((address_space(N))) T& o) {      \
    bits = o.bits;                                                  \
    return *this;                                                   \
  }
#else
#define ASCENDC_GUEST_SPACE_LOADS(T)
#endif

#define ASCENDC_GUEST_IMPORT(name) __attribute__((import_module("ascendc"), import_name(#name)))
namespace ascendc_guest {
// fp16 <-> float by the host's conversion, the native engine's (one F16C instruction, round to
// nearest even): compiled into the module, each is a library routine of about thirty metered
// instructions where the device's and the native engine's scalar code convert in one.
ASCENDC_GUEST_IMPORT(f16_to_f32) float f16_to_f32(uint32_t bits);
ASCENDC_GUEST_IMPORT(f32_to_f16) uint32_t f32_to_f16(float f);
}  // namespace ascendc_guest

// fp16 as the device stores it; arithmetic is in float, rounded once on assignment (clang's wasm32
// target has the storage type __fp16 but no arithmetic _Float16). Conversions are constexpr
// (`constexpr half ONE = 1.0;`): in a constant, by bits (round to nearest even, as __fp16 does).
struct half {
  uint16_t bits = 0;
  half() = default;
  constexpr half(float f) : bits(__builtin_is_constant_evaluated() ? FromFloat(f) : Store(f)) {}
  template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T>>>
  constexpr half(T v) : half(static_cast<float>(v)) {}
  constexpr operator float() const { return __builtin_is_constant_evaluated() ? ToFloat(bits) : Load(bits); }
  ASCENDC_GUEST_SPACE_LOADS(half)

 private:
  static uint16_t Store(float f) { return static_cast<uint16_t>(ascendc_guest::f32_to_f16(f)); }
  static float Load(uint16_t b) { return ascendc_guest::f16_to_f32(b); }
  // Rounds away the low `shift` bits of m to nearest, ties to even.
  static constexpr uint32_t RoundShift(uint32_t m, uint32_t shift) {
    const uint32_t r = m >> shift, rem = m & ((1u << shift) - 1), tie = 1u << (shift - 1);
    return r + (rem > tie || (rem == tie && (r & 1u)) ? 1u : 0u);
  }
  static constexpr uint16_t FromFloat(float f) {
    const uint32_t u = __builtin_bit_cast(uint32_t, f);
    const uint32_t sign = (u >> 16) & 0x8000u, a = u & 0x7fffffffu;
    if (a > 0x7f800000u) return static_cast<uint16_t>(sign | 0x7e00u | ((a >> 13) & 0x3ffu));  // NaN
    if (a >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);                        // rounds past 65504: inf
    if (a >= 0x38800000u) return static_cast<uint16_t>(sign | RoundShift(a - (112u << 23), 13));
    if (a < 0x33000000u) return static_cast<uint16_t>(sign);  // below half the least subnormal
    return static_cast<uint16_t>(sign | RoundShift((a & 0x7fffffu) | 0x800000u, 126 - (a >> 23)));
  }
  static constexpr float ToFloat(uint16_t h) {
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    if (e == 0x1f) return __builtin_bit_cast(float, sign | 0x7f800000u | (m << 13));
    if (e != 0) return __builtin_bit_cast(float, sign | ((e + 112u) << 23) | (m << 13));
    const float v = static_cast<float>(m) * (1.0f / 16777216.0f);  // subnormal: m * 2^-24, exact
    return sign ? -v : v;
  }
};
// The device compiler's bf16 builtin type, of which bfloat16_t is the typedef on the device (as the
// native engine spells it): kernels test `std::is_same_v<T, __bf16>` for their bf16 path.
#define __bf16 bfloat16_t
// Likewise its fp16 builtin type, of which half is the typedef on the device (clang's own __fp16
// is a storage type with no arithmetic): a kernel's scalar `__fp16` is the half of its tensors.
#define __fp16 half
using float16_t = half;  // the AscendC spellings some kernels use
using float32_t = float;
struct bfloat16_t {
  uint16_t bits = 0;
  bfloat16_t() = default;
  bfloat16_t(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    bits = static_cast<uint16_t>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);  // round to nearest even
  }
  ASCENDC_GUEST_SPACE_LOADS(bfloat16_t)
  operator float() const {
    const uint32_t u = static_cast<uint32_t>(bits) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }
};

// Ascend 950's one-byte floats: a byte, converted by the host's codec (ascendc_sim/fp8.h), so both
// engines round alike: E4M3FN and E5M2 to nearest even, HiFloat8 to nearest away, E8M0 a power of two.
namespace ascendc_guest {
ASCENDC_GUEST_IMPORT(fp8_from_float) int32_t fp8_from_float(Dtype t, float f);
ASCENDC_GUEST_IMPORT(fp8_to_float) float fp8_to_float(Dtype t, int32_t b);
template <Dtype F>
struct Fp8 {
  uint8_t bits = 0;
  Fp8() = default;
  Fp8(float f) : bits(static_cast<uint8_t>(fp8_from_float(F, f))) {}
  template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T> || std::is_same_v<T, half> ||
                                                    std::is_same_v<T, bfloat16_t>>>
  Fp8(T v) : Fp8(static_cast<float>(v)) {}
  ASCENDC_GUEST_SPACE_LOADS(Fp8)
  operator float() const { return fp8_to_float(F, bits); }
};
}  // namespace ascendc_guest
using fp8_e4m3fn_t = ascendc_guest::Fp8<ascendc_guest::Dtype::kF8E4M3FN>;
using fp8_e5m2_t = ascendc_guest::Fp8<ascendc_guest::Dtype::kF8E5M2>;
using fp8_e8m0_t = ascendc_guest::Fp8<ascendc_guest::Dtype::kF8E8M0>;
using hifloat8_t = ascendc_guest::Fp8<ascendc_guest::Dtype::kHiF8>;

namespace ascendc_guest {

template <typename T>
constexpr bool kHalfByte = std::is_same_v<T, AscendC::int4b_t>;
// The bytes of `elems` elements of T (an odd int4b_t count rounds down, as the device's offset / 2),
// and the elements of T in `bytes`.
template <typename T>
constexpr uint64_t BytesOf(uint64_t elems) {
  return kHalfByte<T> ? elems / 2 : elems * sizeof(T);
}
template <typename T>
constexpr uint32_t ElemsOf(uint64_t bytes) {
  return static_cast<uint32_t>(kHalfByte<T> ? bytes * 2 : bytes / sizeof(T));
}

template <typename T>
constexpr Dtype DtypeOf() {
  if constexpr (std::is_same_v<T, half>)
    return Dtype::kF16;
  else if constexpr (std::is_same_v<T, float>)
    return Dtype::kF32;
  else if constexpr (std::is_same_v<T, bfloat16_t>)
    return Dtype::kBf16;
  else if constexpr (std::is_same_v<T, int8_t>)
    return Dtype::kI8;
  else if constexpr (std::is_same_v<T, uint8_t> || std::is_same_v<T, bool>)
    return Dtype::kU8;  // a bool tensor is uint8 storage, as the device's and the native engine's
  else if constexpr (std::is_same_v<T, int16_t>)
    return Dtype::kI16;
  else if constexpr (std::is_same_v<T, uint16_t>)
    return Dtype::kU16;
  else if constexpr (std::is_same_v<T, int32_t>)
    return Dtype::kI32;
  else if constexpr (std::is_same_v<T, uint32_t>)
    return Dtype::kU32;
  else if constexpr (std::is_same_v<T, int64_t>)
    return Dtype::kI64;
  else if constexpr (std::is_same_v<T, double>)
    return Dtype::kF64;
  else if constexpr (std::is_same_v<T, fp8_e4m3fn_t>)
    return Dtype::kF8E4M3FN;
  else if constexpr (std::is_same_v<T, fp8_e5m2_t>)
    return Dtype::kF8E5M2;
  else if constexpr (std::is_same_v<T, fp8_e8m0_t>)
    return Dtype::kF8E8M0;
  else if constexpr (std::is_same_v<T, hifloat8_t>)
    return Dtype::kHiF8;
  else {
    static_assert(std::is_same_v<T, uint64_t>, "element type not supported by the guest engine");
    return Dtype::kU64;
  }
}
// i64 sizes and GM offsets; a local tensor is (UB byte address, elements, position).
// Named otherwise in C++: the device compiler's global block_idx and block_num are variables.
ASCENDC_GUEST_IMPORT(block_idx) int32_t core_block_idx();
ASCENDC_GUEST_IMPORT(block_num) int32_t core_block_num();
ASCENDC_GUEST_IMPORT(tiling_read) void tiling_read(void* dst, uint32_t gm, uint32_t bytes);
ASCENDC_GUEST_IMPORT(pipe_new) int32_t pipe_new();
ASCENDC_GUEST_IMPORT(pipe_delete) void pipe_delete(int32_t pipe);
ASCENDC_GUEST_IMPORT(pipe_init_que)
int32_t pipe_init_que(int32_t pipe, int32_t src, int32_t dst, int32_t depth, int32_t num, uint32_t len, int32_t line);
ASCENDC_GUEST_IMPORT(pipe_init_buf)
uint32_t pipe_init_buf(int32_t pipe, int32_t pos, int32_t num, uint32_t len, int32_t line);
ASCENDC_GUEST_IMPORT(que_alloc) uint32_t que_alloc(int32_t que, int32_t line);
ASCENDC_GUEST_IMPORT(que_free) void que_free(int32_t que, uint32_t addr, int32_t line);
ASCENDC_GUEST_IMPORT(que_enque) void que_enque(int32_t que, uint32_t addr, uint32_t bytes, int32_t line);
ASCENDC_GUEST_IMPORT(que_deque) int64_t que_deque(int32_t que, int32_t line);
// The hop forms (EnQue<GM, VECIN>): the pipes are the named positions', not the queue's own.
ASCENDC_GUEST_IMPORT(que_enque_hop)
void que_enque_hop(int32_t que, uint32_t addr, uint32_t bytes, int32_t src, int32_t dst, int32_t line);
ASCENDC_GUEST_IMPORT(que_deque_hop) int64_t que_deque_hop(int32_t que, int32_t src, int32_t dst, int32_t line);
ASCENDC_GUEST_IMPORT(que_state) int32_t que_state(int32_t que, QueState what);
ASCENDC_GUEST_IMPORT(pipe_reset) void pipe_reset(int32_t pipe);
// `to = from` of two TPipes: from's allocation state copied into to (the device's memberwise copy).
ASCENDC_GUEST_IMPORT(pipe_copy) void pipe_copy(int32_t to, int32_t from);
// PopStackBuffer: the UB past what the pipe handed out, (byte address | bytes << 32), 0 when none.
ASCENDC_GUEST_IMPORT(pipe_pop_stack) int64_t pipe_pop_stack(int32_t pipe, int32_t pos, int32_t line);
// A check of the API that failed in the guest: the host stops the kernel as the native check does.
ASCENDC_GUEST_IMPORT(api_fail) void api_fail(Fault what, int32_t line);
ASCENDC_GUEST_IMPORT(ub_get) int64_t ub_get(Dtype t, uint32_t addr, uint32_t size, uint32_t index, int32_t line);
ASCENDC_GUEST_IMPORT(ub_set)
void ub_set(Dtype t, uint32_t addr, uint32_t size, uint32_t index, int64_t bits, int32_t line);
// LocalTensor(pos, addr, tileSize): the tensor's address in the core's local space, checked.
ASCENDC_GUEST_IMPORT(local_at) uint32_t local_at(Dtype t, int32_t pos, uint32_t addr, uint32_t size, int32_t line);
ASCENDC_GUEST_IMPORT(gm_get) int64_t gm_get(Dtype t, uint32_t gm, int64_t offset, int32_t line);
ASCENDC_GUEST_IMPORT(gm_set) void gm_set(Dtype t, uint32_t gm, int64_t offset, int64_t bits, int32_t line);
ASCENDC_GUEST_IMPORT(tiling_key) int64_t tiling_key();
ASCENDC_GUEST_IMPORT(user_workspace) uint32_t user_workspace(uint32_t workspace);
ASCENDC_GUEST_IMPORT(sys_workspace) uint32_t sys_workspace();
ASCENDC_GUEST_IMPORT(sync_all) void sync_all(int32_t line);
ASCENDC_GUEST_IMPORT(pipe_barrier) void pipe_barrier(int32_t pipe, int32_t line);
ASCENDC_GUEST_IMPORT(set_flag) void set_flag(int32_t event, int32_t id, int32_t line);
ASCENDC_GUEST_IMPORT(wait_flag) void wait_flag(int32_t event, int32_t id, int32_t line);
#define ASCENDC_GUEST_LINE int32_t line = __builtin_LINE()
// The API's documented signatures, whose addresses kernels take (`Mul` passed where a function
// pointer of that type is expected), are extra forms with a last template parameter R, deduced only
// from that pointer's return type: no call selects them, and a call through the pointer runs the
// located form (the same imports, charged alike) at this line, there being no call site to name.
constexpr int32_t kThroughAddress = 0;
// The call site of a form whose documented parameters end where another form's count begins (the
// high-level math's forms without a count): an int32_t line there would take the caller's count.
struct CallSite {
  int32_t line;
  static CallSite Here(int32_t l = __builtin_LINE()) { return {l}; }
};
#define ASCENDC_GUEST_SITE ascendc_guest::CallSite site = ascendc_guest::CallSite::Here()

// A host launch wrapper's `op<<<...>>>(args)` as the guest build rewrites it (guest_build.py): the
// harness never calls the wrapper, and its host pointers need not convert to the kernel's __gm__.
template <typename Kernel>
constexpr auto host_launch(Kernel) {
  return [](auto&&...) {};
}

}  // namespace ascendc_guest

namespace AscendC {

using TEventID = int8_t;  // an event id as TPipe hands them out
// The emulation's pipe numbers and HardEvent encoding (src * 8 + dst), so the host decodes both.
enum pipe_t : int32_t { PIPE_S = 0, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_FIX, PIPE_ALL };
#define ASCENDC_GUEST_EVENT(src, dst) src##_##dst = PIPE_##src * 8 + PIPE_##dst
enum class HardEvent : uint8_t {
  ASCENDC_GUEST_EVENT(MTE2, MTE1),
  ASCENDC_GUEST_EVENT(MTE1, MTE2),
  ASCENDC_GUEST_EVENT(MTE1, M),
  ASCENDC_GUEST_EVENT(M, MTE1),
  ASCENDC_GUEST_EVENT(MTE2, V),
  ASCENDC_GUEST_EVENT(V, MTE2),
  ASCENDC_GUEST_EVENT(MTE3, V),
  ASCENDC_GUEST_EVENT(V, MTE3),
  ASCENDC_GUEST_EVENT(M, V),
  ASCENDC_GUEST_EVENT(V, M),
  ASCENDC_GUEST_EVENT(V, V),
  ASCENDC_GUEST_EVENT(MTE3, MTE1),
  ASCENDC_GUEST_EVENT(MTE1, MTE3),
  ASCENDC_GUEST_EVENT(MTE1, V),
  ASCENDC_GUEST_EVENT(MTE2, M),
  ASCENDC_GUEST_EVENT(M, MTE2),
  ASCENDC_GUEST_EVENT(V, MTE1),
  ASCENDC_GUEST_EVENT(M, FIX),
  ASCENDC_GUEST_EVENT(FIX, M),
  ASCENDC_GUEST_EVENT(MTE3, MTE2),
  ASCENDC_GUEST_EVENT(MTE2, MTE3),
  ASCENDC_GUEST_EVENT(S, V),
  ASCENDC_GUEST_EVENT(V, S),
  ASCENDC_GUEST_EVENT(S, MTE2),
  ASCENDC_GUEST_EVENT(MTE2, S),
  ASCENDC_GUEST_EVENT(S, MTE3),
  ASCENDC_GUEST_EVENT(MTE3, S),
  ASCENDC_GUEST_EVENT(MTE2, FIX),
  ASCENDC_GUEST_EVENT(FIX, MTE2),
  ASCENDC_GUEST_EVENT(FIX, S),
  ASCENDC_GUEST_EVENT(M, S),
  ASCENDC_GUEST_EVENT(FIX, MTE3),
};
#undef ASCENDC_GUEST_EVENT

inline int64_t GetBlockIdx() { return ascendc_guest::core_block_idx(); }
inline int64_t GetBlockNum() { return ascendc_guest::core_block_num(); }

// The L2 policy of a GM tensor's copies (the emulation's codes; the host checks the range).
enum class CacheMode : uint8_t { CACHE_MODE_NORMAL = 0, CACHE_MODE_DISABLE, CACHE_MODE_LAST, CACHE_MODE_PERSISTENT };

}  // namespace AscendC

namespace ascendc_guest {
// `t(i)` of a tensor: every read and write through it is the tensor's GetValue / SetValue import.
template <typename Tensor, typename Index>
class ElementRef {
 public:
  using T = typename Tensor::PrimType;
  ElementRef(const Tensor& t, Index i, int32_t line) : t_(t), i_(i), line_(line) {}
  operator T() const { return t_.GetValue(i_, line_); }
  // `(float)x(i)` of a half tensor: two conversions, which a T& (the native engine's) makes one.
  template <typename U, typename = std::enable_if_t<std::is_arithmetic_v<U> && !std::is_same_v<U, T>>>
  explicit operator U() const {
    return static_cast<U>(static_cast<T>(*this));
  }
  ElementRef& operator=(T v) {
    t_.SetValue(i_, v, line_);
    return *this;
  }
  ElementRef& operator=(const ElementRef& o) { return *this = static_cast<T>(o); }
  template <typename U>
  ElementRef& operator+=(U v) {
    return *this = static_cast<T>(static_cast<T>(*this) + v);
  }
  template <typename U>
  ElementRef& operator-=(U v) {
    return *this = static_cast<T>(static_cast<T>(*this) - v);
  }
  template <typename U>
  ElementRef& operator*=(U v) {
    return *this = static_cast<T>(static_cast<T>(*this) * v);
  }

 private:
  Tensor t_;
  Index i_;
  int32_t line_;
};
}  // namespace ascendc_guest

namespace AscendC {

template <typename T>
class GlobalTensor {
 public:
  using PrimType = T;
  void SetGlobalBuffer(__gm__ T* buffer, uint64_t bufferSize = 0) {
    addr_ = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(buffer));
    size_ = bufferSize;
  }
  GlobalTensor operator[](uint64_t offset) const {
    GlobalTensor t = *this;
    t.addr_ = addr_ + static_cast<uint32_t>(ascendc_guest::BytesOf<T>(offset));
    t.size_ = size_ > offset ? size_ - offset : 0;
    return t;
  }
  T GetValue(uint64_t offset, ASCENDC_GUEST_LINE) const {
    return ascendc_guest::FromBits<T>(
        ascendc_guest::gm_get(ascendc_guest::DtypeOf<T>(), addr_, static_cast<int64_t>(offset), line));
  }
  void SetValue(uint64_t offset, T value, ASCENDC_GUEST_LINE) const {
    ascendc_guest::gm_set(ascendc_guest::DtypeOf<T>(), addr_, static_cast<int64_t>(offset),
                          ascendc_guest::BitsOf(value), line);
  }
  ascendc_guest::ElementRef<GlobalTensor, uint64_t> operator()(uint64_t offset, ASCENDC_GUEST_LINE) const {
    return {*this, offset, line};
  }
  uint64_t GetSize() const { return size_; }
  void SetL2CacheHint(CacheMode mode) { cache_ = mode; }
  CacheMode GetCacheMode() const { return cache_; }
  __gm__ T* GetPhyAddr() const { return reinterpret_cast<__gm__ T*>(static_cast<uintptr_t>(addr_)); }
  __gm__ T* GetPhyAddr(uint64_t offset) const { return GetPhyAddr() + offset; }
  uint32_t GmAddr() const { return addr_; }

 private:
  uint32_t addr_ = 0;  // in the host's GM space: never memory of this module
  uint64_t size_ = 0;
  CacheMode cache_ = CacheMode::CACHE_MODE_NORMAL;
};

template <typename T>
class LocalTensor {
 public:
  using PrimType = T;
  LocalTensor() = default;
  LocalTensor(uint32_t addr, uint32_t size, TPosition pos) : addr_(addr), size_(size), pos_(pos) {}
  // Static allocation at a byte address of the position's buffer, bypassing TPipe.
  LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize, ASCENDC_GUEST_LINE)
      : addr_(ascendc_guest::local_at(ascendc_guest::DtypeOf<T>(), static_cast<int32_t>(pos), addr, tileSize, line)),
        size_(tileSize),
        pos_(pos) {}
  // Operator forms (dst = a + b, ascendc_guest/operators.h): the right-hand side runs the vector op.
  template <typename Expr, typename = decltype(&Expr::template Run<T>)>
  LocalTensor& operator=(const Expr& e) {
    e.template Run<T>(*this);
    return *this;
  }
  LocalTensor(const LocalTensor&) = default;
  LocalTensor& operator=(const LocalTensor&) = default;
  LocalTensor operator[](uint32_t offset) const {
    return LocalTensor(addr_ + static_cast<uint32_t>(ascendc_guest::BytesOf<T>(offset)),
                       size_ > offset ? size_ - offset : 0, pos_);
  }
  T GetValue(uint32_t index, ASCENDC_GUEST_LINE) const {
    if constexpr (ascendc_guest::kHalfByte<T>) {  // the nibble of its byte
      const auto b = ascendc_guest::ub_get(ascendc_guest::Dtype::kU8, addr_, (size_ + 1) / 2, index / 2, line);
      return T(static_cast<uint32_t>(b >> (index % 2 * 4)));
    } else {
      return ascendc_guest::FromBits<T>(ascendc_guest::ub_get(ascendc_guest::DtypeOf<T>(), addr_, size_, index, line));
    }
  }
  template <typename U>
  void SetValue(uint32_t index, U value, ASCENDC_GUEST_LINE) const {
    if constexpr (ascendc_guest::kHalfByte<T>) {  // read-modify-write of its byte, as the native engine's
      const uint32_t bytes = (size_ + 1) / 2, shift = index % 2 * 4;
      const auto b = ascendc_guest::ub_get(ascendc_guest::Dtype::kU8, addr_, bytes, index / 2, line);
      const auto nibble = static_cast<uint32_t>(static_cast<T>(value).storage) << shift;
      ascendc_guest::ub_set(ascendc_guest::Dtype::kU8, addr_, bytes, index / 2, (b & ~(0xf << shift)) | nibble, line);
    } else {
      ascendc_guest::ub_set(ascendc_guest::DtypeOf<T>(), addr_, size_, index,
                            ascendc_guest::BitsOf(static_cast<T>(value)), line);
    }
  }
  ascendc_guest::ElementRef<LocalTensor, uint32_t> operator()(uint32_t index, ASCENDC_GUEST_LINE) const {
    return {*this, index, line};
  }
  uint32_t GetSize() const { return size_; }
  void SetSize(uint32_t size) { size_ = size; }
  uint32_t GetLength() const { return static_cast<uint32_t>(ascendc_guest::BytesOf<T>(size_)); }
  TPosition GetPosition() const { return pos_; }
  template <typename U>
  LocalTensor<U> ReinterpretCast() const {
    return LocalTensor<U>(addr_, ascendc_guest::ElemsOf<U>(GetLength()), pos_);
  }
  // As the native engine's: the address as a number, which kernels cast to a __ubuf__ pointer.
  uint64_t GetPhyAddr() const { return ascendc_guest::kUbBase + addr_; }
  uint64_t GetPhyAddr(uint32_t offset) const { return GetPhyAddr() + ascendc_guest::BytesOf<T>(offset); }
  uint32_t UbAddr() const { return addr_; }

 private:
  uint32_t addr_ = 0;  // a UB byte address: the UB is the host's
  uint32_t size_ = 0;
  TPosition pos_ = TPosition::VECCALC;
};

class TPipe;

template <TPosition src, TPosition dst, int32_t depth>
class TQueBind {
 public:
  template <typename T>
  LocalTensor<T> AllocTensor(ASCENDC_GUEST_LINE) {
    return LocalTensor<T>(ascendc_guest::que_alloc(id_, line), ascendc_guest::ElemsOf<T>(len_), src);
  }
  template <typename T>
  void FreeTensor(LocalTensor<T>& t, ASCENDC_GUEST_LINE) {
    ascendc_guest::que_free(id_, t.UbAddr(), line);
  }
  template <typename T>
  bool EnQue(const LocalTensor<T>& t, ASCENDC_GUEST_LINE) {
    ascendc_guest::que_enque(id_, t.UbAddr(), t.GetLength(), line);
    return true;
  }
  template <typename T>
  LocalTensor<T> DeQue(ASCENDC_GUEST_LINE) {
    const int64_t r = ascendc_guest::que_deque(id_, line);
    return LocalTensor<T>(static_cast<uint32_t>(r), ascendc_guest::ElemsOf<T>(static_cast<uint32_t>(r >> 32)), src);
  }
  // The hop forms of a queue used in place (TQueBind<VECIN, VECOUT> between two GM copies).
  template <TPosition srcUser, TPosition dstUser, typename T>
  bool EnQue(const LocalTensor<T>& t, ASCENDC_GUEST_LINE) {
    ascendc_guest::que_enque_hop(id_, t.UbAddr(), t.GetLength(), static_cast<int32_t>(srcUser),
                                 static_cast<int32_t>(dstUser), line);
    return true;
  }
  template <TPosition srcUser, TPosition dstUser, typename T>
  LocalTensor<T> DeQue(ASCENDC_GUEST_LINE) {
    const int64_t r =
        ascendc_guest::que_deque_hop(id_, static_cast<int32_t>(srcUser), static_cast<int32_t>(dstUser), line);
    return LocalTensor<T>(static_cast<uint32_t>(r), ascendc_guest::ElemsOf<T>(static_cast<uint32_t>(r >> 32)), src);
  }
  template <typename T>
  void AllocTensor(LocalTensor<T>& t, ASCENDC_GUEST_LINE) {
    t = AllocTensor<T>(line);
  }
  template <typename T>
  void DeQue(LocalTensor<T>& t, ASCENDC_GUEST_LINE) {
    t = DeQue<T>(line);
  }
  // The untyped form: the buffer's raw UB address (the library's TBufHandle), the same wait.
  __ubuf__ uint8_t* DeQue(ASCENDC_GUEST_LINE) {
    const uint32_t addr = static_cast<uint32_t>(ascendc_guest::que_deque(id_, line));
    return reinterpret_cast<__ubuf__ uint8_t*>(static_cast<uintptr_t>(ascendc_guest::kUbBase + addr));
  }
  int32_t GetTensorCountInQue() const { return ascendc_guest::que_state(id_, ascendc_guest::QueState::kQueued); }
  bool HasTensorInQue() const { return GetTensorCountInQue() > 0; }
  bool VacantInQue() const { return GetTensorCountInQue() < depth; }
  bool HasIdleBuffer() const { return ascendc_guest::que_state(id_, ascendc_guest::QueState::kIdle) > 0; }
  void FreeAllEvent() {}

 private:
  friend class TPipe;
  int32_t id_ = -1;  // the host's queue
  uint32_t len_ = 0;
};
// `mask`: the queue's mask or its `const TQueConfig*`, which configure nothing here (TQueConfig).
template <TPosition pos, int32_t depth = 1, auto... mask>
class TQue : public TQueBind<pos, pos, depth> {};

template <TPosition pos = TPosition::VECCALC>
class TBuf {
 public:
  template <typename T>
  LocalTensor<T> Get() const {
    return LocalTensor<T>(base_, ascendc_guest::ElemsOf<T>(len_), pos);
  }
  template <typename T>
  LocalTensor<T> Get(uint32_t len, ASCENDC_GUEST_LINE) const {
    if (ascendc_guest::BytesOf<T>(len) > len_) ascendc_guest::api_fail(ascendc_guest::Fault::kTBufGet, line);
    return LocalTensor<T>(base_, len, pos);
  }
  template <typename T>
  LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset, ASCENDC_GUEST_LINE) const {
    if (bufOffset % 32 != 0 || bufOffset + ascendc_guest::BytesOf<T>(size) > len_)
      ascendc_guest::api_fail(ascendc_guest::Fault::kTBufGetWithOffset, line);
    return LocalTensor<T>(base_ + bufOffset, size, pos);
  }
  // The queue interface TBuf shares with TQueBind on the device: the whole buffer, no events.
  template <typename T>
  LocalTensor<T> AllocTensor() const {
    return Get<T>();
  }
  template <typename T>
  void FreeTensor(LocalTensor<T>&) const {}

 private:
  friend class TPipe;
  uint32_t base_ = 0;
  uint32_t len_ = 0;
};

// The TPipe constructed last, as the device's GetTPipePtr returns it (the module's state is per core).
inline TPipe*& CurrentTPipe() {
  static TPipe* pipe = nullptr;
  return pipe;
}

template <typename T, TPosition pos>
bool PopStackBuffer(LocalTensor<T>& pop, ASCENDC_GUEST_LINE);

class TPipe {
 public:
  TPipe() : id_(ascendc_guest::pipe_new()) { CurrentTPipe() = this; }
  ~TPipe() {
    if (CurrentTPipe() == this) CurrentTPipe() = nullptr;
    ascendc_guest::pipe_delete(id_);
  }
  TPipe(const TPipe&) = delete;
  // Kernels copy a TPipe into a member (`pipe = pipeIn;`) and allocate from the member: as on the
  // device, the member then holds the source's allocation state and event ids, and stays its own.
  TPipe& operator=(const TPipe& from) {
    ascendc_guest::pipe_copy(id_, from.id_);
    for (int e = 0; e < 64; ++e) eventIds_[e] = from.eventIds_[e];
    return *this;
  }
  template <TPosition s, TPosition d, int32_t depth>
  bool InitBuffer(TQueBind<s, d, depth>& que, uint8_t num, uint32_t len, ASCENDC_GUEST_LINE) {
    que.id_ =
        ascendc_guest::pipe_init_que(id_, static_cast<int32_t>(s), static_cast<int32_t>(d), depth, num, len, line);
    que.len_ = (len + 31u) & ~31u;
    return true;
  }
  // Event ids from a pool of 8 per HardEvent, as the device's TPipe hands them out: plain numbers,
  // so the pool is the kernel's own state.
  int8_t FetchEventID(HardEvent event) const {
    for (int8_t id = 0; id < 8; ++id)
      if (!(eventIds_[static_cast<int>(event)] & (1u << id))) return id;
    return -1;
  }
  template <HardEvent event>
  int8_t FetchEventID() const {
    return FetchEventID(event);
  }
  template <HardEvent event>
  int8_t AllocEventID() {
    const int8_t id = FetchEventID<event>();
    if (id >= 0) eventIds_[static_cast<int>(event)] |= static_cast<uint8_t>(1u << id);
    return id;
  }
  template <HardEvent event>
  void ReleaseEventID(int8_t id) {
    if (id >= 0 && id < 8) eventIds_[static_cast<int>(event)] &= static_cast<uint8_t>(~(1u << id));
  }
  template <TPosition pos>
  bool InitBuffer(TBuf<pos>& buf, uint32_t len, ASCENDC_GUEST_LINE) {
    buf.base_ = ascendc_guest::pipe_init_buf(id_, static_cast<int32_t>(pos), 1, len, line);
    buf.len_ = (len + 31u) & ~31u;
    return true;
  }
  // Every buffer the pipe handed out is free again (the queues and buffers keep their addresses).
  void Init() { Reset(); }
  void Reset() { ascendc_guest::pipe_reset(id_); }
  void Destroy() { Reset(); }

 private:
  template <typename T, TPosition pos>
  friend bool PopStackBuffer(LocalTensor<T>& pop, int32_t line);
  int32_t id_;
  uint8_t eventIds_[64] = {};
};

inline TPipe* GetTPipePtr() { return CurrentTPipe(); }

// The rest of the UB past what the current TPipe has handed out, as one temporary tensor (the
// library's PopStackBuffer; the UB positions only). False when nothing is left.
template <typename T, TPosition pos>
bool PopStackBuffer(LocalTensor<T>& pop, int32_t line) {
  const TPipe* pipe = GetTPipePtr();
  const int64_t r = ascendc_guest::pipe_pop_stack(pipe ? pipe->id_ : -1, static_cast<int32_t>(pos), line);
  if (r == 0) return false;
  pop = LocalTensor<T>(static_cast<uint32_t>(r), ascendc_guest::ElemsOf<T>(static_cast<uint32_t>(r >> 32)), pos);
  return true;
}

template <pipe_t pipe>
void PipeBarrier(ASCENDC_GUEST_LINE) {
  ascendc_guest::pipe_barrier(pipe, line);
}
// As the native engine's (ascendc_sim/sync.h): a barrier of the scalar pipe.
enum class MemDsbT : uint8_t { ALL = 0, DDR, UB, SEQ };
template <MemDsbT arg0>
void DataSyncBarrier(ASCENDC_GUEST_LINE) {
  ascendc_guest::pipe_barrier(PIPE_S, line);
}
template <HardEvent event>
void SetFlag(int32_t id, ASCENDC_GUEST_LINE) {
  ascendc_guest::set_flag(static_cast<int32_t>(event), id, line);
}
template <HardEvent event>
void WaitFlag(int32_t id, ASCENDC_GUEST_LINE) {
  ascendc_guest::wait_flag(static_cast<int32_t>(event), id, line);
}
// The same flags named by their pipes.
template <pipe_t src, pipe_t dst>
class TQueSync {
 public:
  void SetFlag(int32_t id, ASCENDC_GUEST_LINE) { ascendc_guest::set_flag(src * 8 + dst, id, line); }
  void WaitFlag(int32_t id, ASCENDC_GUEST_LINE) { ascendc_guest::wait_flag(src * 8 + dst, id, line); }
};

template <bool isAIVOnly = true>
void SyncAll(ASCENDC_GUEST_LINE) {
  ascendc_guest::sync_all(line);
}
inline GM_ADDR GetUserWorkspace(GM_ADDR workspace) {
  const uint32_t w = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(workspace));
  return w == 0 ? nullptr : reinterpret_cast<GM_ADDR>(static_cast<uintptr_t>(ascendc_guest::user_workspace(w)));
}
inline GM_ADDR GetSysWorkSpacePtr() {
  return reinterpret_cast<GM_ADDR>(static_cast<uintptr_t>(ascendc_guest::sys_workspace()));
}

}  // namespace AscendC

enum event_t : uint8_t { EVENT_ID0 = 0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7 };
using AscendC::PIPE_ALL;
using AscendC::PIPE_FIX;
using AscendC::PIPE_M;
using AscendC::PIPE_MTE1;
using AscendC::PIPE_MTE2;
using AscendC::PIPE_MTE3;
using AscendC::PIPE_S;
using AscendC::pipe_t;
using AscendC::PIPE_V;
// The CCE intrinsics kernels call directly.
inline void set_flag(pipe_t src, pipe_t dst, event_t id, ASCENDC_GUEST_LINE) {
  ascendc_guest::set_flag(src * 8 + dst, id, line);
}
inline void wait_flag(pipe_t src, pipe_t dst, event_t id, ASCENDC_GUEST_LINE) {
  ascendc_guest::wait_flag(src * 8 + dst, id, line);
}
// The same with the event id as an integer (conv kernels pass a uint16_t ping-pong flag).
inline void set_flag(pipe_t src, pipe_t dst, int32_t id, ASCENDC_GUEST_LINE) {
  ascendc_guest::set_flag(src * 8 + dst, id, line);
}
inline void wait_flag(pipe_t src, pipe_t dst, int32_t id, ASCENDC_GUEST_LINE) {
  ascendc_guest::wait_flag(src * 8 + dst, id, line);
}
inline void pipe_barrier(pipe_t pipe, ASCENDC_GUEST_LINE) { ascendc_guest::pipe_barrier(pipe, line); }
#define KERNEL_TASK_TYPE_DEFAULT(type) (void)(type)
#define KERNEL_TASK_TYPE(key, type) (void)(key), (void)(type)
#define TILING_KEY_IS(k) (::ascendc_guest::tiling_key() == static_cast<int64_t>(k))

using AscendC::GetBlockIdx;
using AscendC::GetBlockNum;
using AscendC::GetTPipePtr;  // kernels call it unqualified, outside `using namespace AscendC`

// The tiling struct of this op type (the host tiling header's, built by register/tilingdata_base.h
// with ASCENDC_SIM_KERNEL), copied out of the host's tiling buffer.
#define ASCENDC_SIM_STR2(x) #x
#define ASCENDC_SIM_STR(x) ASCENDC_SIM_STR2(x)
#define ASCENDC_SIM_OP_KEY ::ascendc_sim::OpKey(ASCENDC_SIM_STR(ASCENDC_SIM_OP_TYPE))
#define GET_TILING_DATA(name, tiling)                                         \
  decltype(TilingOf(::ascendc_sim::TilingKeyTag<ASCENDC_SIM_OP_KEY>{})) name; \
  ::ascendc_guest::tiling_read(&name, static_cast<uint32_t>(reinterpret_cast<uintptr_t>(tiling)), sizeof(name))
#define GET_TILING_DATA_WITH_STRUCT(type, name, tiling) \
  type name;                                            \
  ::ascendc_guest::tiling_read(&name, static_cast<uint32_t>(reinterpret_cast<uintptr_t>(tiling)), sizeof(name))

// The API's families, each with its imports.
#include "ascendc_guest/data_copy.h"
#include "ascendc_guest/data_slice.h"
#include "ascendc_guest/system.h"
#include "ascendc_guest/setup.h"
#include "ascendc_guest/raw.h"
#include "ascendc_guest/cce.h"
#include "ascendc_guest/vector.h"
#include "ascendc_guest/int4.h"
#include "ascendc_guest/adv.h"
#include "ascendc_guest/adv_softmax_flash.h"
#include "ascendc_guest/adv_quant.h"
#include "ascendc_guest/adv_norm_ar.h"
#include "ascendc_guest/adv_arange.h"
#include "ascendc_guest/cube.h"
#include "ascendc_guest/cce_cube.h"
#include "ascendc_guest/vec_families.h"
#include "ascendc_guest/impl_forms.h"
#include "ascendc_guest/operators.h"
#include "ascendc_guest/topk_constants.h"

// libc++'s <algorithm> reaches <climits> (through <functional>, <chrono>, <ratio>), so <limits.h>'s
// macros would be defined where the device's and the native engine's API headers define none: a
// kernel's own `constexpr int64_t INT_MAX = ...` (ops-nn's gather_elements_v2) would not compile.
// They go, with the headers' guards, so that a kernel's own #include <climits> defines them again
// (as does a later <bitset> or <random>, which include it).
#ifdef ASCENDC_GUEST_HIDE_LIMITS
#undef ASCENDC_GUEST_HIDE_LIMITS
#undef _LIBCPP_CLIMITS
#undef _LIBCPP_LIMITS_H
#undef __CLANG_LIMITS_H
#undef _LIMITS_H
#undef __wasilibc___macro_PAGESIZE_h
#undef ARG_MAX
#undef CHARCLASS_NAME_MAX
#undef CHAR_BIT
#undef CHAR_MAX
#undef CHAR_MIN
#undef COLL_WEIGHTS_MAX
#undef DELAYTIMER_MAX
#undef FILESIZEBITS
#undef HOST_NAME_MAX
#undef INT_MAX
#undef INT_MIN
#undef IOV_MAX
#undef LLONG_MAX
#undef LLONG_MIN
#undef LONG_BIT
#undef LONG_MAX
#undef LONG_MIN
#undef MB_LEN_MAX
#undef NAME_MAX
#undef NGROUPS_MAX
#undef NL_ARGMAX
#undef NL_LANGMAX
#undef NL_MSGMAX
#undef NL_NMAX
#undef NL_SETMAX
#undef NL_TEXTMAX
#undef NZERO
#undef PAGESIZE
#undef PAGE_SIZE
#undef PATH_MAX
#undef RE_DUP_MAX
#undef SCHAR_MAX
#undef SCHAR_MIN
#undef SHRT_MAX
#undef SHRT_MIN
#undef SSIZE_MAX
#undef SYMLOOP_MAX
#undef TTY_NAME_MAX
#undef TZNAME_MAX
#undef UCHAR_MAX
#undef UINT_MAX
#undef ULLONG_MAX
#undef ULONG_MAX
#undef USHRT_MAX
#undef WORD_BIT
#endif
