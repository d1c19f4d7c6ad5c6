// The CCE intrinsics of the cube unit that hand-written kernels call below the AscendC API, with the
// device's argument lists: the instructions the A2 library issues for the cube API (asc-devkit
// impl/basic_api/dav_c220: DataCopy GM -> L1 with Nd2NzParams is copy_gm_to_cbuf_multi_nd2nz_b*,
// LoadData 2D L1 -> L0A / L0B is load_cbuf_to_ca / _cb, LoadDataWithTranspose load_cbuf_to_*_transpose,
// Mmad is mad, DataCopy / Fixpipe L0C -> GM is copy_matrix_cc_to_gm after set_nd_para, SetAtomic*
// is set_atomic_*; DataCopy GM -> L1 with DataCopyParams is copy_gm_to_cbuf, DataCopy / Fixpipe L0C -> L1
// copy_matrix_cc_to_cbuf, DataCopy L1 -> bias table copy_cbuf_to_bt, LoadData 3Dv2 img2colv2_cbuf_to_ca
// / _cb after set_fmatrix, set_fmatrix_b, set_padding, set_l3d_rpt, set_l1_3d_size). Each runs the API it
// backs, so the pipe, timing, bounds and race checks are the API's, and the same tile costs the same
// through either.
//
// A raw cube pointer (`__cbuf__`, `__ca__`, `__cb__`, `__cc__`) carries no length: its tensor runs to
// its buffer's end, so each operand is held to the buffer it names.
#pragma once

#include "ascendc_sim/cube_compute.h"
#include "ascendc_sim/data_copy.h"

namespace ascendc_sim {

// The GM tensor at a raw `__gm__` pointer (the API checks each instruction's reach against the launch's buffers).
template <typename T>
AscendC::GlobalTensor<T> GmAt(const volatile void* p) {
  AscendC::GlobalTensor<T> gm;
  gm.SetGlobalBuffer(reinterpret_cast<T*>(const_cast<void*>(p)));
  return gm;
}

// The tensor of T from a raw pointer into the cube buffer of `pos` to that buffer's end. On the
// device such a pointer is the buffer's byte address, which kernels form from integers; a
// LocalTensor's GetPhyAddr (the kernel's view of the local space) names the same byte.
template <typename T>
AscendC::LocalTensor<T> CubeFrom(AscendC::TPosition pos, const volatile void* p, const char* api, const SrcLoc& loc) {
  Core& core = CurrentCore();
  const LocalBuf buf = AscendC::BufferOf(pos);
  const uint32_t base = core.Local().Base(buf), size = core.Local().Size(buf);
  const uintptr_t v = reinterpret_cast<uintptr_t>(p), view = reinterpret_cast<uintptr_t>(core.UbGuardPtr(0));
  uint64_t off = v;
  if (v >= size) {
    ASCENDC_SIM_CHECK(v >= view + base && v - view - base < size, loc, "%s: address %#llx is not in %s", api,
                      static_cast<unsigned long long>(v), LocalBufName(buf));
    off = v - view - base;
  }
  return AscendC::LocalTensor<T>(pos, static_cast<uint32_t>(off), static_cast<uint32_t>((size - off) / sizeof(T)), loc);
}

// ND_PARA's fields (set_nd_para; asc-devkit SetFixpipeNz2ndFlagImpl).
inline void ApplyNdPara(AscendC::FixpipeParamsV220& f) {
  const uint64_t nd = CurrentCore().Registers().ndPara;
  f.ndNum = static_cast<uint16_t>(nd);
  f.srcNdStride = static_cast<uint16_t>(nd >> 16);
  f.dstNdStride = static_cast<uint16_t>(nd >> 32);
}

// copy_gm_to_cbuf's modes 6 to 8 (asc-devkit asc_copy_gm2l1: "每32B删除最高位的28B/24B/16B, 最低位的
// 4B/8B/16B连续存储"): of each 32 B block the burst reads, its low `keep` bytes (the first in memory,
// little-endian) land one after another in L1. One burst: where a second burst starts in L1 (its
// rows are not whole 32 B blocks) is not documented, so more than one is refused. Charged as the
// GM -> L1 DMA of the bytes it reads, the DataCopy that moves them unchanged.
inline void CopyGmToCbufKeepLow(const AscendC::LocalTensor<uint8_t>& dst, uint8_t* gm, uint16_t nBurst,
                                uint16_t lenBurst, uint32_t keep, const SrcLoc& loc) {
  const char* api = "copy_gm_to_cbuf";
  if (nBurst == 0 || lenBurst == 0) return;
  ASCENDC_SIM_CHECK(nBurst == 1, loc, "%s: pad mode with keep %u B of each 32 B and %u bursts: only one is modelled",
                    api, keep, nBurst);
  const uint32_t bytes = lenBurst * keep;
  const uint32_t at = CubeOperand(dst, LocalBuf::kL1, 32, bytes, api, "dst", loc);
  const Dma d{1, lenBurst * 32u, lenBurst * 32ull, bytes, bytes};
  IssueDma(Op::kCopyGmToUb, api, gm, at, d, CacheMode::CACHE_MODE_NORMAL, loc);
  uint8_t* out = HostData(dst);
  const auto* in = reinterpret_cast<const uint8_t*>(GmHost(gm));
  for (uint32_t b = 0; b < lenBurst; ++b) std::memcpy(out + b * keep, in + b * 32ull, keep);
}

// LoadData 3Dv2 from the registers as they stand (the raw instruction writes none of them).
inline constexpr AscendC::IsResetLoad3dConfig kLoad3dFromRegisters = {false, false};

}  // namespace ascendc_sim

// ---- GM (ND) -> L1 (NZ): DataCopy with Nd2NzParams (sid, ndNum, nValue, dValue, srcNdMatrixStride,
// srcDValue, dstNzC0Stride, dstNzNStride, dstNzMatrixStride) -------------------------------------
#define ASCENDC_SIM_CCE_ND2NZ(INTRINSIC, BYTES)                                                                  \
  template <typename T, typename U>                                                                              \
  __aicore__ inline void INTRINSIC(__cbuf__ T* dst, __gm__ U* src, uint8_t sid, uint16_t ndNum, uint16_t nValue, \
                                   uint16_t dValue, uint16_t srcNdMatrixStride, uint16_t srcDValue,              \
                                   uint16_t dstNzC0Stride, uint16_t dstNzNStride, uint16_t dstNzMatrixStride,    \
                                   ASCENDC_SIM_LOC) {                                                            \
    static_assert(sizeof(T) == (BYTES) && sizeof(U) == (BYTES), #INTRINSIC " moves " #BYTES "-byte elements");   \
    (void)sid;                                                                                                   \
    AscendC::DataCopy(ascendc_sim::CubeFrom<T>(AscendC::TPosition::A1, dst, #INTRINSIC, loc),                    \
                      ascendc_sim::GmAt<T>(src),                                                                 \
                      AscendC::Nd2NzParams(ndNum, nValue, dValue, srcNdMatrixStride, srcDValue, dstNzC0Stride,   \
                                           dstNzNStride, dstNzMatrixStride),                                     \
                      loc);                                                                                      \
  }
ASCENDC_SIM_CCE_ND2NZ(copy_gm_to_cbuf_multi_nd2nz_b8, 1)
ASCENDC_SIM_CCE_ND2NZ(copy_gm_to_cbuf_multi_nd2nz_b16, 2)
ASCENDC_SIM_CCE_ND2NZ(copy_gm_to_cbuf_multi_nd2nz_b32s, 4)
#undef ASCENDC_SIM_CCE_ND2NZ

// ---- L1 -> L0A / L0B: LoadData 2D (baseIdx is startIndex, dstStride dstGap, in 512 B fractals) ----------
#define ASCENDC_SIM_CCE_LOAD2D(INTRINSIC, POS)                                                                       \
  template <typename T>                                                                                              \
  __aicore__ inline void INTRINSIC(T* dst, __cbuf__ T* src, uint16_t baseIdx, uint8_t repeat, uint16_t srcStride,    \
                                   uint16_t dstStride, uint8_t sid, bool transpose, addr_cal_mode_t addrCalMode,     \
                                   ASCENDC_SIM_LOC) {                                                                \
    AscendC::LoadData(ascendc_sim::CubeFrom<T>(AscendC::TPosition::POS, dst, #INTRINSIC, loc),                       \
                      ascendc_sim::CubeFrom<T>(AscendC::TPosition::A1, src, #INTRINSIC, loc),                        \
                      AscendC::LoadData2DParams(baseIdx, repeat, srcStride, sid, dstStride, transpose, addrCalMode), \
                      loc);                                                                                          \
  }                                                                                                                  \
  /* The form without a destination gap: the fractals land one after another. */                                     \
  template <typename T>                                                                                              \
  __aicore__ inline void INTRINSIC(T* dst, __cbuf__ T* src, uint16_t baseIdx, uint8_t repeat, uint16_t srcStride,    \
                                   uint8_t sid, bool transpose, ASCENDC_SIM_LOC) {                                   \
    INTRINSIC(dst, src, baseIdx, repeat, srcStride, 0, sid, transpose, inc, loc);                                    \
  }
ASCENDC_SIM_CCE_LOAD2D(load_cbuf_to_ca, A2)
ASCENDC_SIM_CCE_LOAD2D(load_cbuf_to_cb, B2)
#undef ASCENDC_SIM_CCE_LOAD2D

// ---- L1 -> L0A / L0B with each square transposed: LoadDataWithTranspose (indexID, repeat, srcStride,
// dstStride, addrmode, dstFracStride: the dstGap and dstFracGap of LoadData2dTransposeParams) ------------
#define ASCENDC_SIM_CCE_LOAD_TRANSPOSE(INTRINSIC, POS)                                                            \
  template <typename T>                                                                                           \
  __aicore__ inline void INTRINSIC(T* dst, __cbuf__ T* src, uint16_t indexID, uint8_t repeat, uint16_t srcStride, \
                                   uint16_t dstStride, bool addrmode, uint16_t dstFracStride, ASCENDC_SIM_LOC) {  \
    AscendC::LoadDataWithTranspose(                                                                               \
        ascendc_sim::CubeFrom<T>(AscendC::TPosition::POS, dst, #INTRINSIC, loc),                                  \
        ascendc_sim::CubeFrom<T>(AscendC::TPosition::A1, src, #INTRINSIC, loc),                                   \
        AscendC::LoadData2dTransposeParams(indexID, repeat, srcStride, dstStride, dstFracStride, addrmode), loc); \
  }
ASCENDC_SIM_CCE_LOAD_TRANSPOSE(load_cbuf_to_ca_transpose, A2)
ASCENDC_SIM_CCE_LOAD_TRANSPOSE(load_cbuf_to_cb_transpose, B2)
#undef ASCENDC_SIM_CCE_LOAD_TRANSPOSE

// ---- mad: Mmad (c, a, b, m, k, n, unitFlag, kDirectionAlign, cmatrixSource, cmatrixInitVal) ------------
template <typename C, typename A, typename B>
__aicore__ inline void mad(__cc__ C* c, __ca__ A* a, __cb__ B* b, uint16_t m, uint16_t k, uint16_t n, uint8_t unitFlag,
                           bool kDirectionAlign, bool cmatrixSource, bool cmatrixInitVal, ASCENDC_SIM_LOC) {
  AscendC::MmadParams p;
  p.m = m, p.n = n, p.k = k;
  p.unitFlag = unitFlag;
  p.kDirectionAlign = kDirectionAlign;
  p.cmatrixSource = cmatrixSource;
  p.cmatrixInitVal = cmatrixInitVal;
  AscendC::Mmad(ascendc_sim::CubeFrom<C>(AscendC::TPosition::CO1, c, "mad", loc),
                ascendc_sim::CubeFrom<A>(AscendC::TPosition::A2, a, "mad", loc),
                ascendc_sim::CubeFrom<B>(AscendC::TPosition::B2, b, "mad", loc), p, loc);
}

// ---- L0C -> GM: the fixpipe DataCopy from CO1 issues (sid, nSize, mSize, dstStride, srcStride,
// unitFlag, quantPre, reluPre, channelSplit, nz2ndEn); with nz2ndEn the ND matrices are ND_PARA's ----------
__aicore__ inline void set_nd_para(uint64_t config) {
  ascendc_sim::CurrentCore().Registers().ndPara = config;
  ascendc_sim::CurrentCore().Scalar(1);
}
// One macro for both, so copy_matrix_cc_to_gm keeps the code it had: the kernel's scalar code the
// native engine counts around an inlined intrinsic (scalar_count.py) moved with a shared helper
// function, and with it the FIXPIPE time of the GM write that follows (tests/sim/test_cce_cube.py).
#define ASCENDC_SIM_CCE_CC_COPY(INTRINSIC, SPACE, DST)                                                              \
  template <typename D, typename S>                                                                                 \
  __aicore__ inline void INTRINSIC(SPACE D* dst, __cc__ S* src, uint8_t sid, uint16_t nSize, uint16_t mSize,        \
                                   uint32_t dstStride, uint16_t srcStride, uint8_t unitFlag, QuantMode_t quantPre,  \
                                   uint8_t reluPre, bool channelSplit, bool nz2ndEn, ASCENDC_SIM_LOC) {             \
    AscendC::DataCopyCO12DstParams p(nSize, mSize, dstStride, srcStride, quantPre, reluPre, channelSplit, nz2ndEn); \
    p.sid = sid;                                                                                                    \
    p.unitFlag = unitFlag;                                                                                          \
    ASCENDC_SIM_CHECK(AscendC::detail::Co1CopyModelled(p), loc, "%s", AscendC::detail::kCo1CopyModeMessage);        \
    AscendC::FixpipeParamsV220 f = AscendC::detail::FixpipeOf(p);                                                   \
    const AscendC::LocalTensor<S> c = ascendc_sim::CubeFrom<S>(AscendC::TPosition::CO1, src, #INTRINSIC, loc);      \
    if (nz2ndEn) {                                                                                                  \
      ascendc_sim::ApplyNdPara(f);                                                                                  \
      AscendC::Fixpipe<D, S, AscendC::CFG_ROW_MAJOR>(DST, c, f, loc);                                               \
    } else {                                                                                                        \
      AscendC::Fixpipe<D, S, AscendC::CFG_NZ>(DST, c, f, loc);                                                      \
    }                                                                                                               \
  }
// L0C -> GM, and L0C -> L1 (DataCopy from CO1 to A1 / B1: the same Fixpipe, its result left in L1).
ASCENDC_SIM_CCE_CC_COPY(copy_matrix_cc_to_gm, __gm__, ascendc_sim::GmAt<D>(dst))
ASCENDC_SIM_CCE_CC_COPY(copy_matrix_cc_to_cbuf, __cbuf__,
                        ascendc_sim::CubeFrom<D>(AscendC::TPosition::A1, dst, "copy_matrix_cc_to_cbuf", loc))
#undef ASCENDC_SIM_CCE_CC_COPY

// ---- GM -> L1: DataCopy with DataCopyParams (sid, nBurst, lenBurst, srcStride, dstStride in 32 B
// blocks), and the pad modes (pad_t) -----------------------------------------------------------------
__aicore__ inline void copy_gm_to_cbuf(__cbuf__ void* dst, __gm__ void* src, int8_t sid, uint16_t nBurst,
                                       uint16_t lenBurst, uint16_t srcStride, uint16_t dstStride, pad_t padMode,
                                       ASCENDC_SIM_LOC) {
  const char* api = "copy_gm_to_cbuf";
  (void)sid;
  ascendc_sim::RequireAic(api, loc);
  const AscendC::LocalTensor<uint8_t> l1 = ascendc_sim::CubeFrom<uint8_t>(AscendC::TPosition::A1, dst, api, loc);
  if (padMode == PAD_NONE) {
    const AscendC::DataCopyParams p(nBurst, lenBurst, srcStride, dstStride);
    // The DMA checks its reach against the whole local space; the instruction names L1.
    if (nBurst > 0)
      ascendc_sim::CubeOperand(l1, ascendc_sim::LocalBuf::kL1, 32,
                               (static_cast<uint64_t>(nBurst - 1) * (lenBurst + dstStride) + lenBurst) * 32, api, "dst",
                               loc);
    return AscendC::DataCopy(l1, ascendc_sim::GmAt<uint8_t>(src), p, loc);
  }
  ASCENDC_SIM_CHECK(padMode >= PAD_MODE6 && padMode <= PAD_MODE8, loc,
                    "%s: pad mode %d inserts pad bytes whose value is not documented: not modelled", api,
                    static_cast<int>(padMode));
  const uint32_t keep = 4u << (padMode - PAD_MODE6);
  ascendc_sim::CopyGmToCbufKeepLow(l1, reinterpret_cast<uint8_t*>(const_cast<void*>(static_cast<const void*>(src))),
                                   nBurst, lenBurst, keep, loc);
}

// ---- L1 -> bias table: DataCopy from C1 to C2 (dst the table's address; convControl 1 widens half to
// float, as the A2 library sets it for a half source and a float table, 0 copies 4-byte elements) ---------
__aicore__ inline void copy_cbuf_to_bt(uint64_t dst, __cbuf__ void* src, uint16_t convControl, uint16_t nBurst,
                                       uint16_t lenBurst, uint16_t srcGap, uint16_t dstGap, ASCENDC_SIM_LOC) {
  const char* api = "copy_cbuf_to_bt";
  const auto bt = ascendc_sim::CubeFrom<float>(AscendC::TPosition::C2, reinterpret_cast<void*>(dst), api, loc);
  const AscendC::DataCopyParams p(nBurst, lenBurst, srcGap, dstGap);
  if (convControl)
    AscendC::DataCopy(bt, ascendc_sim::CubeFrom<half>(AscendC::TPosition::A1, src, api, loc), p, loc);
  else
    AscendC::DataCopy(bt, ascendc_sim::CubeFrom<float>(AscendC::TPosition::A1, src, api, loc), p, loc);
}

// ---- L1 -> L0A / L0B: LoadData 3Dv2, img2col (stepK, stepM, posK, posM: kExtension, mExtension,
// kStartPt, mStartPt; Wk, Hk the filter; filterW / filterH its size's extension bits; the feature map
// and pad value from the registers) -------------------------------------------------------------------
#define ASCENDC_SIM_CCE_IMG2COL(INTRINSIC, POS)                                                                      \
  template <typename T>                                                                                              \
  __aicore__ inline void INTRINSIC(T* dst, __cbuf__ T* src, uint16_t stepK, uint16_t stepM, uint16_t posK,           \
                                   uint16_t posM, uint8_t strideW, uint8_t strideH, uint8_t Wk, uint8_t Hk,          \
                                   uint8_t dilationW, uint8_t dilationH, bool filterW, bool filterH, bool transpose, \
                                   bool fmatrixCtrl, uint16_t sizeChannel, ASCENDC_SIM_LOC) {                        \
    AscendC::LoadData3DParamsV2<T> p;                                                                                \
    p.kExtension = stepK, p.mExtension = stepM, p.kStartPt = posK, p.mStartPt = posM;                                \
    p.strideW = strideW, p.strideH = strideH, p.filterW = Wk, p.filterH = Hk;                                        \
    p.dilationFilterW = dilationW, p.dilationFilterH = dilationH;                                                    \
    p.filterSizeW = filterW, p.filterSizeH = filterH, p.enTranspose = transpose, p.fMatrixCtrl = fmatrixCtrl;        \
    p.channelSize = sizeChannel;                                                                                     \
    AscendC::LoadData<T, ascendc_sim::kLoad3dFromRegisters>(                                                         \
        ascendc_sim::CubeFrom<T>(AscendC::TPosition::POS, dst, #INTRINSIC, loc),                                     \
        ascendc_sim::CubeFrom<T>(AscendC::TPosition::A1, src, #INTRINSIC, loc), p, loc);                             \
  }
ASCENDC_SIM_CCE_IMG2COL(img2colv2_cbuf_to_ca, A2)
ASCENDC_SIM_CCE_IMG2COL(img2colv2_cbuf_to_cb, B2)
#undef ASCENDC_SIM_CCE_IMG2COL

// ---- the GM atomic mode of later copies out: set_atomic_none / _add / _max / _min, and its type ----------
__aicore__ inline void set_atomic_none() { AscendC::SetAtomicNone(); }
#define ASCENDC_SIM_CCE_ATOMIC_OP(INTRINSIC, OP) \
  __aicore__ inline void INTRINSIC() { ascendc_sim::CurrentCore().Registers().atomicOp = ascendc_sim::AtomicOp::OP; }
ASCENDC_SIM_CCE_ATOMIC_OP(set_atomic_add, kAdd)
ASCENDC_SIM_CCE_ATOMIC_OP(set_atomic_max, kMax)
ASCENDC_SIM_CCE_ATOMIC_OP(set_atomic_min, kMin)
#undef ASCENDC_SIM_CCE_ATOMIC_OP
__aicore__ inline void set_atomic_f32() { AscendC::SetAtomicType<float>(); }
__aicore__ inline void set_atomic_f16() { AscendC::SetAtomicType<half>(); }
__aicore__ inline void set_atomic_bf16() { AscendC::SetAtomicType<bfloat16_t>(); }
__aicore__ inline void set_atomic_s8() { AscendC::SetAtomicType<int8_t>(); }
__aicore__ inline void set_atomic_s16() { AscendC::SetAtomicType<int16_t>(); }
__aicore__ inline void set_atomic_s32() { AscendC::SetAtomicType<int32_t>(); }

// ---- the Load3D registers: FMATRIX / FMATRIX_B (SetFmatrix), PADDING (SetLoadDataPaddingValue),
// L3D_RPT (SetLoadDataRepeat), the L1 3D size (SetLoadDataBoundary) ------------------------------------
#define ASCENDC_SIM_CCE_LOAD3D_REG(INTRINSIC, REG)                       \
  __aicore__ inline void INTRINSIC(uint64_t bits, ASCENDC_SIM_LOC) {     \
    AscendC::detail::SetLoad3dRegister(AscendC::detail::REG, bits, loc); \
  }
ASCENDC_SIM_CCE_LOAD3D_REG(set_fmatrix, kFmatrixLeft)
ASCENDC_SIM_CCE_LOAD3D_REG(set_fmatrix_b, kFmatrixRight)
ASCENDC_SIM_CCE_LOAD3D_REG(set_padding, kPadding)
ASCENDC_SIM_CCE_LOAD3D_REG(set_l3d_rpt, kRepeat)
ASCENDC_SIM_CCE_LOAD3D_REG(set_l1_3d_size, kBoundary)
#undef ASCENDC_SIM_CCE_LOAD3D_REG
