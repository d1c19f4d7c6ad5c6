// PlatformAscendC under the include path some ops-math tilings use.
#pragma once

#include "tiling/platform/platform_ascendc.h"
