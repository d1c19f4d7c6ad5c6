// Sorting: Sort32 (each repeat sorts 32 scores with their uint32 indices, descending).
//
// Each output element is an 8 B (score, index) pair: the score in the low bytes (4 B for float,
// 2 B for half, whose next 2 B are reserved and left as they were), the index in the high 4 B.
// Equal scores keep their input order. Repeat r reads 32 scores and 32 indices from element
// r * 32 of each source and writes pairs from byte r * 256 of dst.
#pragma once

#include <algorithm>

#include "ascendc_sim/vec_elementwise.h"

namespace AscendC {

template <typename T>
__aicore__ inline void Sort32(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<uint32_t>& src1,
                              const int32_t repeatTime, ASCENDC_SIM_LOC) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Sort32: half or float scores");
  constexpr uint32_t kPairElems = 8 / sizeof(T);
  ASCENDC_SIM_CHECK(repeatTime >= 0 && repeatTime <= 255, loc, "Sort32: repeatTime %d out of range [0, 255]", repeatTime);
  if (repeatTime == 0) return;  // a NOP on A2/A3
  const uint32_t n = static_cast<uint32_t>(repeatTime) * 32;
  // Past a tensor but inside the UB the device runs on (a warning), as for every vector operand.
  const auto past = [&](uint32_t addr, uint32_t size, uint64_t elems, uint32_t elemBytes, const char* what) {
    if (elems <= size) return;
    ASCENDC_SIM_CHECK(addr + elems * elemBytes <= ascendc_sim::CurrentCore().Local().Size(ascendc_sim::LocalBuf::kUB), loc,
                      "Sort32: the %s needs %llu elements, the tensor has %u, past the end of the UB", what,
                      static_cast<unsigned long long>(elems), size);
    ascendc_sim::DeviceTolerated(loc, "Sort32: the %s needs %llu elements, the tensor has %u", what, static_cast<unsigned long long>(elems),
                                 size);
  };
  past(src0.UbAddr(), src0.GetSize(), n, sizeof(T), "score source");
  past(src1.UbAddr(), src1.GetSize(), n, 4, "index source");
  past(dst.UbAddr(), dst.GetSize(), static_cast<uint64_t>(n) * kPairElems, sizeof(T), "destination");
  ascendc_sim::Lanes l = ascendc_sim::CountLanes<T>(n);
  ascendc_sim::IssueVector(ascendc_sim::Op::kVecSelect, "Sort32", l, {}, sizeof(T), loc,
                           {{src0.UbAddr(), static_cast<uint32_t>(n * sizeof(T)), false},
                            {src1.UbAddr(), n * 4u, false},
                            {dst.UbAddr(), n * 8u, true}});
  const T* score = src0.Data();
  const uint32_t* index = src1.Data();
  uint8_t* out = reinterpret_cast<uint8_t*>(dst.Data());
  for (uint32_t r = 0; r < static_cast<uint32_t>(repeatTime); ++r) {
    uint32_t order[32];
    for (uint32_t i = 0; i < 32; ++i) order[i] = r * 32 + i;
    std::stable_sort(order, order + 32, [&](uint32_t a, uint32_t b) {
      return static_cast<float>(score[a]) > static_cast<float>(score[b]);
    });
    for (uint32_t i = 0; i < 32; ++i) {
      uint8_t* pair = out + (static_cast<uint64_t>(r) * 32 + i) * 8;
      std::memcpy(pair, &score[order[i]], sizeof(T));
      std::memcpy(pair + 4, &index[order[i]], 4);
    }
  }
}

}  // namespace AscendC
