#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelReduceSumLast {
 public:
  __aicore__ inline KernelReduceSumLast() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t cols, uint32_t formerNum, uint32_t formerRows, uint32_t tailRows,
                              uint32_t outChunk) {
    const uint32_t block = GetBlockIdx();
    const uint32_t rowStart = block < formerNum ? block * formerRows : formerNum * formerRows + (block - formerNum) * tailRows;
    blockRows = block < formerNum ? formerRows : tailRows;
    this->cols = cols;
    this->outChunk = outChunk;
    const uint32_t colsPad = (cols + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T));
    const uint32_t colsPadF = (cols + 7) / 8 * 8;
    xGm.SetGlobalBuffer((__gm__ T*)x + static_cast<uint64_t>(rowStart) * cols, static_cast<uint64_t>(blockRows) * cols);
    yGm.SetGlobalBuffer((__gm__ T*)y + rowStart, blockRows);
    pipe.InitBuffer(inQueue, BUFFER_NUM, colsPad * sizeof(T));
    pipe.InitBuffer(outQueue, BUFFER_NUM, outChunk * sizeof(T));
    pipe.InitBuffer(calcBuf, colsPadF * sizeof(float));
    pipe.InitBuffer(workBuf, colsPadF * sizeof(float));
    pipe.InitBuffer(statBuf, 32);
  }
  __aicore__ inline void Process() {
    // Each row gives one value: results are gathered in the UB and written a chunk at a time.
    for (uint32_t first = 0; first < blockRows; first += outChunk) {
      const uint32_t n = blockRows - first < outChunk ? blockRows - first : outChunk;
      LocalTensor<T> y = outQueue.AllocTensor<T>();
      for (uint32_t k = 0; k < n; ++k) {
        CopyIn(first + k);
        y.SetValue(k, static_cast<T>(ReduceRow()));
      }
      outQueue.EnQue(y);
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
  // The row's sum, accumulated in float (fp16 rows are cast up first).
  __aicore__ inline float ReduceRow() {
    LocalTensor<T> x = inQueue.DeQue<T>();
    LocalTensor<float> stat = statBuf.Get<float>();
    LocalTensor<float> src;
    if constexpr (sizeof(T) == sizeof(float)) {
      src = x.template ReinterpretCast<float>();
    } else {
      src = calcBuf.Get<float>();
      Cast(src, x, RoundMode::CAST_NONE, cols);
    }
    ReduceSum(stat, src, workBuf.Get<float>(), cols);
    inQueue.FreeTensor(x);
    return stat.GetValue(0);
  }
  __aicore__ inline void CopyOut(uint32_t first, uint32_t n) {
    LocalTensor<T> y = outQueue.DeQue<T>();
    DataCopyPad(yGm[first], y, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0});
    outQueue.FreeTensor(y);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
  TBuf<QuePosition::VECCALC> calcBuf, workBuf, statBuf;
  GlobalTensor<T> xGm, yGm;
  uint32_t blockRows, cols, outChunk;
};

extern "C" __global__ __aicore__ void reduce_sum_last(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  KernelReduceSumLast<DTYPE_Y> op;
  op.Init(x, y, tilingData.cols, tilingData.formerNum, tilingData.formerRows, tilingData.tailRows, tilingData.outChunk);
  op.Process();
}
