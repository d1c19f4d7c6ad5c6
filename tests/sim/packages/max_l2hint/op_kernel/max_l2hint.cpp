#include "kernel_operator.h"
using namespace AscendC;

class KernelMax {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const MaxL2hintTilingData& t)
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
    xGm.SetL2CacheHint(CacheMode::CACHE_MODE_DISABLE);
    yGm.SetL2CacheHint(CacheMode::CACHE_MODE_DISABLE);
    pipe.InitBuffer(inQ, 2, 2 * tileLength * sizeof(DTYPE_X));
    pipe.InitBuffer(outQ, 2, tileLength * sizeof(DTYPE_Z));
  }
  __aicore__ inline void Process()
  {
    constexpr uint32_t align = 32 / sizeof(DTYPE_X);
    for (uint32_t done = 0; done < blockLength; done += tileLength) {
      uint32_t len = blockLength - done < tileLength ? blockLength - done : tileLength;
      LocalTensor<DTYPE_X> in = inQ.AllocTensor<DTYPE_X>();
      if (len % align == 0) {
        DataCopy(in, xGm[done], len);
        DataCopy(in[tileLength], yGm[done], len);
      } else {
        DataCopyParams p{1, static_cast<uint16_t>(len * sizeof(DTYPE_X)), 0, 0};
        DataCopyPad(in, xGm[done], p, DataCopyPadParams{});
        DataCopyPad(in[tileLength], yGm[done], p, DataCopyPadParams{});
      }
      inQ.EnQue(in);
      in = inQ.DeQue<DTYPE_X>();
      LocalTensor<DTYPE_Z> out = outQ.AllocTensor<DTYPE_Z>();
      Max(out, in, in[tileLength], (len + align - 1) / align * align);
      outQ.EnQue(out);
      inQ.FreeTensor(in);
      out = outQ.DeQue<DTYPE_Z>();
      if (len % align == 0) DataCopy(zGm[done], out, len);
      else DataCopyPad(zGm[done], out, DataCopyParams{1, static_cast<uint16_t>(len * sizeof(DTYPE_Z)), 0, 0});
      outQ.FreeTensor(out);
    }
  }

 private:
  TPipe pipe;
  TQue<QuePosition::VECIN, 2> inQ;
  TQue<QuePosition::VECOUT, 2> outQ;
  GlobalTensor<DTYPE_X> xGm;
  GlobalTensor<DTYPE_Y> yGm;
  GlobalTensor<DTYPE_Z> zGm;
  uint32_t blockLength = 0, tileLength = 0;
};

extern "C" __global__ __aicore__ void max_l2hint(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
  GET_TILING_DATA(tilingData, tiling);
  KernelMax op;
  op.Init(x, y, z, tilingData);
  op.Process();
}
