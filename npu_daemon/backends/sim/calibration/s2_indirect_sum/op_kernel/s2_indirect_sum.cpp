// Anchors S2 and S3: scalar loads at offsets read from GM. The buffer is first copied to UB (as the
// public sample does, which leaves it in L2); then each step loads its offset (a line shared by 16
// offsets) and the byte there (a line of its own, so a data cache miss). With `preload` set (S3),
// each step preloads the line of the next step's byte after loading its own, so that fill overlaps
// the rest of the step.
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void s2_indirect_sum(GM_ADDR data, GM_ADDR indices, GM_ADDR result, GM_ADDR workspace,
                                                      GM_ADDR tiling) {
  GET_TILING_DATA(t, tiling);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, t.bytes);
  GlobalTensor<uint8_t> dataGm;
  dataGm.SetGlobalBuffer((__gm__ uint8_t*)data, t.bytes);
  DataCopy(buf.Get<uint8_t>(), dataGm, t.bytes);
  const __gm__ uint8_t* bytes = (const __gm__ uint8_t*)data;
  const __gm__ uint32_t* offsets = (const __gm__ uint32_t*)indices;
  uint32_t sum = 0;
  if (t.preload == 0) {
    for (uint32_t i = 0; i < t.count; ++i) sum += bytes[offsets[i]];
  } else {
    GlobalTensor<uint64_t> lines;
    lines.SetGlobalBuffer((__gm__ uint64_t*)data, t.bytes / sizeof(uint64_t));
    uint32_t at = offsets[0];
    DataCachePreload(lines, static_cast<int64_t>(at & ~63u));
    for (uint32_t i = 1; i < t.count; ++i) {
      sum += bytes[at];
      at = offsets[i];
      DataCachePreload(lines, static_cast<int64_t>(at & ~63u));
    }
    sum += bytes[at];
  }
  *(__gm__ uint32_t*)result = sum;
}
