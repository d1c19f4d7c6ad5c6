// An add of our own computed on the scalar unit, as some competition kernels compute theirs: each
// element converted to float, added and converted back, one element at a time.
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
class KernelAddV2 {
 public:
  __aicore__ inline void Init(GM_ADDR x1, GM_ADDR x2, GM_ADDR y, uint32_t total, uint32_t perCore,
                              uint32_t tileLength) {
    const uint32_t start = GetBlockIdx() * perCore;
    count = total - start < perCore ? total - start : perCore;
    this->tileLength = tileLength;
    x1Gm.SetGlobalBuffer((__gm__ T*)x1 + start, count);
    x2Gm.SetGlobalBuffer((__gm__ T*)x2 + start, count);
    yGm.SetGlobalBuffer((__gm__ T*)y + start, count);
    pipe.InitBuffer(inQueue1, 1, tileLength * sizeof(T));
    pipe.InitBuffer(inQueue2, 1, tileLength * sizeof(T));
    pipe.InitBuffer(outQueue, 1, tileLength * sizeof(T));
    pipe.InitBuffer(aBuf, tileLength * sizeof(float));
    pipe.InitBuffer(bBuf, tileLength * sizeof(float));
    pipe.InitBuffer(sumBuf, tileLength * sizeof(float));
  }

  __aicore__ inline void Process() {
    for (uint32_t offset = 0; offset < count; offset += tileLength) {
      const uint32_t n = count - offset < tileLength ? count - offset : tileLength;
      const DataCopyExtParams copy{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
      LocalTensor<T> x1Local = inQueue1.AllocTensor<T>();
      LocalTensor<T> x2Local = inQueue2.AllocTensor<T>();
      DataCopyPad(x1Local, x1Gm[offset], copy, {false, 0, 0, 0});
      DataCopyPad(x2Local, x2Gm[offset], copy, {false, 0, 0, 0});
      inQueue1.EnQue(x1Local);
      inQueue2.EnQue(x2Local);
      Compute(n);
      LocalTensor<T> yLocal = outQueue.DeQue<T>();
      DataCopyPad(yGm[offset], yLocal, copy);
      outQueue.FreeTensor(yLocal);
    }
  }

 private:
  __aicore__ inline void Compute(uint32_t n) {
    LocalTensor<T> x1Local = inQueue1.DeQue<T>();
    LocalTensor<T> x2Local = inQueue2.DeQue<T>();
    LocalTensor<T> yLocal = outQueue.AllocTensor<T>();
    LocalTensor<float> a = aBuf.Get<float>();
    LocalTensor<float> b = bBuf.Get<float>();
    LocalTensor<float> sum = sumBuf.Get<float>();
    for (uint32_t i = 0; i < n; ++i) {
      a.SetValue(i, static_cast<float>(x1Local.GetValue(i)));
    }
    for (uint32_t i = 0; i < n; ++i) {
      float value = x2Local.GetValue(i);
      b.SetValue(i, value);
    }
    for (uint32_t i = 0; i < n; i++) {
      sum.SetValue(i, a.GetValue(i) + b.GetValue(i));
    }
    for (uint32_t i = 0; i < n; ++i) {
      yLocal.SetValue(i, static_cast<T>(sum.GetValue(i)));
    }
    outQueue.EnQue(yLocal);
    inQueue1.FreeTensor(x1Local);
    inQueue2.FreeTensor(x2Local);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, 1> inQueue1, inQueue2;
  TQue<QuePosition::VECOUT, 1> outQueue;
  TBuf<TPosition::VECCALC> aBuf, bBuf, sumBuf;
  GlobalTensor<T> x1Gm, x2Gm, yGm;
  uint32_t count = 0;
  uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void add_v2(GM_ADDR x1, GM_ADDR x2, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(t, tiling);
  KernelAddV2<DTYPE_X1> op;
  op.Init(x1, x2, y, t.total, t.perCore, t.tileLength);
  op.Process();
}
