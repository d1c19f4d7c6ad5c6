// The op base's logging under the include path ops-math uses.
#pragma once

#include "op_common/log/log.h"
