// The template tiling key: mode (2 bits: UI_MIX, the range 1..2 then the value 7, so codes 0, 1,
// 2 for 1, 2, 7) and negate (1 bit, above it). Built: mode 1 or 7 either way, mode 2 unnegated.
#pragma once
#include "ascendc/host_api/tiling/template_argument.h"

#define SCALE_TPL_MODE_BITS 2

ASCENDC_TPL_ARGS_DECL(ScaleTpl,
    ASCENDC_TPL_UINT_DECL(mode, SCALE_TPL_MODE_BITS, ASCENDC_TPL_UI_MIX, 1, 1, 2, 7),
    ASCENDC_TPL_BOOL_DECL(negate, 0, 1));

ASCENDC_TPL_SEL(
    ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_KERNEL_TYPE_SEL(ASCENDC_TPL_AIV_ONLY),
        ASCENDC_TPL_UINT_SEL(mode, ASCENDC_TPL_UI_LIST, 1, 7), ASCENDC_TPL_BOOL_SEL(negate, 0, 1)),
    ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_KERNEL_TYPE_SEL(ASCENDC_TPL_AIV_ONLY),
        ASCENDC_TPL_UINT_SEL(mode, ASCENDC_TPL_UI_RANGE, 1, 2, 2), ASCENDC_TPL_BOOL_SEL(negate, 0)), );
