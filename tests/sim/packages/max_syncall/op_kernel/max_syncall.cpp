#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void max_syncall(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
  GET_TILING_DATA(t, tiling);
  const uint32_t b = GetBlockIdx();
  const uint32_t begin = t.blockOffsets[b], end = t.blockOffsets[b + 1];
  GlobalTensor<float> xGm;
  xGm.SetGlobalBuffer((__gm__ float*)x);
  TPipe pipe;
  TQue<QuePosition::VECIN, 2> inQ;
  TBuf<> accBuf, workBuf;
  pipe.InitBuffer(inQ, 2, 4096 * sizeof(float));
  pipe.InitBuffer(accBuf, 64);
  pipe.InitBuffer(workBuf, 4096 * sizeof(float));
  LocalTensor<float> acc = accBuf.Get<float>(), part = acc[8], work = workBuf.Get<float>();
  Duplicate(acc, -3.0e38f, 16);
  for (uint32_t done = begin; done < end; done += 4096) {
    uint32_t len = end - done < 4096 ? end - done : 4096;
    LocalTensor<float> in = inQ.AllocTensor<float>();
    DataCopyPad(in, xGm[done], DataCopyExtParams{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0},
                DataCopyPadExtParams<float>{false, 0, 0, 0});
    inQ.EnQue(in);
    in = inQ.DeQue<float>();
    ReduceMax(part, in, work, len);
    PipeBarrier<PIPE_V>();
    Max(acc, acc, part, 1);
    inQ.FreeTensor(in);
  }

  GlobalTensor<float> ws;
  ws.SetGlobalBuffer((__gm__ float*)GetUserWorkspace(workspace), 64 * 8);
  SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
  WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
  DataCopy(ws[b * 8], acc, 8);
  SyncAll();
  if (b == 0) {
    const uint32_t n = GetBlockNum();
    LocalTensor<float> all = workBuf.Get<float>();
    DataCopy(all, ws, n * 8);
    SetFlag<HardEvent::MTE2_S>(EVENT_ID1);
    WaitFlag<HardEvent::MTE2_S>(EVENT_ID1);
    float best = all.GetValue(0);
    for (uint32_t i = 1; i < n; ++i) best = all.GetValue(i * 8) > best ? all.GetValue(i * 8) : best;
    GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float*)y, 1);
    yGm.SetValue(0, best);
  }
}
