// Tiling helpers of hicann/ops-nn's op base (common/inc/op_host/tiling_util.h): the
// Ops::NN::OpTiling namespace its tilings open with `using namespace`.
#pragma once

#include "log/log.h"
#include "platform/platform_ascendc.h"
#include "platform/soc_spec.h"
#include "register/op_impl_registry.h"

namespace Ops {
namespace NN {
namespace OpTiling {

// The register-based vector architectures (the 950 family); the simulated A2 is not one.
inline bool IsRegbaseNpuArch(NpuArch arch) { return arch == NpuArch::DAV_3510 || arch == NpuArch::DAV_5102; }

// Over a TilingContext or TilingParseContext: the architecture of the platform it runs on.
template <typename Context>
bool IsRegbaseSocVersion(const Context* context) {
  return IsRegbaseNpuArch(platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCurNpuArch());
}

// A scalar (0-d shape) as the 1-element vector the tilings compute with.
inline const gert::Shape& EnsureNotScalar(const gert::Shape& shape) {
  static const gert::Shape vector1{1};
  return shape.IsScalar() ? vector1 : shape;
}

}  // namespace OpTiling
}  // namespace NN
}  // namespace Ops
