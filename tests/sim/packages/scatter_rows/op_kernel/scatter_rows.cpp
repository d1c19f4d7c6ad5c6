// One row at a time: GM row -> UB, add the update row, UB -> GM; var_ref is var's own address.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void scatter_rows(GM_ADDR var, GM_ADDR indices, GM_ADDR updates, GM_ADDR var_ref,
                                                   GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(t, tiling);
  GlobalTensor<float> out, upd;
  GlobalTensor<int32_t> idx;
  out.SetGlobalBuffer((__gm__ float*)var_ref);
  upd.SetGlobalBuffer((__gm__ float*)updates);
  idx.SetGlobalBuffer((__gm__ int32_t*)indices);
  TPipe pipe;
  TBuf<TPosition::VECCALC> ba, bb;
  const uint32_t bytes = (t.cols * 4 + 31) / 32 * 32;
  pipe.InitBuffer(ba, bytes);
  pipe.InitBuffer(bb, bytes);
  LocalTensor<float> a = ba.Get<float>(), b = bb.Get<float>();
  const DataCopyExtParams row{1, static_cast<uint32_t>(t.cols * 4), 0, 0, 0};
  for (uint32_t k = 0; k < t.updates; ++k) {
    const int32_t r = idx.GetValue(k);
    DataCopyPad(a, out[r * t.cols], row, {false, 0, 0, 0});
    DataCopyPad(b, upd[k * t.cols], row, {false, 0, 0, 0});
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    Add(a, a, b, t.cols);
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopyPad(out[r * t.cols], a, row);
    // The next row may read what this one wrote (a repeated index): MTE3 before MTE2, and the
    // vector unit done with a and b before they are reloaded.
    SetFlag<HardEvent::MTE3_MTE2>(0);
    WaitFlag<HardEvent::MTE3_MTE2>(0);
    SetFlag<HardEvent::V_MTE2>(0);
    WaitFlag<HardEvent::V_MTE2>(0);
  }
}
