// asc-devkit's host tiling header of Cos (GetCosMaxMinTmpSize, GetCosTmpBufferFactorSize).
#pragma once

#include "tiling/tiling_api.h"
