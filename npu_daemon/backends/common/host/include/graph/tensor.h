// The graph's tensor header (metadef graph/tensor.h), for the ge::Shape it declares: host tilings
// include it to build the shapes the tiling helpers take (GetSoftMaxFlashV2MaxTmpSize, a data
// copy's transpose tiling). Its ge::TensorDesc and ge::Tensor describe a graph's tensors, which the
// simulator builds none of; a tiling reads its tensors through the gert context.
#pragma once

#include "ascendc_sim/host_context.h"
