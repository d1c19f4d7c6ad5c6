// The native header (engine-independent kernel code): its "kernel_operator.h" resolves to the guest's.
#pragma once
#include "../../../include/op_kernel/platform_util.h"
