#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelCrossEntropy {
 public:
  __aicore__ inline KernelCrossEntropy() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR target, GM_ADDR loss, uint32_t cols, uint32_t formerNum, uint32_t formerRows,
                              uint32_t tailRows, uint32_t outChunk) {
    const uint32_t block = GetBlockIdx();
    const uint32_t rowStart = block < formerNum ? block * formerRows : formerNum * formerRows + (block - formerNum) * tailRows;
    blockRows = block < formerNum ? formerRows : tailRows;
    this->cols = cols;
    this->outChunk = outChunk;
    const uint32_t colsPad = (cols + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T));
    const uint32_t colsPadF = (cols + 7) / 8 * 8;
    xGm.SetGlobalBuffer((__gm__ T*)x + static_cast<uint64_t>(rowStart) * cols, static_cast<uint64_t>(blockRows) * cols);
    targetGm.SetGlobalBuffer((__gm__ int32_t*)target + rowStart, blockRows);
    lossGm.SetGlobalBuffer((__gm__ T*)loss + rowStart, blockRows);
    pipe.InitBuffer(inQueue, BUFFER_NUM, colsPad * sizeof(T));
    pipe.InitBuffer(targetBuf, outChunk * sizeof(int32_t));
    pipe.InitBuffer(outQueue, BUFFER_NUM, outChunk * sizeof(T));
    pipe.InitBuffer(calcBuf, colsPadF * sizeof(float));
    pipe.InitBuffer(expBuf, colsPadF * sizeof(float));
    pipe.InitBuffer(workBuf, colsPadF * sizeof(float));
    pipe.InitBuffer(statBuf, 32);
  }
  __aicore__ inline void Process() {
    // Each row gives one loss: targets come in and losses go out a chunk at a time.
    for (uint32_t first = 0; first < blockRows; first += outChunk) {
      const uint32_t n = blockRows - first < outChunk ? blockRows - first : outChunk;
      // Targets are read by the scalar unit: the copy-in is ordered by an MTE2 -> S flag.
      LocalTensor<int32_t> targets = targetBuf.Get<int32_t>();
      DataCopyPad(targets, targetGm[first], DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(int32_t)), 0, 0, 0},
                  DataCopyPadExtParams<int32_t>{false, 0, 0, 0});
      SetFlag<HardEvent::MTE2_S>(EVENT_ID0);
      WaitFlag<HardEvent::MTE2_S>(EVENT_ID0);
      LocalTensor<T> loss = outQueue.AllocTensor<T>();
      for (uint32_t k = 0; k < n; ++k) {
        CopyIn(first + k);
        loss.SetValue(k, static_cast<T>(RowLoss(static_cast<uint32_t>(targets.GetValue(k)))));
      }
      outQueue.EnQue(loss);
      CopyOut(first, n);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t row) {
    LocalTensor<T> x = inQueue.AllocTensor<T>();
    DataCopyPad(x, xGm[static_cast<uint64_t>(row) * cols], DataCopyExtParams{1, static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0},
                DataCopyPadExtParams<T>{false, 0, 0, 0});
    inQueue.EnQue(x);
  }
  // logsumexp of the row minus the target's logit, in float (fp16 rows are cast up first).
  __aicore__ inline float RowLoss(uint32_t target) {
    LocalTensor<T> x = inQueue.DeQue<T>();
    LocalTensor<float> expRow = expBuf.Get<float>();
    LocalTensor<float> work = workBuf.Get<float>();
    LocalTensor<float> stat = statBuf.Get<float>();
    LocalTensor<float> src;
    if constexpr (sizeof(T) == sizeof(float)) {
      src = x.template ReinterpretCast<float>();
    } else {
      src = calcBuf.Get<float>();
      Cast(src, x, RoundMode::CAST_NONE, cols);
    }
    ReduceMax(stat, src, work, cols);
    const float rowMax = stat.GetValue(0);
    Adds(expRow, src, -rowMax, cols);
    Exp(expRow, expRow, cols);
    ReduceSum(stat, expRow, work, cols);
    Ln(stat, stat, 1);
    const float loss = rowMax + stat.GetValue(0) - src.GetValue(target);
    inQueue.FreeTensor(x);
    return loss;
  }
  __aicore__ inline void CopyOut(uint32_t first, uint32_t n) {
    LocalTensor<T> loss = outQueue.DeQue<T>();
    DataCopyPad(lossGm[first], loss, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0});
    outQueue.FreeTensor(loss);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
  TBuf<QuePosition::VECCALC> targetBuf, calcBuf, expBuf, workBuf, statBuf;
  GlobalTensor<T> xGm, lossGm;
  GlobalTensor<int32_t> targetGm;
  uint32_t blockRows, cols, outChunk;
};

extern "C" __global__ __aicore__ void cross_entropy(GM_ADDR x, GM_ADDR target, GM_ADDR loss, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  KernelCrossEntropy<DTYPE_LOSS> op;
  op.Init(x, target, loss, tilingData.cols, tilingData.formerNum, tilingData.formerRows, tilingData.tailRows, tilingData.outChunk);
  op.Process();
}
