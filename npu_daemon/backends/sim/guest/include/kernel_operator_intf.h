// The toolkit's basic API interface header, at its path (the whole API is in kernel_operator.h).
#pragma once
#include "kernel_operator.h"
