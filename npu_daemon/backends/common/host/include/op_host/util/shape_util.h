// The op base's shape helpers under the include path some hicann/ops-nn tilings use.
#pragma once
#include "op_common/op_host/util/shape_util.h"
