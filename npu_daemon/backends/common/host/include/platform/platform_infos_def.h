// fe::PlatFormInfos (platform/platform_infos_def.h): the handle a tiling passes to PlatformAscendC.
#pragma once

#include "platform/platform_info.h"
