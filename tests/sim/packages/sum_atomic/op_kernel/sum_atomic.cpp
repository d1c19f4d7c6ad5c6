#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void sum_atomic(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
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
  Duplicate(acc, 0.0f, 16);
  for (uint32_t done = begin; done < end; done += 4096) {
    uint32_t len = end - done < 4096 ? end - done : 4096;
    LocalTensor<float> in = inQ.AllocTensor<float>();
    DataCopyPad(in, xGm[done], DataCopyExtParams{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0},
                DataCopyPadExtParams<float>{false, 0, 0, 0});
    inQ.EnQue(in);
    in = inQ.DeQue<float>();
    ReduceSum(part, in, work, len);
    PipeBarrier<PIPE_V>();
    Add(acc, acc, part, 1);
    inQ.FreeTensor(in);
  }

  GlobalTensor<float> yGm;
  yGm.SetGlobalBuffer((__gm__ float*)y, 1);
  if (b == 0) {
    yGm.SetValue(0, 0.0f);
    DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(yGm);
  }
  SyncAll();
  SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
  WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
  SetAtomicAdd<float>();
  DataCopyPad(yGm, acc, DataCopyExtParams{1, sizeof(float), 0, 0, 0});
  SetAtomicNone();
}
