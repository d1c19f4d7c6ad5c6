// The graph-mode operator (metadef graph/operator.h): ge::Operator, its name and type, its
// inputs' and outputs' descriptions by name or index. An OpDef's format-selection and
// check-support hooks take one; the simulator builds no graph and calls none of them.
#pragma once

#include "ascendc_sim/host_context.h"
#include "graph/ascend_string.h"
#include "graph/ge_error_codes.h"
#include "graph/types.h"
