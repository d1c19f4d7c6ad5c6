// The graph runtime's tiling context by the spelling of an include root at exe_graph/.
#pragma once

#include "exe_graph/runtime/tiling_context.h"
