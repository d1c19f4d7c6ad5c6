// The op base's platform queries under the include path some hicann/ops-nn tilings use.
#pragma once

#include "op_common/op_host/util/platform_util.h"
