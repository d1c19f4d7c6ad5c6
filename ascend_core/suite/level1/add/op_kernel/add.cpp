#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelAdd {
 public:
  __aicore__ inline KernelAdd() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength, uint32_t formerNum,
                              uint32_t formerLength, uint32_t tailLength, uint32_t tileLength) {
    const uint32_t block = GetBlockIdx();
    const uint32_t offset = block < formerNum ? block * formerLength
                                              : formerNum * formerLength + (block - formerNum) * tailLength;
    blockLength = block < formerNum ? formerLength : tailLength;
    if (block == GetBlockNum() - 1) blockLength = totalLength - offset;  // the last block takes the ragged end
    this->tileLength = tileLength;
    xGm.SetGlobalBuffer((__gm__ DTYPE_X*)x + offset, blockLength);
    yGm.SetGlobalBuffer((__gm__ DTYPE_Y*)y + offset, blockLength);
    zGm.SetGlobalBuffer((__gm__ DTYPE_Z*)z + offset, blockLength);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(DTYPE_X));
    pipe.InitBuffer(inQueueY, BUFFER_NUM, tileLength * sizeof(DTYPE_Y));
    pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(DTYPE_Z));
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
    LocalTensor<DTYPE_Y> yLocal = inQueueY.AllocTensor<DTYPE_Y>();
    if (len * sizeof(DTYPE_X) % 32 == 0) {
      DataCopy(xLocal, xGm[offset], len);
      DataCopy(yLocal, yGm[offset], len);
    } else {
      DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(DTYPE_X)), 0, 0, 0};
      DataCopyPad(xLocal, xGm[offset], params, DataCopyPadExtParams<DTYPE_X>{false, 0, 0, 0});
      DataCopyPad(yLocal, yGm[offset], params, DataCopyPadExtParams<DTYPE_Y>{false, 0, 0, 0});
    }
    inQueueX.EnQue(xLocal);
    inQueueY.EnQue(yLocal);
  }
  __aicore__ inline void Compute(uint32_t len) {
    LocalTensor<DTYPE_X> xLocal = inQueueX.DeQue<DTYPE_X>();
    LocalTensor<DTYPE_Y> yLocal = inQueueY.DeQue<DTYPE_Y>();
    LocalTensor<DTYPE_Z> zLocal = outQueueZ.AllocTensor<DTYPE_Z>();
    const uint32_t alignElems = 32 / sizeof(DTYPE_Z);
    Add(zLocal, xLocal, yLocal, (len + alignElems - 1) / alignElems * alignElems);
    outQueueZ.EnQue<DTYPE_Z>(zLocal);
    inQueueX.FreeTensor(xLocal);
    inQueueY.FreeTensor(yLocal);
  }
  __aicore__ inline void CopyOut(uint32_t offset, uint32_t len) {
    LocalTensor<DTYPE_Z> zLocal = outQueueZ.DeQue<DTYPE_Z>();
    if (len * sizeof(DTYPE_Z) % 32 == 0) {
      DataCopy(zGm[offset], zLocal, len);
    } else {
      DataCopyPad(zGm[offset], zLocal, DataCopyExtParams{1, static_cast<uint32_t>(len * sizeof(DTYPE_Z)), 0, 0, 0});
    }
    outQueueZ.FreeTensor(zLocal);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
  GlobalTensor<DTYPE_X> xGm;
  GlobalTensor<DTYPE_Y> yGm;
  GlobalTensor<DTYPE_Z> zGm;
  uint32_t blockLength;
  uint32_t tileLength;
};

extern "C" __global__ __aicore__ void add(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  KernelAdd op;
  op.Init(x, y, z, tilingData.totalLength, tilingData.formerNum, tilingData.formerLength, tilingData.tailLength,
          tilingData.tileLength);
  op.Process();
}
