// The CCE compiler intrinsics that kernels call directly, below the AscendC API: the instructions
// the A2 library (asc-devkit impl/basic_api/dav_c220) is written with, with the device's argument
// lists. Each runs through the API implementation it backs, so pipes, timing, race and bounds
// checks apply as they do to the API. Vector intrinsics take their lanes from the mask register as
// set_vector_mask / set_mask_norm / set_mask_count left it (the API's isSetMask = false form):
// normal mode, the two 64-bit words are lane bits of every repeat; counter mode, the low word is
// the total lane count and the repeat argument is ignored.
//
// A raw pointer carries no tensor length, so each operand is checked against the UB's end only.
#pragma once

#include "ascendc_sim/cce_cube.h"
#include "ascendc_sim/data_copy.h"
#include "ascendc_sim/vec_cast.h"
#include "ascendc_sim/vec_compare.h"
#include "ascendc_sim/vec_reduce.h"

// The compiler's order operand of vcmax / vcmin (what the A2 library maps ReduceOrder onto).
enum class Order_t : uint8_t { VALUE_INDEX = 0, INDEX_VALUE, ONLY_VALUE, ONLY_INDEX };

namespace AscendC {
// The library's scratch UB address on the A2 (asc-devkit kernel_utils_constants.h, __NPU_ARCH__ 2201).
constexpr uint32_t TMP_UB_OFFSET = 184 * 1024;

// A scalar's bit pattern, zero-extended (what set_mov_pad_val and the pad registers take).
template <typename T>
__aicore__ inline uint64_t GetScalarBitcodeValue(T value) {
  static_assert(sizeof(T) <= 8, "GetScalarBitcodeValue: a scalar of at most 8 bytes");
  uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  return bits;
}
}  // namespace AscendC

namespace ascendc_sim {

// The UB from a `__ubuf__` pointer to the UB's end, as a tensor of T.
template <typename T>
AscendC::LocalTensor<T> UbFrom(const volatile void* p, const SrcLoc& loc) {
  const uint32_t addr = UbAddrOf(reinterpret_cast<uintptr_t>(p), "CCE intrinsic", loc);
  return AscendC::LocalTensor<T>(addr, (CurrentCore().Local().Size(LocalBuf::kUB) - addr) / sizeof(T),
                                 AscendC::TPosition::VECCALC);
}

}  // namespace ascendc_sim

// ---- mask state ---------------------------------------------------------------------------------
__aicore__ inline void set_vector_mask(uint64_t maskHigh, uint64_t maskLow) {
  AscendC::SetVectorMask<uint8_t>(maskHigh, maskLow);
}
__aicore__ inline void set_mask_count() { AscendC::SetMaskCount(); }
__aicore__ inline void set_mask_norm() { AscendC::SetMaskNorm(); }

// ---- vector_dup: dst = scalar (srcBlockStride / srcRepeatStride name no source: unused) ----------
template <typename T>
__aicore__ inline void vector_dup(__ubuf__ T* dst, typename ascendc_sim::Identity<T>::type scalar, uint8_t repeat,
                                  uint16_t dstBlockStride, uint16_t srcBlockStride, uint8_t dstRepeatStride,
                                  uint8_t srcRepeatStride, ASCENDC_SIM_LOC) {
  (void)srcBlockStride, (void)srcRepeatStride;
  AscendC::Duplicate<T, false>(ascendc_sim::UbFrom<T>(dst, loc), scalar, AscendC::MASK_PLACEHOLDER, repeat,
                               dstBlockStride, dstRepeatStride, loc);
}

// ---- binary: vadd, vsub, vmul, vmax, vmin (dst, src0, src1, repeat, 3 block strides, 3 repeat strides)
#define ASCENDC_SIM_CCE_BINARY(INTRINSIC, API)                                                                    \
  template <typename T>                                                                                           \
  __aicore__ inline void INTRINSIC(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1, uint8_t repeat,           \
                                   uint16_t dstBlk, uint16_t src0Blk, uint16_t src1Blk, uint16_t dstRep,          \
                                   uint16_t src0Rep, uint16_t src1Rep, ASCENDC_SIM_LOC) {                         \
    AscendC::API<T, false>(ascendc_sim::UbFrom<T>(dst, loc), ascendc_sim::UbFrom<T>(src0, loc),                   \
                           ascendc_sim::UbFrom<T>(src1, loc), AscendC::MASK_PLACEHOLDER, repeat,                  \
                           AscendC::BinaryRepeatParams(dstBlk, src0Blk, src1Blk, dstRep, src0Rep, src1Rep), loc); \
  }
ASCENDC_SIM_CCE_BINARY(vadd, Add)
ASCENDC_SIM_CCE_BINARY(vsub, Sub)
ASCENDC_SIM_CCE_BINARY(vmul, Mul)
ASCENDC_SIM_CCE_BINARY(vmax, Max)
ASCENDC_SIM_CCE_BINARY(vmin, Min)
ASCENDC_SIM_CCE_BINARY(vdiv, Div)
#undef ASCENDC_SIM_CCE_BINARY
// vand / vor: bitwise on 16-bit integer lanes only, as the A2's And / Or.
#define ASCENDC_SIM_CCE_BITWISE(INTRINSIC, API)                                                                   \
  template <typename T>                                                                                           \
  __aicore__ inline void INTRINSIC(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1, uint8_t repeat,           \
                                   uint16_t dstBlk, uint16_t src0Blk, uint16_t src1Blk, uint16_t dstRep,          \
                                   uint16_t src0Rep, uint16_t src1Rep, ASCENDC_SIM_LOC) {                         \
    static_assert(std::is_integral_v<T> && sizeof(T) == 2, #INTRINSIC " takes int16_t or uint16_t");              \
    AscendC::API<T, false>(ascendc_sim::UbFrom<T>(dst, loc), ascendc_sim::UbFrom<T>(src0, loc),                   \
                           ascendc_sim::UbFrom<T>(src1, loc), AscendC::MASK_PLACEHOLDER, repeat,                  \
                           AscendC::BinaryRepeatParams(dstBlk, src0Blk, src1Blk, dstRep, src0Rep, src1Rep), loc); \
  }
ASCENDC_SIM_CCE_BITWISE(vand, And)
ASCENDC_SIM_CCE_BITWISE(vor, Or)
#undef ASCENDC_SIM_CCE_BITWISE

// ---- unary: vexp, vln, vabs, vrec, vsqrt, vrsqrt, vrelu, vnot (dst, src, repeat, dst/src block
// strides, dst/src repeat strides)
#define ASCENDC_SIM_CCE_UNARY(INTRINSIC, API)                                                                          \
  template <typename T>                                                                                                \
  __aicore__ inline void INTRINSIC(__ubuf__ T* dst, __ubuf__ T* src, uint8_t repeat, uint16_t dstBlk, uint16_t srcBlk, \
                                   uint16_t dstRep, uint16_t srcRep, ASCENDC_SIM_LOC) {                                \
    AscendC::API<T, false>(ascendc_sim::UbFrom<T>(dst, loc), ascendc_sim::UbFrom<T>(src, loc),                         \
                           AscendC::MASK_PLACEHOLDER, repeat,                                                          \
                           AscendC::UnaryRepeatParams(dstBlk, srcBlk, dstRep, srcRep), loc);                           \
  }
ASCENDC_SIM_CCE_UNARY(vexp, Exp)
ASCENDC_SIM_CCE_UNARY(vln, Ln)
ASCENDC_SIM_CCE_UNARY(vabs, Abs)
ASCENDC_SIM_CCE_UNARY(vrec, Reciprocal)
ASCENDC_SIM_CCE_UNARY(vsqrt, Sqrt)
ASCENDC_SIM_CCE_UNARY(vrsqrt, Rsqrt)
ASCENDC_SIM_CCE_UNARY(vrelu, Relu)
ASCENDC_SIM_CCE_UNARY(vnot, Not)
#undef ASCENDC_SIM_CCE_UNARY

// ---- vbrcb: Brcb (dst, src, dstBlockStride, dstRepeatStride, repeat); it ignores the mask --------------
template <typename T>
__aicore__ inline void vbrcb(__ubuf__ T* dst, __ubuf__ T* src, uint16_t dstBlockStride, uint16_t dstRepeatStride,
                             uint8_t repeat, ASCENDC_SIM_LOC) {
  AscendC::Brcb(ascendc_sim::UbFrom<T>(dst, loc), ascendc_sim::UbFrom<T>(src, loc), repeat,
                AscendC::BrcbRepeatParams{dstBlockStride, dstRepeatStride}, loc);
}

// ---- vector-scalar: vadds, vmuls (dst, src, scalar, repeat, dst/src block strides, dst/src repeat strides)
#define ASCENDC_SIM_CCE_VEC_SCALAR(INTRINSIC, API)                                                                     \
  template <typename T>                                                                                                \
  __aicore__ inline void INTRINSIC(__ubuf__ T* dst, __ubuf__ T* src, typename ascendc_sim::Identity<T>::type scalar,   \
                                   uint8_t repeat, uint16_t dstBlk, uint16_t srcBlk, uint16_t dstRep, uint16_t srcRep, \
                                   ASCENDC_SIM_LOC) {                                                                  \
    AscendC::API<T, false>(ascendc_sim::UbFrom<T>(dst, loc), ascendc_sim::UbFrom<T>(src, loc), scalar,                 \
                           AscendC::MASK_PLACEHOLDER, repeat,                                                          \
                           AscendC::UnaryRepeatParams(dstBlk, srcBlk, dstRep, srcRep), loc);                           \
  }
ASCENDC_SIM_CCE_VEC_SCALAR(vadds, Adds)
ASCENDC_SIM_CCE_VEC_SCALAR(vmuls, Muls)
#undef ASCENDC_SIM_CCE_VEC_SCALAR

// ---- vconv_<src><dst>[mode]: Cast with the round mode the suffix names (r RINT, f FLOOR, none NONE)
#define ASCENDC_SIM_CCE_VCONV(INTRINSIC, D, S, MODE)                                                                   \
  __aicore__ inline void INTRINSIC(__ubuf__ D* dst, __ubuf__ S* src, uint8_t repeat, uint16_t dstBlk, uint16_t srcBlk, \
                                   uint16_t dstRep, uint16_t srcRep, ASCENDC_SIM_LOC) {                                \
    AscendC::Cast<D, S, false>(ascendc_sim::UbFrom<D>(dst, loc), ascendc_sim::UbFrom<S>(src, loc),                     \
                               AscendC::RoundMode::MODE, AscendC::MASK_PLACEHOLDER, repeat,                            \
                               AscendC::UnaryRepeatParams(dstBlk, srcBlk, dstRep, srcRep), loc);                       \
  }
ASCENDC_SIM_CCE_VCONV(vconv_f162f32, float, half, CAST_NONE)
ASCENDC_SIM_CCE_VCONV(vconv_bf162f32, float, bfloat16_t, CAST_NONE)
ASCENDC_SIM_CCE_VCONV(vconv_s162f32, float, int16_t, CAST_NONE)
ASCENDC_SIM_CCE_VCONV(vconv_s322f32, float, int32_t, CAST_NONE)
ASCENDC_SIM_CCE_VCONV(vconv_s162f16, half, int16_t, CAST_NONE)
ASCENDC_SIM_CCE_VCONV(vconv_f322f16, half, float, CAST_NONE)
ASCENDC_SIM_CCE_VCONV(vconv_f322f16r, half, float, CAST_RINT)
ASCENDC_SIM_CCE_VCONV(vconv_f322bf16r, bfloat16_t, float, CAST_RINT)
ASCENDC_SIM_CCE_VCONV(vconv_f322s16r, int16_t, float, CAST_RINT)
ASCENDC_SIM_CCE_VCONV(vconv_f322s32r, int32_t, float, CAST_RINT)
ASCENDC_SIM_CCE_VCONV(vconv_f322s32f, int32_t, float, CAST_FLOOR)
ASCENDC_SIM_CCE_VCONV(vconv_f162s32r, int32_t, half, CAST_RINT)
#undef ASCENDC_SIM_CCE_VCONV

// ---- vcmax / vcmin: WholeReduceMax / Min (dst, src, repeat, dstRepStride, srcBlkStride, srcRepStride, order)
#define ASCENDC_SIM_CCE_WHOLE_REDUCE(INTRINSIC, API)                                                                 \
  template <typename T>                                                                                              \
  __aicore__ inline void INTRINSIC(__ubuf__ T* dst, __ubuf__ T* src, uint8_t repeat, uint16_t dstRepStride,          \
                                   uint16_t srcBlkStride, uint16_t srcRepStride, Order_t order, ASCENDC_SIM_LOC) {   \
    AscendC::API<T, false>(ascendc_sim::UbFrom<T>(dst, loc), ascendc_sim::UbFrom<T>(src, loc), 0, repeat,            \
                           dstRepStride, srcBlkStride, srcRepStride, static_cast<AscendC::ReduceOrder>(order), loc); \
  }
ASCENDC_SIM_CCE_WHOLE_REDUCE(vcmax, WholeReduceMax)
ASCENDC_SIM_CCE_WHOLE_REDUCE(vcmin, WholeReduceMin)
#undef ASCENDC_SIM_CCE_WHOLE_REDUCE
// The max/min register a ReduceMax / ReduceMin (vcmax / vcmin) leaves: the extreme's bits low, its
// index high (GetReduceMaxMinCount's source, asc-devkit dav_c220 kernel_operator_vec_reduce_impl.h).
__aicore__ inline int64_t get_max_min_cnt() {
  return static_cast<int64_t>(ascendc_sim::CurrentCore().Registers().maxMinSpr);
}

// ---- vcadd: WholeReduceSum (dst, src, repeat, dstRepStride, srcBlkStride, srcRepStride[, toAccVal]).
// toAccVal = 1 is the count form the library's ReduceSum issues, its sum left in ACC_VAL only: not
// modelled as a raw intrinsic (a kernel reaches it through ReduceSum).
template <typename T>
__aicore__ inline void vcadd(__ubuf__ T* dst, __ubuf__ T* src, uint8_t repeat, uint16_t dstRepStride,
                             uint16_t srcBlkStride, uint16_t srcRepStride, bool toAccVal = false, ASCENDC_SIM_LOC) {
  ASCENDC_SIM_CHECK(!toAccVal, loc, "vcadd: the ACC_VAL form (last operand 1) is not modelled; use ReduceSum");
  AscendC::WholeReduceSum<T, false>(ascendc_sim::UbFrom<T>(dst, loc), ascendc_sim::UbFrom<T>(src, loc), 0, repeat,
                                    dstRepStride, srcBlkStride, srcRepStride, loc);
}

// ---- comparisons: vcmpv_<op> (bit mask to dst), vcmpvs_<op> (against a scalar), vcmp_<op> (into
// CMPMASK, one repeat). The bits are written densely, one per lane, whatever the dst strides.
#define ASCENDC_SIM_CCE_COMPARE(OP, MODE)                                                                             \
  template <typename T>                                                                                               \
  __aicore__ inline void vcmpv_##OP(__ubuf__ uint8_t* dst, __ubuf__ T* src0, __ubuf__ T* src1, uint8_t repeat,        \
                                    uint16_t dstBlk, uint16_t src0Blk, uint16_t src1Blk, uint16_t dstRep,             \
                                    uint16_t src0Rep, uint16_t src1Rep, ASCENDC_SIM_LOC) {                            \
    AscendC::Compare<T, uint8_t, false>(                                                                              \
        ascendc_sim::UbFrom<uint8_t>(dst, loc), ascendc_sim::UbFrom<T>(src0, loc), ascendc_sim::UbFrom<T>(src1, loc), \
        AscendC::CMPMODE::MODE, AscendC::MASK_PLACEHOLDER, repeat,                                                    \
        AscendC::BinaryRepeatParams(dstBlk, src0Blk, src1Blk, dstRep, src0Rep, src1Rep), loc);                        \
  }                                                                                                                   \
  template <typename T>                                                                                               \
  __aicore__ inline void vcmpvs_##OP(__ubuf__ uint8_t* dst, __ubuf__ T* src,                                          \
                                     typename ascendc_sim::Identity<T>::type scalar, uint8_t repeat, uint16_t dstBlk, \
                                     uint16_t srcBlk, uint16_t dstRep, uint16_t srcRep, ASCENDC_SIM_LOC) {            \
    AscendC::CompareScalar<T, uint8_t, false>(                                                                        \
        ascendc_sim::UbFrom<uint8_t>(dst, loc), ascendc_sim::UbFrom<T>(src, loc), scalar, AscendC::CMPMODE::MODE,     \
        AscendC::MASK_PLACEHOLDER, repeat, AscendC::UnaryRepeatParams(dstBlk, srcBlk, dstRep, srcRep), loc);          \
  }                                                                                                                   \
  template <typename T>                                                                                               \
  __aicore__ inline void vcmp_##OP(__ubuf__ T* src0, __ubuf__ T* src1, uint8_t repeat, uint16_t dstBlk,               \
                                   uint16_t src0Blk, uint16_t src1Blk, uint16_t dstRep, uint16_t src0Rep,             \
                                   uint16_t src1Rep, ASCENDC_SIM_LOC) {                                               \
    ASCENDC_SIM_CHECK(repeat == 1, loc, "vcmp_" #OP ": the CMPMASK form compares one repeat, not %u", repeat);        \
    AscendC::Compare<T, false>(ascendc_sim::UbFrom<T>(src0, loc), ascendc_sim::UbFrom<T>(src1, loc),                  \
                               AscendC::CMPMODE::MODE, AscendC::MASK_PLACEHOLDER,                                     \
                               AscendC::BinaryRepeatParams(dstBlk, src0Blk, src1Blk, dstRep, src0Rep, src1Rep), loc); \
  }
ASCENDC_SIM_CCE_COMPARE(lt, LT)
ASCENDC_SIM_CCE_COMPARE(gt, GT)
ASCENDC_SIM_CCE_COMPARE(eq, EQ)
ASCENDC_SIM_CCE_COMPARE(le, LE)
ASCENDC_SIM_CCE_COMPARE(ge, GE)
ASCENDC_SIM_CCE_COMPARE(ne, NE)
#undef ASCENDC_SIM_CCE_COMPARE

namespace ascendc_sim {

// A 32-bit UB address a kernel put in a register word (the CMPMASK of vsel mode 2, vgather's
// base): the low half of this emulation's `__ubuf__` pointer, or a device address formed from an
// integer, which is the same number on the device.
inline uint32_t UbAddrOfWord(uint32_t word, const char* api, const SrcLoc& loc) {
  Core& core = CurrentCore();
  const uint32_t size = core.Local().Size(LocalBuf::kUB);
  const uint32_t fromPointer = word - static_cast<uint32_t>(reinterpret_cast<uintptr_t>(core.UbGuardPtr(0)));
  if (fromPointer < size) return fromPointer;
  ASCENDC_SIM_CHECK(word < size, loc, "%s: 32-bit address %#x is not in the UB", api, word);
  return word;
}

// vsel mode 2: lane e of repeat r takes src0 where bit r * lanes + e of the mask at UB byte `bitsAddr`
// is set, else src1. The intrinsic finds the address in CMPMASK's low word; the guest engine's
// import passes it already resolved, as a UB byte address, never as this emulation's pointer.
template <typename T>
void VselByMaskAt(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1, uint32_t bitsAddr, uint8_t repeat,
                  const AscendC::BinaryRepeatParams& p, const SrcLoc& loc) {
  const Lanes l = RegisterMaskLanes<T>(repeat, loc);
  const uint64_t end = static_cast<uint64_t>(bitsAddr) + MaskBytes(l);
  ASCENDC_SIM_CHECK(end <= CurrentCore().Local().Size(LocalBuf::kUB), loc,
                    "vsel mode 2: the mask [%u, %llu) is not in the UB", bitsAddr,
                    static_cast<unsigned long long>(end));
  const AscendC::LocalTensor<T> b = UbFrom<T>(src1, loc);
  SelectByBits("vsel", UbFrom<T>(dst, loc), UbFrom<T>(src0, loc), &b, T{}, bitsAddr, false, l, p, loc);
}

}  // namespace ascendc_sim

// ---- set_cmpmask: load the 128-bit CMPMASK register from the UB (read by vsel) --------------------
template <typename T>
__aicore__ inline void set_cmpmask(__ubuf__ T* src, ASCENDC_SIM_LOC) {
  ascendc_sim::MoveCmpMask("set_cmpmask", ascendc_sim::UbFrom<uint64_t>(src, loc), false, loc);
}

// ---- vsel: mode 0 (no mode argument) takes lane e of every repeat from src0 where CMPMASK bit e is
// set; mode 2 reads a bit mask at the UB address in CMPMASK's low 32 bits; mode 1 selects between
// src0 and the scalar CMPMASK holds, by the bit mask `src1` points at.
template <typename T>
__aicore__ inline void vsel(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1, uint8_t repeat, uint16_t dstBlk,
                            uint16_t src0Blk, uint16_t src1Blk, uint16_t dstRep, uint16_t src0Rep, uint16_t src1Rep,
                            ASCENDC_SIM_LOC) {
  AscendC::Select<T, AscendC::SELMODE::VSEL_CMPMASK_SPR>(
      ascendc_sim::UbFrom<T>(dst, loc), ascendc_sim::UbFrom<T>(src0, loc), ascendc_sim::UbFrom<T>(src1, loc), repeat,
      AscendC::BinaryRepeatParams(dstBlk, src0Blk, src1Blk, dstRep, src0Rep, src1Rep), loc);
}
template <typename T, typename U>
__aicore__ inline void vsel(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ U* src1, uint8_t repeat, uint16_t dstBlk,
                            uint16_t src0Blk, uint16_t src1Blk, uint16_t dstRep, uint16_t src0Rep, uint16_t src1Rep,
                            uint8_t selMode, ASCENDC_SIM_LOC) {
  using AscendC::SELMODE;
  const AscendC::BinaryRepeatParams p = AscendC::BinaryRepeatParams(dstBlk, src0Blk, src1Blk, dstRep, src0Rep, src1Rep);
  const SELMODE mode = static_cast<SELMODE>(selMode);
  if (mode == SELMODE::VSEL_CMPMASK_SPR) {
    ASCENDC_SIM_CHECK((std::is_same_v<T, U>), loc, "vsel mode 0: src1 is a tensor of the destination's type");
    return vsel(dst, src0, reinterpret_cast<__ubuf__ T*>(src1), repeat, dstBlk, src0Blk, src1Blk, dstRep, src0Rep,
                src1Rep, loc);
  }
  const uint64_t* reg = ascendc_sim::CurrentCore().Registers().cmpMask;
  if (mode == SELMODE::VSEL_TENSOR_TENSOR_MODE) {
    ASCENDC_SIM_CHECK((std::is_same_v<T, U>), loc, "vsel mode 2: src1 is a tensor of the destination's type");
    const uint32_t bitsAddr = ascendc_sim::UbAddrOfWord(static_cast<uint32_t>(reg[0]), "vsel mode 2 mask address", loc);
    return ascendc_sim::VselByMaskAt(dst, src0, reinterpret_cast<__ubuf__ T*>(src1), bitsAddr, repeat, p, loc);
  }
  ASCENDC_SIM_CHECK(mode == SELMODE::VSEL_TENSOR_SCALAR_MODE, loc, "vsel: mode %u is not 0, 1 or 2", selMode);
  const ascendc_sim::Lanes l = ascendc_sim::RegisterMaskLanes<T>(repeat, loc);
  const AscendC::LocalTensor<T> d = ascendc_sim::UbFrom<T>(dst, loc), a = ascendc_sim::UbFrom<T>(src0, loc);
  T scalar;
  std::memcpy(&scalar, reg, sizeof(T));
  ascendc_sim::SelectByBits("vsel", d, a, static_cast<const AscendC::LocalTensor<T>*>(nullptr), scalar,
                            ascendc_sim::UbAddrOf(reinterpret_cast<uintptr_t>(src1), "vsel mode 1 mask", loc), false, l,
                            p, loc);
}

namespace ascendc_sim {

// vgather with its base resolved to a UB byte address `base` (asc-devkit's Gather passes the
// source's UB address plus the API's srcBaseAddr): lane e of repeat r takes the element at UB byte
// base + offsets[r * lanes + e] (uint16_t or uint32_t elements); dst repeats dstRepStride blocks
// apart. The guest engine's import calls this with the address its pointer names.
template <typename T>
void VgatherAt(__ubuf__ T* dst, __ubuf__ uint32_t* offsets, uint32_t base, uint16_t dstRepStride, uint8_t repeat,
               const SrcLoc& loc) {
  static_assert(std::is_same_v<T, uint16_t> || std::is_same_v<T, uint32_t>, "vgather: uint16_t or uint32_t elements");
  const ascendc_sim::Lanes l = ascendc_sim::RegisterMaskLanes<T>(repeat, loc);
  const AscendC::LocalTensor<T> d = ascendc_sim::UbFrom<T>(dst, loc);
  const AscendC::LocalTensor<uint32_t> off = ascendc_sim::UbFrom<uint32_t>(offsets, loc);
  const ascendc_sim::Stride sd = ascendc_sim::Blocks<T>({1, dstRepStride});
  // The offsets are uint32, lane after lane: a repeat of T lanes takes 256 / sizeof(T) of them.
  const ascendc_sim::Stride so{1, static_cast<uint32_t>(256 / sizeof(T) * 4 / 32), 8};
  const uint32_t ubSize = ascendc_sim::CurrentCore().Local().Size(ascendc_sim::LocalBuf::kUB);
  const uint32_t* o = ascendc_sim::HostData(off);
  uint64_t lo = ubSize, hi = 0;  // the bytes the lanes read, for the race checks
  for (uint32_t r = 0; r < l.repeats; ++r)
    for (uint32_t e = 0; e < l.perRepeat; ++e) {
      if (!l.Active(r, e)) continue;
      // The offsets' tensor runs to the UB's end: a lane's offset past it would be read from
      // beyond the UB, so its reach is checked before the offset is read.
      const uint64_t at = l.Offset(r, e, so);
      ASCENDC_SIM_CHECK(at < off.GetSize(), loc, "vgather: lane %u of repeat %u takes offset %llu, past the UB", e, r,
                        static_cast<unsigned long long>(at));
      const uint64_t byte = static_cast<uint64_t>(base) + o[at];
      ASCENDC_SIM_CHECK(byte % sizeof(T) == 0 && byte + sizeof(T) <= ubSize, loc,
                        "vgather: lane %u of repeat %u reads UB byte %llu, misaligned or past the UB", e, r,
                        static_cast<unsigned long long>(byte));
      lo = std::min(lo, byte), hi = std::max(hi, byte + sizeof(T));
    }
  const uint32_t from = static_cast<uint32_t>(lo / 32 * 32);
  ascendc_sim::IssueVector(
      ascendc_sim::Op::kVecGather, "vgather", l,
      {{d.UbAddr(), d.GetSize(), sizeof(T), sd, true}, {off.UbAddr(), off.GetSize(), sizeof(uint32_t), so, false}},
      sizeof(T), loc, {{from, hi > lo ? static_cast<uint32_t>(hi - from) : 0u, false}});
  T* out = ascendc_sim::HostData(d);
  for (uint32_t r = 0; r < l.repeats; ++r)
    for (uint32_t e = 0; e < l.perRepeat; ++e)
      if (l.Active(r, e))
        std::memcpy(&out[l.Offset(r, e, sd)], ascendc_sim::CurrentCore().UbPtr(base + o[l.Offset(r, e, so)]),
                    sizeof(T));
}

}  // namespace ascendc_sim

// ---- vgather: the base is a UB byte address, the low 32 bits of a `__ubuf__` pointer --------------
template <typename T>
__aicore__ inline void vgather(__ubuf__ T* dst, __ubuf__ uint32_t* offsets, uint32_t srcBase, uint16_t dstRepStride,
                               uint8_t repeat, ASCENDC_SIM_LOC) {
  ascendc_sim::VgatherAt(dst, offsets, ascendc_sim::UbAddrOfWord(srcBase, "vgather base", loc), dstRepStride, repeat,
                         loc);
}

// ---- vreducev2: GatherMask (patternMode 0: the pattern tensor src1; 1..7 the built-in patterns).
// Counter mode is the A2's: the mask register's count of lanes in each of `repeat` repeats (the
// asc-devkit GatherMask page, configuration 1). The count it kept is read with get_rsvd_cnt.
template <typename T>
__aicore__ inline void vreducev2(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1, uint16_t repeat,
                                 uint8_t src0BlockStride, uint8_t patternMode, uint16_t src0RepeatStride,
                                 uint8_t src1RepeatStride, ASCENDC_SIM_LOC) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "vreducev2: 16- or 32-bit elements");
  ascendc_sim::CoreRegisters& reg = ascendc_sim::CurrentCore().Registers();
  const bool counter = reg.maskCounter;
  const AscendC::GatherMaskParams p{src0BlockStride, repeat, src0RepeatStride, src1RepeatStride};
  uint64_t kept = 0;  // GatherMask sets the count register get_rsvd_cnt reads
  if (patternMode == 0)
    AscendC::GatherMask(ascendc_sim::UbFrom<T>(dst, loc), ascendc_sim::UbFrom<T>(src0, loc),
                        ascendc_sim::UbFrom<T>(src1, loc), counter, static_cast<uint32_t>(reg.mask[0]), p, kept, loc);
  else
    AscendC::GatherMask(ascendc_sim::UbFrom<T>(dst, loc), ascendc_sim::UbFrom<T>(src0, loc), patternMode, counter,
                        static_cast<uint32_t>(reg.mask[0]), p, kept, loc);
  reg.maskCounter = counter;  // the instruction leaves the mode alone (the library's GatherMask resets it)
}
__aicore__ inline int64_t get_rsvd_cnt() {
  ascendc_sim::CurrentCore().Scalar(1);
  return static_cast<int64_t>(ascendc_sim::CurrentCore().Registers().rsvdCnt);
}
// The elements the last GatherMask kept (asc-devkit kernel_utils_base.h: the register get_rsvd_cnt reads).
__aicore__ inline int64_t AscendC::AscendCUtils::GetRsvdCnt() { return get_rsvd_cnt(); }

// ---- data movement ----------------------------------------------------------------------------
// copy_gm_to_ubuf / copy_ubuf_to_gm / copy_ubuf_to_ubuf: DataCopy in 32 B blocks (sid, nBurst,
// lenBurst, srcGap, dstGap).
__aicore__ inline void copy_gm_to_ubuf(__ubuf__ void* dst, __gm__ const void* src, uint8_t sid, uint16_t nBurst,
                                       uint16_t lenBurst, uint16_t srcGap, uint16_t dstGap, ASCENDC_SIM_LOC) {
  (void)sid;
  AscendC::DataCopy(ascendc_sim::UbFrom<uint8_t>(dst, loc), ascendc_sim::GmAt<uint8_t>(src),
                    AscendC::DataCopyParams(nBurst, lenBurst, srcGap, dstGap), loc);
}
__aicore__ inline void copy_ubuf_to_gm(__gm__ void* dst, __ubuf__ const void* src, uint8_t sid, uint16_t nBurst,
                                       uint16_t lenBurst, uint16_t srcGap, uint16_t dstGap, ASCENDC_SIM_LOC) {
  (void)sid;
  AscendC::DataCopy(ascendc_sim::GmAt<uint8_t>(dst), ascendc_sim::UbFrom<uint8_t>(src, loc),
                    AscendC::DataCopyParams(nBurst, lenBurst, srcGap, dstGap), loc);
}
__aicore__ inline void copy_ubuf_to_ubuf(__ubuf__ void* dst, __ubuf__ const void* src, uint8_t sid, uint16_t nBurst,
                                         uint16_t lenBurst, uint16_t srcGap, uint16_t dstGap, ASCENDC_SIM_LOC) {
  (void)sid;
  AscendC::DataCopy(ascendc_sim::UbFrom<uint8_t>(dst, loc), ascendc_sim::UbFrom<uint8_t>(src, loc),
                    AscendC::DataCopyParams(nBurst, lenBurst, srcGap, dstGap), loc);
}

// set_mov_pad_val: the value (bit pattern) the aligned GM -> UB copies pad with.
__aicore__ inline void set_mov_pad_val(uint64_t bits) {
  ascendc_sim::CoreRegisters& reg = ascendc_sim::CurrentCore().Registers();
  reg.padValue = bits;
  reg.padValueSet = true;
  ascendc_sim::CurrentCore().Scalar(1);
}

// copy_gm_to_ubuf_align_b<N> / copy_ubuf_to_gm_align_b<N>: DataCopyPad of N-bit elements (sid,
// nBurst, lenBurst in bytes, left / right padding in elements, then the gaps: bytes on the GM side,
// 32 B blocks on the UB side). The padding takes the set_mov_pad_val value.
#define ASCENDC_SIM_CCE_COPY_ALIGN(BITS, T)                                                                         \
  __aicore__ inline void copy_gm_to_ubuf_align_b##BITS(                                                             \
      __ubuf__ void* dst, __gm__ const void* src, uint8_t sid, uint16_t nBurst, uint32_t lenBurst, uint8_t leftPad, \
      uint8_t rightPad, uint32_t srcGap, uint32_t dstGap, ASCENDC_SIM_LOC) {                                        \
    (void)sid;                                                                                                      \
    const uint64_t bits = ascendc_sim::CurrentCore().Registers().padValue;                                          \
    T value;                                                                                                        \
    std::memcpy(&value, &bits, sizeof(T));                                                                          \
    AscendC::DataCopyPad(ascendc_sim::UbFrom<T>(dst, loc), ascendc_sim::GmAt<T>(src),                               \
                         AscendC::DataCopyExtParams(nBurst, lenBurst, srcGap, dstGap, 0),                           \
                         AscendC::DataCopyPadExtParams<T>{leftPad > 0 || rightPad > 0, leftPad, rightPad, value},   \
                         loc);                                                                                      \
  }                                                                                                                 \
  __aicore__ inline void copy_ubuf_to_gm_align_b##BITS(                                                             \
      __gm__ void* dst, __ubuf__ const void* src, uint8_t sid, uint16_t nBurst, uint32_t lenBurst, uint8_t leftPad, \
      uint8_t rightPad, uint32_t srcGap, uint32_t dstGap, ASCENDC_SIM_LOC) {                                        \
    (void)sid, (void)leftPad, (void)rightPad;                                                                       \
    AscendC::DataCopyPad(ascendc_sim::GmAt<T>(dst), ascendc_sim::UbFrom<T>(src, loc),                               \
                         AscendC::DataCopyExtParams(nBurst, lenBurst, srcGap, dstGap, 0), loc);                     \
  }
ASCENDC_SIM_CCE_COPY_ALIGN(8, uint8_t)
ASCENDC_SIM_CCE_COPY_ALIGN(16, uint16_t)
ASCENDC_SIM_CCE_COPY_ALIGN(32, uint32_t)
#undef ASCENDC_SIM_CCE_COPY_ALIGN

// ---- vtranspose: the 16 x 16 transpose of 16-bit elements (Transpose's basic form) -------------------
__aicore__ inline void vtranspose(__ubuf__ uint16_t* dst, __ubuf__ uint16_t* src, ASCENDC_SIM_LOC) {
  AscendC::Transpose(ascendc_sim::UbFrom<uint16_t>(dst, loc), ascendc_sim::UbFrom<uint16_t>(src, loc), loc);
}

// ---- the CTRL register: get_ctrl / set_ctrl, and the scalar bit intrinsics that edit its value -------
// The bits the A2 library names (asc-devkit kernel_macros.h): 46 HF32 on (SetHF32Mode), 47 HF32 ties
// away (SetHF32TransMode), 51 the Mmad direction (the C API's asc_set_mmad_direction_n sets it,
// _m clears it: the order Mmad produces the result's fractals in, for a FIXPIPE with UnitFlag to read
// them in; the values are the same either way, and Mmad and FIXPIPE are timed as whole instructions
// here). A set that changes any other bit asks for a mode not emulated (48 the fp overflow mode, 50
// LeakyRelu, 59 / 60 the cast saturation): refused, naming the bit, rather than computed wrongly.
namespace ascendc_sim {
constexpr int kCtrlHf32 = 46, kCtrlHf32TiesAway = 47, kCtrlMmadDirectionN = 51;
inline uint64_t CtrlValue(const CoreRegisters& r) {
  return uint64_t{r.hf32} << kCtrlHf32 | uint64_t{r.hf32TiesAway} << kCtrlHf32TiesAway |
         uint64_t{r.mmadDirectionN} << kCtrlMmadDirectionN;
}
inline void SetCtrl(uint64_t value, const SrcLoc& loc) {
  CoreRegisters& r = CurrentCore().Registers();
  constexpr uint64_t kEmulated = 1ull << kCtrlHf32 | 1ull << kCtrlHf32TiesAway | 1ull << kCtrlMmadDirectionN;
  const uint64_t other = (value ^ CtrlValue(r)) & ~kEmulated;
  ASCENDC_SIM_CHECK(other == 0, loc, "set_ctrl: CTRL bit %d is not emulated (46, 47 and 51 are)",
                    __builtin_ctzll(other));
  r.hf32 = (value >> kCtrlHf32) & 1;
  r.hf32TiesAway = (value >> kCtrlHf32TiesAway) & 1;
  r.mmadDirectionN = (value >> kCtrlMmadDirectionN) & 1;
  CurrentCore().Scalar(1);
}
}  // namespace ascendc_sim
__aicore__ inline int64_t get_ctrl() {
  ascendc_sim::CurrentCore().Scalar(1);
  return static_cast<int64_t>(ascendc_sim::CtrlValue(ascendc_sim::CurrentCore().Registers()));
}
__aicore__ inline void set_ctrl(uint64_t value, ASCENDC_SIM_LOC) { ascendc_sim::SetCtrl(value, loc); }
// The bit index is taken modulo 64, as a 64-bit shift amount is.
__aicore__ inline uint64_t sbitset0(uint64_t x, int64_t bit) { return x & ~(uint64_t{1} << (bit & 63)); }
__aicore__ inline uint64_t sbitset1(uint64_t x, int64_t bit) { return x | uint64_t{1} << (bit & 63); }
