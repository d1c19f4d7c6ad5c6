// Platform queries of the CANN op base (opbase's op_common/op_host/util/platform_util.h), over
// a TilingContext or TilingParseContext: the SoC preset's numbers through PlatformAscendC.
#pragma once

#include "op_common/log/log.h"
#include "tiling/platform/platform_ascendc.h"

namespace Ops {
namespace Base {

template <typename T>
uint32_t GetAivCoreNum(const T* context) {
  return context == nullptr ? 0 : platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAiv();
}
template <typename T>
uint32_t GetAicCoreNum(const T* context) {
  return context == nullptr ? 0 : platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAic();
}
template <typename T>
uint32_t GetUbSize(const T* context) {
  if (context == nullptr) return 0;
  uint64_t ub = 0;
  platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
  return static_cast<uint32_t>(ub);
}
template <typename T>
uint32_t GetWorkspaceSize(const T* context) {
  return context == nullptr ? 0
                            : platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetLibApiWorkSpaceSize();
}
// Fixed on the A2 family: the UB block (32 B), a vector register's width (256 B), the cache line.
template <typename T>
uint32_t GetUbBlockSize(const T*) {
  return 32U;
}
template <typename T>
uint32_t GetVRegSize(const T*) {
  return 256U;
}
template <typename T>
uint32_t GetCacheLineSize(const T*) {
  return 256U;
}
template <typename T>
uint32_t GetSectorCacheLineSize(const T* context) {
  return GetCacheLineSize(context) / 2U;
}
// The SIMT and NDDMA figures the op base returns whatever the part (used by the 3510 code paths).
template <typename T>
uint32_t GetSimtMaxThreadNum(const T*) {
  return 2048U;
}
template <typename T>
uint32_t GetSimtMaxDCacheSize(const T*) {
  return 131072U;
}
template <typename T>
uint32_t GetNddmaDcacheSize(const T*) {
  return 8192U;
}

}  // namespace Base
}  // namespace Ops
