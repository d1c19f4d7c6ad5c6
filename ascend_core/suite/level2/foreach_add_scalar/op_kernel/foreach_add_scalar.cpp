#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t LIST_SIZE = 3;

template <typename T>
class KernelForeachAddScalar {
 public:
  __aicore__ inline KernelForeachAddScalar() {}
  __aicore__ inline void Init(GM_ADDR x[LIST_SIZE], GM_ADDR y[LIST_SIZE], const uint32_t lengths[LIST_SIZE],
                              uint32_t totalLength, uint32_t formerNum, uint32_t formerLength, uint32_t tailLength,
                              uint32_t tileLength, float scalar) {
    const uint32_t block = GetBlockIdx();
    begin = block < formerNum ? block * formerLength : formerNum * formerLength + (block - formerNum) * tailLength;
    end = block == GetBlockNum() - 1 ? totalLength : begin + (block < formerNum ? formerLength : tailLength);
    this->tileLength = tileLength;
    this->scalar = static_cast<T>(scalar);
    for (uint32_t i = 0; i < LIST_SIZE; ++i) {
      this->lengths[i] = lengths[i];
      xGm[i].SetGlobalBuffer((__gm__ T*)x[i], lengths[i]);
      yGm[i].SetGlobalBuffer((__gm__ T*)y[i], lengths[i]);
    }
    pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(T));
    pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(T));
  }
  // Walk the list: each tensor's part of this block's range, tile by tile.
  __aicore__ inline void Process() {
    uint32_t start = 0;
    for (uint32_t i = 0; i < LIST_SIZE; ++i) {
      const uint32_t lo = begin > start ? begin : start;
      const uint32_t hi = end < start + lengths[i] ? end : start + lengths[i];
      for (uint32_t done = lo; done < hi; done += tileLength) {
        const uint32_t len = hi - done < tileLength ? hi - done : tileLength;
        CopyIn(i, done - start, len);
        Compute(len);
        CopyOut(i, done - start, len);
      }
      start += lengths[i];
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t i, uint32_t offset, uint32_t len) {
    LocalTensor<T> x = inQueueX.AllocTensor<T>();
    const DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
    DataCopyPad(x, xGm[i][offset], params, DataCopyPadExtParams<T>{false, 0, 0, 0});
    inQueueX.EnQue(x);
  }
  __aicore__ inline void Compute(uint32_t len) {
    LocalTensor<T> x = inQueueX.DeQue<T>();
    LocalTensor<T> y = outQueueY.AllocTensor<T>();
    Adds(y, x, scalar, len);
    outQueueY.EnQue<T>(y);
    inQueueX.FreeTensor(x);
  }
  __aicore__ inline void CopyOut(uint32_t i, uint32_t offset, uint32_t len) {
    LocalTensor<T> y = outQueueY.DeQue<T>();
    DataCopyPad(yGm[i][offset], y, DataCopyExtParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0});
    outQueueY.FreeTensor(y);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueY;
  GlobalTensor<T> xGm[LIST_SIZE], yGm[LIST_SIZE];
  uint32_t lengths[LIST_SIZE];
  uint32_t begin, end, tileLength;
  T scalar;
};

extern "C" __global__ __aicore__ void foreach_add_scalar(GM_ADDR x0, GM_ADDR x1, GM_ADDR x2, GM_ADDR y0, GM_ADDR y1, GM_ADDR y2, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  GM_ADDR x[LIST_SIZE] = {x0, x1, x2};
  GM_ADDR y[LIST_SIZE] = {y0, y1, y2};
  KernelForeachAddScalar<DTYPE_Y0> op;
  op.Init(x, y, tilingData.lengths, tilingData.totalLength, tilingData.formerNum, tilingData.formerLength,
          tilingData.tailLength, tilingData.tileLength, tilingData.scalar);
  op.Process();
}
