#include "kernel_operator.h"
#include "relu_impl.h"

extern "C" __global__ __aicore__ void relu(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(t, tiling);
  KernelRelu op;
  op.Init(x, y, t.total, t.perCore, t.tile);
  op.Process();
}
