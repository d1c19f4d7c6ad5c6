// The cube API's parameter structs (docs/ascendc.md API 9), included by the native engine's
// ascendc_sim/cube_compute.h and by the guest's ascendc_guest/cube.h: plain integers with natural
// alignment, so wasm32 lays them out as x86-64 does and the guest engine passes them as bytes
// (runtime/guest/api_cube.cpp asserts their sizes).
#pragma once

#include <cstdint>

// The fixpipe's quantisation modes: a plain enum of the compiler's, at global scope (the toolkit's
// CPU stubs of the builtins restate it as `typedef enum {...} QuantMode_t`), so kernels name its
// values unqualified (`quantMode = NoQuant;`, ops-nn conv3d_backprop_input_v2) as well as
// `QuantMode_t::F322F16`. The device's values; one byte wide here so that the parameter structs
// keep one layout on wasm32 and x86-64 (they cross to the trusted side as bytes) and a byte from
// the guest is always a value of the type. Several names share a value on the device, as here.
enum QuantMode_t : uint8_t {
  NoQuant = 0,
  F322F16 = 1,
  VQF322HIF8_PRE = 2,
  QF322HIF8_PRE = 3,
  VQF322HIF8_PRE_HYBRID = 4,
  QF322HIF8_PRE_HYBRID = 5,
  AttachF16Mul = 6,
  VREQ8 = 8,
  REQ8 = 9,
  VDEQF16 = 10,
  DEQF16 = 11,
  VSHIFTS322S16 = 12,
  SHIFTS322S16 = 13,
  VQF322FP8_PRE = 12,
  QF322FP8_PRE = 13,
  VQF322F32_PRE = 14,
  QF322F32_PRE = 15,
  F322BF16 = 16,
  VQF162B8_PRE = 17,
  QF162B8_PRE = 18,
  VQF162S4_PRE = 19,
  QF162S4_PRE = 20,
  VREQ4 = 21,
  REQ4 = 22,
  VQF322B8_PRE = 23,
  QF322B8_PRE = 24,
  VQF322S4_PRE = 25,
  QF322S4_PRE = 26,
  VDEQS16 = 27,
  DEQS16 = 28,
  VQF162S16_PRE = 29,
  QF162S16_PRE = 30,
  VQF322F16_PRE = 31,
  QF322F16_PRE = 32,
  VQF322BF16_PRE = 33,
  QF322BF16_PRE = 34,
  VQS322BF16_PRE = 35,
  QS322BF16_PRE = 36,
};

// The raw cube instructions' modes, the compiler's enums at global scope (ascendc_sim/cce_cube.h,
// ascendc_guest/cce_cube.h): load_cbuf_to_*'s address mode, incrementing or decrementing addresses,
// and the layout change copy_gm_to_cbuf makes on the way (asc-devkit's asc_copy_gm2l1 page names
// each mode): none; 1 to 5 insert pad bytes into each 32 B; 6 to 8 keep the low 4, 8 or 16 bytes of
// each 32 B.
enum addr_cal_mode_t : uint8_t { inc = 0, dec = 1 };
enum pad_t : uint8_t {
  PAD_NONE = 0,
  PAD_MODE1,
  PAD_MODE2,
  PAD_MODE3,
  PAD_MODE4,
  PAD_MODE5,
  PAD_MODE6,
  PAD_MODE7,
  PAD_MODE8
};

namespace AscendC {

struct Nd2NzParams {
  uint16_t ndNum = 0;
  uint16_t nValue = 0;
  uint16_t dValue = 0;
  uint16_t srcNdMatrixStride = 0;  // elements
  uint16_t srcDValue = 0;          // elements per source row
  uint16_t dstNzC0Stride = 0;      // 32 B units between the Z column blocks
  uint16_t dstNzNStride = 0;       // 32 B units between rows
  uint16_t dstNzMatrixStride = 0;  // elements between destination NZ matrices
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

// asc-devkit kernel_struct_mm.h names the struct both ways.
using LoadData2dParams = struct LoadData2DParams;
struct LoadData2DParams {
  uint16_t startIndex = 0;  // first fractal (512 B units)
  uint8_t repeatTimes = 0;  // fractals moved
  uint16_t srcStride = 0;   // fractals between source fractals
  uint8_t sid = 0;
  uint16_t dstGap = 0;       // fractals between destination fractals (end to start)
  bool ifTranspose = false;  // transpose each 16 x 16 fractal (b16 only)
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

struct LoadData2dTransposeParams {
  LoadData2dTransposeParams() {}
  LoadData2dTransposeParams(uint16_t startIndex_, uint8_t repeatTimes_, uint16_t srcStride_, uint16_t dstGap_,
                            uint16_t dstFracGap_, uint8_t addrMode_ = 0)
      : startIndex(startIndex_),
        repeatTimes(repeatTimes_),
        srcStride(srcStride_),
        dstGap(dstGap_),
        dstFracGap(dstFracGap_),
        addrMode(addrMode_) {}
  uint16_t startIndex = 0;  // first square (16 x 16 elements: 512 B for b16, 1024 B for b32)
  uint8_t repeatTimes = 0;  // squares moved
  uint16_t srcStride = 0;   // squares between source squares
  uint16_t dstGap = 0;      // 512 B between one square's first destination fractal and the next's (end to start)
  uint16_t dstFracGap = 0;  // b32: 512 B between a square's two destination fractals (end to start)
  uint8_t addrMode = 0;
};

struct LoadData3DParamsV2Pro;
template <typename T>
struct LoadData3DParamsV2 {
  uint8_t padList[4] = {0, 0, 0, 0};  // left, right, top, bottom
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

// The cross-core flag ids the A2 library's own synchronisation uses (asc-devkit dav_c220
// kernel_operator_sync_impl.h); kernels name them in CrossCoreSetFlag / CrossCoreWaitFlag.
constexpr uint16_t SYNC_AIV_FLAG = 12;
constexpr uint16_t SYNC_AIC_FLAG = 11;
constexpr uint16_t SYNC_AIC_AIV_FLAG = 13;
constexpr uint16_t SYNC_AIV_ONLY_ALL = 14;
// The FFTS message ffts_cross_core_sync takes (dav_c220 GetffstMsg): bit 0, the mode in bits 4-5,
// the flag id in bits 8-11.
constexpr uint16_t GetffstMsg(uint16_t mode, uint16_t flagId) {
  return static_cast<uint16_t>(0x1 + ((mode & 0x3) << 4) + ((flagId & 0xf) << 8));
}

// SetHF32Mode / SetHF32TransMode (asc-devkit kernel_operator_mm_intf.h).
enum class HF32Mode { ENABLE, DISABLE };
enum class HF32TransMode { NEAREST_ZERO, NEAREST_EVEN };

// The Load3D registers (asc-devkit kernel_struct_mm.h, kernel_operator_mm_base_impl.h): LoadData 3D v2
// reads the feature map's l1H, l1W and padList from FMATRIX (left) or FMATRIX_B (right, fMatrixCtrl),
// its pad value from PADDING and its repeat from L3D_RPT; with isSetFMatrix / isSetPadding (the
// default) it first writes its own l1H, l1W, padList into the left register and padValue into PADDING.
enum class FmatrixMode : uint8_t { FMATRIX_LEFT = 0, FMATRIX_RIGHT = 1 };
constexpr uint8_t PAD_SIZE = 4;  // a padList's entries (asc-devkit kernel_utils_constants.h)
struct IsResetLoad3dConfig {
  constexpr IsResetLoad3dConfig(const bool isSetFMatrixIn, const bool isSetPaddingIn)
      : isSetFMatrix(isSetFMatrixIn), isSetPadding(isSetPaddingIn) {}
  bool isSetFMatrix = true;
  bool isSetPadding = true;
};
constexpr IsResetLoad3dConfig IS_RESER_LOAD3D_DEFAULT_CONFIG = {true, true};
struct LoadDataRepeatParam {
  LoadDataRepeatParam() {}
  LoadDataRepeatParam(const uint16_t repeatStrideIn, const uint8_t repeatTimeIn, const uint8_t repeatModeIn)
      : repeatStride(repeatStrideIn), repeatTime(repeatTimeIn), repeatMode(repeatModeIn) {}
  uint16_t repeatStride = 0;
  uint8_t repeatTime = 1;
  uint8_t repeatMode = 0;
  uint8_t reserved = 0;
};

namespace detail {
// The registers' bits, as the device's set_fmatrix / set_padding / set_l3d_rpt take them.
enum Load3dReg : int32_t { kFmatrixLeft = 0, kFmatrixRight = 1, kPadding = 2, kRepeat = 3, kBoundary = 4 };
inline uint64_t FmatrixBits(uint16_t l1H, uint16_t l1W, const uint8_t padList[4]) {
  uint64_t bits = static_cast<uint64_t>(l1W) | (static_cast<uint64_t>(l1H) << 16);
  for (int i = 0; i < 4; ++i) bits |= static_cast<uint64_t>(padList[i]) << (32 + 8 * i);
  return bits;
}
// A 16- or 32-bit value's bits; any other size's value twice in the low 16 bits (the load reads
// the low bytes of its element size).
template <typename T>
uint64_t PaddingBits(const T padValue) {
  if constexpr (sizeof(T) == 2 || sizeof(T) == 4) {
    uint64_t bits = 0;
    __builtin_memcpy(&bits, &padValue, sizeof(T));
    return bits;
  } else {
    const auto v = static_cast<uint64_t>(padValue);
    return (v << 8) | (v & 0xFF);
  }
}
inline uint64_t RepeatBits(const LoadDataRepeatParam& p) {
  return static_cast<uint64_t>(p.repeatStride) | (static_cast<uint64_t>(p.repeatTime) << 16) |
         (static_cast<uint64_t>(p.repeatMode) << 24);
}
}  // namespace detail

struct MmadParams {
  uint16_t m = 0;
  uint16_t n = 0;
  uint16_t k = 0;
  bool isBias = false;  // deprecated: accumulate into the existing L0C values
  int32_t fmOffset = 0;
  bool enSsparse = false;
  bool enWinogradA = false;
  bool enWinogradB = false;
  uint8_t unitFlag = 0;  // 0, 2 or 3: Mmad / Fixpipe hand over L0C per 512 B unit
  bool kDirectionAlign = false;
  bool cmatrixSource = false;  // with cmatrixInitVal false: initial C from the bias table (true) or L0C (false)
  bool cmatrixInitVal = true;  // true: C starts at 0
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

// Fill / InitConstValue of an L1 (32 B blocks) or L0A / L0B (512 B blocks) tensor: repeatTimes
// runs of blockNum blocks set to initValue, dstGap blocks from one run's end to the next's start.
template <typename T>
struct InitConstValueParams {
  InitConstValueParams() {}
  InitConstValueParams(uint16_t repeatTimes_, uint16_t blockNum_, uint16_t dstGap_, T initValue_)
      : repeatTimes(repeatTimes_), blockNum(blockNum_), dstGap(dstGap_), initValue(initValue_) {}
  InitConstValueParams(uint16_t repeatTimes_, T initValue_) : repeatTimes(repeatTimes_), initValue(initValue_) {}
  uint16_t repeatTimes = 0;
  uint16_t blockNum = 0;
  uint16_t dstGap = 0;
  T initValue = 0;
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
  uint16_t srcStride = 0;  // 16-element units between L0C column blocks (mSize rounded up to 16)
  uint32_t dstStride = 0;  // ND: elements per destination row; NZ: 32 B units between column blocks
  QuantMode_t quantPre = QuantMode_t::NoQuant;
  uint64_t deqScalar = 0;  // scale as float bits in the low 32 bits
  uint16_t ndNum = 1;
  uint16_t srcNdStride = 0;  // 256-element units
  uint16_t dstNdStride = 0;  // elements
  bool reluEn = false;
  uint8_t unitFlag = 0;
  bool isChannelSplit = false;
  FixpipeParamsV220() = default;
  FixpipeParamsV220(uint16_t nSize_, uint16_t mSize_, uint16_t srcStride_, uint32_t dstStride_, bool reluEn_)
      : nSize(nSize_), mSize(mSize_), srcStride(srcStride_), dstStride(dstStride_), reluEn(reluEn_) {}
};

// The library's earlier Fixpipe parameters (asc-devkit kernel_utils_struct_dma_params.h), which the
// A2's kernels still pass (ops-nn conv3d_backprop_input_v2, ops-math add_lora, transpose_batch_mat_mul):
// cburstNum 16-column blocks of burstLen 32 B units each (the L0C type's), srcStride in 256-element
// fractals between bursts, dstStride the 32 B gap between bursts or, with nz2ndEn, the destination
// row's length in elements.
struct QuantParams {
  QuantParams() {}
  QuantParams(const QuantMode_t quantPreIn) : quantPre(quantPreIn) {}
  QuantParams(const QuantMode_t quantPreIn, const uint64_t deqScalarIn)
      : quantPre(quantPreIn), deqScalar(deqScalarIn) {}
  QuantMode_t quantPre = QuantMode_t::NoQuant;
  uint64_t deqScalar = 0;
};
struct Nz2NdParams {
  Nz2NdParams() {}
  Nz2NdParams(const bool nz2ndEnIn, const uint16_t ndNumIn, const uint16_t srcNdStrideIn, const uint16_t dstNdStrideIn,
              const uint16_t originalNSizeIn)
      : nz2ndEn(nz2ndEnIn),
        ndNum(ndNumIn),
        srcNdStride(srcNdStrideIn),
        dstNdStride(dstNdStrideIn),
        originalNSize(originalNSizeIn) {}
  bool nz2ndEn = false;
  uint16_t ndNum = 1;
  uint16_t srcNdStride = 0;
  uint16_t dstNdStride = 0;
  uint16_t originalNSize = 0;
};
template <typename T = int32_t>
struct FixpipeParams {
  FixpipeParams() : cburstNum(DEFAULT_DATA_COPY_NBURST), burstLen(1) {}
  FixpipeParams(const uint16_t count, const uint16_t len, const uint16_t srcStrideIn, const uint32_t dstStrideIn)
      : cburstNum(count), burstLen(len), dstStride(dstStrideIn), srcStride(srcStrideIn) {}
  uint16_t cburstNum = 0;
  uint16_t burstLen = 0;
  uint32_t dstStride = 0;
  uint16_t srcStride = 0;
  QuantParams quantParams;
  bool reluEn = false;
  Nz2NdParams nz2ndParams;
  uint8_t unitFlag = 0;
};

// DataCopy from L0C (CO1) to GM or L1, the form before Fixpipe (asc-devkit kernel_struct_data_copy.h):
// the same fixpipe instruction (copy_matrix_cc_to_gm / _cbuf) with its raw fields, srcStride in 16-row
// units, dstStride in elements per row with nz2ndEn (ND), else in 32 B units between column blocks.
struct DataCopyCO12DstParams {
  DataCopyCO12DstParams() = default;
  DataCopyCO12DstParams(uint16_t nSizeIn, uint16_t mSizeIn, uint32_t dstStrideIn, uint16_t srcStrideIn,
                        QuantMode_t quantPreIn, uint8_t reluPreIn, bool channelSplitIn, bool nz2ndEnIn)
      : nSize(nSizeIn),
        mSize(mSizeIn),
        dstStride(dstStrideIn),
        srcStride(srcStrideIn),
        quantPre(quantPreIn),
        reluPre(reluPreIn),
        channelSplit(channelSplitIn),
        nz2ndEn(nz2ndEnIn) {}
  uint8_t sid = 0;
  uint16_t nSize = 0;
  uint16_t mSize = 0;
  uint32_t dstStride = 0;
  uint16_t srcStride = 0;
  uint8_t unitFlag = 0;
  uint8_t clipReluPre = 0;
  uint8_t eltWiseOp = 0;
  QuantMode_t quantPre = QuantMode_t::NoQuant;
  uint8_t reluPre = 0;
  bool channelSplit = false;
  bool nz2ndEn = false;
};

namespace detail {
// The modes this copy shares with Fixpipe here: no scale (the scalar ones read the fixpipe's quant
// register, SetFixpipePreQuantFlag, and the vector ones its buffer, neither modelled) and ReLU off
// or plain.
inline bool Co1CopyModelled(const DataCopyCO12DstParams& p) {
  const QuantMode_t q = p.quantPre;
  return (q == QuantMode_t::NoQuant || q == QuantMode_t::F322F16 || q == QuantMode_t::F322BF16) && p.reluPre <= 1 &&
         p.clipReluPre == 0 && p.eltWiseOp == 0;
}
constexpr char kCo1CopyModeMessage[] =
    "DataCopy from CO1: quantPre with a scale (SetFixpipePreQuantFlag, the fixpipe buffer), a ReLU other than "
    "plain, clipReluPre or eltWiseOp: not modelled";
inline FixpipeParamsV220 FixpipeOf(const DataCopyCO12DstParams& p) {
  FixpipeParamsV220 f(p.nSize, p.mSize, p.srcStride, p.dstStride, p.reluPre == 1);
  f.quantPre = p.quantPre;
  f.unitFlag = p.unitFlag;
  f.isChannelSplit = p.channelSplit;
  return f;
}
// FixpipeParams<T> as the A2 library issues it (asc-devkit dav_c220 kernel_operator_fixpipe_impl.h,
// FixpipeInfoParams): the same copy_matrix_cc_to_* instruction as FixpipeParamsV220, with m the
// burst's rows (burstLen 32 B of 4-byte L0C elements, 16 a row), n the bursts' 16 columns each or,
// with nz2ndEn, originalNSize, the source stride in 16-row units past the burst rounded up to 16 rows,
// and the NZ destination stride the gap plus the burst as long in the destination's type.
template <typename T>
inline FixpipeParamsV220 FixpipeOf(const FixpipeParams<T>& p, uint32_t dstTypeSize) {
  const uint16_t m = static_cast<uint16_t>(p.burstLen * 32u / 4u / 16u);
  const uint16_t roundM = static_cast<uint16_t>((m + 15u) / 16u * 16u);
  const Nz2NdParams& nd = p.nz2ndParams;
  const uint16_t n = nd.nz2ndEn ? nd.originalNSize : static_cast<uint16_t>(p.cburstNum * 16u);
  const uint32_t dstStride = nd.nz2ndEn ? p.dstStride : p.dstStride + p.burstLen * dstTypeSize / 4u;
  FixpipeParamsV220 f(n, m, static_cast<uint16_t>(p.srcStride * 16u + roundM), dstStride, p.reluEn);
  f.quantPre = p.quantParams.quantPre;
  f.deqScalar = p.quantParams.deqScalar;
  f.ndNum = nd.ndNum;
  f.srcNdStride = nd.srcNdStride;
  f.dstNdStride = nd.dstNdStride;
  f.unitFlag = p.unitFlag;
  return f;
}
// The vector modes read their scales from an L1 workspace through the fixpipe buffer: not modelled.
inline bool FixpipeVectorQuant(QuantMode_t q) {
  return q == QuantMode_t::VDEQF16 || q == QuantMode_t::VQF322B8_PRE || q == QuantMode_t::VREQ8;
}
constexpr char kFixpipeVectorQuantMessage[] =
    "Fixpipe with FixpipeParams: a vector quantPre (VDEQF16, VQF322B8_PRE, VREQ8: scales from an L1 workspace "
    "through the fixpipe buffer) is not modelled";
}  // namespace detail

static_assert(sizeof(Nd2NzParams) == 16 && sizeof(LoadData2DParams) == 12 && sizeof(LoadData2dTransposeParams) == 12 &&
                  sizeof(MmadParams) == 20 && sizeof(FixpipeParamsV220) == 40 &&
                  sizeof(LoadData3DParamsV2<int8_t>) == 30 && sizeof(LoadData3DParamsV2<float>) == 36 &&
                  sizeof(InitConstValueParams<uint16_t>) == 8 && sizeof(InitConstValueParams<float>) == 12,
              "the cube's parameter structs: one layout on wasm32 and x86-64");

}  // namespace AscendC
