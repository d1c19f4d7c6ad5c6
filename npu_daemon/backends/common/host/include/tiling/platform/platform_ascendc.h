// PlatformAscendC: the SoC facts a tiling function asks for, read from the SoC preset of the
// request (ascend_core/soc/presets.toml), never from constants in code.
#pragma once

#include <cstdint>
#include <cstdio>

#include "ascendc_sim/host_context.h"
#include "platform/soc_spec.h"

namespace ascendc_sim {
int64_t SocParamInt(const char* key);
const char* SocParamStr(const char* key);
}  // namespace ascendc_sim

namespace platform_ascendc {

enum class CoreMemType { L0_A = 0, L0_B, L0_C, L1, L2, UB, HBM, FB, BT, RESERVED };
enum class ReservedSize { RESERVED_SIZE_8K = 0, RESERVED_SIZE_16K, RESERVED_SIZE_32K };
// Every SoC the toolkit names, in its order (a tiling compares with the ones it has branches for);
// the simulated part is ASCEND910B.
enum class SocVersion {
  ASCEND910 = 0,
  ASCEND910B,
  ASCEND310P,
  ASCEND310B,
  ASCEND950,
  ASCEND910_55,
  ASCEND910_95 = ASCEND950,
  AS31XM1,
  ASCEND031,
  ASCEND035,
  ASCEND310,
  ASCEND610,
  ASCEND610Lite,
  ASCEND910_93,
  BS9SX1A,
  BS9SX2A,
  HI3796CV300CS,
  HI3796CV300ES,
  MC61AM21A,
  MC62,
  SD3403,
  KIRINX90,
  KIRIN9030,
  MC32DM11A,
  ASCEND350,
  RESERVED_VERSION = 99999
};

class PlatformAscendC {
 public:
  PlatformAscendC() = default;
  explicit PlatformAscendC(fe::PlatFormInfos*) {}
  uint32_t GetCoreNum() const { return Int("aiv_cores"); }  // A2: vector cores
  uint32_t GetCoreNumAic() const { return Int("aic_cores"); }
  uint32_t GetCoreNumAiv() const { return Int("aiv_cores"); }
  uint32_t GetCoreNumVector() const { return Int("aiv_cores"); }
  // The platform's size, less what the runtime keeps back on the A2 (asc-devkit
  // platform_ascendc.cpp: UB and L1 for the kfc, UB also what ReserveLocalMemory took).
  void GetCoreMemSize(CoreMemType type, uint64_t& size) const {
    fe::PlatFormInfos().GetLocalMemSize(static_cast<fe::LocalMemType>(type), size);
    if (type == CoreMemType::UB || type == CoreMemType::L1) size -= Int("ub_reserved_bytes");
    if (type == CoreMemType::UB) size -= reservedUb_;
  }
  void GetCoreMemBw(CoreMemType type, uint64_t& bw) const {
    bw = type == CoreMemType::HBM ? static_cast<uint64_t>(ascendc_sim::SocParamInt("hbm_gbps")) : 0;
  }
  uint32_t GetLibApiWorkSpaceSize() const { return Int("lib_workspace_bytes"); }
  SocVersion GetSocVersion() const { return SocVersion::ASCEND910B; }
  NpuArch GetCurNpuArch() const { return NpuArch::DAV_2201; }
  // A mixed kernel's block count for sliceNum AIV slices: one block per AIC and its AIVs; on the
  // 1:2 parts more blocks than AICs is an error (0, logged), as in asc-devkit's platform_ascendc.
  uint32_t CalcTschNumBlocks(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
    if (aicCoreNum == 0 || aivCoreNum == 0 || aicCoreNum > aivCoreNum) return sliceNum;
    const uint32_t ratio = aivCoreNum / aicCoreNum;
    const uint32_t blocks = (sliceNum + ratio - 1) / ratio;
    if (ratio == 2 && blocks > aicCoreNum) {
      std::fprintf(stderr, "[ERROR] CalcTschNumBlocks: %u blocks for %u AIC cores\n", blocks, aicCoreNum);
      return 0;
    }
    return blocks;
  }
  uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
    return CalcTschNumBlocks(sliceNum, aicCoreNum, aivCoreNum);  // the deprecated name
  }
  // The vector register width of the register-based (RegBase) parts; 0 on the A2 cores, as documented.
  uint32_t GetVecRegLen() const { return 0; }
  // Keep UB back for the framework (printf / DumpTensor buffers): later UB queries report less.
  void ReserveLocalMemory(ReservedSize size) { reservedUb_ = 8192u << static_cast<uint32_t>(size); }

 private:
  uint32_t reservedUb_ = 0;
  static uint32_t Int(const char* key) { return static_cast<uint32_t>(ascendc_sim::SocParamInt(key)); }
};

class PlatformAscendCManager {
 public:
  static PlatformAscendC* GetInstance() {
    static PlatformAscendC instance;
    return &instance;
  }
  static PlatformAscendC* GetInstance(const char*) { return GetInstance(); }
};

}  // namespace platform_ascendc
