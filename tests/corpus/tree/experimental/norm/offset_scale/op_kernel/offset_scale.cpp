#include "kernel_operator.h"
#include "../../../../norm/scale_rows/op_kernel/scale_base.h"

extern "C" __global__ __aicore__ void offset_scale(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(t, tiling);
  ScaleBase().Run(x, y, t.total, t.perCore, t.scale, t.offset);
}
