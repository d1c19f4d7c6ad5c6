// The toolkit's basic API header kernel_type.h (asc-devkit include/basic_api/), which kernels may include
// by name: the emulation declares the whole API in kernel_operator.h.
#pragma once
#include "kernel_operator.h"
