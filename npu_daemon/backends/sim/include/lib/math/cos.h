// asc-devkit's adv_api/math/cos.h under the lib/ path of CANN's installed headers, which kernels
// include: the API is declared with the rest of the emulated library.
#pragma once

#include "kernel_operator.h"
