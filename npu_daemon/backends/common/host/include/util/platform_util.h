// The op base's platform queries under the include path ops-math uses.
#pragma once

#include "op_common/op_host/util/platform_util.h"
