// The platform description the framework hands a tiling function (fe::PlatFormInfos); tiling code
// reads it through platform_ascendc::PlatformAscendC, which takes its facts from the SoC preset.
#pragma once

#include "ascendc_sim/host_context.h"
#include "tiling/platform/platform_ascendc.h"

#include <map>
#include <string>
#include <vector>

// CANN's platform_info.h brings these into the global namespace, and tiling code that includes
// it writes `map<...>` unqualified.
using std::map;
using std::string;
using std::vector;
