#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelRelu {
 public:
  __aicore__ inline KernelRelu() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t totalLength, uint32_t formerNum, uint32_t formerLength,
                              uint32_t tailLength, uint32_t tileLength) {
    const uint32_t block = GetBlockIdx();
    const uint32_t offset = block < formerNum ? block * formerLength
                                              : formerNum * formerLength + (block - formerNum) * tailLength;
    blockLength = block < formerNum ? formerLength : tailLength;
    if (block == GetBlockNum() - 1) blockLength = totalLength - offset;  // the last block takes the ragged end
    this->tileLength = tileLength;
    xGm.SetGlobalBuffer((__gm__ DTYPE_X*)x + offset, blockLength);
    yGm.SetGlobalBuffer((__gm__ DTYPE_Y*)y + offset, blockLength);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(DTYPE_X));
    pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(DTYPE_Y));
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
    LocalTensor<DTYPE_X> xLocal = inQueueX.AllocTensor<DTYPE_X>();
    if (len * sizeof(DTYPE_X) % 32 == 0) {
      DataCopy(xLocal, xGm[offset], len);
    } else {
      // DataCopy would drop the bytes past the last full 32 B block; DataCopyPad moves them.
      DataCopyPad(xLocal, xGm[offset], DataCopyExtParams{1, static_cast<uint32_t>(len * sizeof(DTYPE_X)), 0, 0, 0},
                  DataCopyPadExtParams<DTYPE_X>{false, 0, 0, 0});
    }
    inQueueX.EnQue(xLocal);
  }
  __aicore__ inline void Compute(uint32_t len) {
    LocalTensor<DTYPE_X> xLocal = inQueueX.DeQue<DTYPE_X>();
    LocalTensor<DTYPE_Y> yLocal = outQueueY.AllocTensor<DTYPE_Y>();
    // The padded lanes of a short tile are computed too; only len elements are written back.
    const uint32_t alignElems = 32 / sizeof(DTYPE_Y);
    Relu(yLocal, xLocal, (len + alignElems - 1) / alignElems * alignElems);
    outQueueY.EnQue<DTYPE_Y>(yLocal);
    inQueueX.FreeTensor(xLocal);
  }
  __aicore__ inline void CopyOut(uint32_t offset, uint32_t len) {
    LocalTensor<DTYPE_Y> yLocal = outQueueY.DeQue<DTYPE_Y>();
    if (len * sizeof(DTYPE_Y) % 32 == 0) {
      DataCopy(yGm[offset], yLocal, len);
    } else {
      DataCopyPad(yGm[offset], yLocal, DataCopyExtParams{1, static_cast<uint32_t>(len * sizeof(DTYPE_Y)), 0, 0, 0});
    }
    outQueueY.FreeTensor(yLocal);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueY;
  GlobalTensor<DTYPE_X> xGm;
  GlobalTensor<DTYPE_Y> yGm;
  uint32_t blockLength;
  uint32_t tileLength;
};

extern "C" __global__ __aicore__ void relu(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  KernelRelu op;
  op.Init(x, y, tilingData.totalLength, tilingData.formerNum, tilingData.formerLength, tilingData.tailLength,
          tilingData.tileLength);
  op.Process();
}
