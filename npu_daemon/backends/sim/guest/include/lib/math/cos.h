// The toolkit's per-API header (lib/math/cos.h), which kernels include by path: the guest declares every
// high-level API in kernel_operator.h (ascendc_guest/adv.h).
#pragma once

#include "kernel_operator.h"
