// The aclnn layer's platform query (opbase opdev/platform.h): op::GetCurrentPlatformInfo() and
// what it tells of the SoC, from the SoC preset (every preset here is the 910B family, DAV_2201).
#pragma once

#include <cstdint>
#include <string>

#include "aclnn/aclnn_base.h"
#include "graph/ascend_string.h"
#include "platform/platform_info.h"
#include "platform/soc_spec.h"

namespace op {

enum class SocVersion {
  ASCEND910 = 0,
  ASCEND910B,
  ASCEND910_93,
  ASCEND910_95,
  ASCEND950 = ASCEND910_95,
  ASCEND910E,
  ASCEND310,
  ASCEND310P,
  ASCEND310B,
  ASCEND310C,
  ASCEND610LITE,
  KIRINX90,
  KIRIN9030,
  ASCEND350,
  RESERVED_VERSION = 99999
};

enum class SocSpec { INST_MMAD = 0, RESERVED_SPEC = 99999 };

enum class SocSpecAbility {
  INST_MMAD_F162F16 = 0,
  INST_MMAD_F162F32,
  INST_MMAD_H322F32,
  INST_MMAD_F322F32,
  INST_MMAD_U32U8U8,
  INST_MMAD_S32S8S8,
  INST_MMAD_S32U8S8,
  INST_MMAD_F16F16F16,
  INST_MMAD_F32F16F16,
  INST_MMAD_F16F16U2,
  INST_MMAD_U8,
  INST_MMAD_S8,
  INST_MMAD_U8S8,
  INST_MMAD_F16U2,
};

class PlatformInfo {
 public:
  PlatformInfo() = default;
  explicit PlatformInfo(int32_t deviceId) : deviceId_(deviceId) {}
  PlatformInfo(const PlatformInfo&) = delete;
  PlatformInfo& operator=(const PlatformInfo&) = delete;

  SocVersion GetSocVersion() const { return SocVersion::ASCEND910B; }
  const std::string& GetSocLongVersion() const {
    static const std::string name = "Ascend910B";
    return name;
  }
  int32_t GetDeviceId() const { return deviceId_; }
  // The A2 cube's Mmad: fp16 and bf16 into fp32, fp32 into fp32, int8 into int32.
  bool CheckSupport(SocSpec spec, SocSpecAbility ability) const {
    return spec == SocSpec::INST_MMAD &&
           (ability == SocSpecAbility::INST_MMAD_F162F32 || ability == SocSpecAbility::INST_MMAD_H322F32 ||
            ability == SocSpecAbility::INST_MMAD_F322F32 || ability == SocSpecAbility::INST_MMAD_S32S8S8);
  }
  int64_t GetBlockSize() const { return 32; }
  uint32_t GetCubeCoreNum() const { return static_cast<uint32_t>(ascendc_sim::SocParamInt("aic_cores")); }
  uint32_t GetVectorCoreNum() const { return static_cast<uint32_t>(ascendc_sim::SocParamInt("aiv_cores")); }
  bool Valid() const { return true; }
  bool GetFftsPlusMode() const { return true; }  // the A2 launches mixed kernels through FFTS+
  NpuArch GetCurNpuArch() const { return NpuArch::DAV_2201; }
  fe::PlatFormInfos* GetPlatformInfos() const {
    static fe::PlatFormInfos infos;
    return &infos;
  }

 private:
  int32_t deviceId_ = 0;
};

inline const PlatformInfo& GetCurrentPlatformInfo() {
  static const PlatformInfo info;
  return info;
}

inline ge::AscendString ToString(SocVersion socVersion) {
  switch (socVersion) {
    case SocVersion::ASCEND910:
      return "Ascend910";
    case SocVersion::ASCEND910B:
      return "Ascend910B";
    case SocVersion::ASCEND910_93:
      return "Ascend910_93";
    case SocVersion::ASCEND910_95:
      return "Ascend910_95";
    case SocVersion::ASCEND310P:
      return "Ascend310P";
    case SocVersion::ASCEND310B:
      return "Ascend310B";
    default:
      return "UnknownSoc";
  }
}

}  // namespace op
