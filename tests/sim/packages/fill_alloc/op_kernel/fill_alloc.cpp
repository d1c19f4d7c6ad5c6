#include "kernel_operator.h"

constexpr uint32_t TILE = 8192;

extern "C" __global__ __aicore__ void fill_alloc(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
  using T = DTYPE_Y;
  GET_TILING_DATA(t, tiling);
  const uint32_t offset = AscendC::GetBlockIdx() * t.perCore;
  if (offset >= t.totalLength) return;
  const uint32_t length = offset + t.perCore <= t.totalLength ? t.perCore : t.totalLength - offset;
  AscendC::GlobalTensor<T> yGm;
  yGm.SetGlobalBuffer((__gm__ T*)y + offset, length);

  AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
  AscendC::LocalTensor<T> tile = ub.Alloc<T, TILE>();
  if constexpr (sizeof(T) == 1) {
    AscendC::LocalTensor<half> wide = ub.Alloc<AscendC::TPosition::VECCALC, half>(TILE);
    AscendC::Duplicate(wide, static_cast<half>(static_cast<float>(static_cast<T>(static_cast<int32_t>(t.value)))), TILE);
    AscendC::Cast(tile, wide, AscendC::RoundMode::CAST_NONE, TILE);
  } else if constexpr (std::is_integral_v<T>) {
    AscendC::Duplicate(tile, static_cast<T>(static_cast<int32_t>(t.value)), TILE);
  } else {
    AscendC::Duplicate(tile, static_cast<T>(t.value), TILE);
  }
  AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
  for (uint32_t done = 0; done < length; done += TILE) {
    const uint32_t len = length - done < TILE ? length - done : TILE;
    if (len == TILE) {
      AscendC::DataCopy(yGm[done], tile, TILE);
    } else {
      AscendC::DataCopyPad(yGm[done], tile, AscendC::DataCopyExtParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0});
    }
  }
}
