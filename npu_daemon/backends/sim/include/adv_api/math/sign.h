// The toolkit's per-API header of the advanced Sign (asc-devkit include/adv_api/math/sign.h), which
// kernels may include by path: the emulation declares every advanced API in kernel_operator.h.
#pragma once
#include "kernel_operator.h"
