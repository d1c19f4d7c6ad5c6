// What both engines' kernel APIs share: the parameter structs, the scalar helpers and type traits,
// the tiling registration macros. The native API's headers and the guest's include this one, so a
// struct the guest passes by pointer has the layout the host reads (plain integers; wasm32 and
// x86-64 align them alike).
#pragma once

#include <cstdint>
#include <type_traits>

#include "abi.h"  // TPosition

// The device compiler's scalar min/max, which kernels call unqualified on mixed integer types.
// Less specialised than std::min/max, so `using namespace std` code still picks those.
template <typename A, typename B>
constexpr inline std::common_type_t<A, B> min(A a, B b) {
  return b < a ? b : a;
}
template <typename A, typename B>
constexpr inline std::common_type_t<A, B> max(A a, B b) {
  return a < b ? b : a;
}

namespace AscendC {

// The library's scalar Ceil, (a + b - 1) / b (asc-devkit's matmul utilities, in AscendC): kernels
// in namespace AscendC call Ceil(a, b) on integers unqualified, beside the vector Ceil.
template <typename T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
inline T Ceil(T a, T b) {
  return (a + b - 1) / b;
}
// Its documented form (the basic API's utilities): operands of two types (`Ceil(uint8_t, 8)`)
// convert to it, where the template deduces no T.
inline uint32_t Ceil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// A queue's configuration, the third argument of TQue given as `const TQueConfig*` (the documented
// struct, its members in the documented order, which kernels brace-initialise). The simulator's
// queues take their length and count from InitBuffer and convert no layout, so it configures
// nothing: what it changes on the device is the transfer formats of the cube queues.
struct TQueConfig {
  bool nd2nz = false;
  bool nz2nd = false;
  bool scmBlockGroup = false;
  uint32_t bufferLen = 0;
  uint32_t bufferNumber = 0;
  uint32_t consumerSize = 0;
  TPosition consumer[8] = {};
  bool enableStaticEvtId = false;
  bool enableLoopQueue = false;
};

// The scalar unit's bit counts (kernel_operator_scalar_intf.h), one instruction each on the device
// and in wasm (popcnt, clz, ctz); the Scalar* names are the library's former ones.
template <int countValue>
inline int64_t GetBitCount(uint64_t valueIn) {
  const int64_t ones = __builtin_popcountll(valueIn);
  return countValue == 1 ? ones : 64 - ones;
}
inline int64_t CountLeadingZero(uint64_t valueIn) { return valueIn == 0 ? 64 : __builtin_clzll(valueIn); }
// Bits after the sign bit equal to it, counted from the top; -1 for 0 and -1 (all bits alike).
inline int64_t CountBitsCntSameAsSignBit(int64_t valueIn) {
  if (valueIn == 0 || valueIn == -1) return -1;
  const uint64_t magnitude = static_cast<uint64_t>(valueIn < 0 ? ~valueIn : valueIn);
  return __builtin_clzll(magnitude) - 1;
}
// The position of the lowest bit equal to countValue, or -1.
template <int countValue>
inline int64_t GetSFFValue(uint64_t valueIn) {
  const uint64_t wanted = countValue == 1 ? valueIn : ~valueIn;
  return wanted == 0 ? -1 : __builtin_ctzll(wanted);
}
template <int countValue>
inline int64_t ScalarGetCountOfValue(uint64_t valueIn) {
  return GetBitCount<countValue>(valueIn);
}
inline int64_t ScalarCountLeadingZero(uint64_t valueIn) { return CountLeadingZero(valueIn); }
template <int countValue>
inline int64_t ScalarGetSFFValue(uint64_t valueIn) {
  return GetSFFValue<countValue>(valueIn);
}

constexpr uint8_t DEFAULT_DATA_COPY_NBURST = 1;  // the DataCopyParams defaults, as the library names them
constexpr uint8_t DEFAULT_DATA_COPY_STRIDE = 0;

struct DataCopyParams {
  DataCopyParams() = default;
  DataCopyParams(uint16_t count, uint16_t len, uint16_t srcStrideIn, uint16_t dstStrideIn)
      : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn) {}
  uint16_t blockCount = 1;  // bursts, [1, 4095]
  uint16_t blockLen = 0;    // 32 B blocks per burst, [1, 65535]
  // 32 B blocks between bursts; the documentation's newer names srcGap / dstGap alias them.
  union {
    uint16_t srcGap = 0;
    uint16_t srcStride;
  };
  union {
    uint16_t dstGap = 0;
    uint16_t dstStride;
  };
};

// Constructed from all five fields or none, as in CANN: a four-value brace list {n, len, s, d} then
// means DataCopyParams, so the DataCopyPad overloads taking either are not ambiguous.
struct DataCopyExtParams {
  DataCopyExtParams() = default;
  DataCopyExtParams(uint16_t count, uint32_t len, uint32_t srcStrideIn, uint32_t dstStrideIn, uint32_t rsvIn)
      : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn), rsv(rsvIn) {}
  uint16_t blockCount = 1;
  uint32_t blockLen = 0;   // bytes per burst, up to 2097151
  uint32_t srcStride = 0;  // bytes on the GM side, 32 B blocks on the UB side
  uint32_t dstStride = 0;
  uint32_t rsv = 0;
};

// Both documented constructors: none, or all four fields (so `DataCopyPadExtParams<T> p(true, 0, r, v)`
// compiles as with CANN, and a brace list means the four-field constructor).
template <typename T>
struct DataCopyPadExtParams {
  DataCopyPadExtParams() = default;
  DataCopyPadExtParams(bool isPadValue, uint8_t leftPadValue, uint8_t rightPadValue, T padValue)
      : isPad(isPadValue), leftPadding(leftPadValue), rightPadding(rightPadValue), paddingValue(padValue) {}
  bool isPad = false;
  uint8_t leftPadding = 0;   // elements
  uint8_t rightPadding = 0;  // elements
  T paddingValue = 0;
};

// The legacy pad parameters: the value as 8 bytes, the element's bytes first.
struct DataCopyPadParams {
  DataCopyPadParams() = default;
  DataCopyPadParams(bool isPadValue, uint8_t leftPadValue, uint8_t rightPadValue, uint64_t padValue)
      : isPad(isPadValue), leftPadding(leftPadValue), rightPadding(rightPadValue), paddingValue(padValue) {}
  bool isPad = false;
  uint8_t leftPadding = 0;
  uint8_t rightPadding = 0;
  uint64_t paddingValue = 0;
};

// int4b_t: a signed 4-bit integer as the device stores it, two to a byte, element 2k in the low
// nibble of byte k. A tensor of them counts elements; offsets and lengths halve into bytes.
struct int4b_t {
  uint8_t storage;
  int4b_t() = default;
  int4b_t(int32_t v) : storage(static_cast<uint8_t>(v) & 0xf) {}
  int4b_t(uint32_t v) : storage(static_cast<uint8_t>(v) & 0xf) {}
  operator int8_t() const { return static_cast<int8_t>(storage & 0x8 ? storage | 0xf0 : storage); }
};

// One dimension of a slice copy (DataCopy with SliceInfo): elements [startIndex, endIndex] of a
// dimension of shapeValue elements, taken in pieces `stride` apart; a piece is burstLen 32 B blocks
// along the first dimension and one index along the others (burstLen 1 there).
struct SliceInfo {
  uint32_t startIndex = 0;
  uint32_t endIndex = 0;
  uint32_t stride = 0;
  uint32_t burstLen = 0;
  uint32_t shapeValue = 0;
};

// TransDataTo5HD's repeat record and its address lists' length.
constexpr int32_t NCHW_CONV_ADDR_LIST_SIZE = 16;

struct TransDataTo5HDParams {
  constexpr TransDataTo5HDParams() = default;
  constexpr TransDataTo5HDParams(bool dstHigh, bool srcHigh, uint8_t repeats, uint16_t dstRep, uint16_t srcRep)
      : dstHighHalf(dstHigh), srcHighHalf(srcHigh), repeatTimes(repeats), dstRepStride(dstRep), srcRepStride(srcRep) {}
  bool dstHighHalf = false;
  bool srcHighHalf = false;
  uint8_t repeatTimes = 1;
  uint16_t dstRepStride = 0;
  uint16_t srcRepStride = 0;
};

// The library's scalar helpers (kernel_utils of asc-devkit; the samples call them qualified).
constexpr inline uint32_t DivCeil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
constexpr inline uint32_t AlignUp(uint32_t a, uint32_t b) { return DivCeil(a, b) * b; }
constexpr inline uint32_t ConstCeil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
constexpr inline int64_t GetDataBlockSizeInBytes() { return 32; }

// The library's compile-time type traits: kernels branch with
// `if constexpr (IsSameType<T, float>::value)`.
template <bool b>
struct BoolInst {
  using Type = BoolInst<b>;
  static constexpr bool value = b;
};
using TrueType = BoolInst<true>;
using FalseType = BoolInst<false>;
template <typename T, typename U>
struct IsSameType : FalseType {};
template <typename T>
struct IsSameType<T, T> : TrueType {};
template <bool b, typename T1, typename T2>
struct Conditional {
  using type = T1;
};
template <typename T1, typename T2>
struct Conditional<false, T1, T2> {
  using type = T2;
};
// The library's std-like utilities (AscendC::Std, asc-devkit include/utils/std).
namespace Std {
using ::max;
using ::min;
using std::is_same;
using std::is_same_v;
}  // namespace Std

}  // namespace AscendC

// The tiling struct's registration in a kernel (checked where the op's key is bound), and the
// qualifier the toolchain's generated tiling header gives its pointer.
#define __tiling_data_ptr__ const
#define REGISTER_TILING_DEFAULT(tilingStruct)                                            \
  static_assert(sizeof(::ascendc_sim::BindTiling<ASCENDC_SIM_OP_KEY, tilingStruct>) > 0, \
                "tiling "                                                                \
                "struct " #tilingStruct)
#define REGISTER_TILING_FOR_TILINGKEY(expr, tilingStruct) static_assert(sizeof(tilingStruct) > 0, "")
