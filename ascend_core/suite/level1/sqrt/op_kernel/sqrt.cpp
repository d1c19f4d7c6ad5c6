#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelSqrt {
 public:
  __aicore__ inline KernelSqrt() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t totalLength, uint32_t formerNum, uint32_t formerLength,
                              uint32_t tailLength, uint32_t tileLength) {
    const uint32_t block = GetBlockIdx();
    const uint32_t offset = block < formerNum ? block * formerLength
                                              : formerNum * formerLength + (block - formerNum) * tailLength;
    blockLength = block < formerNum ? formerLength : tailLength;
    if (block == GetBlockNum() - 1) blockLength = totalLength - offset;  // the last block takes the ragged end
    this->tileLength = tileLength;
    xGm.SetGlobalBuffer((__gm__ T*)x + offset, blockLength);
    yGm.SetGlobalBuffer((__gm__ T*)y + offset, blockLength);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(T));
    pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(T));
  }
  __aicore__ inline void Process() {
    for (uint32_t done = 0; done < blockLength; done += tileLength) {
      const uint32_t len = blockLength - done < tileLength ? blockLength - done : tileLength;
      CopyIn(done, len);
      Compute(len);
      CopyOut(done, len);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t offset, uint32_t len) {
    LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
    if (len * sizeof(T) % 32 == 0) {
      DataCopy(xLocal, xGm[offset], len);
    } else {
      // DataCopy would drop the bytes past the last full 32 B block; DataCopyPad moves them.
      DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
      DataCopyPadExtParams<T> pad{false, 0, 0, 0};
      DataCopyPad(xLocal, xGm[offset], params, pad);
    }
    inQueueX.EnQue(xLocal);
  }
  __aicore__ inline void Compute(uint32_t len) {
    LocalTensor<T> x = inQueueX.DeQue<T>();
    LocalTensor<T> y = outQueueY.AllocTensor<T>();
    // The padded lanes of a short tile are computed too; only len elements are written back.
    const uint32_t n = (len + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T));
    Sqrt(y, x, n);
    outQueueY.EnQue<T>(y);
    inQueueX.FreeTensor(x);
  }
  __aicore__ inline void CopyOut(uint32_t offset, uint32_t len) {
    LocalTensor<T> yLocal = outQueueY.DeQue<T>();
    if (len * sizeof(T) % 32 == 0) {
      DataCopy(yGm[offset], yLocal, len);
    } else {
      DataCopyPad(yGm[offset], yLocal, DataCopyExtParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0});
    }
    outQueueY.FreeTensor(yLocal);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueY;
  GlobalTensor<T> xGm;
  GlobalTensor<T> yGm;
  uint32_t blockLength;
  uint32_t tileLength;
};

extern "C" __global__ __aicore__ void sqrt_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  KernelSqrt<DTYPE_Y> op;
  op.Init(x, y, tilingData.totalLength, tilingData.formerNum, tilingData.formerLength, tilingData.tailLength,
          tilingData.tileLength);
  op.Process();
}
