#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelAddRelu {
 public:
  __aicore__ inline KernelAddRelu() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength, uint32_t formerNum, uint32_t formerLength,
                              uint32_t tailLength, uint32_t tileLength) {
    const uint32_t block = GetBlockIdx();
    const uint32_t offset = block < formerNum ? block * formerLength
                                              : formerNum * formerLength + (block - formerNum) * tailLength;
    blockLength = block < formerNum ? formerLength : tailLength;
    if (block == GetBlockNum() - 1) blockLength = totalLength - offset;  // the last block takes the ragged end
    this->tileLength = tileLength;
    xGm.SetGlobalBuffer((__gm__ T*)x + offset, blockLength);
    yGm.SetGlobalBuffer((__gm__ T*)y + offset, blockLength);
    zGm.SetGlobalBuffer((__gm__ T*)z + offset, blockLength);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(T));
    pipe.InitBuffer(inQueueY, BUFFER_NUM, tileLength * sizeof(T));
    pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(T));
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
    LocalTensor<T> yLocal = inQueueY.AllocTensor<T>();
    if (len * sizeof(T) % 32 == 0) {
      DataCopy(xLocal, xGm[offset], len);
      DataCopy(yLocal, yGm[offset], len);
    } else {
      // DataCopy would drop the bytes past the last full 32 B block; DataCopyPad moves them.
      DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
      DataCopyPadExtParams<T> pad{false, 0, 0, 0};
      DataCopyPad(xLocal, xGm[offset], params, pad);
      DataCopyPad(yLocal, yGm[offset], params, pad);
    }
    inQueueX.EnQue(xLocal);
    inQueueY.EnQue(yLocal);
  }
  __aicore__ inline void Compute(uint32_t len) {
    LocalTensor<T> x = inQueueX.DeQue<T>();
    LocalTensor<T> y = inQueueY.DeQue<T>();
    LocalTensor<T> z = outQueueZ.AllocTensor<T>();
    // The padded lanes of a short tile are computed too; only len elements are written back.
    const uint32_t n = (len + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T));
    Add(z, x, y, n);
    Relu(z, z, n);
    outQueueZ.EnQue<T>(z);
    inQueueX.FreeTensor(x);
    inQueueY.FreeTensor(y);
  }
  __aicore__ inline void CopyOut(uint32_t offset, uint32_t len) {
    LocalTensor<T> zLocal = outQueueZ.DeQue<T>();
    if (len * sizeof(T) % 32 == 0) {
      DataCopy(zGm[offset], zLocal, len);
    } else {
      DataCopyPad(zGm[offset], zLocal, DataCopyExtParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0});
    }
    outQueueZ.FreeTensor(zLocal);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
  GlobalTensor<T> xGm;
  GlobalTensor<T> yGm;
  GlobalTensor<T> zGm;
  uint32_t blockLength;
  uint32_t tileLength;
};

extern "C" __global__ __aicore__ void add_relu(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  KernelAddRelu<DTYPE_Z> op;
  op.Init(x, y, z, tilingData.totalLength, tilingData.formerNum, tilingData.formerLength, tilingData.tailLength,
          tilingData.tileLength);
  op.Process();
}
