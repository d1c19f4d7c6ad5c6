// The graph's status codes (metadef graph/ge_error_codes.h): ge::graphStatus and its values.
#pragma once

#include "ascendc_sim/host_context.h"
