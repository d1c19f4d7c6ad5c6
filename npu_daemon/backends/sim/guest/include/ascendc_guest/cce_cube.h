// The cube's CCE intrinsics with the device's argument lists (the native engine's
// ascendc_sim/cce_cube.h, which the host runs for each import): GM -> L1 (nd2nz, plain and pad
// modes), L1 -> L0A / L0B (2D and img2col), L1 -> bias table, mad, L0C -> GM / L1, and the registers
// they read (ND_PARA, the Load3D registers, the atomic mode). A cube pointer
// crosses as its value, the buffer's byte address; the host holds it to its buffer and each GM
// reach to the launch's buffers.
#pragma once

#include "ascendc_guest/cube_params.h"

namespace ascendc_guest {
ASCENDC_GUEST_IMPORT(cce_nd2nz)
void cce_nd2nz(Dtype t, uint32_t dst, uint32_t src, int32_t ndNum, int32_t nValue, int32_t dValue,
               int32_t srcNdMatrixStride, int32_t srcDValue, int32_t dstNzC0Stride, int32_t dstNzNStride,
               int32_t dstNzMatrixStride, int32_t line);
ASCENDC_GUEST_IMPORT(cce_load)
void cce_load(CceLoad form, Dtype t, uint32_t dst, uint32_t src, int32_t baseIdx, int32_t repeat, int32_t srcStride,
              int32_t dstStride, int32_t transposeOrAddrMode, int32_t addrModeOrFracStride, int32_t line);
ASCENDC_GUEST_IMPORT(cce_mad)
void cce_mad(Dtype in, uint32_t c, uint32_t a, uint32_t b, int32_t m, int32_t k, int32_t n, int32_t unitFlag,
             int32_t kDirectionAlign, int32_t cmatrixSource, int32_t cmatrixInitVal, int32_t line);
ASCENDC_GUEST_IMPORT(cce_fixpipe)
void cce_fixpipe(Dtype d, Dtype s, uint32_t dst, uint32_t src, int32_t nSize, int32_t mSize, uint32_t dstStride,
                 int32_t srcStride, int32_t unitFlag, int32_t quantPre, int32_t reluPre, int32_t channelSplit,
                 int32_t nz2ndEn, int32_t line);
ASCENDC_GUEST_IMPORT(cce_fixpipe_cbuf)
void cce_fixpipe_cbuf(Dtype d, Dtype s, uint32_t dst, uint32_t src, int32_t nSize, int32_t mSize, uint32_t dstStride,
                      int32_t srcStride, int32_t unitFlag, int32_t quantPre, int32_t reluPre, int32_t channelSplit,
                      int32_t nz2ndEn, int32_t line);
ASCENDC_GUEST_IMPORT(cce_gm_to_cbuf)
void cce_gm_to_cbuf(uint32_t dst, uint32_t src, int32_t nBurst, int32_t lenBurst, int32_t srcStride, int32_t dstStride,
                    int32_t padMode, int32_t line);
ASCENDC_GUEST_IMPORT(cce_cbuf_to_bt)
void cce_cbuf_to_bt(uint32_t dst, uint32_t src, int32_t convControl, int32_t nBurst, int32_t lenBurst, int32_t srcGap,
                    int32_t dstGap, int32_t line);
// geometry: strideW, strideH, Wk, Hk, dilationW, dilationH a byte each from bit 0; flags: filterW,
// filterH, transpose, fmatrixCtrl from bit 0.
ASCENDC_GUEST_IMPORT(cce_img2col)
void cce_img2col(CceLoad form, Dtype t, uint32_t dst, uint32_t src, int32_t stepK, int32_t stepM, int32_t posK,
                 int32_t posM, int64_t geometry, int32_t flags, int32_t sizeChannel, int32_t line);
ASCENDC_GUEST_IMPORT(cce_set_reg) void cce_set_reg(CceReg reg, int64_t value, int32_t line);
}  // namespace ascendc_guest

// ---- GM -> L1: DataCopy with DataCopyParams, and the pad modes --------------------------------------------
inline void copy_gm_to_cbuf(__cbuf__ void* dst, __gm__ void* src, int8_t, uint16_t nBurst, uint16_t lenBurst,
                            uint16_t srcStride, uint16_t dstStride, pad_t padMode, ASCENDC_GUEST_LINE) {
  ascendc_guest::cce_gm_to_cbuf(ascendc_guest::AddrOf(dst), ascendc_guest::AddrOf(src), nBurst, lenBurst, srcStride,
                                dstStride, padMode, line);
}

// ---- L1 -> bias table: DataCopy from C1 to C2 (convControl 1 widens half to float) ------------------------
inline void copy_cbuf_to_bt(uint64_t dst, __cbuf__ void* src, uint16_t convControl, uint16_t nBurst, uint16_t lenBurst,
                            uint16_t srcGap, uint16_t dstGap, ASCENDC_GUEST_LINE) {
  ascendc_guest::cce_cbuf_to_bt(static_cast<uint32_t>(dst), ascendc_guest::AddrOf(src), convControl, nBurst, lenBurst,
                                srcGap, dstGap, line);
}

// ---- L1 -> L0A / L0B: LoadData 3Dv2 (img2col) from the Load3D registers ---------------------------------
#define ASCENDC_GUEST_CCE_IMG2COL(INTRINSIC, FORM)                                                                    \
  template <typename T>                                                                                               \
  void INTRINSIC(T* dst, __cbuf__ T* src, uint16_t stepK, uint16_t stepM, uint16_t posK, uint16_t posM,               \
                 uint8_t strideW, uint8_t strideH, uint8_t Wk, uint8_t Hk, uint8_t dilationW, uint8_t dilationH,      \
                 bool filterW, bool filterH, bool transpose, bool fmatrixCtrl, uint16_t sizeChannel,                  \
                 ASCENDC_GUEST_LINE) {                                                                                \
    const int64_t geometry = static_cast<int64_t>(strideW) | static_cast<int64_t>(strideH) << 8 |                     \
                             static_cast<int64_t>(Wk) << 16 | static_cast<int64_t>(Hk) << 24 |                        \
                             static_cast<int64_t>(dilationW) << 32 | static_cast<int64_t>(dilationH) << 40;           \
    const int32_t flags = filterW | filterH << 1 | transpose << 2 | fmatrixCtrl << 3;                                 \
    ascendc_guest::cce_img2col(ascendc_guest::CceLoad::FORM, ascendc_guest::DtypeOf<T>(), ascendc_guest::AddrOf(dst), \
                               ascendc_guest::AddrOf(src), stepK, stepM, posK, posM, geometry, flags, sizeChannel,    \
                               line);                                                                                 \
  }
ASCENDC_GUEST_CCE_IMG2COL(img2colv2_cbuf_to_ca, kToA)
ASCENDC_GUEST_CCE_IMG2COL(img2colv2_cbuf_to_cb, kToB)
#undef ASCENDC_GUEST_CCE_IMG2COL

// ---- GM (ND) -> L1 (NZ): DataCopy with Nd2NzParams -----------------------------------------------------
#define ASCENDC_GUEST_CCE_ND2NZ(INTRINSIC, BYTES)                                                                 \
  template <typename T, typename U>                                                                               \
  void INTRINSIC(__cbuf__ T* dst, __gm__ U* src, uint8_t, uint16_t ndNum, uint16_t nValue, uint16_t dValue,       \
                 uint16_t srcNdMatrixStride, uint16_t srcDValue, uint16_t dstNzC0Stride, uint16_t dstNzNStride,   \
                 uint16_t dstNzMatrixStride, ASCENDC_GUEST_LINE) {                                                \
    static_assert(sizeof(T) == (BYTES) && sizeof(U) == (BYTES), #INTRINSIC " moves " #BYTES "-byte elements");    \
    ascendc_guest::cce_nd2nz(ascendc_guest::DtypeOf<T>(), ascendc_guest::AddrOf(dst), ascendc_guest::AddrOf(src), \
                             ndNum, nValue, dValue, srcNdMatrixStride, srcDValue, dstNzC0Stride, dstNzNStride,    \
                             dstNzMatrixStride, line);                                                            \
  }
ASCENDC_GUEST_CCE_ND2NZ(copy_gm_to_cbuf_multi_nd2nz_b8, 1)
ASCENDC_GUEST_CCE_ND2NZ(copy_gm_to_cbuf_multi_nd2nz_b16, 2)
ASCENDC_GUEST_CCE_ND2NZ(copy_gm_to_cbuf_multi_nd2nz_b32s, 4)
#undef ASCENDC_GUEST_CCE_ND2NZ

// ---- L1 -> L0A / L0B: LoadData 2D, and the form without a destination gap --------------------------------
#define ASCENDC_GUEST_CCE_LOAD2D(INTRINSIC, FORM)                                                                      \
  template <typename T>                                                                                                \
  void INTRINSIC(T* dst, __cbuf__ T* src, uint16_t baseIdx, uint8_t repeat, uint16_t srcStride, uint16_t dstStride,    \
                 uint8_t, bool transpose, addr_cal_mode_t addrCalMode, ASCENDC_GUEST_LINE) {                           \
    ascendc_guest::cce_load(ascendc_guest::CceLoad::FORM, ascendc_guest::DtypeOf<T>(), ascendc_guest::AddrOf(dst),     \
                            ascendc_guest::AddrOf(src), baseIdx, repeat, srcStride, dstStride, transpose, addrCalMode, \
                            line);                                                                                     \
  }                                                                                                                    \
  template <typename T>                                                                                                \
  void INTRINSIC(T* dst, __cbuf__ T* src, uint16_t baseIdx, uint8_t repeat, uint16_t srcStride, uint8_t sid,           \
                 bool transpose, ASCENDC_GUEST_LINE) {                                                                 \
    INTRINSIC(dst, src, baseIdx, repeat, srcStride, 0, sid, transpose, inc, line);                                     \
  }
ASCENDC_GUEST_CCE_LOAD2D(load_cbuf_to_ca, kToA)
ASCENDC_GUEST_CCE_LOAD2D(load_cbuf_to_cb, kToB)
#undef ASCENDC_GUEST_CCE_LOAD2D

// ---- L1 -> L0A / L0B with each square transposed: LoadDataWithTranspose --------------------------------
#define ASCENDC_GUEST_CCE_LOAD_TRANSPOSE(INTRINSIC, FORM)                                                           \
  template <typename T>                                                                                             \
  void INTRINSIC(T* dst, __cbuf__ T* src, uint16_t indexID, uint8_t repeat, uint16_t srcStride, uint16_t dstStride, \
                 bool addrmode, uint16_t dstFracStride, ASCENDC_GUEST_LINE) {                                       \
    ascendc_guest::cce_load(ascendc_guest::CceLoad::FORM, ascendc_guest::DtypeOf<T>(), ascendc_guest::AddrOf(dst),  \
                            ascendc_guest::AddrOf(src), indexID, repeat, srcStride, dstStride, addrmode,            \
                            dstFracStride, line);                                                                   \
  }
ASCENDC_GUEST_CCE_LOAD_TRANSPOSE(load_cbuf_to_ca_transpose, kToATranspose)
ASCENDC_GUEST_CCE_LOAD_TRANSPOSE(load_cbuf_to_cb_transpose, kToBTranspose)
#undef ASCENDC_GUEST_CCE_LOAD_TRANSPOSE

// ---- mad: Mmad (c, a, b, m, k, n, unitFlag, kDirectionAlign, cmatrixSource, cmatrixInitVal) -------------
template <typename C, typename A, typename B>
void mad(__cc__ C* c, __ca__ A* a, __cb__ B* b, uint16_t m, uint16_t k, uint16_t n, uint8_t unitFlag,
         bool kDirectionAlign, bool cmatrixSource, bool cmatrixInitVal, ASCENDC_GUEST_LINE) {
  static_assert(std::is_same_v<A, B>, "mad: a and b of one type");
  static_assert(std::is_same_v<C, std::conditional_t<std::is_same_v<A, int8_t>, int32_t, float>>,
                "mad: c is float for half / bfloat16_t / float inputs, int32_t for int8_t");
  ascendc_guest::cce_mad(ascendc_guest::DtypeOf<A>(), ascendc_guest::AddrOf(c), ascendc_guest::AddrOf(a),
                         ascendc_guest::AddrOf(b), m, k, n, unitFlag, kDirectionAlign, cmatrixSource, cmatrixInitVal,
                         line);
}

// ---- L0C -> GM / L1: the fixpipe (sid, nSize, mSize, dstStride, srcStride, unitFlag, quantPre, reluPre,
// channelSplit, nz2ndEn); with nz2ndEn the ND matrices are ND_PARA's ---------------------------------------
#define ASCENDC_GUEST_CCE_FIXPIPE(INTRINSIC, SPACE, IMPORT)                                                            \
  template <typename D, typename S>                                                                                    \
  void INTRINSIC(SPACE D* dst, __cc__ S* src, uint8_t, uint16_t nSize, uint16_t mSize, uint32_t dstStride,             \
                 uint16_t srcStride, uint8_t unitFlag, QuantMode_t quantPre, uint8_t reluPre, bool channelSplit,       \
                 bool nz2ndEn, ASCENDC_GUEST_LINE) {                                                                   \
    ascendc_guest::IMPORT(ascendc_guest::DtypeOf<D>(), ascendc_guest::DtypeOf<S>(), ascendc_guest::AddrOf(dst),        \
                          ascendc_guest::AddrOf(src), nSize, mSize, dstStride, srcStride, unitFlag, quantPre, reluPre, \
                          channelSplit, nz2ndEn, line);                                                                \
  }
ASCENDC_GUEST_CCE_FIXPIPE(copy_matrix_cc_to_gm, __gm__, cce_fixpipe)
ASCENDC_GUEST_CCE_FIXPIPE(copy_matrix_cc_to_cbuf, __cbuf__, cce_fixpipe_cbuf)
#undef ASCENDC_GUEST_CCE_FIXPIPE

// ---- the registers: ND_PARA, PADDING, the GM atomic mode of later copies out and its type --------------
inline void set_nd_para(uint64_t config, ASCENDC_GUEST_LINE) {
  ascendc_guest::cce_set_reg(ascendc_guest::CceReg::kNdPara, static_cast<int64_t>(config), line);
}
#define ASCENDC_GUEST_CCE_REG(INTRINSIC, REG)                                                 \
  inline void INTRINSIC(uint64_t bits, ASCENDC_GUEST_LINE) {                                  \
    ascendc_guest::cce_set_reg(ascendc_guest::CceReg::REG, static_cast<int64_t>(bits), line); \
  }
ASCENDC_GUEST_CCE_REG(set_padding, kPadding)
ASCENDC_GUEST_CCE_REG(set_fmatrix, kFmatrixLeft)
ASCENDC_GUEST_CCE_REG(set_fmatrix_b, kFmatrixRight)
ASCENDC_GUEST_CCE_REG(set_l3d_rpt, kL3dRepeat)
ASCENDC_GUEST_CCE_REG(set_l1_3d_size, kL3dSize)
#undef ASCENDC_GUEST_CCE_REG
#define ASCENDC_GUEST_CCE_ATOMIC(INTRINSIC, REG, VALUE)                                        \
  inline void INTRINSIC(ASCENDC_GUEST_LINE) {                                                  \
    ascendc_guest::cce_set_reg(ascendc_guest::CceReg::REG, static_cast<int64_t>(VALUE), line); \
  }
ASCENDC_GUEST_CCE_ATOMIC(set_atomic_none, kAtomicOp, ascendc_guest::AtomicOp::kNone)
ASCENDC_GUEST_CCE_ATOMIC(set_atomic_add, kAtomicOp, ascendc_guest::AtomicOp::kAdd)
ASCENDC_GUEST_CCE_ATOMIC(set_atomic_max, kAtomicOp, ascendc_guest::AtomicOp::kMax)
ASCENDC_GUEST_CCE_ATOMIC(set_atomic_min, kAtomicOp, ascendc_guest::AtomicOp::kMin)
ASCENDC_GUEST_CCE_ATOMIC(set_atomic_f32, kAtomicType, ascendc_guest::DtypeOf<float>())
ASCENDC_GUEST_CCE_ATOMIC(set_atomic_f16, kAtomicType, ascendc_guest::DtypeOf<half>())
ASCENDC_GUEST_CCE_ATOMIC(set_atomic_bf16, kAtomicType, ascendc_guest::DtypeOf<bfloat16_t>())
ASCENDC_GUEST_CCE_ATOMIC(set_atomic_s8, kAtomicType, ascendc_guest::DtypeOf<int8_t>())
ASCENDC_GUEST_CCE_ATOMIC(set_atomic_s16, kAtomicType, ascendc_guest::DtypeOf<int16_t>())
ASCENDC_GUEST_CCE_ATOMIC(set_atomic_s32, kAtomicType, ascendc_guest::DtypeOf<int32_t>())
#undef ASCENDC_GUEST_CCE_ATOMIC
