#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
__aicore__ inline void Run(GM_ADDR x, GM_ADDR y, uint32_t total, float scale, bool doScale)
{
  GlobalTensor<T> xGm, yGm;
  xGm.SetGlobalBuffer((__gm__ T*)x, total);
  yGm.SetGlobalBuffer((__gm__ T*)y, total);
  TPipe pipe;
  TBuf<> buf;
  pipe.InitBuffer(buf, total * sizeof(T));
  LocalTensor<T> t = buf.Get<T>();
  const DataCopyExtParams row{1, static_cast<uint32_t>(total * sizeof(T)), 0, 0, 0};
  DataCopyPad(t, xGm, row, DataCopyPadExtParams<T>{false, 0, 0, 0});
  PipeBarrier<PIPE_ALL>();
  if (doScale) Muls(t, t, static_cast<T>(scale), total);
  PipeBarrier<PIPE_ALL>();
  DataCopyPad(yGm, t, row);
}

extern "C" __global__ __aicore__ void keyed_tiling(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
  if (TILING_KEY_IS(1)) {
    GET_TILING_DATA(t, tiling);  // KeyedTilingData
    Run<DTYPE_X>(x, y, t.total, 1.0f, false);
  } else if (TILING_KEY_IS(2)) {
    GET_TILING_DATA(t, tiling);  // KeyedScaleTilingData: "scale" exists only here
    Run<DTYPE_X>(x, y, t.total, t.scale, true);
  }
}
