// Single-buffered queues written with literal depths, as many competition kernels are.
#include "kernel_operator.h"
using namespace AscendC;

class KernelNeg {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t total, uint32_t perCore, uint32_t tileLength) {
    const uint32_t start = GetBlockIdx() * perCore;
    count = total - start < perCore ? total - start : perCore;
    this->tileLength = tileLength;
    xGm.SetGlobalBuffer((__gm__ float*)x + start, count);
    yGm.SetGlobalBuffer((__gm__ float*)y + start, count);
    pipe.InitBuffer(inQueue, 1, tileLength * sizeof(float));
    pipe.InitBuffer(outQueue, 1, tileLength * sizeof(float));
  }

  __aicore__ inline void Process() {
    for (uint32_t offset = 0; offset < count; offset += tileLength) {
      const uint32_t n = count - offset < tileLength ? count - offset : tileLength;
      LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
      DataCopyPad(xLocal, xGm[offset], {1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0}, {false, 0, 0, 0});
      inQueue.EnQue(xLocal);
      xLocal = inQueue.DeQue<float>();
      LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
      Muls(yLocal, xLocal, -1.0f, n);
      outQueue.EnQue(yLocal);
      inQueue.FreeTensor(xLocal);
      yLocal = outQueue.DeQue<float>();
      DataCopyPad(yGm[offset], yLocal, {1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0});
      outQueue.FreeTensor(yLocal);
    }
  }

 private:
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> inQueue;
  TQue<QuePosition::VECOUT, 1> outQueue;
  GlobalTensor<float> xGm;
  GlobalTensor<float> yGm;
  uint32_t count = 0;
  uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void neg(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(t, tiling);
  KernelNeg op;
  op.Init(x, y, t.total, t.perCore, t.tileLength);
  op.Process();
}
