// The device tiling registry (tiling sink): DEVICE_IMPL_OP_OPTILING(Op).Tiling(f) files a tiling
// function the device's AI CPU runs at launch, for an operator whose tiling reads an input's
// value (ValueDepend with DependScope::TILING) known only then. A simulated launch has every
// input's data when it tiles, so the function is filed by op type as IMPL_OP_OPTILING files
// one, and runs on the host.
#pragma once

#include "register/op_impl_registry.h"

#define DEVICE_IMPL_OP_OPTILING(op) IMPL_OP(op)
