#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// loss = max + ln(sum(exp(x - max))) - x[target] per row, in fp32; losses are gathered in UB and
// written outChunk rows at a time.
template <typename T>
class KernelCrossEntropyLoss {
 public:
  __aicore__ inline KernelCrossEntropyLoss() {}
  __aicore__ inline void Init(GM_ADDR logits, GM_ADDR target, GM_ADDR loss, uint32_t classes, uint32_t formerNum,
                              uint32_t formerRows, uint32_t tailRows, uint32_t outChunk, int32_t ignoreIndex) {
    const uint32_t block = GetBlockIdx();
    const uint32_t first = block < formerNum ? block * formerRows : formerNum * formerRows + (block - formerNum) * tailRows;
    blockRows = block < formerNum ? formerRows : tailRows;
    this->classes = classes;
    this->outChunk = outChunk;
    this->ignoreIndex = ignoreIndex;
    rowPad = (classes + 15) / 16 * 16;
    xGm.SetGlobalBuffer((__gm__ T*)logits + static_cast<uint64_t>(first) * classes, static_cast<uint64_t>(blockRows) * classes);
    targetGm.SetGlobalBuffer((__gm__ int32_t*)target + first, blockRows);
    lossGm.SetGlobalBuffer((__gm__ T*)loss + first, blockRows);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, rowPad * sizeof(T));
    pipe.InitBuffer(outQueueLoss, BUFFER_NUM, outChunk * sizeof(T));
    pipe.InitBuffer(xfBuf, rowPad * sizeof(float));
    pipe.InitBuffer(workBuf, rowPad * sizeof(float));
    pipe.InitBuffer(redBuf, 32);
  }
  __aicore__ inline void Process() {
    for (uint32_t done = 0; done < blockRows; done += outChunk) {
      const uint32_t n = blockRows - done < outChunk ? blockRows - done : outChunk;
      LocalTensor<T> losses = outQueueLoss.AllocTensor<T>();
      for (uint32_t r = 0; r < n; ++r) {
        CopyIn(done + r);
        losses.SetValue(r, static_cast<T>(RowLoss(targetGm.GetValue(done + r))));
      }
      outQueueLoss.EnQue(losses);
      CopyOut(done, n);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t r) {
    LocalTensor<T> x = inQueueX.AllocTensor<T>();
    DataCopyPad(x, xGm[static_cast<uint64_t>(r) * classes], DataCopyExtParams{1, static_cast<uint32_t>(classes * sizeof(T)), 0, 0, 0},
                DataCopyPadExtParams<T>{false, 0, 0, 0});
    inQueueX.EnQue(x);
  }
  __aicore__ inline float RowLoss(int32_t target) {
    LocalTensor<T> x = inQueueX.DeQue<T>();
    LocalTensor<float> xf = xfBuf.Get<float>();
    LocalTensor<float> work = workBuf.Get<float>();
    LocalTensor<float> red = redBuf.Get<float>();
    if constexpr (sizeof(T) == sizeof(float)) {
      Adds(xf, x, 0.0f, classes);
    } else {
      Cast(xf, x, RoundMode::CAST_NONE, classes);
    }
    inQueueX.FreeTensor(x);
    if (target == ignoreIndex || target < 0 || target >= static_cast<int32_t>(classes)) return 0.0f;
    const float picked = xf.GetValue(target);
    ReduceMax(red, xf, work, classes);
    const float rowMax = red.GetValue(0);
    Adds(xf, xf, -rowMax, classes);
    Exp(xf, xf, classes);
    ReduceSum(red, xf, work, classes);
    Ln(red, red, 1);
    return rowMax + red.GetValue(0) - picked;
  }
  __aicore__ inline void CopyOut(uint32_t first, uint32_t n) {
    LocalTensor<T> losses = outQueueLoss.DeQue<T>();
    DataCopyPad(lossGm[first], losses, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0});
    outQueueLoss.FreeTensor(losses);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueLoss;
  TBuf<QuePosition::VECCALC> xfBuf, workBuf, redBuf;
  GlobalTensor<T> xGm, lossGm;
  GlobalTensor<int32_t> targetGm;
  uint32_t blockRows, classes, rowPad, outChunk;
  int32_t ignoreIndex;
};

extern "C" __global__ __aicore__ void cross_entropy_loss(GM_ADDR logits, GM_ADDR target, GM_ADDR loss, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  KernelCrossEntropyLoss<DTYPE_LOSS> op;
  op.Init(logits, target, loss, tilingData.classes, tilingData.formerNum, tilingData.formerRows, tilingData.tailRows,
          tilingData.outChunk, tilingData.ignoreIndex);
  op.Process();
}
