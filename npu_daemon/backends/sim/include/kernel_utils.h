// The toolkit's internal header of the basic API's constants, parameter structs and macros
// (asc-devkit impl/basic_api/kernel_utils.h), on the include path kernels are built with: the
// emulation declares them with the whole API in kernel_operator.h.
#pragma once
#include "kernel_operator.h"
