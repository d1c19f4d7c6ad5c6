// The toolkit's per-API header (adv_api/math/sin.h), which kernels include by path: the guest declares every
// high-level API in kernel_operator.h (ascendc_guest/adv.h).
#pragma once

#include "kernel_operator.h"
