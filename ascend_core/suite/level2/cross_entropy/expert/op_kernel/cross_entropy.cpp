#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelCrossEntropy {
 public:
  __aicore__ inline KernelCrossEntropy() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR target, GM_ADDR loss, const CrossEntropyTilingData& tiling) {
    const uint32_t block = GetBlockIdx();
    const uint32_t rowStart = block < tiling.formerNum ? block * tiling.formerRows
                                                       : tiling.formerNum * tiling.formerRows + (block - tiling.formerNum) * tiling.tailRows;
    blockRows = block < tiling.formerNum ? tiling.formerRows : tiling.tailRows;
    cols = tiling.cols;
    rowsPerTile = tiling.rowsPerTile;
    softmaxTiling = tiling.softmaxTiling;
    colsPad = (cols + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T));
    xGm.SetGlobalBuffer((__gm__ T*)x + static_cast<uint64_t>(rowStart) * cols, static_cast<uint64_t>(blockRows) * cols);
    targetGm.SetGlobalBuffer((__gm__ int32_t*)target + rowStart, blockRows);
    lossGm.SetGlobalBuffer((__gm__ T*)loss + rowStart, blockRows);
    pipe.InitBuffer(inQueue, BUFFER_NUM, rowsPerTile * colsPad * sizeof(T));
    pipe.InitBuffer(outQueue, BUFFER_NUM, rowsPerTile * sizeof(T));
    pipe.InitBuffer(targetBuf, rowsPerTile * sizeof(int32_t));
    pipe.InitBuffer(logProbBuf, rowsPerTile * colsPad * sizeof(float));
    pipe.InitBuffer(statBuf, rowsPerTile * 64);
    pipe.InitBuffer(tmpBuf, tiling.tmpBytes);
  }
  __aicore__ inline void Process() {
    for (uint32_t r = 0; r < blockRows; r += rowsPerTile) {
      const uint32_t n = blockRows - r < rowsPerTile ? blockRows - r : rowsPerTile;
      CopyIn(r, n);
      Compute(n);
      CopyOut(r, n);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t row, uint32_t n) {
    LocalTensor<T> x = inQueue.AllocTensor<T>();
    DataCopyPad(x, xGm[static_cast<uint64_t>(row) * cols],
                DataCopyExtParams{static_cast<uint16_t>(n), static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0},
                DataCopyPadExtParams<T>{false, 0, 0, 0});
    inQueue.EnQue(x);
    // Targets are read by the scalar unit: their copy-in waits for the previous tile's reads
    // (S -> MTE2) and is waited for (MTE2 -> S).
    SetFlag<HardEvent::S_MTE2>(EVENT_ID1);
    WaitFlag<HardEvent::S_MTE2>(EVENT_ID1);
    DataCopyPad(targetBuf.Get<int32_t>(), targetGm[row], DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(int32_t)), 0, 0, 0},
                DataCopyPadExtParams<int32_t>{false, 0, 0, 0});
    SetFlag<HardEvent::MTE2_S>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_S>(EVENT_ID0);
  }
  // One LogSoftMax call gives the whole tile's log-probabilities (in float); each loss is then the
  // negated log-probability of the row's target.
  __aicore__ inline void Compute(uint32_t n) {
    LocalTensor<T> x = inQueue.DeQue<T>();
    LocalTensor<T> loss = outQueue.AllocTensor<T>();
    LocalTensor<float> logProb = logProbBuf.Get<float>();
    LocalTensor<float> sum = statBuf.Get<float>();
    LocalTensor<float> max = sum[rowsPerTile * 8];
    LocalTensor<float> src;
    if constexpr (sizeof(T) == sizeof(float)) {
      src = x.template ReinterpretCast<float>();
    } else {
      src = logProb;
      Cast(src, x, RoundMode::CAST_NONE, n * colsPad);
    }
    LogSoftMax<float>(logProb, sum, max, src, tmpBuf.Get<uint8_t>(), softmaxTiling, SoftMaxShapeInfo{n, colsPad, n, cols});
    LocalTensor<int32_t> targets = targetBuf.Get<int32_t>();
    for (uint32_t k = 0; k < n; ++k) {
      loss.SetValue(k, static_cast<T>(-logProb.GetValue(k * colsPad + static_cast<uint32_t>(targets.GetValue(k)))));
    }
    outQueue.EnQue<T>(loss);
    inQueue.FreeTensor(x);
  }
  __aicore__ inline void CopyOut(uint32_t row, uint32_t n) {
    LocalTensor<T> loss = outQueue.DeQue<T>();
    DataCopyPad(lossGm[row], loss, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0});
    outQueue.FreeTensor(loss);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
  TBuf<QuePosition::VECCALC> targetBuf, logProbBuf, statBuf, tmpBuf;
  GlobalTensor<T> xGm, lossGm;
  GlobalTensor<int32_t> targetGm;
  SoftMaxTiling softmaxTiling;
  uint32_t blockRows, cols, colsPad, rowsPerTile;
};

extern "C" __global__ __aicore__ void cross_entropy(GM_ADDR x, GM_ADDR target, GM_ADDR loss, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  KernelCrossEntropy<DTYPE_LOSS> op;
  op.Init(x, target, loss, tilingData);
  op.Process();
}
