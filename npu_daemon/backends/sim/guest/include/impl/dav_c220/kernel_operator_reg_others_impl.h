// The device library's internal A2 register accessor header, at its path (cann-ops rms_norm_grad
// includes it and uses nothing of its own): the API of kernel_operator.h.
#pragma once
#include "../../kernel_operator.h"
