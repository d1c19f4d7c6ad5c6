// asc-devkit's include/basic_api/kernel_operator_vec_binary_scalar_intf.h, included by this name:
// the emulation declares the whole API in kernel_operator.h.
#pragma once
#include "kernel_operator.h"
