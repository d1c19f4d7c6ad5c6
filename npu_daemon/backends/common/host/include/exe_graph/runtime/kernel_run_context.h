// The graph runtime's kernel run context by its own include, which CANN's tiling sources spell
// beside tiling_context.h: in CANN it heads the chain tiling_context.h includes (the contexts' C
// layout). Here the contexts are the emulation's own classes, so the include gives that header.
#pragma once

#include "exe_graph/runtime/tiling_context.h"
