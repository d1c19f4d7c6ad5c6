// ge::AscendString by its own header (the graph library's graph/ascend_string.h).
#pragma once

#include "ascendc_sim/host_context.h"
