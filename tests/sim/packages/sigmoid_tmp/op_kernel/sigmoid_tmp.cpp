#include "kernel_operator.h"
using namespace AscendC;

class KernelSigmoidTmp {
 public:
  __aicore__ inline KernelSigmoidTmp() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const SigmoidTmpTilingData& t)
  {
    const uint32_t block = GetBlockIdx();
    blockLength = block < t.bigNum ? t.bigLength : t.smallLength;
    const uint32_t offset = block < t.bigNum ? block * t.bigLength : t.bigNum * t.bigLength + (block - t.bigNum) * t.smallLength;
    if (offset >= t.totalLength) blockLength = 0;
    else if (offset + blockLength > t.totalLength) blockLength = t.totalLength - offset;
    tileLength = t.tileLength;

    xGm.SetGlobalBuffer((__gm__ DTYPE_X*)x + offset, blockLength);
    yGm.SetGlobalBuffer((__gm__ DTYPE_Y*)y + offset, blockLength);
    pipe.InitBuffer(inQueue, 2, tileLength * sizeof(DTYPE_X));
    pipe.InitBuffer(outQueue, 2, tileLength * sizeof(DTYPE_Y));
    pipe.InitBuffer(tmpBuf, t.tmpBytes);
  }
  __aicore__ inline void Process()
  {
    for (uint32_t done = 0; done < blockLength; done += tileLength) {
      uint32_t len = blockLength - done < tileLength ? blockLength - done : tileLength;
      LocalTensor<DTYPE_X> xLocal = inQueue.AllocTensor<DTYPE_X>();
      DataCopyPad(xLocal, xGm[done], DataCopyExtParams{1, static_cast<uint32_t>(len * sizeof(DTYPE_X)), 0, 0, 0},
                  DataCopyPadExtParams<DTYPE_X>{false, 0, 0, 0});
      inQueue.EnQue(xLocal);
      xLocal = inQueue.DeQue<DTYPE_X>();
      LocalTensor<DTYPE_Y> yLocal = outQueue.AllocTensor<DTYPE_Y>();

      Sigmoid<DTYPE_X>(yLocal, xLocal, tmpBuf.Get<uint8_t>(), len);
      outQueue.EnQue(yLocal);
      inQueue.FreeTensor(xLocal);
      yLocal = outQueue.DeQue<DTYPE_Y>();
      DataCopyPad(yGm[done], yLocal, DataCopyExtParams{1, static_cast<uint32_t>(len * sizeof(DTYPE_Y)), 0, 0, 0});
      outQueue.FreeTensor(yLocal);
    }
  }

 private:
  TPipe pipe;
  TQue<QuePosition::VECIN, 2> inQueue;
  TQue<QuePosition::VECOUT, 2> outQueue;
  GlobalTensor<DTYPE_X> xGm;
  GlobalTensor<DTYPE_Y> yGm;
  uint32_t blockLength = 0, tileLength = 0;
  TBuf<QuePosition::VECCALC> tmpBuf;
};

extern "C" __global__ __aicore__ void sigmoid_tmp(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
  GET_TILING_DATA(tilingData, tiling);
  KernelSigmoidTmp op;
  op.Init(x, y, tilingData);
  op.Process();
}
