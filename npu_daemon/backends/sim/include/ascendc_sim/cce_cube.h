// The CCE intrinsics of the cube unit that hand-written kernels call below the AscendC API, with the
// device's argument lists: the instructions the A2 library issues for the cube API (asc-devkit
// impl/basic_api/dav_c220: DataCopy GM -> L1 with Nd2NzParams is copy_gm_to_cbuf_multi_nd2nz_b*,
// LoadData 2D L1 -> L0A / L0B is load_cbuf_to_ca / _cb, LoadDataWithTranspose load_cbuf_to_*_transpose,
// Mmad is mad, DataCopy / Fixpipe L0C -> GM is copy_matrix_cc_to_gm after set_nd_para, SetAtomic*
// is set_atomic_*). Each runs the API it backs, so the pipe, timing, bounds and race checks are the
// API's, and the same tile costs the same through either.
//
// A raw cube pointer (`__cbuf__`, `__ca__`, `__cb__`, `__cc__`) carries no length: its tensor runs to
// its buffer's end, so each operand is held to the buffer it names.
#pragma once

#include "ascendc_sim/cube_compute.h"
#include "ascendc_sim/data_copy.h"

// The address mode of load_cbuf_to_* (the compiler's enum): incrementing or decrementing addresses.
enum addr_cal_mode_t : uint8_t { inc = 0, dec = 1 };

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
template <typename D, typename S>
__aicore__ inline void copy_matrix_cc_to_gm(__gm__ D* dst, __cc__ S* src, uint8_t sid, uint16_t nSize, uint16_t mSize,
                                            uint32_t dstStride, uint16_t srcStride, uint8_t unitFlag,
                                            QuantMode_t quantPre, uint8_t reluPre, bool channelSplit, bool nz2ndEn,
                                            ASCENDC_SIM_LOC) {
  AscendC::DataCopyCO12DstParams p(nSize, mSize, dstStride, srcStride, quantPre, reluPre, channelSplit, nz2ndEn);
  p.sid = sid;
  p.unitFlag = unitFlag;
  ASCENDC_SIM_CHECK(AscendC::detail::Co1CopyModelled(p), loc, "%s", AscendC::detail::kCo1CopyModeMessage);
  AscendC::FixpipeParamsV220 f = AscendC::detail::FixpipeOf(p);
  const AscendC::LocalTensor<S> c = ascendc_sim::CubeFrom<S>(AscendC::TPosition::CO1, src, "copy_matrix_cc_to_gm", loc);
  if (nz2ndEn) {
    ascendc_sim::ApplyNdPara(f);
    AscendC::Fixpipe<D, S, AscendC::CFG_ROW_MAJOR>(ascendc_sim::GmAt<D>(dst), c, f, loc);
  } else {
    AscendC::Fixpipe<D, S, AscendC::CFG_NZ>(ascendc_sim::GmAt<D>(dst), c, f, loc);
  }
}

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

// ---- set_padding: the PADDING register LoadData 3D pads with (SetLoadDataPaddingValue's) ----------------
__aicore__ inline void set_padding(uint64_t bits, ASCENDC_SIM_LOC) {
  AscendC::detail::SetLoad3dRegister(AscendC::detail::kPadding, bits, loc);
}
