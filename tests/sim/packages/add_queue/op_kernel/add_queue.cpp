#include "kernel_operator.h"
using namespace AscendC;
constexpr int32_t BUFFER_NUM = 2;

class KernelAddQueue {
 public:
  __aicore__ inline KernelAddQueue() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const AddQueueTilingData& t)
  {
    const uint32_t block = GetBlockIdx();
    blockLength = block < t.bigNum ? t.bigLength : t.smallLength;
    const uint32_t offset = block < t.bigNum ? block * t.bigLength : t.bigNum * t.bigLength + (block - t.bigNum) * t.smallLength;
    if (offset >= t.totalLength) blockLength = 0;
    else if (offset + blockLength > t.totalLength) blockLength = t.totalLength - offset;
    tileLength = t.tileLength;

    xGm.SetGlobalBuffer((__gm__ DTYPE_X*)x + offset, blockLength);
    yGm.SetGlobalBuffer((__gm__ DTYPE_Y*)y + offset, blockLength);
    zGm.SetGlobalBuffer((__gm__ DTYPE_Z*)z + offset, blockLength);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(DTYPE_X));
    pipe.InitBuffer(inQueueY, BUFFER_NUM, tileLength * sizeof(DTYPE_Y));
    pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(DTYPE_Z));
  }
  __aicore__ inline void Process()
  {
    for (uint32_t done = 0; done < blockLength; done += tileLength) {
      uint32_t len = blockLength - done < tileLength ? blockLength - done : tileLength;
      CopyIn(done, len);
      Compute(len);
      CopyOut(done, len);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t off, uint32_t len)
  {
    LocalTensor<DTYPE_X> xLocal = inQueueX.AllocTensor<DTYPE_X>();
    LocalTensor<DTYPE_Y> yLocal = inQueueY.AllocTensor<DTYPE_Y>();
    DataCopyExtParams p{1, static_cast<uint32_t>(len * sizeof(DTYPE_X)), 0, 0, 0};
    DataCopyPad(xLocal, xGm[off], p, DataCopyPadExtParams<DTYPE_X>{false, 0, 0, 0});
    DataCopyPad(yLocal, yGm[off], p, DataCopyPadExtParams<DTYPE_Y>{false, 0, 0, 0});
    inQueueX.EnQue(xLocal);
    inQueueY.EnQue(yLocal);
  }
  __aicore__ inline void Compute(uint32_t len)
  {
    LocalTensor<DTYPE_X> xLocal = inQueueX.DeQue<DTYPE_X>();
    LocalTensor<DTYPE_Y> yLocal = inQueueY.DeQue<DTYPE_Y>();
    LocalTensor<DTYPE_Z> zLocal = outQueueZ.AllocTensor<DTYPE_Z>();
    Add(zLocal, xLocal, yLocal, len);
    outQueueZ.EnQue<DTYPE_Z>(zLocal);
    inQueueX.FreeTensor(xLocal);
    inQueueY.FreeTensor(yLocal);
  }
  __aicore__ inline void CopyOut(uint32_t off, uint32_t len)
  {
    LocalTensor<DTYPE_Z> zLocal = outQueueZ.DeQue<DTYPE_Z>();
    DataCopyPad(zGm[off], zLocal, DataCopyExtParams{1, static_cast<uint32_t>(len * sizeof(DTYPE_Z)), 0, 0, 0});
    outQueueZ.FreeTensor(zLocal);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
  GlobalTensor<DTYPE_X> xGm;
  GlobalTensor<DTYPE_Y> yGm;
  GlobalTensor<DTYPE_Z> zGm;
  uint32_t blockLength = 0, tileLength = 0;
};

extern "C" __global__ __aicore__ void add_queue(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
  GET_TILING_DATA(tilingData, tiling);
  KernelAddQueue op;
  op.Init(x, y, z, tilingData);
  op.Process();
}
