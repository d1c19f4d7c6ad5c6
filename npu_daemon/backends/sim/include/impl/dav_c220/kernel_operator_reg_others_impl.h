// The device library's internal header of the A2 (dav_c220) register accessors, at the path the
// toolkit installs it under (ascendc/include/basic_api/impl/dav_c220/); cann-ops rms_norm_grad
// includes it directly and uses nothing of its own. It maps to our emulation of the API.
#pragma once
#include "kernel_operator.h"
