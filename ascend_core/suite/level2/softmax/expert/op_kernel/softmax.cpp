#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelSoftmax {
 public:
  __aicore__ inline KernelSoftmax() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const SoftmaxTilingData& tiling) {
    const uint32_t block = GetBlockIdx();
    const uint32_t rowStart = block < tiling.formerNum ? block * tiling.formerRows
                                                       : tiling.formerNum * tiling.formerRows + (block - tiling.formerNum) * tiling.tailRows;
    blockRows = block < tiling.formerNum ? tiling.formerRows : tiling.tailRows;
    cols = tiling.cols;
    rowsPerTile = tiling.rowsPerTile;
    softmaxTiling = tiling.softmaxTiling;
    colsPad = (cols + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T));
    xGm.SetGlobalBuffer((__gm__ T*)x + static_cast<uint64_t>(rowStart) * cols, static_cast<uint64_t>(blockRows) * cols);
    yGm.SetGlobalBuffer((__gm__ T*)y + static_cast<uint64_t>(rowStart) * cols, static_cast<uint64_t>(blockRows) * cols);
    pipe.InitBuffer(inQueue, BUFFER_NUM, rowsPerTile * colsPad * sizeof(T));
    pipe.InitBuffer(outQueue, BUFFER_NUM, rowsPerTile * colsPad * sizeof(T));
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
  }
  __aicore__ inline void Compute(uint32_t n) {
    LocalTensor<T> x = inQueue.DeQue<T>();
    LocalTensor<T> y = outQueue.AllocTensor<T>();
    LocalTensor<T> sum = statBuf.Get<T>();
    LocalTensor<T> max = sum[rowsPerTile * 32 / sizeof(T)];
    // One library call normalises the whole tile (statistics in float, padded lanes ignored).
    SoftMax<T>(y, sum, max, x, tmpBuf.Get<uint8_t>(), softmaxTiling, SoftMaxShapeInfo{n, colsPad, n, cols});
    outQueue.EnQue<T>(y);
    inQueue.FreeTensor(x);
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
  TBuf<QuePosition::VECCALC> statBuf, tmpBuf;
  GlobalTensor<T> xGm, yGm;
  SoftMaxTiling softmaxTiling;
  uint32_t blockRows, cols, colsPad, rowsPerTile;
};

extern "C" __global__ __aicore__ void softmax(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  KernelSoftmax<DTYPE_Y> op;
  op.Init(x, y, tilingData);
  op.Process();
}
