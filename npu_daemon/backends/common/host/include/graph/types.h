// Graph data types and formats (metadef graph/types.h): ge::DataType, ge::Format and their helpers.
#pragma once

#include "ascendc_sim/host_context.h"
