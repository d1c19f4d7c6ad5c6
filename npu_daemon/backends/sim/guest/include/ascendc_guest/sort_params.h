// The sort family's parameter records and pair arithmetic, as the library spells them: the native
// engine (ascendc_sim/vec_sort.h) and the guest engine (ascendc_guest/vec_sort.h) include this one
// definition, after LocalTensor.
#pragma once

#include <cstdint>
#include <type_traits>

namespace AscendC {

constexpr uint8_t MRG_SORT_ELEMENT_LEN = 4;

template <typename T>
struct MrgSortSrcList {
  MrgSortSrcList() = default;
  MrgSortSrcList(const LocalTensor<T>& a, const LocalTensor<T>& b, const LocalTensor<T>& c, const LocalTensor<T>& d)
      : src1(a), src2(b), src3(c), src4(d) {}
  LocalTensor<T> src1, src2, src3, src4;
};

struct MrgSort4Info {
  MrgSort4Info() = default;
  MrgSort4Info(const uint16_t lengths[MRG_SORT_ELEMENT_LEN], bool exhaustedSuspension, uint16_t valid, uint16_t repeats)
      : ifExhaustedSuspension(exhaustedSuspension), validBit(valid), repeatTimes(static_cast<uint8_t>(repeats)) {
    for (int i = 0; i < MRG_SORT_ELEMENT_LEN; ++i) elementLengths[i] = lengths[i];
  }
  uint16_t elementLengths[MRG_SORT_ELEMENT_LEN] = {0};  // pairs in each list
  bool ifExhaustedSuspension = false;
  uint16_t validBit = 0;  // bit k: list k takes part (3, 7 or 15)
  uint8_t repeatTimes = 1;
};

// Pairs counted in T elements (4 halves or 2 floats a pair).
template <typename T>
uint32_t GetSortLen(const uint32_t elemCount) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "GetSortLen: half or float");
  return elemCount * (8 / sizeof(T));
}
template <typename T>
uint32_t GetSortOffset(const uint32_t elemOffset) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "GetSortOffset: half or float");
  return elemOffset * (8 / sizeof(T));
}

}  // namespace AscendC
