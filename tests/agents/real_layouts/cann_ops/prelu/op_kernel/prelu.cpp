#include "kernel_operator.h"
#include "prelu_impl.h"

extern "C" __global__ __aicore__ void prelu(GM_ADDR x, GM_ADDR weight, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(t, tiling);
  KernelPrelu op;
  op.Init(x, weight, y, t.planes, t.inner, t.channels, t.perCore, t.tile);
  op.Process();
}
