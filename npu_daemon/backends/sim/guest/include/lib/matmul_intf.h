// The Matmul high-level API as kernels include it (`#include "lib/matmul_intf.h"`).
#pragma once

#include "ascendc_guest/matmul.h"
#include "kernel_operator.h"
