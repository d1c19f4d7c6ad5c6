// Anchor M1: MrgSort with `repeats` repeats over pairs already in UB; repeat r merges the four
// 64-pair lists at pairs r * 256, + 64, + 128, + 192 into 256 pairs of the output.
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void m1_mrgsort(GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(t, tiling);
  constexpr uint16_t kList = 64;  // pairs a list
  const uint32_t floats = t.repeats * 4 * kList * 2;
  GlobalTensor<float> xGm, zGm;
  xGm.SetGlobalBuffer((__gm__ float*)x, floats);
  zGm.SetGlobalBuffer((__gm__ float*)z, floats);
  TPipe pipe;
  TBuf<QuePosition::VECCALC> in, out;
  pipe.InitBuffer(in, floats * sizeof(float));
  pipe.InitBuffer(out, floats * sizeof(float));
  LocalTensor<float> src = in.Get<float>(), dst = out.Get<float>();
  DataCopy(src, xGm, floats);
  SetFlag<HardEvent::MTE2_V>(0);
  WaitFlag<HardEvent::MTE2_V>(0);
  const uint16_t lengths[4] = {kList, kList, kList, kList};
  MrgSortSrcList<float> lists(src, src[2 * kList], src[4 * kList], src[6 * kList]);
  MrgSort(dst, lists, MrgSort4Info(lengths, false, 15, static_cast<uint16_t>(t.repeats)));
  SetFlag<HardEvent::V_MTE3>(0);
  WaitFlag<HardEvent::V_MTE3>(0);
  DataCopy(zGm, dst, floats);
}
