// The Matmul high-level API as kernels include it (`#include "lib/matmul_intf.h"`).
#pragma once

#include "kernel_operator.h"
#include "ascendc_sim/matmul.h"
