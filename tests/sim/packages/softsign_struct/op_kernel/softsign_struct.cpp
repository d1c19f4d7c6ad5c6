#include "kernel_operator.h"
#include "softsign_struct_tiling.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void softsign_struct(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
  REGISTER_TILING_DEFAULT(SoftsignStructTilingData);
  GET_TILING_DATA(t, tiling);
  using T = DTYPE_X;
  const uint32_t offset = GetBlockIdx() * t.perCore;
  const uint32_t length = offset + t.perCore <= t.total ? t.perCore : t.total - offset;
  GlobalTensor<T> xGm, yGm;
  xGm.SetGlobalBuffer((__gm__ T*)x + offset, length);
  yGm.SetGlobalBuffer((__gm__ T*)y + offset, length);
  TPipe pipe;
  TQue<TPosition::VECIN, 2> inQ;
  TQue<TPosition::VECOUT, 2> outQ;
  TBuf<> denom;
  pipe.InitBuffer(inQ, 2, t.tile * sizeof(T));
  pipe.InitBuffer(outQ, 2, t.tile * sizeof(T));
  pipe.InitBuffer(denom, t.tile * sizeof(T));
  for (uint32_t done = 0; done < length; done += t.tile) {
    const uint32_t len = length - done < t.tile ? length - done : t.tile;
    const DataCopyExtParams rows{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
    LocalTensor<T> in = inQ.AllocTensor<T>();
    DataCopyPad(in, xGm[done], rows, DataCopyPadExtParams<T>{false, 0, 0, 0});
    inQ.EnQue(in);
    in = inQ.DeQue<T>();
    LocalTensor<T> out = outQ.AllocTensor<T>(), d = denom.Get<T>();
    Abs(d, in, len);
    Adds(d, d, static_cast<T>(1), len);
    Div(out, in, d, len);
    outQ.EnQue(out);
    inQ.FreeTensor(in);
    out = outQ.DeQue<T>();
    DataCopyPad(yGm[done], out, rows);
    outQ.FreeTensor(out);
  }
}
