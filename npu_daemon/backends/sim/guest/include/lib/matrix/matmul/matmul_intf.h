// asc-devkit's include/adv_api/matmul/matmul_intf.h, included by this name:
// the emulation declares the Matmul API.
#pragma once
#include "lib/matmul_intf.h"
