#include "kernel_operator.h"
using namespace AscendC;

constexpr int MAX_DIMS = 4;       // same name as a host constant, a different value: no clash
struct RowSplit { int first; };  // likewise for a host helper struct

extern "C" __global__ __aicore__ void expand_rows(GM_ADDR x, GM_ADDR b, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
  using T = DTYPE_Y;
  static_assert(MAX_DIMS == 4, "the kernel sees its own constant");
  const __gm__ uint32_t* words = (const __gm__ uint32_t*)tiling;  // rows, cols, rowsPerCore
  const uint32_t rows = words[0], cols = words[1], perCore = words[2];
  const RowSplit split{static_cast<int>(GetBlockIdx() * perCore)};
  const uint32_t first = split.first;
  const uint32_t count = first + perCore <= rows ? perCore : rows - first;
  constexpr uint32_t align = 32 / sizeof(T);
  const uint32_t padCols = (cols + align - 1) / align * align;
  const uint32_t bLen = (count + align - 1) / align * align;  // whole 32 B blocks: may read past b's end

  GlobalTensor<T> bGm, yGm;
  bGm.SetGlobalBuffer((__gm__ T*)b + first, bLen);
  yGm.SetGlobalBuffer((__gm__ T*)y + first * cols, count * cols);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, (bLen + 2 * padCols) * sizeof(T));
  LocalTensor<T> bLocal = buf.Get<T>();
  LocalTensor<T> out[2] = {bLocal[bLen], bLocal[bLen + padCols]};

  DataCopy(bLocal, bGm, bLen);
  SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
  WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
  for (uint32_t r = 0; r < count; ++r) {
    const int32_t s = r & 1;
    if (r >= 2) WaitFlag<HardEvent::MTE3_V>(s);
    const T v = bLocal.GetValue(r);  // ordered after MTE2 through PIPE_V's wait and the V -> S sync
    Duplicate(out[s], v, cols);
    SetFlag<HardEvent::V_MTE3>(s);
    WaitFlag<HardEvent::V_MTE3>(s);
    DataCopyPad(yGm[r * cols], out[s], DataCopyExtParams{1, static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0});
    if (r + 2 < count) SetFlag<HardEvent::MTE3_V>(s);
  }
}
