#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelRmsNorm {
 public:
  __aicore__ inline KernelRmsNorm() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, uint32_t cols, uint32_t formerNum, uint32_t formerRows,
                              uint32_t tailRows, float eps) {
    const uint32_t block = GetBlockIdx();
    const uint32_t rowStart = block < formerNum ? block * formerRows : formerNum * formerRows + (block - formerNum) * tailRows;
    blockRows = block < formerNum ? formerRows : tailRows;
    this->cols = cols;
    this->eps = eps;
    colsPad = (cols + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T));
    const uint32_t colsPadF = (cols + 7) / 8 * 8;
    xGm.SetGlobalBuffer((__gm__ T*)x + static_cast<uint64_t>(rowStart) * cols, static_cast<uint64_t>(blockRows) * cols);
    gammaGm.SetGlobalBuffer((__gm__ T*)gamma, cols);
    yGm.SetGlobalBuffer((__gm__ T*)y + static_cast<uint64_t>(rowStart) * cols, static_cast<uint64_t>(blockRows) * cols);
    pipe.InitBuffer(inQueue, BUFFER_NUM, colsPad * sizeof(T));
    pipe.InitBuffer(outQueue, BUFFER_NUM, colsPad * sizeof(T));
    pipe.InitBuffer(gammaQueue, 1, colsPad * sizeof(T));
    pipe.InitBuffer(calcBuf, colsPadF * sizeof(float));
    pipe.InitBuffer(sqBuf, colsPadF * sizeof(float));
    pipe.InitBuffer(gammaBuf, colsPadF * sizeof(float));
    pipe.InitBuffer(workBuf, colsPadF * sizeof(float));
    pipe.InitBuffer(statBuf, 32);
  }
  __aicore__ inline void Process() {
    LoadGamma();
    for (uint32_t r = 0; r < blockRows; ++r) {
      CopyIn(r);
      Compute();
      CopyOut(r);
    }
  }

 private:
  // gamma is shared by every row: load it once and keep it in float.
  __aicore__ inline void LoadGamma() {
    LocalTensor<T> g = gammaQueue.AllocTensor<T>();
    DataCopyPad(g, gammaGm, DataCopyExtParams{1, static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0}, DataCopyPadExtParams<T>{false, 0, 0, 0});
    gammaQueue.EnQue(g);
    g = gammaQueue.DeQue<T>();
    LocalTensor<float> gammaF = gammaBuf.Get<float>();
    if constexpr (sizeof(T) == sizeof(float)) {
      Adds(gammaF, g.template ReinterpretCast<float>(), 0.0f, cols);
    } else {
      Cast(gammaF, g, RoundMode::CAST_NONE, cols);
    }
    gammaQueue.FreeTensor(g);
  }
  __aicore__ inline void CopyIn(uint32_t row) {
    LocalTensor<T> x = inQueue.AllocTensor<T>();
    DataCopyPad(x, xGm[static_cast<uint64_t>(row) * cols], DataCopyExtParams{1, static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0},
                DataCopyPadExtParams<T>{false, 0, 0, 0});
    inQueue.EnQue(x);
  }
  __aicore__ inline void Compute() {
    LocalTensor<T> x = inQueue.DeQue<T>();
    LocalTensor<T> y = outQueue.AllocTensor<T>();
    LocalTensor<float> sq = sqBuf.Get<float>();
    LocalTensor<float> work = workBuf.Get<float>();
    LocalTensor<float> stat = statBuf.Get<float>();
    // Statistics in float: fp16 rows are cast up first.
    LocalTensor<float> src, dst;
    if constexpr (sizeof(T) == sizeof(float)) {
      src = x.template ReinterpretCast<float>();
      dst = y.template ReinterpretCast<float>();
    } else {
      src = calcBuf.Get<float>();
      dst = src;
      Cast(src, x, RoundMode::CAST_NONE, cols);
    }
    Mul(sq, src, src, cols);
    ReduceSum(stat, sq, work, cols);
    Muls(stat, stat, 1.0f / static_cast<float>(cols), 1);
    Adds(stat, stat, eps, 1);
    Sqrt(stat, stat, 1);
    const float rms = stat.GetValue(0);
    Muls(dst, src, 1.0f / rms, cols);
    Mul(dst, dst, gammaBuf.Get<float>(), cols);
    if constexpr (sizeof(T) != sizeof(float)) {
      Cast(y, dst, RoundMode::CAST_RINT, cols);
    }
    outQueue.EnQue<T>(y);
    inQueue.FreeTensor(x);
  }
  __aicore__ inline void CopyOut(uint32_t row) {
    LocalTensor<T> y = outQueue.DeQue<T>();
    DataCopyPad(yGm[static_cast<uint64_t>(row) * cols], y, DataCopyExtParams{1, static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0});
    outQueue.FreeTensor(y);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
  TQue<QuePosition::VECIN, 1> gammaQueue;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
  TBuf<QuePosition::VECCALC> calcBuf, sqBuf, gammaBuf, workBuf, statBuf;
  GlobalTensor<T> xGm, gammaGm, yGm;
  uint32_t blockRows, cols, colsPad;
  float eps;
};

extern "C" __global__ __aicore__ void rms_norm(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  KernelRmsNorm<DTYPE_Y> op;
  op.Init(x, gamma, y, tilingData.cols, tilingData.formerNum, tilingData.formerRows, tilingData.tailRows, tilingData.eps);
  op.Process();
}
