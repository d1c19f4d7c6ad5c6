// Host side of the Matmul high-level API: matmul_tiling::MatmulApiTiling / MultiCoreMatmulTiling
// fill a TCubeTiling from the shapes, types and core count (docs/ascendc.md API 9).
//
// Our policy, not CANN's search: split M and N over the cores (the pair of core counts mDim x nDim
// <= dim that keeps the per-core blocks most square, K never split), base blocks of 128 x 128 (x 64
// for 16-bit inputs: 32 B of K per fractal row times 4; 64 for 32-bit ones, a multiple of 16 when B is
// not transposed), shrunk to the shape, L1 holding stepKa /
// stepKb base K blocks of A and B twice (double buffered). SetFixSplit and SetSingleShape override.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "tiling/platform/platform_ascendc.h"

namespace ascendc_sim {
[[noreturn]] void TilingError(const std::string& message);
}  // namespace ascendc_sim

namespace matmul_tiling {

// The host's name for the device's fp16 type, as asc-devkit's matmul_tiling_base.h declares it in a
// host build: a tiling that says `using namespace matmul_tiling;` sizes its buffers with
// sizeof(half), which is 8 there. Not in a kernel's compile (kernel_operator.h defines
// __CCE_AICORE__), where the tiling view parses this header beside the device's own half.
#if !defined(__CCE_AICORE__)
using half = double;
#endif

enum class TPosition : int32_t {
  GM,
  A1,
  A2,
  B1,
  B2,
  C1,
  C2,
  CO1,
  CO2,
  VECIN,
  VECOUT,
  VECCALC,
  LCM = VECCALC,
  SPM,
  SHM,
  TSCM,
  MAX
};
enum class CubeFormat : int32_t { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };
// The Matmul tiling's type enumeration as asc-devkit declares it (matmul_tiling_base.h); its own
// numbering past DT_UNDEFINED (DT_BFLOAT16 33, the fp8 types), not graph/types.h's.
enum class DataType : int32_t {
  DT_FLOAT = 0,
  DT_FLOAT16 = 1,
  DT_INT8 = 2,
  DT_INT32 = 3,
  DT_UINT8 = 4,
  DT_INT16 = 6,
  DT_UINT16 = 7,
  DT_UINT32 = 8,
  DT_INT64 = 9,
  DT_UINT64 = 10,
  DT_DOUBLE = 11,
  DT_BOOL = 12,
  DT_STRING = 13,
  DT_DUAL_SUB_INT8 = 14,
  DT_DUAL_SUB_UINT8 = 15,
  DT_COMPLEX64 = 16,
  DT_COMPLEX128 = 17,
  DT_QINT8 = 18,
  DT_QINT16 = 19,
  DT_QINT32 = 20,
  DT_QUINT8 = 21,
  DT_QUINT16 = 22,
  DT_RESOURCE = 23,
  DT_STRING_REF = 24,
  DT_DUAL = 25,
  DT_VARIANT = 26,
  DT_BF16 = 27,
  DT_UNDEFINED = 28,
  DT_INT4 = 29,
  DT_UINT1 = 30,
  DT_INT2 = 31,
  DT_UINT2 = 32,
  DT_BFLOAT16 = 33,
  DT_HIFLOAT8 = 34,
  DT_FLOAT8_E4M3FN = 35,
  DT_FLOAT8_E5M2 = 36,
  DT_FLOAT4_E2M1 = 37,
  DT_FLOAT8_E8M0 = 38,
  DT_FLOAT4_E1M2 = 39,
  DT_MAX = 40,
};
enum class MatrixTraverse : int32_t { NOSET = 0, FIRSTM = 1, FIRSTN = 2 };

inline int32_t DataTypeBytes(DataType t) {
  switch (t) {
    case DataType::DT_FLOAT:
    case DataType::DT_INT32:
    case DataType::DT_UINT32:
      return 4;
    case DataType::DT_INT64:
    case DataType::DT_UINT64:
    case DataType::DT_DOUBLE:
      return 8;
    case DataType::DT_INT8:
    case DataType::DT_UINT8:
    case DataType::DT_BOOL:
    case DataType::DT_HIFLOAT8:
    case DataType::DT_FLOAT8_E4M3FN:
    case DataType::DT_FLOAT8_E5M2:
    case DataType::DT_FLOAT8_E8M0:
      return 1;
    default:
      return 2;
  }
}

// One AI core's SoC version and memory sizes (the Matmul tiling constructors' documented
// alternative to a PlatformAscendC: GetSocVersion and GetCoreMemSize's values passed through).
struct PlatformInfo {
  platform_ascendc::SocVersion socVersion = platform_ascendc::SocVersion::ASCEND910B;
  uint64_t l1Size = 0;
  uint64_t l0CSize = 0;
  uint64_t ubSize = 0;
  uint64_t l0ASize = 0;
  uint64_t l0BSize = 0;
};

enum class ScheduleType : int32_t { INNER_PRODUCT = 0, OUTER_PRODUCT = 1 };

// SetMatmulConfigParams' settings in one struct (asc-devkit matmul_tiling_base.h).
struct MatmulConfigParams {
  int32_t mmConfigType;
  bool enableL1CacheUB;
  ScheduleType scheduleType;
  MatrixTraverse traverse;
  bool enVecND2NZ;
  MatmulConfigParams(int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
                     ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT,
                     MatrixTraverse traverseIn = MatrixTraverse::NOSET, bool enVecND2NZIn = false)
      : mmConfigType(mmConfigTypeIn),
        enableL1CacheUB(enableL1CacheUBIn),
        scheduleType(scheduleTypeIn),
        traverse(traverseIn),
        enVecND2NZ(enVecND2NZIn) {}
};

// The setters every Matmul tiling shares; GetTiling is each class's own (asc-devkit's
// MatmulApiTilingBase: a tiling can take either class by a reference to this base).
class MatmulApiTilingBase {
 public:
  MatmulApiTilingBase() = default;
  explicit MatmulApiTilingBase(const platform_ascendc::PlatformAscendC& p) {
    uint64_t v = 0;
    p.GetCoreMemSize(platform_ascendc::CoreMemType::L1, v), l1_ = static_cast<int64_t>(v);
    p.GetCoreMemSize(platform_ascendc::CoreMemType::L0_A, v), l0ab_ = static_cast<int64_t>(v);
    p.GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, v), l0c_ = static_cast<int64_t>(v);
  }
  // A size left 0 keeps the A2 core's.
  explicit MatmulApiTilingBase(const PlatformInfo& p) {
    if (p.l1Size > 0) l1_ = static_cast<int64_t>(p.l1Size);
    if (p.l0ASize > 0) l0ab_ = static_cast<int64_t>(p.l0ASize);
    if (p.l0CSize > 0) l0c_ = static_cast<int64_t>(p.l0CSize);
  }
  virtual ~MatmulApiTilingBase() = default;
  int32_t SetAType(TPosition pos, CubeFormat f, DataType t, bool trans = false) {
    aPos_ = pos, aFormat_ = f, aType_ = t, transA_ = trans;
    return 0;
  }
  int32_t SetBType(TPosition pos, CubeFormat f, DataType t, bool trans = false) {
    bPos_ = pos, bFormat_ = f, bType_ = t, transB_ = trans;
    return 0;
  }
  int32_t SetCType(TPosition pos, CubeFormat f, DataType t) {
    cPos_ = pos, cFormat_ = f, cType_ = t;
    return 0;
  }
  int32_t SetBiasType(TPosition pos, CubeFormat f, DataType t) {
    (void)pos, (void)f, biasType_ = t;
    return 0;
  }
  int32_t SetShape(int32_t m, int32_t n, int32_t k) {
    m_ = m, n_ = n, k_ = k;
    return 0;
  }
  int32_t SetOrgShape(int32_t m, int32_t n, int32_t k) { return SetOrgShape(m, n, k, k); }
  int32_t SetOrgShape(int32_t m, int32_t n, int32_t ka, int32_t kb) {
    orgM_ = m, orgN_ = n, orgKa_ = ka, orgKb_ = kb;
    return 0;
  }
  int32_t SetBias(bool on = true) {
    bias_ = on;
    return 0;
  }
  int32_t EnableBias(bool on = true) {
    bias_ = on;
    return 0;
  }
  int32_t SetBufferSpace(int32_t l1 = -1, int32_t l0c = -1, int32_t ub = -1, int32_t bt = -1) {
    if (l1 > 0) l1_ = l1;
    if (l0c > 0) l0c_ = l0c;
    (void)ub, (void)bt;
    return 0;
  }
  int32_t SetFixSplit(int32_t baseM = -1, int32_t baseN = -1, int32_t baseK = -1) {
    fixM_ = baseM, fixN_ = baseN, fixK_ = baseK;
    return 0;
  }
  int32_t SetTraverse(MatrixTraverse t) {
    traverse_ = t;
    return 0;
  }
  int32_t SetDoubleBuffer(bool, bool, bool, bool, bool = true, bool = true) { return 0; }
  // The settings select the kernel's template (MDL or NORM, UB cached in L1, the schedule,
  // ND2NZ on the vector unit), which the simulator's Matmul runs alike: its tiling reads none.
  void SetMatmulConfigParams(int32_t = 1, bool = false, ScheduleType = ScheduleType::INNER_PRODUCT,
                             MatrixTraverse = MatrixTraverse::NOSET, bool = false) {}
  void SetMatmulConfigParams(const MatmulConfigParams&) {}
  // A 4:2 sparse B (its index matrix beside it) is a Matmul the simulator does not emulate:
  // GetTiling of a sparse Matmul stops the tiling with a TILING_ERROR.
  int32_t SetSparse(bool on = false) {
    sparse_ = on;
    return 0;
  }
  // 0 on success, -1 when the shapes are missing or the blocks cannot fit the buffers.
  virtual int64_t GetTiling(optiling::TCubeTiling& t) = 0;
  // The base block the last successful GetTiling chose (-1 before one).
  int32_t GetBaseM() const { return baseM_; }
  int32_t GetBaseN() const { return baseN_; }
  int32_t GetBaseK() const { return baseK_; }

 protected:
  bool Fill(optiling::TCubeTiling& t, int32_t mDim, int32_t nDim) {
    if (sparse_) ascendc_sim::TilingError("Matmul tiling: a sparse (4:2) B matrix is not emulated by the simulator");
    const int32_t M = orgM_ > 0 ? orgM_ : m_, N = orgN_ > 0 ? orgN_ : n_, K = orgKa_ > 0 ? orgKa_ : k_;
    if (M <= 0 || N <= 0 || K <= 0) return false;
    const int32_t sm = singleM_ > 0 ? singleM_ : (m_ > 0 ? m_ : M), sn = singleN_ > 0 ? singleN_ : (n_ > 0 ? n_ : N);
    const int32_t singleM = singleM_ > 0 ? singleM_ : Ceil(sm, mDim),
                  singleN = singleN_ > 0 ? singleN_ : Ceil(sn, nDim);
    const int32_t singleK = singleK_ > 0 ? singleK_ : (k_ > 0 ? k_ : K);
    const int32_t inBytes = DataTypeBytes(aType_), k0 = 32 / inBytes;
    const int32_t baseM = fixM_ > 0 ? fixM_ : std::min(128, Align(singleM, 16));
    const int32_t baseN = fixN_ > 0 ? fixN_ : std::min(128, Align(singleN, 16));
    // A 32-bit B not transposed goes to L0B through LoadDataWithTranspose's 16 x 16 squares: K in 16s.
    const int32_t kAlign = inBytes == 4 && !transB_ ? 16 : k0;
    const int32_t baseK = fixK_ > 0 ? fixK_ : std::min(k0 * 4 * (inBytes == 4 ? 2 : 1), Align(singleK, kAlign));
    const int32_t kBlocks = Ceil(singleK, baseK);
    // L1: A and B, stepK base blocks each, twice; L0A/L0B: one base block each, twice; L0C: two C blocks.
    auto l1Bytes = [&](int32_t step) {
      return 2LL * step * (static_cast<int64_t>(baseM) + baseN) * baseK * inBytes + (bias_ ? baseN * 4LL : 0);
    };
    int32_t stepK = std::min(kBlocks, 4);
    while (stepK > 1 && l1Bytes(stepK) > l1_) --stepK;
    const int64_t l1 = l1Bytes(stepK);
    if (baseM % 16 || baseN % 16 || baseK % k0 || l1 > l1_ || 2LL * baseM * baseK * inBytes > l0ab_ ||
        2LL * baseN * baseK * inBytes > l0ab_ || 1LL * baseM * baseN * 4 > l0c_)
      return false;
    t = optiling::TCubeTiling{};
    t.usedCoreNum = mDim * nDim;
    t.M = M, t.N = N, t.Ka = orgKa_ > 0 ? orgKa_ : K, t.Kb = orgKb_ > 0 ? orgKb_ : K;
    t.singleCoreM = singleM, t.singleCoreN = singleN, t.singleCoreK = singleK;
    t.baseM = baseM, t.baseN = baseN, t.baseK = baseK;
    t.stepM = 1, t.stepN = 1, t.stepKa = stepK, t.stepKb = stepK;
    t.depthA1 = 2 * stepK, t.depthB1 = 2 * stepK;
    t.isBias = bias_ ? 1 : 0;
    t.iterateOrder = traverse_ == MatrixTraverse::FIRSTN ? 1 : 0;
    t.dbL0A = 2, t.dbL0B = 2, t.dbL0C = 2LL * baseM * baseN * 4 <= l0c_ ? 2 : 1;  // L0C: two C blocks when they fit
    t.shareL1Size = static_cast<int32_t>(l1), t.shareL0CSize = t.dbL0C * baseM * baseN * 4;
    t.transLength = 0, t.BatchNum = 1;
    baseM_ = baseM, baseN_ = baseN, baseK_ = baseK;
    return true;
  }
  static int32_t Ceil(int32_t a, int32_t b) { return (a + b - 1) / b; }
  static int32_t Align(int32_t a, int32_t b) { return Ceil(a, b) * b; }

  int64_t l1_ = 524288, l0ab_ = 65536, l0c_ = 131072;
  TPosition aPos_ = TPosition::GM, bPos_ = TPosition::GM, cPos_ = TPosition::GM;
  CubeFormat aFormat_ = CubeFormat::ND, bFormat_ = CubeFormat::ND, cFormat_ = CubeFormat::ND;
  DataType aType_ = DataType::DT_FLOAT16, bType_ = DataType::DT_FLOAT16, cType_ = DataType::DT_FLOAT,
           biasType_ = DataType::DT_FLOAT;
  bool transA_ = false, transB_ = false, bias_ = false, sparse_ = false;
  int32_t m_ = 0, n_ = 0, k_ = 0, orgM_ = 0, orgN_ = 0, orgKa_ = 0, orgKb_ = 0;
  int32_t singleM_ = 0, singleN_ = 0, singleK_ = 0;
  int32_t fixM_ = -1, fixN_ = -1, fixK_ = -1;
  int32_t baseM_ = -1, baseN_ = -1, baseK_ = -1;
  MatrixTraverse traverse_ = MatrixTraverse::FIRSTM;
};

// One core's Matmul.
class MatmulApiTiling : public MatmulApiTilingBase {
 public:
  using MatmulApiTilingBase::MatmulApiTilingBase;
  int64_t GetTiling(optiling::TCubeTiling& t) override { return Fill(t, 1, 1) ? 0 : -1; }
};

class MultiCoreMatmulTiling : public MatmulApiTilingBase {
 public:
  using MatmulApiTilingBase::MatmulApiTilingBase;
  int32_t SetDim(int32_t dim) {
    dim_ = std::max(dim, 1);
    return 0;
  }
  int32_t SetSingleShape(int32_t m = -1, int32_t n = -1, int32_t k = -1) {
    singleM_ = m, singleN_ = n, singleK_ = k;
    return 0;
  }
  int32_t SetSingleRange(int32_t = -1, int32_t = -1, int32_t = -1, int32_t = -1, int32_t = -1, int32_t = -1) {
    return 0;
  }
  int32_t SetAlignSplit(int32_t, int32_t, int32_t) { return 0; }
  int32_t SetSplitK(bool) { return 0; }
  int32_t GetSingleShape(int32_t& m, int32_t& n, int32_t& k) const {
    m = lastM_, n = lastN_, k = lastK_;
    return 0;
  }
  int32_t GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim) const {
    dim = mDim_ * nDim_, mDim = mDim_, nDim = nDim_;
    return 0;
  }
  int64_t GetTiling(optiling::TCubeTiling& t) override {
    const int32_t M = m_ > 0 ? m_ : orgM_, N = n_ > 0 ? n_ : orgN_;
    if (M <= 0 || N <= 0) return -1;
    // The split with the fewest idle cores, then the most square per-core blocks.
    int64_t best = -1;
    for (int32_t md = 1; md <= dim_; ++md)
      for (int32_t nd = 1; md * nd <= dim_; ++nd) {
        const int32_t sm = Align(Ceil(M, md), 16), sn = Align(Ceil(N, nd), 16);
        const int32_t used = Ceil(M, sm) * Ceil(N, sn);
        const int64_t score = static_cast<int64_t>(used) * 1000000 - std::abs(sm - sn);
        if (singleM_ <= 0 && singleN_ <= 0 && score > best) best = score, mDim_ = Ceil(M, sm), nDim_ = Ceil(N, sn);
      }
    if (singleM_ > 0 || singleN_ > 0)
      mDim_ = Ceil(M, singleM_ > 0 ? singleM_ : M), nDim_ = Ceil(N, singleN_ > 0 ? singleN_ : N);
    const int32_t keepM = singleM_, keepN = singleN_;
    if (singleM_ <= 0) singleM_ = Align(Ceil(M, mDim_), 16);
    if (singleN_ <= 0) singleN_ = Align(Ceil(N, nDim_), 16);
    const bool ok = Fill(t, mDim_, nDim_);
    t.singleCoreM = std::min(singleM_, M), t.singleCoreN = std::min(singleN_, N);
    lastM_ = t.singleCoreM, lastN_ = t.singleCoreN, lastK_ = t.singleCoreK;
    singleM_ = keepM, singleN_ = keepN;
    return ok ? 0 : -1;
  }

 private:
  int32_t dim_ = 1, mDim_ = 1, nDim_ = 1;
  int32_t lastM_ = 0, lastN_ = 0, lastK_ = 0;
};

using BatchMatmulTiling = MultiCoreMatmulTiling;

}  // namespace matmul_tiling
