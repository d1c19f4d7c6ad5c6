#include "kernel_operator.h"
using namespace AscendC;

// bf16 computes in float; half and float compute in place.
template <typename T>
using CalcT = std::conditional_t<std::is_same_v<T, bfloat16_t>, float, T>;

template <typename T>
class KernelExpm1 {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t offset, uint32_t length, uint32_t tile)
  {
    InitSocState();
    xGm.SetGlobalBuffer((__gm__ T*)x + offset, length);
    yGm.SetGlobalBuffer((__gm__ T*)y + offset, length);
    length_ = length;
    tile_ = tile;
    const uint32_t bytes = tile * sizeof(T);
    for (int i = 0; i < 2; ++i) {
      in_[i] = LocalTensor<T>(TPosition::VECIN, i * bytes, tile);
      out_[i] = LocalTensor<T>(TPosition::VECOUT, (2 + i) * bytes, tile);
    }
    if constexpr (!std::is_same_v<T, CalcT<T>>) calc_ = LocalTensor<CalcT<T>>(TPosition::VECCALC, 4 * bytes, tile);
  }

  __aicore__ inline void Process()
  {
    const uint32_t tiles = (length_ + tile_ - 1) / tile_;
    for (uint32_t i = 0; i < tiles; ++i) {
      const int32_t s = i & 1;
      const uint32_t len = i + 1 == tiles ? length_ - i * tile_ : tile_;
      if (i >= 2) WaitFlag<HardEvent::MTE3_MTE2>(s);  // slot s was last copied out two tiles ago
      DataCopyPad(in_[s], xGm[i * tile_], DataCopyExtParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0},
                  DataCopyPadExtParams<T>{false, 0, 0, 0});
      SetFlag<HardEvent::MTE2_V>(s);
      WaitFlag<HardEvent::MTE2_V>(s);
      if constexpr (std::is_same_v<T, CalcT<T>>) {
        Exp(out_[s], in_[s], len);
        Adds(out_[s], out_[s], static_cast<T>(-1), len);
      } else {
        Cast(calc_, in_[s], RoundMode::CAST_NONE, len);
        Exp(calc_, calc_, len);
        Adds(calc_, calc_, -1.0f, len);
        Cast(out_[s], calc_, RoundMode::CAST_RINT, len);
      }
      SetFlag<HardEvent::V_MTE3>(s);
      WaitFlag<HardEvent::V_MTE3>(s);
      DataCopyPad(yGm[i * tile_], out_[s], DataCopyExtParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0});
      if (i + 2 < tiles) SetFlag<HardEvent::MTE3_MTE2>(s);  // only when a later tile reuses the slot
    }
  }

 private:
  GlobalTensor<T> xGm, yGm;
  LocalTensor<T> in_[2], out_[2];
  LocalTensor<CalcT<T>> calc_;
  uint32_t length_ = 0, tile_ = 0;
};

extern "C" __global__ __aicore__ void expm1(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  GET_TILING_DATA(t, tiling);
  const uint32_t offset = GetBlockIdx() * t.perCore;
  const uint32_t length = offset + t.perCore <= t.totalLength ? t.perCore : t.totalLength - offset;
  KernelExpm1<DTYPE_X> op;
  op.Init(x, y, offset, length, t.tileLength);
  op.Process();
}
