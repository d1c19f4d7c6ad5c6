// Kernel-side tiling helpers: GET_TILING_DATA and friends live in kernel_operator.h.
#pragma once

#include "kernel_operator.h"
