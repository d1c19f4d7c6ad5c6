#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelLayerNorm {
 public:
  __aicore__ inline KernelLayerNorm() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, const LayerNormTilingData& tiling) {
    const uint32_t block = GetBlockIdx();
    const uint32_t rowStart = block < tiling.formerNum ? block * tiling.formerRows
                                                       : tiling.formerNum * tiling.formerRows + (block - tiling.formerNum) * tiling.tailRows;
    blockRows = block < tiling.formerNum ? tiling.formerRows : tiling.tailRows;
    cols = tiling.cols;
    eps = static_cast<T>(tiling.eps);
    rowsPerTile = tiling.rowsPerTile;
    layerNormTiling = tiling.layerNormTiling;
    colsPad = (cols + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T));
    xGm.SetGlobalBuffer((__gm__ T*)x + static_cast<uint64_t>(rowStart) * cols, static_cast<uint64_t>(blockRows) * cols);
    gammaGm.SetGlobalBuffer((__gm__ T*)gamma, cols);
    betaGm.SetGlobalBuffer((__gm__ T*)beta, cols);
    yGm.SetGlobalBuffer((__gm__ T*)y + static_cast<uint64_t>(rowStart) * cols, static_cast<uint64_t>(blockRows) * cols);
    pipe.InitBuffer(inQueue, BUFFER_NUM, rowsPerTile * colsPad * sizeof(T));
    pipe.InitBuffer(outQueue, BUFFER_NUM, rowsPerTile * colsPad * sizeof(T));
    pipe.InitBuffer(paramQueue, 1, colsPad * 2 * sizeof(T));
    pipe.InitBuffer(statBuf, (rowsPerTile * sizeof(T) + 31) / 32 * 32 * 2);
    pipe.InitBuffer(tmpBuf, tiling.tmpBytes);
  }
  __aicore__ inline void Process() {
    // gamma | beta are shared by every row: load them once.
    LocalTensor<T> params = paramQueue.AllocTensor<T>();
    const DataCopyExtParams copy{1, static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0};
    DataCopyPad(params, gammaGm, copy, DataCopyPadExtParams<T>{false, 0, 0, 0});
    DataCopyPad(params[colsPad], betaGm, copy, DataCopyPadExtParams<T>{false, 0, 0, 0});
    paramQueue.EnQue(params);
    params = paramQueue.DeQue<T>();
    for (uint32_t r = 0; r < blockRows; r += rowsPerTile) {
      const uint32_t n = blockRows - r < rowsPerTile ? blockRows - r : rowsPerTile;
      CopyIn(r, n);
      Compute(params, n);
      CopyOut(r, n);
    }
    paramQueue.FreeTensor(params);
  }

 private:
  __aicore__ inline void CopyIn(uint32_t row, uint32_t n) {
    LocalTensor<T> x = inQueue.AllocTensor<T>();
    DataCopyPad(x, xGm[static_cast<uint64_t>(row) * cols],
                DataCopyExtParams{static_cast<uint16_t>(n), static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0},
                DataCopyPadExtParams<T>{false, 0, 0, 0});
    inQueue.EnQue(x);
  }
  __aicore__ inline void Compute(const LocalTensor<T>& params, uint32_t n) {
    LocalTensor<T> x = inQueue.DeQue<T>();
    LocalTensor<T> y = outQueue.AllocTensor<T>();
    // One library call normalises the whole tile (statistics in float, padded lanes ignored).
    LocalTensor<T> mean = statBuf.Get<T>();
    LocalTensor<T> variance = mean[(rowsPerTile * sizeof(T) + 31) / 32 * 32 / sizeof(T)];
    layerNormTiling.sLength = n;
    LayerNorm<T>(y, mean, variance, x, params, params[colsPad], tmpBuf.Get<uint8_t>(), eps, layerNormTiling);
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
  TQue<QuePosition::VECIN, 1> paramQueue;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
  TBuf<QuePosition::VECCALC> statBuf, tmpBuf;
  GlobalTensor<T> xGm, gammaGm, betaGm, yGm;
  LayerNormTiling layerNormTiling;
  uint32_t blockRows, cols, colsPad, rowsPerTile;
  T eps;
};

extern "C" __global__ __aicore__ void layer_norm(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  KernelLayerNorm<DTYPE_Y> op;
  op.Init(x, gamma, beta, y, tilingData);
  op.Process();
}
