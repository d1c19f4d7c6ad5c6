// PlatformAscendC under the include path of hicann/ops-nn's op base (platform/platform_ascendc.h).
#pragma once

#include "tiling/platform/platform_ascendc.h"
