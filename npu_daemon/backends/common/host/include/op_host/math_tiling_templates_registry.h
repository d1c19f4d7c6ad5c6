// hicann/ops-math's tiling template registry (common/inc/op_host/math_tiling_templates_registry.h):
// the same registries (per SoC version, and for every platform), macros and running order as the
// ops-nn one (op_host/tiling_templates_registry.h), under the namespace ops-math tilings name.
#pragma once

#include "op_host/tiling_base_class.h"
#include "op_host/tiling_templates_registry.h"

namespace Ops {
namespace Math {
namespace OpTiling {
using Ops::NN::Optiling::Register;
using Ops::NN::Optiling::RegisterNew;
using Ops::NN::Optiling::TILING_CLASS;
using Ops::NN::Optiling::TilingCases;
using Ops::NN::Optiling::TilingClassCase;
using Ops::NN::Optiling::TilingRegistry;
using Ops::NN::Optiling::TilingRegistryNew;
}  // namespace OpTiling
}  // namespace Math
}  // namespace Ops
