// The CCE intrinsics kernels call directly, below the AscendC API, with the device's argument lists
// (the native engine's ascendc_sim/cce_intrinsics.h, which the host runs for each import): copies
// between GM and UB, the mask register, and the vector instructions the development corpus calls on
// __ubuf__ pointers. A pointer crosses as its address; the host holds it to the UB or a GM buffer.
#pragma once

namespace ascendc_guest {
extern "C" {
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
ASCENDC_GUEST_IMPORT(cce_dup)
void cce_dup(Dtype t, uint32_t dst, int64_t scalar, int32_t repeat, int32_t dstBlk, int32_t dstRep, int32_t line);
ASCENDC_GUEST_IMPORT(cce_vconv)
void cce_vconv(Vconv form, uint32_t dst, uint32_t src, int32_t repeat, int32_t dstBlk, int32_t srcBlk, int32_t dstRep,
               int32_t srcRep, int32_t line);
}
template <typename T>
using Scalar = typename std::common_type<T>::type;  // T, not deduced from the scalar argument
template <typename P>
uint32_t AddrOf(P* p) {
  return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(p));
}
}  // namespace ascendc_guest

inline int64_t get_block_idx() { return ascendc_guest::core_block_idx(); }
inline int64_t get_block_num() { return ascendc_guest::core_block_num(); }

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
#undef ASCENDC_GUEST_CCE_BINARY
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
ASCENDC_GUEST_VCONV(vconv_f322f16r, half, float, kF32F16r)
ASCENDC_GUEST_VCONV(vconv_f322bf16r, bfloat16_t, float, kF32Bf16r)
ASCENDC_GUEST_VCONV(vconv_f322s16r, int16_t, float, kF32S16r)
ASCENDC_GUEST_VCONV(vconv_f322s32r, int32_t, float, kF32S32r)
ASCENDC_GUEST_VCONV(vconv_f322s32f, int32_t, float, kF32S32f)
ASCENDC_GUEST_VCONV(vconv_f162s32r, int32_t, half, kF16S32r)
#undef ASCENDC_GUEST_VCONV
