#include "kernel_operator.h"
using namespace AscendC;

#if !defined(DT_BF16) || !defined(FORMAT_ND)
#error "the kernel compile defines the DT_* and FORMAT_* values"
#endif
#if FORMAT_X != FORMAT_ND
#error "ND format expected"
#endif

#if ORIG_DTYPE_X == DT_BF16
using CalcT = float;  // bf16 computes in float
constexpr float FACTOR = 3.0f;
#elif ORIG_DTYPE_X == DT_FLOAT16
using CalcT = half;
constexpr float FACTOR = 2.0f;
#else
using CalcT = float;
constexpr float FACTOR = 3.0f;
#endif

extern "C" __global__ __aicore__ void orig_dtype_branch(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
  GET_TILING_DATA(t, tiling);
  using T = DTYPE_X;
  GlobalTensor<T> xGm, yGm;
  xGm.SetGlobalBuffer((__gm__ T*)x, t.total);
  yGm.SetGlobalBuffer((__gm__ T*)y, t.total);
  TPipe pipe;
  TBuf<> raw, calc;
  pipe.InitBuffer(raw, t.total * sizeof(T));
  pipe.InitBuffer(calc, t.total * sizeof(CalcT));
  LocalTensor<T> r = raw.Get<T>();
  const DataCopyExtParams row{1, static_cast<uint32_t>(t.total * sizeof(T)), 0, 0, 0};
  DataCopyPad(r, xGm, row, DataCopyPadExtParams<T>{false, 0, 0, 0});
  PipeBarrier<PIPE_ALL>();
  if constexpr (std::is_same_v<T, CalcT>) {
    Muls(r, r, static_cast<T>(FACTOR), t.total);
  } else {
    LocalTensor<CalcT> c = calc.Get<CalcT>();
    Cast(c, r, RoundMode::CAST_NONE, t.total);
    Muls(c, c, static_cast<CalcT>(FACTOR), t.total);
    Cast(r, c, RoundMode::CAST_RINT, t.total);
  }
  PipeBarrier<PIPE_ALL>();
  DataCopyPad(yGm, r, row);
}
