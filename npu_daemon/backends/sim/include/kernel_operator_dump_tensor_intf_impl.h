// The toolkit's header of the debug printing interface (asc-devkit impl/basic_api/
// kernel_operator_dump_tensor_intf_impl.h), which kernels include by name for AscendC::printf:
// the emulation declares printf and PRINTF with the rest of the API in kernel_operator.h.
#pragma once
#include "kernel_operator.h"
