// The cube family (included by kernel_operator.h): GM -> L1 (Nd2Nz), LoadData L1 -> L0A / L0B (2D,
// with transpose, 3D v2 img2col), Mmad, Fixpipe L0C -> GM / local, the core type of a mixed launch
// and its cross-core flags. Each parameter struct crosses as a guest pointer the host reads: plain
// integers in the native struct's order, so wasm32 lays it out as x86-64 does (sizes asserted on
// both sides, runtime/guest/api_cube.cpp).
#pragma once

namespace ascendc_guest {
extern "C" {
// The running core: 0 its type (1 a cube core, AIC; 0 a vector core), 1 GetSubBlockIdx, 2 GetTaskRation.
ASCENDC_GUEST_IMPORT(core_spec) int32_t core_spec(int32_t what);
ASCENDC_GUEST_IMPORT(cube_nd2nz)
void cube_nd2nz(Dtype t, uint32_t l1, uint32_t l1Size, int32_t pos, uint32_t gm, int64_t gmSize, const void* params,
                int32_t line);
// LoadData's forms: 0 2D, 1 2D with transpose (LoadDataWithTranspose), 2 3D v2.
ASCENDC_GUEST_IMPORT(cube_load)
void cube_load(Dtype t, int32_t form, uint32_t dst, uint32_t dstSize, int32_t dstPos, uint32_t src, uint32_t srcSize,
               int32_t srcPos, const void* params, int32_t line);
// Mmad: `bias` with biasPos < 0 is no bias tensor.
ASCENDC_GUEST_IMPORT(cube_mmad)
void cube_mmad(Dtype in, uint32_t c, uint32_t cSize, int32_t cPos, uint32_t a, uint32_t aSize, int32_t aPos, uint32_t b,
               uint32_t bSize, int32_t bPos, uint32_t bias, uint32_t biasSize, int32_t biasPos, const void* params,
               int32_t line);
// Fixpipe from L0C: toGm 1 writes GM at `dst`, 0 the local tensor (dst, dstSize, dstPos).
ASCENDC_GUEST_IMPORT(cube_fixpipe)
void cube_fixpipe(Dtype d, Dtype s, int32_t rowMajor, int32_t toGm, uint32_t dst, int64_t dstSize, int32_t dstPos,
                  uint32_t src, uint32_t srcSize, int32_t srcPos, const void* params, int32_t line);
ASCENDC_GUEST_IMPORT(cross_core_set) void cross_core_set(int32_t mode, int32_t pipe, int32_t flag, int32_t line);
ASCENDC_GUEST_IMPORT(cross_core_wait) void cross_core_wait(int32_t mode, int32_t pipe, int32_t flag, int32_t line);
}
}  // namespace ascendc_guest

#define ASCEND_IS_AIV (::ascendc_guest::core_spec(0) == 0)
#define ASCEND_IS_AIC (::ascendc_guest::core_spec(0) == 1)
#define ASCEND_IS_NOT_AIV (!ASCEND_IS_AIV)
#define ASCEND_IS_NOT_AIC (!ASCEND_IS_AIC)

namespace AscendC {

inline int64_t GetSubBlockIdx() { return ascendc_guest::core_spec(1); }
inline int64_t GetTaskRation() { return ascendc_guest::core_spec(2); }

struct Nd2NzParams {
  uint16_t ndNum = 0;
  uint16_t nValue = 0;
  uint16_t dValue = 0;
  uint16_t srcNdMatrixStride = 0;
  uint16_t srcDValue = 0;
  uint16_t dstNzC0Stride = 0;
  uint16_t dstNzNStride = 0;
  uint16_t dstNzMatrixStride = 0;
  Nd2NzParams() = default;
  Nd2NzParams(uint16_t ndNum_, uint16_t nValue_, uint16_t dValue_, uint16_t srcNdMatrixStride_, uint16_t srcDValue_,
              uint16_t dstNzC0Stride_, uint16_t dstNzNStride_, uint16_t dstNzMatrixStride_)
      : ndNum(ndNum_),
        nValue(nValue_),
        dValue(dValue_),
        srcNdMatrixStride(srcNdMatrixStride_),
        srcDValue(srcDValue_),
        dstNzC0Stride(dstNzC0Stride_),
        dstNzNStride(dstNzNStride_),
        dstNzMatrixStride(dstNzMatrixStride_) {}
};
static_assert(sizeof(Nd2NzParams) == 16, "Nd2NzParams crosses the boundary as the host lays it out");

struct LoadData2DParams {
  uint16_t startIndex = 0;
  uint8_t repeatTimes = 0;
  uint16_t srcStride = 0;
  uint8_t sid = 0;
  uint16_t dstGap = 0;
  bool ifTranspose = false;
  uint8_t addrMode = 0;
  LoadData2DParams() = default;
  LoadData2DParams(uint16_t startIndex_, uint8_t repeatTimes_, uint16_t srcStride_, uint8_t sid_, uint16_t dstGap_,
                   bool ifTranspose_, uint8_t addrMode_)
      : startIndex(startIndex_),
        repeatTimes(repeatTimes_),
        srcStride(srcStride_),
        sid(sid_),
        dstGap(dstGap_),
        ifTranspose(ifTranspose_),
        addrMode(addrMode_) {}
};
static_assert(sizeof(LoadData2DParams) == 12, "LoadData2DParams crosses the boundary as the host lays it out");

struct LoadData2dTransposeParams {
  LoadData2dTransposeParams() = default;
  LoadData2dTransposeParams(uint16_t startIndex_, uint8_t repeatTimes_, uint16_t srcStride_, uint16_t dstGap_,
                            uint16_t dstFracGap_, uint8_t addrMode_ = 0)
      : startIndex(startIndex_),
        repeatTimes(repeatTimes_),
        srcStride(srcStride_),
        dstGap(dstGap_),
        dstFracGap(dstFracGap_),
        addrMode(addrMode_) {}
  uint16_t startIndex = 0;
  uint8_t repeatTimes = 0;
  uint16_t srcStride = 0;
  uint16_t dstGap = 0;
  uint16_t dstFracGap = 0;
  uint8_t addrMode = 0;
};
static_assert(sizeof(LoadData2dTransposeParams) == 12, "LoadData2dTransposeParams crosses as the host lays it out");

template <typename T>
struct LoadData3DParamsV2 {
  uint8_t padList[4] = {0, 0, 0, 0};
  uint16_t l1H = 0;
  uint16_t l1W = 0;
  uint16_t channelSize = 0;
  uint16_t kExtension = 0;
  uint16_t mExtension = 0;
  uint16_t kStartPt = 0;
  uint16_t mStartPt = 0;
  uint8_t strideW = 1;
  uint8_t strideH = 1;
  uint8_t filterW = 1;
  uint8_t filterH = 1;
  uint8_t dilationFilterW = 1;
  uint8_t dilationFilterH = 1;
  bool enTranspose = false;
  bool enSmallK = false;
  T padValue = 0;
  bool filterSizeW = false;
  bool filterSizeH = false;
  bool fMatrixCtrl = false;
};

struct MmadParams {
  uint16_t m = 0;
  uint16_t n = 0;
  uint16_t k = 0;
  bool isBias = false;
  int32_t fmOffset = 0;
  bool enSsparse = false;
  bool enWinogradA = false;
  bool enWinogradB = false;
  uint8_t unitFlag = 0;
  bool kDirectionAlign = false;
  bool cmatrixSource = false;
  bool cmatrixInitVal = true;
  MmadParams() = default;
  MmadParams(uint16_t m_, uint16_t n_, uint16_t k_, bool isBias_, int32_t fmOffset_, bool enSsparse_, bool enWinogradA_,
             bool enWinogradB_)
      : m(m_),
        n(n_),
        k(k_),
        isBias(isBias_),
        fmOffset(fmOffset_),
        enSsparse(enSsparse_),
        enWinogradA(enWinogradA_),
        enWinogradB(enWinogradB_) {}
};
static_assert(sizeof(MmadParams) == 20, "MmadParams crosses the boundary as the host lays it out");

enum class QuantMode_t : uint8_t {
  NoQuant,
  F322F16,
  F322BF16,
  DEQF16,
  VDEQF16,
  QF322B8_PRE,
  VQF322B8_PRE,
  REQ8,
  VREQ8,
};
enum class CO2Layout : uint8_t { NZ = 0, ROW_MAJOR, COLUMN_MAJOR };
struct FixpipeConfig {
  CO2Layout format;
  bool isToUB = false;
};
constexpr FixpipeConfig CFG_NZ = {CO2Layout::NZ};
constexpr FixpipeConfig CFG_ROW_MAJOR = {CO2Layout::ROW_MAJOR};
constexpr FixpipeConfig CFG_NZ_UB = {CO2Layout::NZ, true};
constexpr FixpipeConfig CFG_ROW_MAJOR_UB = {CO2Layout::ROW_MAJOR, true};

struct FixpipeParamsV220 {
  uint16_t nSize = 0;
  uint16_t mSize = 0;
  uint16_t srcStride = 0;
  uint32_t dstStride = 0;
  QuantMode_t quantPre = QuantMode_t::NoQuant;
  uint64_t deqScalar = 0;
  uint16_t ndNum = 1;
  uint16_t srcNdStride = 0;
  uint16_t dstNdStride = 0;
  bool reluEn = false;
  uint8_t unitFlag = 0;
  bool isChannelSplit = false;
  FixpipeParamsV220() = default;
  FixpipeParamsV220(uint16_t nSize_, uint16_t mSize_, uint16_t srcStride_, uint32_t dstStride_, bool reluEn_)
      : nSize(nSize_), mSize(mSize_), srcStride(srcStride_), dstStride(dstStride_), reluEn(reluEn_) {}
};
static_assert(sizeof(FixpipeParamsV220) == 40, "FixpipeParamsV220 crosses the boundary as the host lays it out");
using FixpipeParams = FixpipeParamsV220;

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
void LoadDataWithTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2dTransposeParams& p,
                           ASCENDC_GUEST_LINE) {
  detail::Load(1, dst, src, p, line);
}
template <typename T>
void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData3DParamsV2<T>& p,
              ASCENDC_GUEST_LINE) {
  detail::Load(2, dst, src, p, line);
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

template <uint8_t modeId, pipe_t pipe>
void CrossCoreSetFlag(uint16_t flagId, ASCENDC_GUEST_LINE) {
  ascendc_guest::cross_core_set(modeId, pipe, flagId, line);
}
template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
void CrossCoreWaitFlag(uint16_t flagId, ASCENDC_GUEST_LINE) {
  ascendc_guest::cross_core_wait(modeId, pipe, flagId, line);
}

}  // namespace AscendC
