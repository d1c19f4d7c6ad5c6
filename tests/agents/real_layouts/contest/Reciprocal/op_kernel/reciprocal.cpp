// Written for one core: the kernel never reads its block index, and Process walks every tile.
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
class KernelReciprocal {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t total, uint32_t tileLength) {
    this->total = total;
    this->tileLength = tileLength;
    tileNum = (total + tileLength - 1) / tileLength;
    xGm.SetGlobalBuffer((__gm__ T*)x, total);
    yGm.SetGlobalBuffer((__gm__ T*)y, total);
    pipe.InitBuffer(inQueue, 2, tileLength * sizeof(T));
    pipe.InitBuffer(outQueue, 2, tileLength * sizeof(T));
    pipe.InitBuffer(ones, tileLength * sizeof(T));
  }

  __aicore__ inline void Process() {
    for (uint32_t i = 0; i < tileNum; i++) {
      const uint32_t n = i == tileNum - 1 ? total - i * tileLength : tileLength;
      CopyIn(i, n);
      Compute(n);
      CopyOut(i, n);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t i, uint32_t n) {
    LocalTensor<T> xLocal = inQueue.AllocTensor<T>();
    DataCopyPad(xLocal, xGm[i * tileLength], {1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0}, {false, 0, 0, 0});
    inQueue.EnQue(xLocal);
  }
  __aicore__ inline void Compute(uint32_t n) {
    LocalTensor<T> xLocal = inQueue.DeQue<T>();
    LocalTensor<T> yLocal = outQueue.AllocTensor<T>();
    LocalTensor<T> one = ones.Get<T>();
    Duplicate(one, static_cast<T>(1), n);
    Div(yLocal, one, xLocal, n);
    outQueue.EnQue(yLocal);
    inQueue.FreeTensor(xLocal);
  }
  __aicore__ inline void CopyOut(uint32_t i, uint32_t n) {
    LocalTensor<T> yLocal = outQueue.DeQue<T>();
    DataCopyPad(yGm[i * tileLength], yLocal, {1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0});
    outQueue.FreeTensor(yLocal);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, 2> inQueue;
  TQue<QuePosition::VECOUT, 2> outQueue;
  TBuf<QuePosition::VECCALC> ones;
  GlobalTensor<T> xGm;
  GlobalTensor<T> yGm;
  uint32_t total = 0;
  uint32_t tileLength = 0;
  uint32_t tileNum = 0;
};

extern "C" __global__ __aicore__ void reciprocal(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(t, tiling);
  KernelReciprocal<DTYPE_X> op;
  op.Init(x, y, t.total, t.tileLength);
  op.Process();
}
