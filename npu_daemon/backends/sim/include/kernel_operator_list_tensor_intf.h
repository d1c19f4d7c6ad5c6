// Dynamic (list) inputs and outputs: ListTensorDesc and TensorDesc, one definition for both engines.
#pragma once

#include "kernel_operator.h"
#include "../guest/include/ascendc_guest/list_tensor.h"
