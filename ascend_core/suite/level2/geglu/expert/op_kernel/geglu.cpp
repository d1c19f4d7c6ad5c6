#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelGeglu {
 public:
  __aicore__ inline KernelGeglu() {}
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
    for (uint32_t done = 0; done < blockRows; done += rowsPerTile) {
      const uint32_t n = blockRows - done < rowsPerTile ? blockRows - done : rowsPerTile;
      CopyIn(done, n);
      Compute(done, n);
      CopyOut(done, n);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t row, uint32_t n) {
    LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
    DataCopyPadExtParams<T> pad{false, 0, 0, 0};
    // n rows in one instruction; each lands on its own 32 B-aligned UB row.
    const uint64_t src = static_cast<uint64_t>(row) * cols * 2;
    DataCopyExtParams params{static_cast<uint16_t>(n), static_cast<uint32_t>(cols * sizeof(T)), static_cast<uint32_t>(cols * sizeof(T)), 0, 0};
    DataCopyPad(xLocal, xGm[src], params, pad);
    DataCopyPad(xLocal[rowsPerTile * colsPad], xGm[src + cols], params, pad);
    inQueueX.EnQue(xLocal);
  }
  __aicore__ inline void Compute(uint32_t row, uint32_t rowsHere) {
    LocalTensor<T> xAll = inQueueX.DeQue<T>();
    LocalTensor<T> yAll = outQueueY.AllocTensor<T>();
    LocalTensor<T> tAll0 = tmpBuf0.Get<T>();
    const uint32_t n = colsPad;  // padded lanes are computed too and never written back
    // The a and b halves of the tile are each contiguous in the UB, so every instruction covers all rows at once.
    const uint32_t tileN = rowsHere * colsPad;
    LocalTensor<T> a = xAll;
    LocalTensor<T> b = xAll[rowsPerTile * colsPad];
    Mul(tAll0, a, a, tileN);
    Mul(tAll0, tAll0, a, tileN);
    Muls(tAll0, tAll0, static_cast<T>(0.044715f), tileN);
    Add(tAll0, tAll0, a, tileN);
    Muls(tAll0, tAll0, static_cast<T>(-1.5957691216057308f), tileN);
    Exp(tAll0, tAll0, tileN);
    Adds(tAll0, tAll0, static_cast<T>(1.0f), tileN);
    Div(yAll, a, tAll0, tileN);
    Mul(yAll, yAll, b, tileN);
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

extern "C" __global__ __aicore__ void geglu(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  KernelGeglu<DTYPE_Y> op;
  op.Init(x, y, tilingData.rows, tilingData.cols, tilingData.formerNum, tilingData.formerRows,
          tilingData.tailRows, tilingData.rowsPerTile);
  op.Process();
}
