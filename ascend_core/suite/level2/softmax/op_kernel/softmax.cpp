#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelSoftmax {
 public:
  __aicore__ inline KernelSoftmax() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t cols, uint32_t formerNum, uint32_t formerRows, uint32_t tailRows,
                              uint32_t rowsPerTile) {
    const uint32_t block = GetBlockIdx();
    const uint32_t rowStart = block < formerNum ? block * formerRows : formerNum * formerRows + (block - formerNum) * tailRows;
    blockRows = block < formerNum ? formerRows : tailRows;
    this->cols = cols;
    this->rowsPerTile = rowsPerTile;
    colsPad = (cols + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T));
    const uint32_t colsPadF = (cols + 7) / 8 * 8;
    xGm.SetGlobalBuffer((__gm__ T*)x + static_cast<uint64_t>(rowStart) * cols, static_cast<uint64_t>(blockRows) * cols);
    yGm.SetGlobalBuffer((__gm__ T*)y + static_cast<uint64_t>(rowStart) * cols, static_cast<uint64_t>(blockRows) * cols);
    pipe.InitBuffer(inQueue, BUFFER_NUM, rowsPerTile * colsPad * sizeof(T));
    pipe.InitBuffer(outQueue, BUFFER_NUM, rowsPerTile * colsPad * sizeof(T));
    pipe.InitBuffer(calcBuf, colsPadF * sizeof(float));
    pipe.InitBuffer(workBuf, colsPadF * sizeof(float));
    pipe.InitBuffer(statBuf, 32);
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
  }
  __aicore__ inline void Compute(uint32_t n) {
    LocalTensor<T> x = inQueue.DeQue<T>();
    LocalTensor<T> y = outQueue.AllocTensor<T>();
    for (uint32_t k = 0; k < n; ++k) {
      ComputeRow(x[k * colsPad], y[k * colsPad]);
    }
    outQueue.EnQue<T>(y);
    inQueue.FreeTensor(x);
  }
  __aicore__ inline void ComputeRow(const LocalTensor<T>& x, const LocalTensor<T>& y) {
    LocalTensor<float> work = workBuf.Get<float>();
    LocalTensor<float> stat = statBuf.Get<float>();
    // Statistics and exponentials in float: fp16 rows are cast up first.
    LocalTensor<float> src, dst;
    if constexpr (sizeof(T) == sizeof(float)) {
      src = x.template ReinterpretCast<float>();
      dst = y.template ReinterpretCast<float>();
    } else {
      src = calcBuf.Get<float>();
      dst = src;
      Cast(src, x, RoundMode::CAST_NONE, cols);
    }
    ReduceMax(stat, src, work, cols);
    const float rowMax = stat.GetValue(0);
    Adds(dst, src, -rowMax, cols);
    Exp(dst, dst, cols);
    ReduceSum(stat, dst, work, cols);
    const float rowSum = stat.GetValue(0);
    Muls(dst, dst, 1.0f / rowSum, cols);
    if constexpr (sizeof(T) != sizeof(float)) {
      Cast(y, dst, RoundMode::CAST_RINT, cols);
    }
  }
  __aicore__ inline void CopyOut(uint32_t row, uint32_t n) {
    LocalTensor<T> y = outQueue.DeQue<T>();
    DataCopyPad(yGm[static_cast<uint64_t>(row) * cols], y,
                DataCopyExtParams{static_cast<uint16_t>(n), static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0});
    outQueue.FreeTensor(y);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
  TBuf<QuePosition::VECCALC> calcBuf, workBuf, statBuf;
  GlobalTensor<T> xGm, yGm;
  uint32_t blockRows, cols, colsPad, rowsPerTile;
};

extern "C" __global__ __aicore__ void softmax(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  KernelSoftmax<DTYPE_Y> op;
  op.Init(x, y, tilingData.cols, tilingData.formerNum, tilingData.formerRows, tilingData.tailRows, tilingData.rowsPerTile);
  op.Process();
}
