// From arch22/, "../inc/row_math.h" is not beside this file: it resolves through the kernel's
// directory on the include path, as in the build.
#pragma once
#include "kernel_operator.h"
#include "../inc/row_math.h"

__aicore__ inline void AffineRowsImpl(GM_ADDR x, GM_ADDR y, uint32_t n, float scale, float shift) {
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueue;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueue;
  AscendC::GlobalTensor<float> xGm, yGm;
  xGm.SetGlobalBuffer((__gm__ float*)x, n);
  yGm.SetGlobalBuffer((__gm__ float*)y, n);
  pipe.InitBuffer(inQueue, 1, n * sizeof(float));
  pipe.InitBuffer(outQueue, 1, n * sizeof(float));
  AscendC::LocalTensor<float> in = inQueue.AllocTensor<float>();
  AscendC::DataCopy(in, xGm, n);
  inQueue.EnQue(in);
  in = inQueue.DeQue<float>();
  AscendC::LocalTensor<float> out = outQueue.AllocTensor<float>();
  AscendC::Adds(out, in, 0.0f, n);
  AscendC::PipeBarrier<PIPE_V>();
  AffineInPlace(out, scale, shift, n);
  outQueue.EnQue(out);
  inQueue.FreeTensor(in);
  out = outQueue.DeQue<float>();
  AscendC::DataCopy(yGm, out, n);
  outQueue.FreeTensor(out);
}
