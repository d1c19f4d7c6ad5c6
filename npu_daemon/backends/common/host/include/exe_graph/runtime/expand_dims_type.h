// The graph runtime's types a tiling includes one by one (exe_graph/runtime/*.h): one host context defines them.
#pragma once

#include "ascendc_sim/host_context.h"
