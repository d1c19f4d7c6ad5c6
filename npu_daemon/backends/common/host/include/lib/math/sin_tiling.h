// asc-devkit's host tiling header of Sin (GetSinMaxMinTmpSize, GetSinTmpBufferFactorSize).
#pragma once

#include "tiling/tiling_api.h"
