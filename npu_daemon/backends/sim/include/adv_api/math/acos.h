// asc-devkit's adv_api/math/acos.h, which kernels include by its library path: the API is declared
// with the rest of the emulated library.
#pragma once

#include "kernel_operator.h"
