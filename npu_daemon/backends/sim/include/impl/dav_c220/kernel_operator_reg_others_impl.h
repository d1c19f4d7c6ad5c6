// The A2 (dav_c220) register accessors (GetSubBlockIdx, GetBlockNum, ...) at the path the device
// library installs them under (ascendc/include/basic_api/impl/dav_c220/), which kernels include
// directly; our emulation defines them with the rest of the API.
#pragma once
#include "kernel_operator.h"
