// The op base's error codes under the include path its operators use (see log/log.h).
#pragma once

#include "op_common/log/error_code.h"
