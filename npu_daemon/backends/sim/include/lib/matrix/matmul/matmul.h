// The Matmul high-level API at the path of the toolkit's own header (kernels include it beside or
// instead of "lib/matmul_intf.h").
#pragma once
#include "lib/matmul_intf.h"
