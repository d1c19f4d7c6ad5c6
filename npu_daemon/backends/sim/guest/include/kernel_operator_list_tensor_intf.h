// The toolkit's list-tensor header, at its path: ListTensorDesc and TensorDesc (shared with the native engine).
#pragma once

#include "kernel_operator.h"
#include "ascendc_guest/list_tensor.h"
