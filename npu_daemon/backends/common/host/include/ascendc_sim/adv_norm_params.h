// The parameter and config structs of the [A, R] normalisation APIs on the A2 (asc-devkit
// adv_api/normalization/layernorm_utils.h, normalize_utils.h, welfordfinalize_utils.h), defined
// once for the native emulation (adv_norm_ar.h) and the guest's API (ascendc_guest/adv_norm.h):
// plain 4-byte fields, so the guest's bytes are the host's struct.
#pragma once

#include <cstdint>

namespace AscendC {

// Only AR (the inner axis R reduced) is supported by the library; the rest name other layouts.
enum class ReducePattern : uint32_t {
  AR = 0,
  RA = 1,
  R,
  ARA,
  ARAR,
  ARARA,
  ARARAR,
  ARARARA,
  ARARARAR,
  ARARARARA,
  RAR,
  RARA,
  RARAR,
  RARARA,
  RARARAR,
  RARARARA,
};

struct NormalizeConfig {
  ReducePattern reducePattern = ReducePattern::AR;
  int32_t aLength = -1;
  bool isNoBeta = false;
  bool isNoGamma = false;
  bool isOnlyOutput = false;
};
constexpr NormalizeConfig GetNormalizeConfig(bool isNoBeta, bool isNoGamma) {
  return {ReducePattern::AR, -1, isNoBeta, isNoGamma, false};
}
constexpr NormalizeConfig NLCFG_NORM = GetNormalizeConfig(false, false);
constexpr NormalizeConfig NLCFG_NOBETA = GetNormalizeConfig(true, false);
constexpr NormalizeConfig NLCFG_NOGAMMA = GetNormalizeConfig(false, true);
constexpr NormalizeConfig NLCFG_NOOPT = GetNormalizeConfig(true, true);

// [A, R] rows rLengthWithPadding (32 B of the input type) apart, the first rLength of each in use.
struct NormalizePara {
  uint32_t aLength;
  uint32_t rLength;
  uint32_t rLengthWithPadding;
};
static_assert(sizeof(NormalizePara) == 12, "NormalizePara: 3 words");

struct LayerNormConfig {
  bool isNoBeta = false;
  bool isNoGamma = false;
  bool isOnlyOutput = false;
  bool isOutputRstd = true;
};
constexpr LayerNormConfig GetLayerNormNormalConfig() { return {false, false, false, true}; }
constexpr LayerNormConfig LNCFG_NORM = GetLayerNormNormalConfig();

struct LayerNormPara {
  uint32_t aLength;
  uint32_t rLength;
  uint32_t rLengthWithPadding;
};
static_assert(sizeof(LayerNormPara) == 12, "LayerNormPara: 3 words");

struct WelfordUpdateConfig {
  constexpr WelfordUpdateConfig(const bool isInplaceIn) : isInplace(isInplaceIn) {}
  bool isInplace = false;  // outside abComputeLength, the outputs take the inputs' values
};
constexpr WelfordUpdateConfig WFUPDATE_DEFAULT_CFG = {false};

// [rnLength, abLength] (rnLength 1 on the A2), the first abComputeLength in use; nRec = 1 / i on
// the i-th call.
struct WelfordUpdateParam {
  uint32_t rnLength;
  uint32_t abLength;
  uint32_t abComputeLength;
  float nRec;
};
static_assert(sizeof(WelfordUpdateParam) == 16, "WelfordUpdateParam: 4 words");

struct WelfordFinalizeConfig {
  constexpr WelfordFinalizeConfig(const bool isCorrectionIn) : isCorrection(isCorrectionIn) {}
  bool isCorrection = false;  // rRecWithCorrection in place of rRec (not on the A2)
};
constexpr WelfordFinalizeConfig WFFINALIZE_DEFAULT_CFG = {false};

struct WelfordFinalizePara {
  uint32_t rnLength;
  uint32_t abLength;
  uint32_t headCount;
  uint32_t headCountLength;
  uint32_t tailCount;
  uint32_t tailCountLength;
  float abRec;
  float rRec;
  float rRecWithCorrection;
};
static_assert(sizeof(WelfordFinalizePara) == 36, "WelfordFinalizePara: 9 words");

// The layouts a kernel may name (asc-devkit kernel_struct_data_copy.h), under the toolkit's guard so
// a unit that also sees the toolkit's definition takes one.
#ifndef ASCC_ENUM_DATAFORMAT
#define ASCC_ENUM_DATAFORMAT
enum class DataFormat : uint8_t {
  ND = 0,
  NZ,
  NCHW,
  NC1HWC0,
  NHWC,
  NCDHW,
  NDC1HWC0,
  FRACTAL_Z_3D,
};
#endif

// LayerNormGrad's input layout: ND only (asc-devkit layernormgrad_utils.h).
struct LayerNormGradShapeInfo {
  DataFormat dataFormat = DataFormat::ND;
};

}  // namespace AscendC
