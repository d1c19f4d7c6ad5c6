// Index generation of the advanced API: ArithProgression.
#pragma once

#include "ascendc_sim/sync.h"
#include "ascendc_sim/vec_elementwise.h"

namespace AscendC {

// dst[i] = first + i * diff for i < count, built as the library builds it (asc-devkit
// adv_api/index/arithprogression): the first 32-byte block by scalar writes (half computed in
// float), then each block from the one before with Adds of diff * (elements per block) up to one
// repeat, then each 256-byte repeat from the one before; so a float sequence accumulates the
// additions' rounding as on the device. Past `count` the last block (or, beyond one repeat, the
// first whole repeat) is written in full.
template <typename T>
__aicore__ inline void ArithProgression(const LocalTensor<T>& dst, const T first, const T diff, const int32_t count) {
  constexpr int32_t kBlock = 32 / sizeof(T);
  constexpr int32_t kRepeat = 256 / sizeof(T);
  using Scalar = std::conditional_t<std::is_same_v<T, half>, float, T>;
  auto step = [&](int32_t n) {
    if constexpr (std::is_integral_v<T>)
      return static_cast<T>(static_cast<int64_t>(diff) * n);
    else
      return static_cast<T>(static_cast<float>(diff) * static_cast<float>(n));
  };
  const int32_t base = count < kBlock ? count : kBlock;
  for (int32_t i = 0; i < base; ++i)
    dst.SetValue(i, static_cast<T>(static_cast<Scalar>(first) + static_cast<Scalar>(diff) * static_cast<Scalar>(i)));
  TPipe* pipe = GetTPipePtr();
  const int8_t event = pipe != nullptr ? pipe->FetchEventID(HardEvent::S_V) : 0;
  SetFlag<HardEvent::S_V>(event);
  WaitFlag<HardEvent::S_V>(event);
  if (count <= kBlock) return;
  const int32_t blocks = count > kRepeat ? kRepeat : (count + kBlock - 1) / kBlock * kBlock;
  for (int32_t n = kBlock; n < blocks; n += kBlock) {
    Adds(dst[n], dst[n - kBlock], step(kBlock), kBlock);
    PipeBarrier<PIPE_V>();
  }
  for (int32_t n = kRepeat; n < count; n += kRepeat) {
    const int32_t rest = (count - n + kBlock - 1) / kBlock * kBlock;
    Adds(dst[n], dst[n - kRepeat], step(kRepeat), rest < kRepeat ? rest : kRepeat);
    PipeBarrier<PIPE_V>();
  }
}

}  // namespace AscendC
