// The toolkit's header of the basic API's interface (asc-devkit include/basic_api/
// kernel_operator_intf.h), which kernels may include by name: the emulation declares the whole
// API in kernel_operator.h.
#pragma once
#include "kernel_operator.h"
