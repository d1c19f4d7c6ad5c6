// The vector families past the elementwise ones: compare/select, gather, the reductions' repeat
// forms, sorting and TransDataTo5HD (included by kernel_operator.h).
#pragma once

#include "ascendc_guest/vec_compare.h"
#include "ascendc_guest/vec_gather.h"
#include "ascendc_guest/vec_reduce.h"
#include "ascendc_guest/vec_sort.h"
#include "ascendc_guest/vec_transdata.h"
