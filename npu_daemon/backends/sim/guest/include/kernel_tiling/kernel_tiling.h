// The native header (engine-independent kernel code): its "kernel_operator.h" resolves to the guest's.
#pragma once
#include "../../../include/kernel_tiling/kernel_tiling.h"
