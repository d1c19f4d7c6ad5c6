#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelAddLayerNorm {
 public:
  __aicore__ inline KernelAddLayerNorm() {}
  __aicore__ inline void Init(GM_ADDR x1, GM_ADDR x2, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR x,
                              const AddLayerNormTilingData& tiling) {
    const uint32_t block = GetBlockIdx();
    const uint32_t rowStart = block < tiling.formerNum ? block * tiling.formerRows
                                                       : tiling.formerNum * tiling.formerRows + (block - tiling.formerNum) * tiling.tailRows;
    blockRows = block < tiling.formerNum ? tiling.formerRows : tiling.tailRows;
    cols = tiling.cols;
    eps = tiling.eps;
    rowsPerTile = tiling.rowsPerTile;
    layerNormTiling = tiling.layerNormTiling;
    colsPad = (cols + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T));
    tileElems = rowsPerTile * colsPad;
    const uint64_t offset = static_cast<uint64_t>(rowStart) * cols, length = static_cast<uint64_t>(blockRows) * cols;
    x1Gm.SetGlobalBuffer((__gm__ T*)x1 + offset, length);
    x2Gm.SetGlobalBuffer((__gm__ T*)x2 + offset, length);
    yGm.SetGlobalBuffer((__gm__ T*)y + offset, length);
    xGm.SetGlobalBuffer((__gm__ T*)x + offset, length);
    gammaGm.SetGlobalBuffer((__gm__ T*)gamma, cols);
    betaGm.SetGlobalBuffer((__gm__ T*)beta, cols);
    pipe.InitBuffer(inQueue, BUFFER_NUM, tileElems * 2 * sizeof(T));   // [x1 | x2]
    pipe.InitBuffer(outQueue, BUFFER_NUM, tileElems * 2 * sizeof(T));  // [y | x]
    pipe.InitBuffer(paramQueue, 1, colsPad * 2 * sizeof(T));
    pipe.InitBuffer(statBuf, (rowsPerTile * sizeof(float) + 31) / 32 * 32 * 2);
    pipe.InitBuffer(tmpBuf, tiling.tmpBytes);
    if constexpr (sizeof(T) != sizeof(float)) {
      pipe.InitBuffer(paramFloatBuf, colsPad * 2 * sizeof(float));
      pipe.InitBuffer(sumBuf, tileElems * sizeof(float));
      pipe.InitBuffer(calcBuf, tileElems * sizeof(float));
    }
  }
  __aicore__ inline void Process() {
    // gamma | beta are shared by every row: load them once (in float for fp16 rows).
    LocalTensor<T> params = paramQueue.AllocTensor<T>();
    const DataCopyExtParams copy{1, static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0};
    DataCopyPad(params, gammaGm, copy, DataCopyPadExtParams<T>{false, 0, 0, 0});
    DataCopyPad(params[colsPad], betaGm, copy, DataCopyPadExtParams<T>{false, 0, 0, 0});
    paramQueue.EnQue(params);
    params = paramQueue.DeQue<T>();
    LocalTensor<float> paramsF;
    if constexpr (sizeof(T) == sizeof(float)) {
      paramsF = params.template ReinterpretCast<float>();
    } else {
      paramsF = paramFloatBuf.Get<float>();
      Cast(paramsF, params, RoundMode::CAST_NONE, colsPad * 2);
    }
    for (uint32_t r = 0; r < blockRows; r += rowsPerTile) {
      const uint32_t n = blockRows - r < rowsPerTile ? blockRows - r : rowsPerTile;
      CopyIn(r, n);
      Compute(paramsF, n);
      CopyOut(r, n);
    }
    paramQueue.FreeTensor(params);
  }

 private:
  __aicore__ inline void CopyIn(uint32_t row, uint32_t n) {
    LocalTensor<T> in = inQueue.AllocTensor<T>();
    const DataCopyExtParams params{static_cast<uint16_t>(n), static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0};
    DataCopyPad(in, x1Gm[static_cast<uint64_t>(row) * cols], params, DataCopyPadExtParams<T>{false, 0, 0, 0});
    DataCopyPad(in[tileElems], x2Gm[static_cast<uint64_t>(row) * cols], params, DataCopyPadExtParams<T>{false, 0, 0, 0});
    inQueue.EnQue(in);
  }
  // The residual add and the normalisation each run once over the whole tile.
  __aicore__ inline void Compute(const LocalTensor<float>& paramsF, uint32_t n) {
    LocalTensor<T> in = inQueue.DeQue<T>();
    LocalTensor<T> out = outQueue.AllocTensor<T>();
    LocalTensor<float> mean = statBuf.Get<float>();
    LocalTensor<float> variance = mean[(rowsPerTile * sizeof(float) + 31) / 32 * 32 / sizeof(float)];
    const uint32_t count = n * colsPad;
    layerNormTiling.sLength = n;
    if constexpr (sizeof(T) == sizeof(float)) {
      LocalTensor<float> sum = out[tileElems].template ReinterpretCast<float>();
      Add(sum, in.template ReinterpretCast<float>(), in[tileElems].template ReinterpretCast<float>(), count);
      LayerNorm<float>(out.template ReinterpretCast<float>(), mean, variance, sum, paramsF, paramsF[colsPad], tmpBuf.Get<uint8_t>(), eps,
                       layerNormTiling);
    } else {
      LocalTensor<float> sum = sumBuf.Get<float>();
      LocalTensor<float> calc = calcBuf.Get<float>();
      Cast(sum, in, RoundMode::CAST_NONE, count);
      Cast(calc, in[tileElems], RoundMode::CAST_NONE, count);
      Add(sum, sum, calc, count);
      Cast(out[tileElems], sum, RoundMode::CAST_RINT, count);
      LayerNorm<float>(calc, mean, variance, sum, paramsF, paramsF[colsPad], tmpBuf.Get<uint8_t>(), eps, layerNormTiling);
      Cast(out, calc, RoundMode::CAST_RINT, count);
    }
    outQueue.EnQue<T>(out);
    inQueue.FreeTensor(in);
  }
  __aicore__ inline void CopyOut(uint32_t row, uint32_t n) {
    LocalTensor<T> out = outQueue.DeQue<T>();
    const DataCopyExtParams params{static_cast<uint16_t>(n), static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0};
    DataCopyPad(yGm[static_cast<uint64_t>(row) * cols], out, params);
    DataCopyPad(xGm[static_cast<uint64_t>(row) * cols], out[tileElems], params);
    outQueue.FreeTensor(out);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
  TQue<QuePosition::VECIN, 1> paramQueue;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
  TBuf<QuePosition::VECCALC> statBuf, tmpBuf, paramFloatBuf, sumBuf, calcBuf;
  GlobalTensor<T> x1Gm, x2Gm, gammaGm, betaGm, yGm, xGm;
  LayerNormTiling layerNormTiling;
  uint32_t blockRows, cols, colsPad, rowsPerTile, tileElems;
  float eps;
};

extern "C" __global__ __aicore__ void add_layer_norm(GM_ADDR x1, GM_ADDR x2, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR x,
                                                     GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  KernelAddLayerNorm<DTYPE_Y> op;
  op.Init(x1, x2, gamma, beta, y, x, tilingData);
  op.Process();
}
