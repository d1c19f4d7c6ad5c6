// Rows are moved one DataCopyPad each, into UB rows padded to 32 bytes, as row-wise competition
// kernels often do; the vector work runs once over the tile.
#include "kernel_operator.h"
using namespace AscendC;

class KernelRelu6 {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t cols, uint32_t rowsPerCore,
                              uint32_t tileRows) {
    const uint32_t first = GetBlockIdx() * rowsPerCore;
    rowCount = rows - first < rowsPerCore ? rows - first : rowsPerCore;
    this->cols = cols;
    this->tileRows = tileRows;
    colsAligned = (cols + 7) / 8 * 8;
    xGm.SetGlobalBuffer((__gm__ float*)x + static_cast<uint64_t>(first) * cols, static_cast<uint64_t>(rowCount) * cols);
    yGm.SetGlobalBuffer((__gm__ float*)y + static_cast<uint64_t>(first) * cols, static_cast<uint64_t>(rowCount) * cols);
    pipe.InitBuffer(inQueue, 1, tileRows * colsAligned * sizeof(float));
    pipe.InitBuffer(outQueue, 1, tileRows * colsAligned * sizeof(float));
  }

  __aicore__ inline void Process() {
    for (uint32_t row = 0; row < rowCount; row += tileRows) {
      const uint32_t n = rowCount - row < tileRows ? rowCount - row : tileRows;
      const uint64_t offset = static_cast<uint64_t>(row) * cols;
      LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
      for (uint32_t r = 0; r < n; ++r) {
        DataCopyPad(xLocal[r * colsAligned], xGm[offset + r * cols],
                    {1, static_cast<uint32_t>(cols * sizeof(float)), 0, 0, 0}, {false, 0, 0, 0});
      }
      inQueue.EnQue(xLocal);
      xLocal = inQueue.DeQue<float>();
      LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
      Maxs(yLocal, xLocal, 0.0f, n * colsAligned);
      Mins(yLocal, yLocal, 6.0f, n * colsAligned);
      outQueue.EnQue(yLocal);
      inQueue.FreeTensor(xLocal);
      yLocal = outQueue.DeQue<float>();
      for (uint32_t r = 0; r < n; ++r) {
        DataCopyPad(yGm[offset + r * cols], yLocal[r * colsAligned],
                    {1, static_cast<uint32_t>(cols * sizeof(float)), 0, 0, 0});
      }
      outQueue.FreeTensor(yLocal);
    }
  }

 private:
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> inQueue;
  TQue<QuePosition::VECOUT, 1> outQueue;
  GlobalTensor<float> xGm;
  GlobalTensor<float> yGm;
  uint32_t rowCount = 0;
  uint32_t cols = 0;
  uint32_t colsAligned = 0;
  uint32_t tileRows = 0;
};

extern "C" __global__ __aicore__ void relu6(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(t, tiling);
  KernelRelu6 op;
  op.Init(x, y, t.rows, t.cols, t.rowsPerCore, t.tileRows);
  op.Process();
}
