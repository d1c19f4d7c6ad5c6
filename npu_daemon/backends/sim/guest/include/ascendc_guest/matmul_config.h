// The Matmul API's compile-time half (docs/ascendc.md API 9): MatmulType, MatmulConfig and its documented
// constructors, the constant tiling (GetMMConfig / GetMatmulApiTiling). Pure constexpr, included by the
// native engine's ascendc_sim/matmul.h and by the guest's ascendc_guest/matmul.h, so a kernel's
// template arguments mean the same on both.
#pragma once

#include <cstdint>
#include <type_traits>

#include "abi.h"

enum class CubeFormat : uint8_t { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };

namespace AscendC {
enum class LayoutMode : uint8_t { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };

template <TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false>
struct MatmulType {
  static constexpr TPosition pos = POSITION;
  static constexpr CubeFormat format = FORMAT;
  using T = TYPE;
  static constexpr bool isTrans = ISTRANS;
};

struct MatmulConfig {
  bool doNorm = true;
  bool doBasicBlock = false;
  bool doMultiDataLoad = false;
  uint32_t basicM = 0, basicN = 0, basicK = 0;
  bool intrinsicsCheck = false;
  bool isNBatch = false;
  bool enVecND2NZ = false;
  bool doSpecialBasicBlock = false;
  uint32_t doMTE2Preload = 0;
  uint32_t singleCoreM = 0, singleCoreN = 0, singleCoreK = 0;
  uint32_t stepM = 0, stepN = 0;
  uint32_t baseMN = 0;
  uint32_t singleCoreMN = 0;
  bool enUnitFlag = true;
};
enum class BatchMode { NONE = 0, BATCH_LESS_THAN_L1, BATCH_LARGE_THAN_L1, SINGLE_LARGE_THAN_L1 };
enum BatchOutMode { SINGLE_BATCH = 0, MULTI_BATCH, DYNAMIC };  // unscoped, as in CANN's matmul_config.h
enum class IterateOrder { ORDER_M = 0, ORDER_N, UNDEF };
enum class ScheduleType { INNER_PRODUCT = 0, OUTER_PRODUCT };

// The documented constructors of the NORM and MDL configs (asc-devkit adv_api/matmul/tiling.h),
// with their parameters in order: the switches MatmulConfig has are set; the batch, scheduling,
// message-reuse, quantization and dual-master ones do not apply to the single-batch Matmul
// emulated here. MDL loads stepKa base K blocks per MTE2 (doMultiDataLoad), which our Matmul reads.
constexpr MatmulConfig GetNormalConfig(bool intrinsicsLimit = false, bool batchLoop = false, bool isVecND2NZ = false,
                                       BatchMode = BatchMode::BATCH_LESS_THAN_L1, bool = true,
                                       IterateOrder = IterateOrder::UNDEF, ScheduleType = ScheduleType::INNER_PRODUCT,
                                       bool enUnitFlag = true, bool = false, BatchOutMode = SINGLE_BATCH) {
  MatmulConfig c{};
  c.intrinsicsCheck = intrinsicsLimit, c.isNBatch = batchLoop, c.enVecND2NZ = isVecND2NZ, c.enUnitFlag = enUnitFlag;
  return c;
}
constexpr MatmulConfig GetMDLConfig(bool intrinsicsLimit = false, bool batchLoop = false, uint32_t doMTE2Preload = 0,
                                    bool isVecND2NZ = false, bool = false, bool = false, bool enUnitFlag = false,
                                    bool = true, bool = true, bool = false, bool = false, bool = false, bool = false) {
  MatmulConfig c{};
  c.doNorm = false, c.doMultiDataLoad = true;
  c.intrinsicsCheck = intrinsicsLimit, c.isNBatch = batchLoop, c.doMTE2Preload = doMTE2Preload;
  c.enVecND2NZ = isVecND2NZ, c.enUnitFlag = enUnitFlag;
  return c;
}

constexpr MatmulConfig CFG_NORM{};
constexpr MatmulConfig CFG_MDL{false, false, true};
constexpr MatmulConfig CFG_IBSHARE_NORM{};
constexpr MatmulConfig MM_CFG_NO_PRELOAD{};

// Constant tiling (the documented GetMMConfig / GetMatmulApiTiling of asc-devkit's matmul_config.h,
// tiling.h and constant_tiling.h): the single-core and base shapes fixed at compile time.
enum class MatmulConfigMode { CONFIG_NORM, CONFIG_MDL, CONFIG_SPECIALMDL, CONFIG_IBSHARE };
struct MatmulShapeParams {
  uint32_t singleCoreM, singleCoreN, singleCoreK;  // elements
  uint32_t basicM, basicN, basicK;
};
// The config of a template with the given shapes; only MatmulShapeParams is emulated.
template <MatmulConfigMode mode, typename... Args>
constexpr MatmulConfig GetMMConfig(Args&&... args) {
  static_assert((std::is_same_v<std::decay_t<Args>, MatmulShapeParams> && ...),
                "GetMMConfig: the simulator emulates MatmulShapeParams only");
  MatmulConfig c = mode == MatmulConfigMode::CONFIG_MDL ? CFG_MDL : CFG_NORM;
  auto one = [&c](const MatmulShapeParams& p) {
    c.singleCoreM = p.singleCoreM, c.singleCoreN = p.singleCoreN, c.singleCoreK = p.singleCoreK;
    c.basicM = p.basicM, c.basicN = p.basicN, c.basicK = p.basicK;
  };
  (one(args), ...);
  return c;
}
// The constant tiling: -1 is "not fixed" (the runtime TCubeTiling's value holds). As documented, the
// original shape is the single-core shape (M, N, Ka, Kb), and L0C is not double-buffered (dbL0C 1). The
// L1 factors (stepKa, depthA1, ...) and the iterate order are not computed here: the runtime tiling's
// hold, which changes the schedule's timing, not its numbers.
struct MatmulApiStaticTiling {
  int32_t usedCoreNum = -1, M = -1, N = -1, Ka = -1, Kb = -1;
  int32_t singleCoreM = -1, singleCoreN = -1, singleCoreK = -1, baseM = -1, baseN = -1, baseK = -1;
  int32_t depthA1 = -1, depthB1 = -1, stepM = -1, stepN = -1, isBias = -1, transLength = -1, iterateOrder = -1;
  int32_t stepKa = -1, stepKb = -1, dbL0A = -1, dbL0B = -1, dbL0C = -1;
  MatmulConfig cfg = CFG_NORM;
};
template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE>
constexpr MatmulApiStaticTiling GetMatmulApiTiling(const MatmulConfig& cfg, int32_t l1Size = 524288) {
  (void)l1Size;
  MatmulApiStaticTiling t;
  t.cfg = cfg;
  if (cfg.basicM != 0 && cfg.basicN != 0 && cfg.basicK != 0) {
    t.baseM = static_cast<int32_t>(cfg.basicM), t.baseN = static_cast<int32_t>(cfg.basicN);
    t.baseK = static_cast<int32_t>(cfg.basicK);
  }
  if (cfg.singleCoreM == 0 || cfg.singleCoreN == 0 || cfg.singleCoreK == 0) return t;
  t.M = t.singleCoreM = static_cast<int32_t>(cfg.singleCoreM);
  t.N = t.singleCoreN = static_cast<int32_t>(cfg.singleCoreN);
  t.Ka = t.Kb = t.singleCoreK = static_cast<int32_t>(cfg.singleCoreK);
  t.dbL0C = 1;
  return t;
}

namespace detail {
// The MatmulConfig of a Matmul's MM_CFG (a config, or a constant tiling holding one).
template <class CFG>
constexpr const MatmulConfig& ConfigOf(const CFG& cfg) {
  if constexpr (std::is_same_v<CFG, MatmulApiStaticTiling>)
    return cfg.cfg;
  else
    return cfg;
}

// The tiling a Matmul runs on: the runtime tiling, with the fields a constant tiling fixes.
template <class Tiling, class CFG>
constexpr void FixTiling(Tiling& t, const CFG& cfg) {
  if constexpr (std::is_same_v<CFG, MatmulApiStaticTiling>) {  // fixed fields win
    auto fix = [](int32_t& field, int32_t v) {
      if (v >= 0) field = v;
    };
    fix(t.M, cfg.M), fix(t.N, cfg.N), fix(t.Ka, cfg.Ka), fix(t.Kb, cfg.Kb);
    fix(t.singleCoreM, cfg.singleCoreM), fix(t.singleCoreN, cfg.singleCoreN);
    fix(t.singleCoreK, cfg.singleCoreK), fix(t.baseM, cfg.baseM), fix(t.baseN, cfg.baseN);
    fix(t.baseK, cfg.baseK), fix(t.dbL0C, cfg.dbL0C);
  }
}
}  // namespace detail

}  // namespace AscendC
