// The kernel tiling header seen from a host compile: a tiling data header shared by host and
// kernel (ops-math <op>_tiling_data.h) includes it; on the host it declares nothing more.
#pragma once

#include <cstdint>
