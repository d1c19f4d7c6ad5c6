// The graph runtime's types a tiling includes one by one (exe_graph/runtime/*.h): one host context defines them.
#pragma once

#include <limits>  // reached through the graph headers in CANN

#include "ascendc_sim/host_context.h"
// CANN's tiling_context.h includes continuous_vector.h, which includes the secure C library's
// header: a tiling calls memset_s and memcpy_s having included this alone.
#include "securec.h"
