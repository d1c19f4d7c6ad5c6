// The toolkit's debug printing interface header, at its path (kernels include it by name).
#pragma once
#include "kernel_operator.h"
