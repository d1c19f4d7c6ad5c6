#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelL2Norm {
 public:
  __aicore__ inline KernelL2Norm() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const L2NormTilingData& tiling) {
    const uint32_t block = GetBlockIdx();
    const uint32_t rowStart = block < tiling.formerNum ? block * tiling.formerRows
                                                       : tiling.formerNum * tiling.formerRows + (block - tiling.formerNum) * tiling.tailRows;
    blockRows = block < tiling.formerNum ? tiling.formerRows : tiling.tailRows;
    cols = tiling.cols;
    eps = tiling.eps;
    rowsPerTile = tiling.rowsPerTile;
    colsPad = (cols + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T));
    xGm.SetGlobalBuffer((__gm__ T*)x + static_cast<uint64_t>(rowStart) * cols, static_cast<uint64_t>(blockRows) * cols);
    yGm.SetGlobalBuffer((__gm__ T*)y + static_cast<uint64_t>(rowStart) * cols, static_cast<uint64_t>(blockRows) * cols);
    pipe.InitBuffer(inQueue, BUFFER_NUM, rowsPerTile * colsPad * sizeof(T));
    pipe.InitBuffer(outQueue, BUFFER_NUM, rowsPerTile * colsPad * sizeof(T));
    pipe.InitBuffer(sqBuf, rowsPerTile * colsPad * sizeof(float));
    pipe.InitBuffer(normBuf, rowsPerTile * sizeof(float));
    pipe.InitBuffer(tmpBuf, tiling.tmpBytes);
    if constexpr (sizeof(T) != sizeof(float)) {
      pipe.InitBuffer(calcBuf, rowsPerTile * colsPad * sizeof(float));
    }
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
  // Squares, row sums, square roots and the eps clamp each run once over the whole tile; only the
  // final scaling is one instruction per row.
  __aicore__ inline void Compute(uint32_t n) {
    LocalTensor<T> x = inQueue.DeQue<T>();
    LocalTensor<T> y = outQueue.AllocTensor<T>();
    LocalTensor<float> sq = sqBuf.Get<float>();
    LocalTensor<float> norm = normBuf.Get<float>();
    const uint32_t count = n * colsPad;
    LocalTensor<float> src, dst;
    if constexpr (sizeof(T) == sizeof(float)) {
      src = x.template ReinterpretCast<float>();
      dst = y.template ReinterpretCast<float>();
    } else {
      src = calcBuf.Get<float>();
      dst = src;
      Cast(src, x, RoundMode::CAST_NONE, count);
    }
    Mul(sq, src, src, count);
    Sum(norm, sq, tmpBuf.Get<uint8_t>(), SumParams{n, colsPad, cols});
    Sqrt(norm, norm, n);
    Maxs(norm, norm, eps, n);
    for (uint32_t k = 0; k < n; ++k) {
      Muls(dst[k * colsPad], src[k * colsPad], 1.0f / norm.GetValue(k), cols);
    }
    if constexpr (sizeof(T) != sizeof(float)) {
      Cast(y, dst, RoundMode::CAST_RINT, count);
    }
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
  TBuf<QuePosition::VECCALC> sqBuf, normBuf, tmpBuf, calcBuf;
  GlobalTensor<T> xGm, yGm;
  uint32_t blockRows, cols, colsPad, rowsPerTile;
  float eps;
};

extern "C" __global__ __aicore__ void l2_norm(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  KernelL2Norm<DTYPE_Y> op;
  op.Init(x, y, tilingData);
  op.Process();
}
