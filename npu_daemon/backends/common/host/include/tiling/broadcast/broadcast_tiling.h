// asc-devkit's host tiling header of the BroadCast API (adv_api/pad/broadcast_tiling.h, installed
// as tiling/broadcast/broadcast_tiling.h): GetBroadCastMaxMinTmpSize.
#pragma once

#include "tiling/tiling_api.h"
