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

namespace detail {
// Where the Matmul takes A or B from (its MatmulType's position): GM, or L1 (TSCM, or a queue's A1 / B1).
// At an L1 position the kernel holds the operand in L1, and the library takes no L1 buffer for it.
constexpr bool InL1(TPosition p) { return p == TPosition::TSCM || p == TPosition::A1 || p == TPosition::B1; }
constexpr bool GmOrL1(TPosition p) { return p == TPosition::GM || InL1(p); }
// The formats the simulator's Matmul reads and writes in GM: ND, and NZ (16-row fractals of C0 columns).
constexpr bool NdOrNz(CubeFormat f) { return f == CubeFormat::ND || f == CubeFormat::NZ; }
}  // namespace detail

enum class BatchMode { NONE = 0, BATCH_LESS_THAN_L1, BATCH_LARGE_THAN_L1, SINGLE_LARGE_THAN_L1 };
enum BatchOutMode { SINGLE_BATCH = 0, MULTI_BATCH, DYNAMIC };  // unscoped, as in CANN's matmul_config.h
enum class IterateOrder { ORDER_M = 0, ORDER_N, UNDEF };
enum class ScheduleType { INNER_PRODUCT = 0, OUTER_PRODUCT };
enum IterateMode : uint8_t {  // which Iterate forms a kernel calls (bits), unscoped as in the toolkit
  ITERATE_MODE_NORMAL = 1,
  ITERATE_MODE_ALL = 2,
  ITERATE_MODE_BATCH = 4,
  ITERATE_MODE_N_BATCH = 8,
  ITERATE_MODE_DEFAULT = 0xff
};
enum class DecompressionMode {
  DECOMP_NONE = 0,
  DECOMP_2bitTo8bit,
  DECOMP_3bitTo8bit,
  DECOMP_4bitTo8bit,
  DECOMP_16bitTo64bit,
  DECOMP_1bitTo8bit,
  DECOMP_1bitTo4bit,
  DECOMP_2bitTo4bit,
  DECOMP_3bitTo4bit
};
constexpr uint32_t SHARED_CO1_BUFFER_SIZE = 64 * 1024;

// asc-devkit's MatmulConfig, field for field in its order (kernels set any of them by name). The
// emulated Matmul reads the template (doNorm, doMultiDataLoad), the constant shapes and doMTE2Preload;
// the other switches select code paths of the device's Matmul that compute the same result.
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
  bool isPerTensor = false, hasAntiQuantOffset = false;
  bool doIBShareNorm = false, doSpecialMDL = false;
  bool enableInit = true;
  BatchMode batchMode = BatchMode::NONE;
  bool enableEnd = true, enableGetTensorC = true, enableSetOrgShape = true, enableSetBias = true;
  bool enableSetTail = true, enableQuantVector = true, enableSetDefineData = true;
  uint8_t iterateMode = ITERATE_MODE_DEFAULT;
  bool enableReuse = true, enableUBReuse = false, enableL1CacheUB = false, intraBlockPartSum = false;
  IterateOrder iterateOrder = IterateOrder::UNDEF;
  ScheduleType scheduleType = ScheduleType::INNER_PRODUCT;
  bool enableDoubleCache = false, isBiasBatch = true, enableStaticPadZeros = false, isPartialOutput = false;
  bool enableMixDualMaster = false, isA2B2Shared = false, isEnableChannelSplit = false;
  bool enableKdimReorderLoad = false, isCO1Shared = false;
  uint32_t sharedCO1BufferSize = SHARED_CO1_BUFFER_SIZE;
  BatchOutMode bmmOutMode = SINGLE_BATCH;
  bool enableL1BankConflictOptimise = false, enableRelu = false;
  DecompressionMode decompMode = DecompressionMode::DECOMP_NONE;
};

// The documented constructors of the NORM and MDL configs (asc-devkit adv_api/matmul/tiling.h),
// with their parameters in order: the switches MatmulConfig has are set; the batch, scheduling,
// message-reuse, quantization and dual-master ones do not apply to the single-batch Matmul
// emulated here. MDL loads stepKa base K blocks per MTE2 (doMultiDataLoad), which our Matmul reads.
constexpr MatmulConfig GetNormalConfig(bool intrinsicsLimit = false, bool batchLoop = false, bool isVecND2NZ = false,
                                       BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1, bool isMsgReuse = true,
                                       IterateOrder iterateOrder = IterateOrder::UNDEF,
                                       ScheduleType scheduleType = ScheduleType::INNER_PRODUCT, bool enUnitFlag = true,
                                       bool enableMixDualMaster = false, BatchOutMode bmmOutMode = SINGLE_BATCH) {
  MatmulConfig c{};
  c.intrinsicsCheck = intrinsicsLimit, c.isNBatch = batchLoop, c.enVecND2NZ = isVecND2NZ, c.enUnitFlag = enUnitFlag;
  c.batchMode = bmmMode, c.enableReuse = isMsgReuse, c.iterateOrder = iterateOrder, c.scheduleType = scheduleType;
  c.enableUBReuse = true, c.enableMixDualMaster = enableMixDualMaster, c.bmmOutMode = bmmOutMode;
  return c;
}
constexpr MatmulConfig GetMDLConfig(bool intrinsicsLimit = false, bool batchLoop = false, uint32_t doMTE2Preload = 0,
                                    bool isVecND2NZ = false, bool isPerTensor = false, bool hasAntiQuantOffset = false,
                                    bool enUnitFlag = false, bool isMsgReuse = true, bool enableUBReuse = true,
                                    bool enableL1CacheUB = false, bool enableMixDualMaster = false,
                                    bool enableKdimReorderLoad = false, bool enableL1BankConflictOptimise = false) {
  MatmulConfig c{};
  c.doNorm = false, c.doMultiDataLoad = true;
  c.intrinsicsCheck = intrinsicsLimit, c.isNBatch = batchLoop, c.doMTE2Preload = doMTE2Preload;
  c.enVecND2NZ = isVecND2NZ, c.isPerTensor = isPerTensor, c.hasAntiQuantOffset = hasAntiQuantOffset;
  c.enUnitFlag = enUnitFlag, c.enableReuse = isMsgReuse, c.enableUBReuse = enableUBReuse;
  c.enableL1CacheUB = enableL1CacheUB, c.enableMixDualMaster = enableMixDualMaster;
  c.enableKdimReorderLoad = enableKdimReorderLoad, c.enableL1BankConflictOptimise = enableL1BankConflictOptimise;
  return c;
}

constexpr MatmulConfig CFG_NORM = GetNormalConfig();
constexpr MatmulConfig CFG_MDL = GetMDLConfig();
constexpr MatmulConfig CFG_IBSHARE_NORM{};

// Constant tiling (the documented GetMMConfig / GetMatmulApiTiling of asc-devkit's matmul_config.h,
// tiling.h and constant_tiling.h): the single-core and base shapes fixed at compile time.
enum class MatmulConfigMode { CONFIG_NORM, CONFIG_MDL, CONFIG_SPECIALMDL, CONFIG_IBSHARE };
struct MatmulShapeParams {
  uint32_t singleCoreM, singleCoreN, singleCoreK;  // elements
  uint32_t basicM, basicN, basicK;
};
struct MatmulQuantParams {
  bool isPerTensor, hasAntiQuantOffset;
};
struct MatmulBatchParams {
  bool isNBatch;
  BatchMode batchMode;
  bool isBiasBatch = true;
  BatchOutMode bmmOutMode = SINGLE_BATCH;
};
struct MatmulFuncParams {
  bool intrinsicsCheck, enVecND2NZ, enableDoubleCache, enableL1CacheUB;
  uint32_t doMTE2Preload;
  IterateOrder iterateOrder;
  ScheduleType scheduleType;
  bool enableReuse = true;
  bool enableUBReuse;
  bool isPartialOutput = false, isA2B2Shared = false, isEnableChannelSplit = false, enableKdimReorderLoad = false;
  bool enableL1BankConflictOptimise = false, enableRelu = false;
  DecompressionMode decompMode = DecompressionMode::DECOMP_NONE;
};
struct MatmulBiasParams {
  bool enableSetBias = true;
};

namespace detail {
// GetMMConfig's arguments, each setting its fields of the config (asc-devkit's GetMMConfigImpl).
constexpr void SetConfig(MatmulConfig& c, const MatmulShapeParams& p) {
  c.singleCoreM = p.singleCoreM, c.singleCoreN = p.singleCoreN, c.singleCoreK = p.singleCoreK;
  c.basicM = p.basicM, c.basicN = p.basicN, c.basicK = p.basicK;
}
constexpr void SetConfig(MatmulConfig& c, const MatmulQuantParams& p) {
  c.isPerTensor = p.isPerTensor, c.hasAntiQuantOffset = p.hasAntiQuantOffset;
}
constexpr void SetConfig(MatmulConfig& c, const MatmulBatchParams& p) {
  c.isNBatch = p.isNBatch, c.batchMode = p.batchMode, c.isBiasBatch = p.isBiasBatch, c.bmmOutMode = p.bmmOutMode;
}
constexpr void SetConfig(MatmulConfig& c, const MatmulFuncParams& p) {
  c.intrinsicsCheck = p.intrinsicsCheck, c.enVecND2NZ = p.enVecND2NZ, c.enableDoubleCache = p.enableDoubleCache;
  c.enableL1CacheUB = p.enableL1CacheUB, c.doMTE2Preload = p.doMTE2Preload, c.iterateOrder = p.iterateOrder;
  c.scheduleType = p.scheduleType, c.enableReuse = p.enableReuse, c.enableUBReuse = p.enableUBReuse;
  c.isPartialOutput = p.isPartialOutput, c.isA2B2Shared = p.isA2B2Shared;
  c.isEnableChannelSplit = p.isEnableChannelSplit, c.enableKdimReorderLoad = p.enableKdimReorderLoad;
  c.enableL1BankConflictOptimise = p.enableL1BankConflictOptimise, c.enableRelu = p.enableRelu;
  c.decompMode = p.decompMode;
}
constexpr void SetConfig(MatmulConfig& c, const MatmulBiasParams& p) { c.enableSetBias = p.enableSetBias; }
}  // namespace detail

// The config of a template with the given parameter groups, in the order given.
template <MatmulConfigMode mode, typename... Args>
constexpr MatmulConfig GetMMConfig(Args&&... args) {
  MatmulConfig c = mode == MatmulConfigMode::CONFIG_MDL ? CFG_MDL : CFG_NORM;
  (detail::SetConfig(c, args), ...);
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

// The MatmulConfig of a Matmul's MM_CFG, a config or a constant tiling holding one (asc-devkit
// impl/adv_api/detail/matmul/utils/matmul_config_utils.h, which its matmul.h includes): kernels test
// the config's switches in `if constexpr` through it.
constexpr MatmulConfig ToMatmulConfig(const MatmulConfig& cfg) { return cfg; }
constexpr MatmulConfig ToMatmulConfig(const MatmulApiStaticTiling& cfg) { return cfg.cfg; }

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

// asc-devkit declares the Matmul's configuration at global scope (matmul_config.h, tiling.h,
// constant_tiling.h): kernels name it unqualified, as they name it in AscendC (or matmul::) here.
using AscendC::BatchMode;
using AscendC::BatchOutMode;
using AscendC::CFG_IBSHARE_NORM;
using AscendC::CFG_MDL;
using AscendC::CFG_NORM;
using AscendC::DecompressionMode;
using AscendC::DYNAMIC;
using AscendC::GetMatmulApiTiling;
using AscendC::GetMDLConfig;
using AscendC::GetMMConfig;
using AscendC::GetNormalConfig;
using AscendC::ITERATE_MODE_ALL;
using AscendC::ITERATE_MODE_BATCH;
using AscendC::ITERATE_MODE_DEFAULT;
using AscendC::ITERATE_MODE_N_BATCH;
using AscendC::ITERATE_MODE_NORMAL;
using AscendC::IterateMode;
using AscendC::IterateOrder;
using AscendC::LayoutMode;
using AscendC::MatmulApiStaticTiling;
using AscendC::MatmulBatchParams;
using AscendC::MatmulBiasParams;
using AscendC::MatmulConfig;
using AscendC::MatmulConfigMode;
using AscendC::MatmulFuncParams;
using AscendC::MatmulQuantParams;
using AscendC::MatmulShapeParams;
using AscendC::MULTI_BATCH;
using AscendC::ScheduleType;
using AscendC::SHARED_CO1_BUFFER_SIZE;
using AscendC::SINGLE_BATCH;
