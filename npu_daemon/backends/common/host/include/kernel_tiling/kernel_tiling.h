// The kernel tiling header seen from a host compile: a tiling data header shared by host and
// kernel (ops-math <op>_tiling_data.h, a struct holding an `AscendC::tiling::TCubeTiling`)
// includes it; on the host it declares the high-level APIs' tiling structs, as the toolkit's does.
#pragma once

#include <cstdint>

#include "tiling/tiling_api.h"
