#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Row-wise softmax(x * scale + mask), computed in fp32 whatever the storage dtype T.
template <typename T>
class KernelAttentionSoftmax {
 public:
  __aicore__ inline KernelAttentionSoftmax() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR mask, GM_ADDR y, uint32_t cols, uint32_t maskRows, uint32_t formerNum,
                              uint32_t formerRows, uint32_t tailRows, float scale) {
    const uint32_t block = GetBlockIdx();
    rowStart = block < formerNum ? block * formerRows : formerNum * formerRows + (block - formerNum) * tailRows;
    blockRows = block < formerNum ? formerRows : tailRows;
    this->cols = cols;
    this->maskRows = maskRows;
    this->scale = scale;
    colsPad = (cols + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T));  // the 32 B-padded UB row of DataCopyPad
    xGm.SetGlobalBuffer((__gm__ T*)x + static_cast<uint64_t>(rowStart) * cols, static_cast<uint64_t>(blockRows) * cols);
    yGm.SetGlobalBuffer((__gm__ T*)y + static_cast<uint64_t>(rowStart) * cols, static_cast<uint64_t>(blockRows) * cols);
    maskGm.SetGlobalBuffer((__gm__ T*)mask, static_cast<uint64_t>(maskRows) * cols);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, colsPad * sizeof(T));
    pipe.InitBuffer(inQueueMask, BUFFER_NUM, colsPad * sizeof(T));
    pipe.InitBuffer(outQueueY, BUFFER_NUM, colsPad * sizeof(T));
    pipe.InitBuffer(xBuf, colsPad * sizeof(float));
    pipe.InitBuffer(maskBuf, colsPad * sizeof(float));
    pipe.InitBuffer(workBuf, colsPad * sizeof(float));
    pipe.InitBuffer(redBuf, 32);
  }
  __aicore__ inline void Process() {
    for (uint32_t r = 0; r < blockRows; ++r) {
      CopyIn(r);
      Compute();
      CopyOut(r);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t r) {
    LocalTensor<T> x = inQueueX.AllocTensor<T>();
    LocalTensor<T> m = inQueueMask.AllocTensor<T>();
    const DataCopyExtParams row{1, static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0};
    DataCopyPad(x, xGm[static_cast<uint64_t>(r) * cols], row, DataCopyPadExtParams<T>{false, 0, 0, 0});
    DataCopyPad(m, maskGm[static_cast<uint64_t>((rowStart + r) % maskRows) * cols], row, DataCopyPadExtParams<T>{false, 0, 0, 0});
    inQueueX.EnQue(x);
    inQueueMask.EnQue(m);
  }
  __aicore__ inline void Compute() {
    LocalTensor<T> x = inQueueX.DeQue<T>();
    LocalTensor<T> m = inQueueMask.DeQue<T>();
    LocalTensor<T> y = outQueueY.AllocTensor<T>();
    LocalTensor<float> xf = xBuf.Get<float>();
    LocalTensor<float> mf = maskBuf.Get<float>();
    LocalTensor<float> work = workBuf.Get<float>();
    LocalTensor<float> red = redBuf.Get<float>();
    if constexpr (sizeof(T) == sizeof(float)) {
      Muls(xf, x, scale, cols);
      Add(xf, xf, m, cols);
    } else {
      Cast(xf, x, RoundMode::CAST_NONE, cols);
      Cast(mf, m, RoundMode::CAST_NONE, cols);
      Muls(xf, xf, scale, cols);
      Add(xf, xf, mf, cols);
    }
    // Subtracting the row max keeps Exp in range; the sum is then at least 1.
    ReduceMax(red, xf, work, cols);
    const float rowMax = red.GetValue(0);
    Adds(xf, xf, -rowMax, cols);
    Exp(xf, xf, cols);
    ReduceSum(red, xf, work, cols);
    const float inv = 1.0f / red.GetValue(0);
    if constexpr (sizeof(T) == sizeof(float)) {
      Muls(y, xf, inv, cols);
    } else {
      Muls(xf, xf, inv, cols);
      Cast(y, xf, RoundMode::CAST_RINT, cols);
    }
    outQueueY.EnQue<T>(y);
    inQueueX.FreeTensor(x);
    inQueueMask.FreeTensor(m);
  }
  __aicore__ inline void CopyOut(uint32_t r) {
    LocalTensor<T> y = outQueueY.DeQue<T>();
    DataCopyPad(yGm[static_cast<uint64_t>(r) * cols], y, DataCopyExtParams{1, static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0});
    outQueueY.FreeTensor(y);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueMask;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueY;
  TBuf<QuePosition::VECCALC> xBuf, maskBuf, workBuf, redBuf;
  GlobalTensor<T> xGm, maskGm, yGm;
  uint32_t rowStart, blockRows, cols, colsPad, maskRows;
  float scale;
};

extern "C" __global__ __aicore__ void attention_softmax(GM_ADDR x, GM_ADDR mask, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  KernelAttentionSoftmax<DTYPE_Y> op;
  op.Init(x, mask, y, tilingData.cols, tilingData.maskRows, tilingData.formerNum, tilingData.formerRows, tilingData.tailRows,
          tilingData.scale);
  op.Process();
}
