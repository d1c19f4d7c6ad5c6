// asc-devkit's include/adv_api/activation/softmaxflashv2.h, included by this name:
// the emulation declares the whole API in kernel_operator.h.
#pragma once
#include "kernel_operator.h"
