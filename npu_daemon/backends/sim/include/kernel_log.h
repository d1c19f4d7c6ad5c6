// The toolkit's internal header of the kernel log and assert macros (KERNEL_LOG, ASCENDC_ASSERT;
// asc-devkit impl/basic_api/kernel_log.h), on the include path kernels are built with: the emulation
// declares them with the whole API in kernel_operator.h.
#pragma once
#include "kernel_operator.h"
