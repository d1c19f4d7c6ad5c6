// The op base's integer helpers under the include path ops-math uses.
#pragma once

#include "op_common/op_host/util/math_util.h"
