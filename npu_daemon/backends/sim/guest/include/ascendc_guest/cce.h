// The CCE intrinsics kernels call directly, below the AscendC API, with the device's argument lists
// (the native engine's ascendc_sim/cce_intrinsics.h, which the host runs for each import): copies
// between GM and UB, the mask register, and the vector instructions the development corpus calls on
// __ubuf__ pointers. A pointer crosses as its address; the host holds it to the UB or a GM buffer.
#pragma once

// The compiler's order operand of vcmax / vcmin (what the A2 library maps ReduceOrder onto).
enum class Order_t : uint8_t { VALUE_INDEX = 0, INDEX_VALUE, ONLY_VALUE, ONLY_INDEX };

namespace ascendc_guest {
ASCENDC_GUEST_IMPORT(cce_copy)
void cce_copy(CceCopy kind, uint32_t dst, uint32_t src, int32_t nBurst, int32_t lenBurst, int32_t srcGap,
              int32_t dstGap, int32_t line);
ASCENDC_GUEST_IMPORT(cce_copy_align)
void cce_copy_align(int32_t toGm, int32_t bits, uint32_t dst, uint32_t src, int32_t nBurst, uint32_t lenBurst,
                    int32_t leftPad, int32_t rightPad, uint32_t srcGap, uint32_t dstGap, int32_t line);
ASCENDC_GUEST_IMPORT(cce_pad_val) void cce_pad_val(int64_t bits);
ASCENDC_GUEST_IMPORT(cce_mask) void cce_mask(int32_t mode, int64_t high, int64_t low);  // set, norm, count
ASCENDC_GUEST_IMPORT(cce_binary)
void cce_binary(Binary op, Dtype t, uint32_t dst, uint32_t src0, uint32_t src1, int32_t repeat, int32_t dstBlk,
                int32_t src0Blk, int32_t src1Blk, int32_t dstRep, int32_t src0Rep, int32_t src1Rep, int32_t line);
ASCENDC_GUEST_IMPORT(cce_scalar)
void cce_scalar(WithScalar op, Dtype t, uint32_t dst, uint32_t src, int64_t scalar, int32_t repeat, int32_t dstBlk,
                int32_t srcBlk, int32_t dstRep, int32_t srcRep, int32_t line);
ASCENDC_GUEST_IMPORT(cce_unary)
void cce_unary(Unary op, Dtype t, uint32_t dst, uint32_t src, int32_t repeat, int32_t dstBlk, int32_t srcBlk,
               int32_t dstRep, int32_t srcRep, int32_t line);
ASCENDC_GUEST_IMPORT(cce_vbrcb)
void cce_vbrcb(Dtype t, uint32_t dst, uint32_t src, int32_t dstBlockStride, int32_t dstRepeatStride, int32_t repeat,
               int32_t line);
ASCENDC_GUEST_IMPORT(cce_dup)
void cce_dup(Dtype t, uint32_t dst, int64_t scalar, int32_t repeat, int32_t dstBlk, int32_t dstRep, int32_t line);
ASCENDC_GUEST_IMPORT(cce_vconv)
void cce_vconv(Vconv form, uint32_t dst, uint32_t src, int32_t repeat, int32_t dstBlk, int32_t srcBlk, int32_t dstRep,
               int32_t srcRep, int32_t line);
ASCENDC_GUEST_IMPORT(cce_whole_reduce)
void cce_whole_reduce(Reduce op, Dtype t, uint32_t dst, uint32_t src, int32_t repeat, int32_t dstRep, int32_t srcBlk,
                      int32_t srcRep, int32_t order, int32_t line);
// form: kBits writes the lanes' bits to dst, kCmpMask into the CMPMASK register (one repeat).
ASCENDC_GUEST_IMPORT(cce_compare)
void cce_compare(CceCompare form, int32_t mode, Dtype t, uint32_t dst, uint32_t src0, uint32_t src1, int32_t repeat,
                 int32_t dstBlk, int32_t src0Blk, int32_t src1Blk, int32_t dstRep, int32_t src0Rep, int32_t src1Rep,
                 int32_t line);
ASCENDC_GUEST_IMPORT(cce_compare_scalar)
void cce_compare_scalar(int32_t mode, Dtype t, uint32_t dst, uint32_t src, int64_t scalar, int32_t repeat,
                        int32_t dstBlk, int32_t srcBlk, int32_t dstRep, int32_t srcRep, int32_t line);
ASCENDC_GUEST_IMPORT(cce_set_cmpmask) void cce_set_cmpmask(uint32_t src, int32_t line);
ASCENDC_GUEST_IMPORT(cce_select)
void cce_select(int32_t mode, Dtype t, uint32_t dst, uint32_t src0, uint32_t src1, int32_t repeat, int32_t dstBlk,
                int32_t src0Blk, int32_t src1Blk, int32_t dstRep, int32_t src0Rep, int32_t src1Rep, int32_t line);
ASCENDC_GUEST_IMPORT(cce_vgather)
void cce_vgather(Dtype t, uint32_t dst, uint32_t offsets, uint32_t srcBase, int32_t dstRepStride, int32_t repeat,
                 int32_t line);
ASCENDC_GUEST_IMPORT(cce_reducev2)
void cce_reducev2(Dtype t, uint32_t dst, uint32_t src0, uint32_t src1, int32_t repeat, int32_t src0BlockStride,
                  int32_t patternMode, int32_t src0RepeatStride, int32_t src1RepeatStride, int32_t line);
ASCENDC_GUEST_IMPORT(cce_rsvd_cnt) int64_t cce_rsvd_cnt();
ASCENDC_GUEST_IMPORT(cce_vtranspose) void cce_vtranspose(uint32_t dst, uint32_t src, int32_t line);
ASCENDC_GUEST_IMPORT(cce_get_ctrl) int64_t cce_get_ctrl();
ASCENDC_GUEST_IMPORT(cce_set_ctrl) void cce_set_ctrl(int64_t value, int32_t line);
template <typename T>
using Scalar = typename std::common_type<T>::type;  // T, not deduced from the scalar argument
template <typename P>
uint32_t AddrOf(P* p) {
  return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(p));
}
}  // namespace ascendc_guest

namespace AscendC {
// The library's scratch UB address on the A2 (asc-devkit kernel_utils_constants.h, __NPU_ARCH__ 2201).
constexpr uint32_t TMP_UB_OFFSET = 184 * 1024;

// A scalar's bit pattern, zero-extended (what set_mov_pad_val and the pad registers take).
template <typename T>
uint64_t GetScalarBitcodeValue(T value) {
  static_assert(sizeof(T) <= 8, "GetScalarBitcodeValue: a scalar of at most 8 bytes");
  uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  return bits;
}
}  // namespace AscendC

inline int64_t get_block_idx() { return ascendc_guest::core_block_idx(); }
inline int64_t get_block_num() { return ascendc_guest::core_block_num(); }
// The vector core's index within its AI core's pair and the pair's size: GetSubBlockIdx and
// GetSubBlockNum by the intrinsics' names, as hand-written mixed kernels call them.
inline int64_t get_subblockid() { return ascendc_guest::core_info(ascendc_guest::CoreInfo::kSubBlockIdx); }
inline int64_t get_subblockdim() { return ascendc_guest::core_info(ascendc_guest::CoreInfo::kSubBlockNum); }

// ---- copies in 32 B blocks (sid, nBurst, lenBurst, srcGap, dstGap) ------------------------------------
inline void copy_gm_to_ubuf(__ubuf__ void* dst, __gm__ const void* src, uint8_t, uint16_t nBurst, uint16_t lenBurst,
                            uint16_t srcGap, uint16_t dstGap, ASCENDC_GUEST_LINE) {
  ascendc_guest::cce_copy(ascendc_guest::CceCopy::kGmToUb, ascendc_guest::AddrOf(dst), ascendc_guest::AddrOf(src),
                          nBurst, lenBurst, srcGap, dstGap, line);
}
inline void copy_ubuf_to_gm(__gm__ void* dst, __ubuf__ const void* src, uint8_t, uint16_t nBurst, uint16_t lenBurst,
                            uint16_t srcGap, uint16_t dstGap, ASCENDC_GUEST_LINE) {
  ascendc_guest::cce_copy(ascendc_guest::CceCopy::kUbToGm, ascendc_guest::AddrOf(dst), ascendc_guest::AddrOf(src),
                          nBurst, lenBurst, srcGap, dstGap, line);
}
inline void copy_ubuf_to_ubuf(__ubuf__ void* dst, __ubuf__ const void* src, uint8_t, uint16_t nBurst, uint16_t lenBurst,
                              uint16_t srcGap, uint16_t dstGap, ASCENDC_GUEST_LINE) {
  ascendc_guest::cce_copy(ascendc_guest::CceCopy::kUbToUb, ascendc_guest::AddrOf(dst), ascendc_guest::AddrOf(src),
                          nBurst, lenBurst, srcGap, dstGap, line);
}
inline void set_mov_pad_val(uint64_t bits) { ascendc_guest::cce_pad_val(static_cast<int64_t>(bits)); }
// copy_*_align_b<N>: DataCopyPad of N-bit elements (lenBurst in bytes, padding in elements).
#define ASCENDC_GUEST_COPY_ALIGN(BITS)                                                                               \
  inline void copy_gm_to_ubuf_align_b##BITS(__ubuf__ void* dst, __gm__ const void* src, uint8_t, uint16_t nBurst,    \
                                            uint32_t lenBurst, uint8_t leftPad, uint8_t rightPad, uint32_t srcGap,   \
                                            uint32_t dstGap, ASCENDC_GUEST_LINE) {                                   \
    ascendc_guest::cce_copy_align(0, BITS, ascendc_guest::AddrOf(dst), ascendc_guest::AddrOf(src), nBurst, lenBurst, \
                                  leftPad, rightPad, srcGap, dstGap, line);                                          \
  }                                                                                                                  \
  inline void copy_ubuf_to_gm_align_b##BITS(__gm__ void* dst, __ubuf__ const void* src, uint8_t, uint16_t nBurst,    \
                                            uint32_t lenBurst, uint8_t leftPad, uint8_t rightPad, uint32_t srcGap,   \
                                            uint32_t dstGap, ASCENDC_GUEST_LINE) {                                   \
    ascendc_guest::cce_copy_align(1, BITS, ascendc_guest::AddrOf(dst), ascendc_guest::AddrOf(src), nBurst, lenBurst, \
                                  leftPad, rightPad, srcGap, dstGap, line);                                          \
  }
ASCENDC_GUEST_COPY_ALIGN(8)
ASCENDC_GUEST_COPY_ALIGN(16)
ASCENDC_GUEST_COPY_ALIGN(32)
#undef ASCENDC_GUEST_COPY_ALIGN

// ---- the mask register, as the vector intrinsics below read it ---------------------------------------
inline void set_vector_mask(uint64_t maskHigh, uint64_t maskLow) {
  ascendc_guest::cce_mask(0, static_cast<int64_t>(maskHigh), static_cast<int64_t>(maskLow));
}
inline void set_mask_norm() { ascendc_guest::cce_mask(1, 0, 0); }
inline void set_mask_count() { ascendc_guest::cce_mask(2, 0, 0); }

// ---- vector instructions on __ubuf__ pointers (repeat, block strides, repeat strides) ------------------
template <typename T>
void vector_dup(__ubuf__ T* dst, ascendc_guest::Scalar<T> scalar, uint8_t repeat, uint16_t dstBlk, uint16_t,
                uint8_t dstRep, uint8_t, ASCENDC_GUEST_LINE) {
  ascendc_guest::cce_dup(ascendc_guest::DtypeOf<T>(), ascendc_guest::AddrOf(dst), ascendc_guest::BitsOf(scalar), repeat,
                         dstBlk, dstRep, line);
}
#define ASCENDC_GUEST_CCE_BINARY(INTRINSIC, CODE)                                                                   \
  template <typename T>                                                                                             \
  void INTRINSIC(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1, uint8_t repeat, uint16_t dstBlk,              \
                 uint16_t src0Blk, uint16_t src1Blk, uint16_t dstRep, uint16_t src0Rep, uint16_t src1Rep,           \
                 ASCENDC_GUEST_LINE) {                                                                              \
    ascendc_guest::cce_binary(ascendc_guest::Binary::CODE, ascendc_guest::DtypeOf<T>(), ascendc_guest::AddrOf(dst), \
                              ascendc_guest::AddrOf(src0), ascendc_guest::AddrOf(src1), repeat, dstBlk, src0Blk,    \
                              src1Blk, dstRep, src0Rep, src1Rep, line);                                             \
  }
ASCENDC_GUEST_CCE_BINARY(vadd, kAdd)
ASCENDC_GUEST_CCE_BINARY(vsub, kSub)
ASCENDC_GUEST_CCE_BINARY(vmul, kMul)
ASCENDC_GUEST_CCE_BINARY(vmax, kMax)
ASCENDC_GUEST_CCE_BINARY(vmin, kMin)
ASCENDC_GUEST_CCE_BINARY(vdiv, kDiv)
#undef ASCENDC_GUEST_CCE_BINARY
// vand / vor: bitwise on 16-bit integer lanes only, as the A2's And / Or; the same bits either sign.
#define ASCENDC_GUEST_CCE_BITWISE(INTRINSIC, CODE)                                                                  \
  template <typename T>                                                                                             \
  void INTRINSIC(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1, uint8_t repeat, uint16_t dstBlk,              \
                 uint16_t src0Blk, uint16_t src1Blk, uint16_t dstRep, uint16_t src0Rep, uint16_t src1Rep,           \
                 ASCENDC_GUEST_LINE) {                                                                              \
    static_assert(std::is_integral_v<T> && sizeof(T) == 2, #INTRINSIC " takes int16_t or uint16_t");                \
    ascendc_guest::cce_binary(ascendc_guest::Binary::CODE, ascendc_guest::DtypeOf<int16_t>(),                       \
                              ascendc_guest::AddrOf(dst), ascendc_guest::AddrOf(src0), ascendc_guest::AddrOf(src1), \
                              repeat, dstBlk, src0Blk, src1Blk, dstRep, src0Rep, src1Rep, line);                    \
  }
ASCENDC_GUEST_CCE_BITWISE(vand, kAnd)
ASCENDC_GUEST_CCE_BITWISE(vor, kOr)
#undef ASCENDC_GUEST_CCE_BITWISE
// vexp, vln, vabs, vrec, vsqrt, vrsqrt, vrelu, vnot (dst, src, repeat, block strides, repeat strides)
#define ASCENDC_GUEST_CCE_UNARY(INTRINSIC, CODE)                                                                      \
  template <typename T>                                                                                               \
  void INTRINSIC(__ubuf__ T* dst, __ubuf__ T* src, uint8_t repeat, uint16_t dstBlk, uint16_t srcBlk, uint16_t dstRep, \
                 uint16_t srcRep, ASCENDC_GUEST_LINE) {                                                               \
    ascendc_guest::cce_unary(ascendc_guest::Unary::CODE, ascendc_guest::DtypeOf<T>(), ascendc_guest::AddrOf(dst),     \
                             ascendc_guest::AddrOf(src), repeat, dstBlk, srcBlk, dstRep, srcRep, line);               \
  }
ASCENDC_GUEST_CCE_UNARY(vexp, kExp)
ASCENDC_GUEST_CCE_UNARY(vln, kLn)
ASCENDC_GUEST_CCE_UNARY(vabs, kAbs)
ASCENDC_GUEST_CCE_UNARY(vrec, kReciprocal)
ASCENDC_GUEST_CCE_UNARY(vsqrt, kSqrt)
ASCENDC_GUEST_CCE_UNARY(vrsqrt, kRsqrt)
ASCENDC_GUEST_CCE_UNARY(vrelu, kRelu)
ASCENDC_GUEST_CCE_UNARY(vnot, kNot)
#undef ASCENDC_GUEST_CCE_UNARY
// vbrcb: Brcb (dst, src, dstBlockStride, dstRepeatStride, repeat); it ignores the mask.
template <typename T>
void vbrcb(__ubuf__ T* dst, __ubuf__ T* src, uint16_t dstBlockStride, uint16_t dstRepeatStride, uint8_t repeat,
           ASCENDC_GUEST_LINE) {
  ascendc_guest::cce_vbrcb(ascendc_guest::DtypeOf<T>(), ascendc_guest::AddrOf(dst), ascendc_guest::AddrOf(src),
                           dstBlockStride, dstRepeatStride, repeat, line);
}
#define ASCENDC_GUEST_CCE_SCALAR(INTRINSIC, CODE)                                                                    \
  template <typename T>                                                                                              \
  void INTRINSIC(__ubuf__ T* dst, __ubuf__ T* src, ascendc_guest::Scalar<T> scalar, uint8_t repeat, uint16_t dstBlk, \
                 uint16_t srcBlk, uint16_t dstRep, uint16_t srcRep, ASCENDC_GUEST_LINE) {                            \
    ascendc_guest::cce_scalar(ascendc_guest::WithScalar::CODE, ascendc_guest::DtypeOf<T>(),                          \
                              ascendc_guest::AddrOf(dst), ascendc_guest::AddrOf(src), ascendc_guest::BitsOf(scalar), \
                              repeat, dstBlk, srcBlk, dstRep, srcRep, line);                                         \
  }
ASCENDC_GUEST_CCE_SCALAR(vadds, kAdds)
ASCENDC_GUEST_CCE_SCALAR(vmuls, kMuls)
#undef ASCENDC_GUEST_CCE_SCALAR
#define ASCENDC_GUEST_VCONV(INTRINSIC, D, S, FORM)                                                               \
  inline void INTRINSIC(__ubuf__ D* dst, __ubuf__ S* src, uint8_t repeat, uint16_t dstBlk, uint16_t srcBlk,      \
                        uint16_t dstRep, uint16_t srcRep, ASCENDC_GUEST_LINE) {                                  \
    ascendc_guest::cce_vconv(ascendc_guest::Vconv::FORM, ascendc_guest::AddrOf(dst), ascendc_guest::AddrOf(src), \
                             repeat, dstBlk, srcBlk, dstRep, srcRep, line);                                      \
  }
ASCENDC_GUEST_VCONV(vconv_f162f32, float, half, kF16F32)
ASCENDC_GUEST_VCONV(vconv_bf162f32, float, bfloat16_t, kBf16F32)
ASCENDC_GUEST_VCONV(vconv_s162f32, float, int16_t, kS16F32)
ASCENDC_GUEST_VCONV(vconv_s322f32, float, int32_t, kS32F32)
ASCENDC_GUEST_VCONV(vconv_s162f16, half, int16_t, kS16F16)
ASCENDC_GUEST_VCONV(vconv_f322f16, half, float, kF32F16)
ASCENDC_GUEST_VCONV(vconv_f322f16r, half, float, kF32F16r)
ASCENDC_GUEST_VCONV(vconv_f322bf16r, bfloat16_t, float, kF32Bf16r)
ASCENDC_GUEST_VCONV(vconv_f322s16r, int16_t, float, kF32S16r)
ASCENDC_GUEST_VCONV(vconv_f322s32r, int32_t, float, kF32S32r)
ASCENDC_GUEST_VCONV(vconv_f322s32f, int32_t, float, kF32S32f)
ASCENDC_GUEST_VCONV(vconv_f162s32r, int32_t, half, kF16S32r)
#undef ASCENDC_GUEST_VCONV

// ---- vcmax / vcmin: WholeReduceMax / Min (dst, src, repeat, dstRepStride, srcBlkStride, srcRepStride, order)
#define ASCENDC_GUEST_CCE_WHOLE_REDUCE(INTRINSIC, CODE)                                                           \
  template <typename T>                                                                                           \
  void INTRINSIC(__ubuf__ T* dst, __ubuf__ T* src, uint8_t repeat, uint16_t dstRepStride, uint16_t srcBlkStride,  \
                 uint16_t srcRepStride, Order_t order, ASCENDC_GUEST_LINE) {                                      \
    ascendc_guest::cce_whole_reduce(ascendc_guest::Reduce::CODE, ascendc_guest::DtypeOf<T>(),                     \
                                    ascendc_guest::AddrOf(dst), ascendc_guest::AddrOf(src), repeat, dstRepStride, \
                                    srcBlkStride, srcRepStride, static_cast<int32_t>(order), line);               \
  }
ASCENDC_GUEST_CCE_WHOLE_REDUCE(vcmax, kMax)
ASCENDC_GUEST_CCE_WHOLE_REDUCE(vcmin, kMin)
#undef ASCENDC_GUEST_CCE_WHOLE_REDUCE

// ---- vcadd: WholeReduceSum (dst, src, repeat, dstRepStride, srcBlkStride, srcRepStride[, toAccVal]);
// toAccVal = 1 (the sum to ACC_VAL only) is refused by the host.
template <typename T>
void vcadd(__ubuf__ T* dst, __ubuf__ T* src, uint8_t repeat, uint16_t dstRepStride, uint16_t srcBlkStride,
           uint16_t srcRepStride, bool toAccVal = false, ASCENDC_GUEST_LINE) {
  ascendc_guest::cce_whole_reduce(ascendc_guest::Reduce::kSum, ascendc_guest::DtypeOf<T>(), ascendc_guest::AddrOf(dst),
                                  ascendc_guest::AddrOf(src), repeat, dstRepStride, srcBlkStride, srcRepStride,
                                  toAccVal ? 1 : 0, line);
}

// ---- comparisons: vcmpv_<op> (bit mask to dst), vcmpvs_<op> (against a scalar), vcmp_<op> (into
// CMPMASK, one repeat); the mode codes are CMPMODE's.
#define ASCENDC_GUEST_CCE_COMPARE(OP, MODE)                                                                          \
  template <typename T>                                                                                              \
  void vcmpv_##OP(__ubuf__ uint8_t* dst, __ubuf__ T* src0, __ubuf__ T* src1, uint8_t repeat, uint16_t dstBlk,        \
                  uint16_t src0Blk, uint16_t src1Blk, uint16_t dstRep, uint16_t src0Rep, uint16_t src1Rep,           \
                  ASCENDC_GUEST_LINE) {                                                                              \
    ascendc_guest::cce_compare(ascendc_guest::CceCompare::kBits, MODE, ascendc_guest::DtypeOf<T>(),                  \
                               ascendc_guest::AddrOf(dst), ascendc_guest::AddrOf(src0), ascendc_guest::AddrOf(src1), \
                               repeat, dstBlk, src0Blk, src1Blk, dstRep, src0Rep, src1Rep, line);                    \
  }                                                                                                                  \
  template <typename T>                                                                                              \
  void vcmpvs_##OP(__ubuf__ uint8_t* dst, __ubuf__ T* src, ascendc_guest::Scalar<T> scalar, uint8_t repeat,          \
                   uint16_t dstBlk, uint16_t srcBlk, uint16_t dstRep, uint16_t srcRep, ASCENDC_GUEST_LINE) {         \
    ascendc_guest::cce_compare_scalar(MODE, ascendc_guest::DtypeOf<T>(), ascendc_guest::AddrOf(dst),                 \
                                      ascendc_guest::AddrOf(src), ascendc_guest::BitsOf(scalar), repeat, dstBlk,     \
                                      srcBlk, dstRep, srcRep, line);                                                 \
  }                                                                                                                  \
  template <typename T>                                                                                              \
  void vcmp_##OP(__ubuf__ T* src0, __ubuf__ T* src1, uint8_t repeat, uint16_t dstBlk, uint16_t src0Blk,              \
                 uint16_t src1Blk, uint16_t dstRep, uint16_t src0Rep, uint16_t src1Rep, ASCENDC_GUEST_LINE) {        \
    ascendc_guest::cce_compare(ascendc_guest::CceCompare::kCmpMask, MODE, ascendc_guest::DtypeOf<T>(), 0,            \
                               ascendc_guest::AddrOf(src0), ascendc_guest::AddrOf(src1), repeat, dstBlk, src0Blk,    \
                               src1Blk, dstRep, src0Rep, src1Rep, line);                                             \
  }
ASCENDC_GUEST_CCE_COMPARE(lt, 0)
ASCENDC_GUEST_CCE_COMPARE(gt, 1)
ASCENDC_GUEST_CCE_COMPARE(eq, 2)
ASCENDC_GUEST_CCE_COMPARE(le, 3)
ASCENDC_GUEST_CCE_COMPARE(ge, 4)
ASCENDC_GUEST_CCE_COMPARE(ne, 5)
#undef ASCENDC_GUEST_CCE_COMPARE

// ---- set_cmpmask: load the 128-bit CMPMASK register from the UB (read by vsel) --------------------
template <typename T>
void set_cmpmask(__ubuf__ T* src, ASCENDC_GUEST_LINE) {
  ascendc_guest::cce_set_cmpmask(ascendc_guest::AddrOf(src), line);
}

// ---- vsel: mode 0 (no mode argument) by CMPMASK's bits; 1 between src0 and CMPMASK's scalar by the
// bits at src1; 2 between the tensors by the bits at the UB address in CMPMASK's low word. One
// function with the mode defaulted: a mode-0 overload of its own took a mode written as a plain int
// (`vsel(..., 2)`) for its line argument and selected by CMPMASK's bits.
template <typename T, typename U>
void vsel(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ U* src1, uint8_t repeat, uint16_t dstBlk, uint16_t src0Blk,
          uint16_t src1Blk, uint16_t dstRep, uint16_t src0Rep, uint16_t src1Rep, uint8_t selMode = 0,
          ASCENDC_GUEST_LINE) {
  // Mode 0 and 2 select between two tensors of T (the host holds src1 to it).
  const int32_t mode = selMode != 1 && !std::is_same_v<T, U> ? -1 : selMode;
  ascendc_guest::cce_select(mode, ascendc_guest::DtypeOf<T>(), ascendc_guest::AddrOf(dst), ascendc_guest::AddrOf(src0),
                            ascendc_guest::AddrOf(src1), repeat, dstBlk, src0Blk, src1Blk, dstRep, src0Rep, src1Rep,
                            line);
}

// ---- vgather: lane e of repeat r takes the element at UB byte address srcBase + offsets[r * lanes + e]
template <typename T>
void vgather(__ubuf__ T* dst, __ubuf__ uint32_t* offsets, uint32_t srcBase, uint16_t dstRepStride, uint8_t repeat,
             ASCENDC_GUEST_LINE) {
  ascendc_guest::cce_vgather(ascendc_guest::DtypeOf<T>(), ascendc_guest::AddrOf(dst), ascendc_guest::AddrOf(offsets),
                             srcBase, dstRepStride, repeat, line);
}

// ---- vreducev2: GatherMask (patternMode 0: the pattern tensor src1; 1..7 the built-in patterns); the
// count it kept is read with get_rsvd_cnt.
template <typename T>
void vreducev2(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1, uint16_t repeat, uint8_t src0BlockStride,
               uint8_t patternMode, uint16_t src0RepeatStride, uint8_t src1RepeatStride, ASCENDC_GUEST_LINE) {
  ascendc_guest::cce_reducev2(ascendc_guest::DtypeOf<T>(), ascendc_guest::AddrOf(dst), ascendc_guest::AddrOf(src0),
                              ascendc_guest::AddrOf(src1), repeat, src0BlockStride, patternMode, src0RepeatStride,
                              src1RepeatStride, line);
}
inline int64_t get_rsvd_cnt() { return ascendc_guest::cce_rsvd_cnt(); }

// ---- vtranspose: the 16 x 16 transpose of 16-bit elements (Transpose's basic form) -------------------
inline void vtranspose(__ubuf__ uint16_t* dst, __ubuf__ uint16_t* src, ASCENDC_GUEST_LINE) {
  ascendc_guest::cce_vtranspose(ascendc_guest::AddrOf(dst), ascendc_guest::AddrOf(src), line);
}

// ---- the CTRL register (the host holds it: the bits it emulates, a set of any other refused) -------
inline int64_t get_ctrl() { return ascendc_guest::cce_get_ctrl(); }
inline void set_ctrl(uint64_t value, ASCENDC_GUEST_LINE) {
  ascendc_guest::cce_set_ctrl(static_cast<int64_t>(value), line);
}
// The bit index is taken modulo 64, as a 64-bit shift amount is (ascendc_sim/cce_intrinsics.h).
inline uint64_t sbitset0(uint64_t x, int64_t bit) { return x & ~(uint64_t{1} << (bit & 63)); }
inline uint64_t sbitset1(uint64_t x, int64_t bit) { return x | uint64_t{1} << (bit & 63); }
