#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelSwiglu {
 public:
  __aicore__ inline KernelSwiglu() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t cols, uint32_t formerNum,
                              uint32_t formerRows, uint32_t tailRows, uint32_t rowsPerTile) {
    const uint32_t block = GetBlockIdx();
    rowStart = block < formerNum ? block * formerRows : formerNum * formerRows + (block - formerNum) * tailRows;
    blockRows = block < formerNum ? formerRows : tailRows;
    this->cols = cols;
    this->rowsPerTile = rowsPerTile;
    colsPad = (cols + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T));
    xGm.SetGlobalBuffer((__gm__ T*)x + static_cast<uint64_t>(rowStart) * cols * 2, static_cast<uint64_t>(blockRows) * cols * 2);
    yGm.SetGlobalBuffer((__gm__ T*)y + static_cast<uint64_t>(rowStart) * cols, static_cast<uint64_t>(blockRows) * cols);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, rowsPerTile * colsPad * 2 * sizeof(T));
    pipe.InitBuffer(outQueueY, BUFFER_NUM, rowsPerTile * colsPad * sizeof(T));
    pipe.InitBuffer(tmpBuf0, rowsPerTile * colsPad * sizeof(T));
  }
  __aicore__ inline void Process() {
    for (uint32_t r = 0; r < blockRows; ++r) {
      CopyIn(r, 1);
      Compute(r, 1);
      CopyOut(r, 1);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t row, uint32_t n) {
    LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
    DataCopyPadExtParams<T> pad{false, 0, 0, 0};
    const uint64_t src = static_cast<uint64_t>(row) * cols * 2;
    DataCopyExtParams params{1, static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0};
    DataCopyPad(xLocal, xGm[src], params, pad);
    DataCopyPad(xLocal[colsPad], xGm[src + cols], params, pad);
    inQueueX.EnQue(xLocal);
  }
  __aicore__ inline void Compute(uint32_t row, uint32_t rowsHere) {
    LocalTensor<T> xAll = inQueueX.DeQue<T>();
    LocalTensor<T> yAll = outQueueY.AllocTensor<T>();
    LocalTensor<T> tAll0 = tmpBuf0.Get<T>();
    const uint32_t n = colsPad;  // padded lanes are computed too and never written back
    for (uint32_t r = 0; r < rowsHere; ++r) {
      LocalTensor<T> x = xAll[r * colsPad];
      LocalTensor<T> a = xAll;
      LocalTensor<T> b = xAll[colsPad];
      LocalTensor<T> y = yAll[r * colsPad];
      LocalTensor<T> t0 = tAll0[r * colsPad];
      Muls(t0, a, static_cast<T>(-1.0f), n);
      Exp(t0, t0, n);
      Adds(t0, t0, static_cast<T>(1.0f), n);
      Div(y, a, t0, n);
      Mul(y, y, b, n);
    }
    outQueueY.EnQue<T>(yAll);
    inQueueX.FreeTensor(xAll);
  }
  __aicore__ inline void CopyOut(uint32_t row, uint32_t n) {
    LocalTensor<T> yLocal = outQueueY.DeQue<T>();
    DataCopyPad(yGm[static_cast<uint64_t>(row) * cols], yLocal,
                DataCopyExtParams{static_cast<uint16_t>(n), static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0});
    outQueueY.FreeTensor(yLocal);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueY;
  TBuf<QuePosition::VECCALC> tmpBuf0;
  GlobalTensor<T> xGm;
  GlobalTensor<T> yGm;
  uint32_t rowStart, blockRows, cols, colsPad, rowsPerTile;
};

extern "C" __global__ __aicore__ void swiglu(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  KernelSwiglu<DTYPE_Y> op;
  op.Init(x, y, tilingData.rows, tilingData.cols, tilingData.formerNum, tilingData.formerRows,
          tilingData.tailRows, tilingData.rowsPerTile);
  op.Process();
}
