// The explicit instantiations that ascendc_sim/instances.h declares `extern template` for kernels:
// compiled once here, at the runtime's -O3, instead of in every kernel.
#define ASCENDC_SIM_INSTANTIATE
#include "kernel_operator.h"
