// hicann/ops-nn's tiling template base (common/inc/op_host/tiling_base.h): the op base's class
// (op_host/tiling_base_class.h) under the namespace ops-nn tilings name it by.
#pragma once

#include "op_host/tiling_base_class.h"

namespace Ops {
namespace NN {
namespace Optiling {
using Ops::Base::AiCoreParams;
using Ops::Base::CompileInfoCommon;
using Ops::Base::TilingBaseClass;
}  // namespace Optiling
}  // namespace NN
}  // namespace Ops
