#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void mul_flags(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
  GET_TILING_DATA(t, tiling);
  uint32_t blockLength = 0, tileLength = 0;
  const uint32_t block = GetBlockIdx();
  blockLength = block < t.bigNum ? t.bigLength : t.smallLength;
  const uint32_t offset = block < t.bigNum ? block * t.bigLength : t.bigNum * t.bigLength + (block - t.bigNum) * t.smallLength;
  if (offset >= t.totalLength) blockLength = 0;
  else if (offset + blockLength > t.totalLength) blockLength = t.totalLength - offset;
  tileLength = t.tileLength;

  GlobalTensor<DTYPE_X> xGm, yGm, zGm;
  xGm.SetGlobalBuffer((__gm__ DTYPE_X*)x + offset);
  yGm.SetGlobalBuffer((__gm__ DTYPE_X*)y + offset);
  zGm.SetGlobalBuffer((__gm__ DTYPE_X*)z + offset);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 3 * tileLength * sizeof(DTYPE_X));
  LocalTensor<DTYPE_X> a = buf.Get<DTYPE_X>(), b = a[tileLength], c = a[2 * tileLength];
  for (uint32_t done = 0; done < blockLength; done += tileLength) {
    uint32_t len = blockLength - done < tileLength ? blockLength - done : tileLength;
    DataCopyExtParams p{1, static_cast<uint32_t>(len * sizeof(DTYPE_X)), 0, 0, 0};
    if (done > 0) {  // the previous tile's copy-out must finish reading c before V overwrites it, and a/b before MTE2 refills them
      SetFlag<HardEvent::V_MTE2>(EVENT_ID0);
      WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);
    }
    DataCopyPad(a, xGm[done], p, DataCopyPadExtParams<DTYPE_X>{false, 0, 0, 0});
    DataCopyPad(b, yGm[done], p, DataCopyPadExtParams<DTYPE_X>{false, 0, 0, 0});
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    if (done > 0) {
      SetFlag<HardEvent::MTE3_V>(EVENT_ID1);
      WaitFlag<HardEvent::MTE3_V>(EVENT_ID1);
    }
    Mul(c, a, b, len);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopyPad(zGm[done], c, p);
  }
}
