// The cube family (included by kernel_operator.h): GM -> L1 (Nd2Nz), LoadData GM -> L1 and GM / L1 -> L0A / L0B (2D,
// with transpose, 3D v2 img2col), Fill / InitConstValue, Mmad, Fixpipe L0C -> GM / local, the core type of a mixed
// launch and its cross-core flags. Each parameter struct (cube_params.h, the native engine's own) crosses as a guest
// pointer whose bytes the host reads.
#pragma once

#include "ascendc_guest/cube_params.h"

namespace ascendc_guest {
constexpr int32_t kKeepFmatrix = 0x100, kKeepPadding = 0x200;
ASCENDC_GUEST_IMPORT(cube_nd2nz)
void cube_nd2nz(Dtype t, uint32_t l1, uint32_t l1Size, int32_t pos, uint32_t gm, int64_t gmSize, const void* params,
                int32_t line);
// LoadData's forms: 0 2D, 1 2D with transpose (LoadDataWithTranspose), 2 3D v2 (| kKeepFmatrix,
// | kKeepPadding: IsResetLoad3dConfig's isSetFMatrix, isSetPadding false).
ASCENDC_GUEST_IMPORT(cube_load)
void cube_load(Dtype t, int32_t form, uint32_t dst, uint32_t dstSize, int32_t dstPos, uint32_t src, uint32_t srcSize,
               int32_t srcPos, const void* params, int32_t line);
// LoadData 2D with a GM source (GM -> A1 / B1 / A2 / B2).
ASCENDC_GUEST_IMPORT(cube_load_gm)
void cube_load_gm(Dtype t, uint32_t dst, uint32_t dstSize, int32_t dstPos, uint32_t gm, int64_t gmSize,
                  const void* params, int32_t line);
// Mmad: `bias` with biasPos < 0 is no bias tensor.
ASCENDC_GUEST_IMPORT(cube_mmad)
void cube_mmad(Dtype in, uint32_t c, uint32_t cSize, int32_t cPos, uint32_t a, uint32_t aSize, int32_t aPos, uint32_t b,
               uint32_t bSize, int32_t bPos, uint32_t bias, uint32_t biasSize, int32_t biasPos, const void* params,
               int32_t line);
// Fixpipe from L0C: toGm 1 writes GM at `dst`, 0 the local tensor (dst, dstSize, dstPos).
ASCENDC_GUEST_IMPORT(cube_fixpipe)
void cube_fixpipe(Dtype d, Dtype s, int32_t rowMajor, int32_t toGm, uint32_t dst, int64_t dstSize, int32_t dstPos,
                  uint32_t src, uint32_t srcSize, int32_t srcPos, const void* params, int32_t line);
// Fill (api 0) / InitConstValue (api 1) of an L1 / L0A / L0B tensor; params: InitConstValueParams<t>.
ASCENDC_GUEST_IMPORT(cube_init_const)
void cube_init_const(Dtype t, int32_t api, uint32_t dst, uint32_t dstSize, int32_t dstPos, const void* params,
                     int32_t line);
// A Load3D register (AscendC::detail::Load3dReg) in the device's bits.
ASCENDC_GUEST_IMPORT(cube_set_load3d) void cube_set_load3d(int32_t reg, int64_t bits, int32_t line);
// The cube's mode registers Mmad reads: reg 0 SetHF32Mode, 1 SetHF32TransMode, 2 SetMMLayoutTransform
// (0 or 1 each).
ASCENDC_GUEST_IMPORT(cube_set_mode) void cube_set_mode(int32_t reg, int32_t value);
ASCENDC_GUEST_IMPORT(cross_core_set) void cross_core_set(int32_t mode, int32_t pipe, int32_t flag, int32_t line);
ASCENDC_GUEST_IMPORT(cross_core_wait) void cross_core_wait(int32_t mode, int32_t pipe, int32_t flag, int32_t line);
// ffts_cross_core_sync's FFTS message, decoded and checked by the host.
ASCENDC_GUEST_IMPORT(cross_core_ffts) void cross_core_ffts(int32_t pipe, int64_t config, int32_t line);
}  // namespace ascendc_guest

namespace AscendC {

template <typename T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Nd2NzParams& p, ASCENDC_GUEST_LINE) {
  ascendc_guest::cube_nd2nz(ascendc_guest::DtypeOf<T>(), dst.UbAddr(), dst.GetSize(),
                            static_cast<int32_t>(dst.GetPosition()), src.GmAddr(), static_cast<int64_t>(src.GetSize()),
                            &p, line);
}

namespace detail {
template <typename T, typename P>
void Load(int32_t form, const LocalTensor<T>& dst, const LocalTensor<T>& src, const P& p, int32_t line) {
  ascendc_guest::cube_load(ascendc_guest::DtypeOf<T>(), form, dst.UbAddr(), dst.GetSize(),
                           static_cast<int32_t>(dst.GetPosition()), src.UbAddr(), src.GetSize(),
                           static_cast<int32_t>(src.GetPosition()), &p, line);
}
}  // namespace detail
template <typename T>
void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2DParams& p, ASCENDC_GUEST_LINE) {
  detail::Load(0, dst, src, p, line);
}
template <typename T>
void LoadData(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const LoadData2DParams& p, ASCENDC_GUEST_LINE) {
  ascendc_guest::cube_load_gm(ascendc_guest::DtypeOf<T>(), dst.UbAddr(), dst.GetSize(),
                              static_cast<int32_t>(dst.GetPosition()), src.GmAddr(),
                              static_cast<int64_t>(src.GetSize()), &p, line);
}
template <typename T>
void LoadDataWithTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2dTransposeParams& p,
                           ASCENDC_GUEST_LINE) {
  detail::Load(1, dst, src, p, line);
}
template <typename T, const IsResetLoad3dConfig& defaultConfig = IS_RESER_LOAD3D_DEFAULT_CONFIG>
void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData3DParamsV2<T>& p,
              ASCENDC_GUEST_LINE) {
  detail::Load(2 | (defaultConfig.isSetFMatrix ? 0 : ascendc_guest::kKeepFmatrix) |
                   (defaultConfig.isSetPadding ? 0 : ascendc_guest::kKeepPadding),
               dst, src, p, line);
}

inline void SetFmatrix(uint16_t l1H, uint16_t l1W, const uint8_t padList[4], const FmatrixMode& fmatrixMode,
                       ASCENDC_GUEST_LINE) {
  ascendc_guest::cube_set_load3d(
      fmatrixMode == FmatrixMode::FMATRIX_RIGHT ? detail::kFmatrixRight : detail::kFmatrixLeft,
      static_cast<int64_t>(detail::FmatrixBits(l1H, l1W, padList)), line);
}
template <typename T>
void SetLoadDataPaddingValue(const T padValue, ASCENDC_GUEST_LINE) {
  ascendc_guest::cube_set_load3d(detail::kPadding, static_cast<int64_t>(detail::PaddingBits(padValue)), line);
}
inline void SetLoadDataRepeat(const LoadDataRepeatParam& repeatParams, ASCENDC_GUEST_LINE) {
  ascendc_guest::cube_set_load3d(detail::kRepeat, static_cast<int64_t>(detail::RepeatBits(repeatParams)), line);
}
inline void SetLoadDataBoundary(uint32_t boundaryValue, ASCENDC_GUEST_LINE) {
  ascendc_guest::cube_set_load3d(detail::kBoundary, boundaryValue, line);
}

template <typename C, typename A, typename B>
void Mmad(const LocalTensor<C>& dst, const LocalTensor<A>& fm, const LocalTensor<B>& filter, const MmadParams& p,
          ASCENDC_GUEST_LINE) {
  static_assert(std::is_same_v<A, B>, "Mmad: fm and filter must have the same type");
  ascendc_guest::cube_mmad(ascendc_guest::DtypeOf<A>(), dst.UbAddr(), dst.GetSize(),
                           static_cast<int32_t>(dst.GetPosition()), fm.UbAddr(), fm.GetSize(),
                           static_cast<int32_t>(fm.GetPosition()), filter.UbAddr(), filter.GetSize(),
                           static_cast<int32_t>(filter.GetPosition()), 0, 0, -1, &p, line);
}
template <typename C, typename A, typename B, typename Bias>
void Mmad(const LocalTensor<C>& dst, const LocalTensor<A>& fm, const LocalTensor<B>& filter,
          const LocalTensor<Bias>& bias, const MmadParams& p, ASCENDC_GUEST_LINE) {
  static_assert(std::is_same_v<A, B> && std::is_same_v<Bias, C>, "Mmad: fm and filter alike, bias of dst's type");
  ascendc_guest::cube_mmad(ascendc_guest::DtypeOf<A>(), dst.UbAddr(), dst.GetSize(),
                           static_cast<int32_t>(dst.GetPosition()), fm.UbAddr(), fm.GetSize(),
                           static_cast<int32_t>(fm.GetPosition()), filter.UbAddr(), filter.GetSize(),
                           static_cast<int32_t>(filter.GetPosition()), bias.UbAddr(), bias.GetSize(),
                           static_cast<int32_t>(bias.GetPosition()), &p, line);
}

template <typename D, typename S, const FixpipeConfig& config = CFG_ROW_MAJOR>
void Fixpipe(const GlobalTensor<D>& dst, const LocalTensor<S>& src, const FixpipeParamsV220& p, ASCENDC_GUEST_LINE) {
  ascendc_guest::cube_fixpipe(ascendc_guest::DtypeOf<D>(), ascendc_guest::DtypeOf<S>(),
                              config.format == CO2Layout::ROW_MAJOR, 1, dst.GmAddr(),
                              static_cast<int64_t>(dst.GetSize()), 0, src.UbAddr(), src.GetSize(),
                              static_cast<int32_t>(src.GetPosition()), &p, line);
}
template <typename D, typename S, const FixpipeConfig& config = CFG_ROW_MAJOR>
void Fixpipe(const LocalTensor<D>& dst, const LocalTensor<S>& src, const FixpipeParamsV220& p, ASCENDC_GUEST_LINE) {
  ascendc_guest::cube_fixpipe(ascendc_guest::DtypeOf<D>(), ascendc_guest::DtypeOf<S>(),
                              config.format == CO2Layout::ROW_MAJOR, 0, dst.UbAddr(), dst.GetSize(),
                              static_cast<int32_t>(dst.GetPosition()), src.UbAddr(), src.GetSize(),
                              static_cast<int32_t>(src.GetPosition()), &p, line);
}

// DataCopy from L0C to GM or L1 (a GlobalTensor or LocalTensor `dst`): the Fixpipe it is
// (cube_params.h), in ND with nz2ndEn, else in NZ.
template <typename Dst, typename U>
void DataCopy(const Dst& dst, const LocalTensor<U>& src, const DataCopyCO12DstParams& p, ASCENDC_GUEST_LINE) {
  using T = typename Dst::PrimType;
  if (!detail::Co1CopyModelled(p)) ascendc_guest::api_fail(ascendc_guest::Fault::kCo1CopyMode, line);
  if (p.nz2ndEn)
    Fixpipe<T, U, CFG_ROW_MAJOR>(dst, src, detail::FixpipeOf(p), line);
  else
    Fixpipe<T, U, CFG_NZ>(dst, src, detail::FixpipeOf(p), line);
}

// Fixpipe with the library's earlier parameters (cube_params.h): the FixpipeParamsV220 Fixpipe it
// issues, in ND with nz2ndEn, else in NZ; the forms with an L1 workspace serve the vector quant modes.
template <typename Dst, typename S>
void Fixpipe(const Dst& dst, const LocalTensor<S>& src, const FixpipeParams<S>& p, ASCENDC_GUEST_LINE) {
  using D = typename Dst::PrimType;
  if (detail::FixpipeVectorQuant(p.quantParams.quantPre))
    ascendc_guest::api_fail(ascendc_guest::Fault::kFixpipeVectorQuant, line);
  if (p.nz2ndParams.nz2ndEn)
    Fixpipe<D, S, CFG_ROW_MAJOR>(dst, src, detail::FixpipeOf(p, sizeof(D)), line);
  else
    Fixpipe<D, S, CFG_NZ>(dst, src, detail::FixpipeOf(p, sizeof(D)), line);
}
template <typename Dst, typename S, typename B>
void Fixpipe(const Dst& dst, const LocalTensor<S>& src, const LocalTensor<B>&, const FixpipeParams<S>& p,
             ASCENDC_GUEST_LINE) {
  Fixpipe(dst, src, p, line);
}

template <typename T, typename U = T, std::enable_if_t<std::is_same_v<T, U>, bool> = true>
void Fill(const LocalTensor<T>& dst, const InitConstValueParams<U>& p, ASCENDC_GUEST_LINE) {
  ascendc_guest::cube_init_const(ascendc_guest::DtypeOf<T>(), 0, dst.UbAddr(), dst.GetSize(),
                                 static_cast<int32_t>(dst.GetPosition()), &p, line);
}
// The same instruction under its older name.
template <typename T, typename U = T, std::enable_if_t<std::is_same_v<T, U>, bool> = true>
void InitConstValue(const LocalTensor<T>& dst, const InitConstValueParams<U>& p, ASCENDC_GUEST_LINE) {
  ascendc_guest::cube_init_const(ascendc_guest::DtypeOf<T>(), 1, dst.UbAddr(), dst.GetSize(),
                                 static_cast<int32_t>(dst.GetPosition()), &p, line);
}

inline void SetHF32Mode(bool hf32Mode) { ascendc_guest::cube_set_mode(0, hf32Mode); }
inline void SetHF32Mode(HF32Mode mode) { SetHF32Mode(mode == HF32Mode::ENABLE); }
inline void SetHF32TransMode(bool hf32TransMode) { ascendc_guest::cube_set_mode(1, hf32TransMode); }
inline void SetHF32TransMode(HF32TransMode mode) { SetHF32TransMode(mode == HF32TransMode::NEAREST_ZERO); }
inline void SetMMLayoutTransform(bool mmLayoutMode) { ascendc_guest::cube_set_mode(2, mmLayoutMode); }
inline void SetMMRowMajor() { SetMMLayoutTransform(true); }
inline void SetMMColumnMajor() { SetMMLayoutTransform(false); }

template <uint8_t modeId, pipe_t pipe>
void CrossCoreSetFlag(uint16_t flagId, ASCENDC_GUEST_LINE) {
  ascendc_guest::cross_core_set(modeId, pipe, flagId, line);
}
template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
void CrossCoreWaitFlag(uint16_t flagId, ASCENDC_GUEST_LINE) {
  ascendc_guest::cross_core_wait(modeId, pipe, flagId, line);
}
// The library's A2 names for them (as the native engine's, ascendc_sim/cube_sync.h).
template <pipe_t pipe>
void NotifyEvent(uint16_t flagId, ASCENDC_GUEST_LINE) {
  ascendc_guest::cross_core_set(2, pipe, flagId, line);
}
template <pipe_t pipe = PIPE_S>
void WaitEvent(uint16_t flagId, ASCENDC_GUEST_LINE) {
  ascendc_guest::cross_core_wait(0, pipe, flagId, line);
}

}  // namespace AscendC

// The CCE intrinsics under them: a set by its FFTS message, a wait by its flag id on the scalar unit.
inline void ffts_cross_core_sync(pipe_t pipe, uint64_t config, ASCENDC_GUEST_LINE) {
  ascendc_guest::cross_core_ffts(pipe, static_cast<int64_t>(config), line);
}
inline void wait_flag_dev(int64_t flagId, ASCENDC_GUEST_LINE) {
  const int32_t flag = flagId < 0 || flagId > INT32_MAX ? -1 : static_cast<int32_t>(flagId);  // refused past 15
  ascendc_guest::cross_core_wait(0, PIPE_S, flag, line);
}
