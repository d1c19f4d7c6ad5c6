// Sorting: Sort32 (each repeat sorts 32 scores with their uint32 indices, descending) and the
// proposal sort family built on it (below).
//
// Each output element is an 8 B (score, index) pair: the score in the low bytes (4 B for float,
// 2 B for half, whose next 2 B are reserved and left as they were), the index in the high 4 B.
// Equal scores keep their input order. Repeat r reads 32 scores and 32 indices from element
// r * 32 of each source and writes pairs from byte r * 256 of dst.
#pragma once

#include <algorithm>
#include <array>

#include "ascendc_sim/data_copy.h"
#include "ascendc_sim/sync.h"
#include "ascendc_sim/vec_elementwise.h"
// After LocalTensor: the parameter records both engines share.
#include "../../guest/include/ascendc_guest/sort_params.h"

namespace ascendc_sim {
// An operand `needBytes` long at a tensor of `haveBytes`: past the tensor but inside the UB the
// device runs on (a warning), as for every vector operand; past the UB it is an error.
inline void CheckPast(uint32_t addr, uint64_t haveBytes, uint64_t needBytes, const char* api, const char* what,
                      const SrcLoc& loc) {
  if (needBytes <= haveBytes) return;
  ASCENDC_SIM_CHECK(addr + needBytes <= CurrentCore().Local().Size(LocalBuf::kUB), loc,
                    "%s: %s needs %llu bytes, the tensor has %llu, past the end of the UB", api, what,
                    static_cast<unsigned long long>(needBytes), static_cast<unsigned long long>(haveBytes));
  DeviceTolerated(loc, "%s: %s needs %llu bytes, the tensor has %llu", api, what,
                  static_cast<unsigned long long>(needBytes), static_cast<unsigned long long>(haveBytes));
}
}  // namespace ascendc_sim

namespace AscendC {

template <typename T>
__aicore__ inline void Sort32(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<uint32_t>& src1,
                              const int32_t repeatTime, ASCENDC_SIM_LOC) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Sort32: half or float scores");
  constexpr uint32_t kPairElems = 8 / sizeof(T);
  ASCENDC_SIM_CHECK(repeatTime >= 0 && repeatTime <= 255, loc, "Sort32: repeatTime %d out of range [0, 255]",
                    repeatTime);
  if (repeatTime == 0) return;  // a NOP on A2/A3
  const uint32_t n = static_cast<uint32_t>(repeatTime) * 32;
  ascendc_sim::CheckPast(src0.UbAddr(), src0.GetLength(), n * sizeof(T), "Sort32", "the score source", loc);
  ascendc_sim::CheckPast(src1.UbAddr(), src1.GetLength(), n * 4ull, "Sort32", "the index source", loc);
  ascendc_sim::CheckPast(dst.UbAddr(), dst.GetLength(), n * 8ull, "Sort32", "the destination", loc);
  ascendc_sim::Lanes l = ascendc_sim::CountLanes<T>(n);
  ascendc_sim::IssueVector(ascendc_sim::Op::kVecSelect, "Sort32", l, {}, sizeof(T), loc,
                           {{src0.UbAddr(), static_cast<uint32_t>(n * sizeof(T)), false},
                            {src1.UbAddr(), n * 4u, false},
                            {dst.UbAddr(), n * 8u, true}});
  const T* score = ascendc_sim::HostData(src0);
  const uint32_t* index = ascendc_sim::HostData(src1);
  uint8_t* out = reinterpret_cast<uint8_t*>(ascendc_sim::HostData(dst));
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

// ---- the proposal sort family: Sort, Concat, Extract, MrgSort ---------------------------------
// On the A2 a sorted element is the 8 B (score, index) pair Sort32 writes. GetSortLen and
// GetSortOffset count pairs in T elements (4 halves or 2 floats a pair), as the A2 library does.
// MrgSort merges up to 4 sorted lists (descending; on equal scores the earlier list first), leaves
// the pairs taken from each list in VMS4_SR (GetMrgSortResult), and with ifExhaustedSuspension
// stops as soon as one list runs out. Concat is the identity on the A2 (Sort reads the scores
// themselves), Sort is Sort32, and Sort<T, true> then merges the 32-pair lists 4 at a time into one
// (a UB copy and a MrgSort per round, as the library does). Extract splits pairs into scores and
// indices in two select instructions, as the library's two GatherMasks do; for half scores its
// index pass covers twice the pairs.

namespace ascendc_sim {

template <typename T>
float PairScore(const uint8_t* pair) {
  T s;
  std::memcpy(&s, pair, sizeof(T));
  return static_cast<float>(s);
}

// One merge: pairs from the valid lists into `out`, the highest score first, the earlier list on
// ties; returns the pairs taken from each list.
template <typename T>
std::array<uint32_t, 4> MergeLists(const std::array<const uint8_t*, 4>& src, const std::array<uint32_t, 4>& len,
                                   bool suspend, uint8_t* out) {
  std::array<uint32_t, 4> taken{};
  for (;;) {
    int best = -1;
    bool exhausted = false;
    for (int k = 0; k < 4; ++k) {
      if (src[k] == nullptr) continue;
      if (taken[k] == len[k]) {
        exhausted = true;
        continue;
      }
      if (best < 0 || PairScore<T>(src[k] + taken[k] * 8ull) > PairScore<T>(src[best] + taken[best] * 8ull)) best = k;
    }
    if (best < 0 || (suspend && exhausted)) return taken;
    std::memcpy(out, src[best] + taken[best] * 8ull, 8);
    out += 8;
    ++taken[best];
  }
}

// A UB range an instruction reads or writes, widened to 32 B blocks (the race checker's unit).
inline UbAccess BlockAccess(uint32_t addr, uint64_t bytes, bool write) {
  return UbAccess{addr / 32 * 32, static_cast<uint32_t>(bytes + addr % 32), write};
}

}  // namespace ascendc_sim

namespace AscendC {

template <typename T>
__aicore__ inline void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& params,
                               ASCENDC_SIM_LOC) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "MrgSort: half or float");
  ASCENDC_SIM_CHECK(params.validBit == 3 || params.validBit == 7 || params.validBit == 15, loc,
                    "MrgSort: validBit %u is not 3, 7 or 15", params.validBit);
  if (params.repeatTimes == 0) return;  // a NOP on A2/A3
  const LocalTensor<T>* lists[4] = {&src.src1, &src.src2, &src.src3, &src.src4};
  std::array<uint32_t, 4> len{};
  uint64_t total = 0;
  for (int k = 0; k < 4; ++k) {
    len[k] = params.validBit >> k & 1 ? params.elementLengths[k] : 0;
    total += len[k];
  }
  // Each repeat moves every list and dst on by the lists' total length.
  const uint64_t step = total * 8, outBytes = total * 8 * params.repeatTimes;
  ascendc_sim::UbAccess acc[5];
  int n = 0;
  for (int k = 0; k < 4; ++k) {
    if (!(params.validBit >> k & 1)) continue;
    ASCENDC_SIM_CHECK(lists[k]->UbAddr() % 8 == 0, loc, "MrgSort: list %d at UB address %u is not 8 B aligned", k + 1,
                      lists[k]->UbAddr());
    const uint64_t bytes = (params.repeatTimes - 1) * step + len[k] * 8ull;
    ascendc_sim::CheckPast(lists[k]->UbAddr(), lists[k]->GetLength(), bytes, "MrgSort", "a source list", loc);
    acc[n++] = ascendc_sim::BlockAccess(lists[k]->UbAddr(), bytes, false);
  }
  ascendc_sim::CheckPast(dst.UbAddr(), dst.GetLength(), outBytes, "MrgSort", "the destination", loc);
  acc[n++] = ascendc_sim::BlockAccess(dst.UbAddr(), outBytes, true);
  while (n < 5) acc[n++] = acc[0];  // unused slots repeat an access: the checker sees it twice
  ascendc_sim::IssueVector(ascendc_sim::Op::kVecMerge, "MrgSort",
                           ascendc_sim::CountLanes<uint64_t>(total * params.repeatTimes), {}, 8, loc,
                           {acc[0], acc[1], acc[2], acc[3], acc[4]});
  uint8_t* out = reinterpret_cast<uint8_t*>(ascendc_sim::HostData(dst));
  std::array<uint32_t, 4> taken{};
  for (uint32_t r = 0; r < params.repeatTimes; ++r) {
    std::array<const uint8_t*, 4> from{};
    for (int k = 0; k < 4; ++k)
      if (params.validBit >> k & 1)
        from[k] = reinterpret_cast<const uint8_t*>(ascendc_sim::HostData(*lists[k])) + r * step;
    taken = ascendc_sim::MergeLists<T>(from, len, params.ifExhaustedSuspension, out + r * step);
  }
  // VMS4_SR: the pairs taken from each list (16 bits each).
  uint64_t sr = 0;
  for (int k = 0; k < 4; ++k) sr |= static_cast<uint64_t>(taken[k] & 0xffff) << (16 * k);
  ascendc_sim::CurrentCore().Registers().vms4Sr = sr;
}

template <typename T, bool isExhaustedSuspension>
__aicore__ inline void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& sortList,
                               const uint16_t elementCountList[4], uint32_t sortedNum[4], uint16_t validBit,
                               const int32_t repeatTime, ASCENDC_SIM_LOC) {
  MrgSort(dst, sortList,
          MrgSort4Info(elementCountList, isExhaustedSuspension, validBit, static_cast<uint16_t>(repeatTime)), loc);
  if constexpr (isExhaustedSuspension) {
    const uint64_t sr = ascendc_sim::CurrentCore().Registers().vms4Sr;
    for (int k = 0; k < 4; ++k) sortedNum[k] = static_cast<uint32_t>(sr >> (16 * k) & 0xffff);
  }
}

__aicore__ inline void GetMrgSortResult(uint16_t& list1, uint16_t& list2, uint16_t& list3, uint16_t& list4) {
  const uint64_t sr = ascendc_sim::CurrentCore().Registers().vms4Sr;
  list1 = sr & 0xffff, list2 = sr >> 16 & 0xffff, list3 = sr >> 32 & 0xffff, list4 = sr >> 48 & 0xffff;
  ascendc_sim::CurrentCore().Scalar(1);
}

// On the A2 the scores are sorted where they are: concat becomes src, tmp is untouched.
template <typename T>
__aicore__ inline void Concat(LocalTensor<T>& concat, const LocalTensor<T>& src, const LocalTensor<T>& tmp,
                              const int32_t repeatTime) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "Concat: half or float");
  (void)tmp, (void)repeatTime;
  concat = src;
}

template <typename T, bool isFullSort>
__aicore__ inline void Sort(const LocalTensor<T>& dst, const LocalTensor<T>& concat, const LocalTensor<uint32_t>& index,
                            LocalTensor<T>& tmp, const int32_t repeatTime, ASCENDC_SIM_LOC) {
  Sort32(dst, concat, index, repeatTime, loc);
  if constexpr (isFullSort) {
    if (repeatTime <= 1) return;
    const uint32_t pairs = static_cast<uint32_t>(repeatTime) * 32, perPair = 8 / sizeof(T);
    PipeBarrier<PIPE_V>(loc);
    // Rounds of 4-way merges of lists of `run` pairs (the last list may be shorter), each from a
    // copy of dst in tmp back into dst.
    for (uint32_t run = 32; run < pairs; run *= 4) {
      DataCopy(tmp, dst, pairs * perPair, loc);
      PipeBarrier<PIPE_V>(loc);
      for (uint32_t start = 0; start < pairs; start += 4 * run) {
        uint16_t len[4] = {0, 0, 0, 0};
        uint16_t valid = 0;
        for (int k = 0; k < 4; ++k) {
          const uint32_t s = start + k * run;
          if (s < pairs) len[k] = static_cast<uint16_t>(std::min(run, pairs - s)), valid |= 1u << k;
        }
        if (valid == 1) {  // a lone list: copied through
          DataCopy(dst[start * perPair], tmp[start * perPair], len[0] * perPair, loc);
          continue;
        }
        MrgSortSrcList<T> list(tmp[start * perPair], tmp[(start + run) * perPair],
                               tmp[std::min(start + 2 * run, pairs) * perPair],
                               tmp[std::min(start + 3 * run, pairs) * perPair]);
        MrgSort(dst[start * perPair], list,
                MrgSort4Info(len, false,
                             valid == 0b0011   ? 3
                             : valid == 0b0111 ? 7
                                               : 15,
                             1),
                loc);
      }
      PipeBarrier<PIPE_V>(loc);
    }
  }
}

template <typename T>
__aicore__ inline void Extract(const LocalTensor<T>& dstValue, const LocalTensor<uint32_t>& dstIndex,
                               const LocalTensor<T>& sorted, const int32_t repeatTime, ASCENDC_SIM_LOC) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "Extract: half or float");
  if (repeatTime <= 0) return;
  const uint64_t pairs = static_cast<uint64_t>(repeatTime) * 32;
  const uint64_t indexPairs = std::is_same_v<T, half> ? 2 * pairs : pairs;
  ascendc_sim::CheckPast(sorted.UbAddr(), sorted.GetLength(), indexPairs * 8, "Extract", "the sorted pairs", loc);
  ascendc_sim::CheckPast(dstValue.UbAddr(), dstValue.GetLength(), pairs * sizeof(T), "Extract", "the value destination",
                         loc);
  ascendc_sim::CheckPast(dstIndex.UbAddr(), dstIndex.GetLength(), indexPairs * 4, "Extract", "the index destination",
                         loc);
  // The library's two GatherMasks: the scores (every 4th half / every 2nd float), then the
  // indices (every 2nd uint32).
  const uint32_t src = sorted.UbAddr();
  ascendc_sim::IssueVector(ascendc_sim::Op::kVecSelect, "Extract", ascendc_sim::CountLanes<T>(pairs * 8 / sizeof(T)),
                           {}, sizeof(T), loc,
                           {{src, static_cast<uint32_t>(pairs * 8), false},
                            {dstValue.UbAddr(), static_cast<uint32_t>(pairs * sizeof(T)), true}});
  PipeBarrier<PIPE_V>(loc);
  ascendc_sim::IssueVector(ascendc_sim::Op::kVecSelect, "Extract", ascendc_sim::CountLanes<uint32_t>(indexPairs * 2),
                           {}, 4, loc,
                           {{src, static_cast<uint32_t>(indexPairs * 8), false},
                            {dstIndex.UbAddr(), static_cast<uint32_t>(indexPairs * 4), true}});
  const uint8_t* in = reinterpret_cast<const uint8_t*>(ascendc_sim::HostData(sorted));
  T* value = ascendc_sim::HostData(dstValue);
  uint32_t* index = ascendc_sim::HostData(dstIndex);
  for (uint64_t i = 0; i < pairs; ++i) std::memcpy(&value[i], in + i * 8, sizeof(T));
  for (uint64_t i = 0; i < indexPairs; ++i) std::memcpy(&index[i], in + i * 8 + 4, 4);
}

}  // namespace AscendC
