// The vector-instruction engine every vector API is built on: lane geometry of the three
// overload families (count; mask + repeatTime + repeat params; bit-mask array), mask modes,
// operand checks, trace records.
//
// One repeat processes 8 blocks of 32 B per operand. Lane e of repeat r of an operand with
// block stride `blk` and repeat stride `rep` (both in 32 B blocks) is the element at
//   r * rep * perBlock + (e / perBlock) * blk * perBlock + e % perBlock.
#pragma once

#include <algorithm>

#include "../../guest/include/ascendc_guest/repeat_params.h"  // shared with the guest engine
#include "ascendc_sim/memory.h"

namespace ascendc_sim {

struct Stride {
  uint32_t blk = 1;       // 32 B blocks between consecutive blocks of one repeat
  uint32_t rep = 8;       // 32 B blocks between consecutive repeats
  uint32_t perBlock = 0;  // this operand's elements per 32 B block (0: the instruction's width)
};

// Which lanes of which repeats an instruction touches.
struct Lanes {
  uint32_t repeats = 0;
  uint32_t perRepeat = 0;     // lanes in one repeat (256 B / element size; more in Copy's counter mode)
  uint32_t passes = 1;        // 256 B passes of the vector unit per repeat (the model's charge)
  uint32_t perBlock = 0;      // lanes in one 32 B block
  uint64_t bits[2] = {0, 0};  // normal mode: active lanes of every repeat
  uint64_t count = 0;         // counter mode: total lanes; repeats are full but the last
  bool counter = false;
  bool contiguous = false;  // count-form API: `count` consecutive elements on every operand

  bool Active(uint32_t r, uint32_t e) const {
    if (counter) return static_cast<uint64_t>(r) * perRepeat + e < count;
    return (bits[e / 64] >> (e % 64)) & 1u;
  }
  uint32_t LastLane(uint32_t r) const {  // highest active lane of repeat r
    if (counter)
      return static_cast<uint32_t>(std::min<uint64_t>(perRepeat, count - static_cast<uint64_t>(r) * perRepeat)) - 1;
    return bits[1] ? 127 - __builtin_clzll(bits[1]) : 63 - __builtin_clzll(bits[0]);
  }
  // Element index of lane e of repeat r. Operands narrower than the instruction's lane width (the
  // half side of a half->float Cast) fill fewer blocks per repeat: their blocks hold more lanes.
  uint64_t Offset(uint32_t r, uint32_t e, Stride s) const {
    const uint32_t pb = s.perBlock ? s.perBlock : perBlock;
    return static_cast<uint64_t>(r) * s.rep * pb + static_cast<uint64_t>(e / pb) * s.blk * pb + e % pb;
  }
  uint64_t ActiveLanes() const {
    if (counter) return count;
    return static_cast<uint64_t>(repeats) * (__builtin_popcountll(bits[0]) + __builtin_popcountll(bits[1]));
  }
  // One past the highest element index an operand with stride `s` touches.
  uint64_t Extent(Stride s) const {
    if (contiguous) return count;
    if (repeats == 0 || (!counter && !bits[0] && !bits[1])) return 0;
    uint64_t end = Offset(repeats - 1, LastLane(repeats - 1), s) + 1;
    if (counter && repeats >= 2) end = std::max(end, Offset(repeats - 2, perRepeat - 1, s) + 1);
    return end;
  }
};

// T is the widest element type of the instruction: it sets the lanes per repeat.
template <typename T>
Lanes CountLanes(uint64_t count) {
  Lanes l;
  l.perRepeat = 256 / sizeof(T);
  l.perBlock = 32 / sizeof(T);
  l.count = count;
  l.counter = true;
  l.contiguous = true;
  l.repeats = static_cast<uint32_t>((count + l.perRepeat - 1) / l.perRepeat);
  return l;
}

// The mask forms honour the core's mask mode: in counter mode `mask` is the total lane count.
template <typename T>
Lanes MaskLanes(const uint64_t mask[2], uint32_t repeatTime, const SrcLoc& loc) {
  Core& core = CurrentCore();
  Lanes l;
  l.perRepeat = 256 / sizeof(T);
  l.perBlock = 32 / sizeof(T);
  if (core.Registers().maskCounter) {
    l.counter = true;
    l.count = mask[0];
    l.repeats = static_cast<uint32_t>((l.count + l.perRepeat - 1) / l.perRepeat);
    return l;
  }
  l.repeats = repeatTime;
  l.bits[0] = mask[0];
  l.bits[1] = sizeof(T) == 2 ? mask[1] : 0;
  // The documentation asks for mask[1] = 0 with 32-bit types; a repeat has 64 lanes, so the device
  // reads the low word only (kernels passing a one-word array leave mask[1] as whatever follows it).
  if (sizeof(T) >= 4)
    ASCENDC_SIM_WARN_UNLESS(mask[1] == 0, loc,
                            "bit mask high word %#llx with a 32-bit type: the device reads the low word only",
                            static_cast<unsigned long long>(mask[1]));
  return l;
}

template <typename T>
Lanes ContinuousMaskLanes(uint64_t mask, uint32_t repeatTime, const SrcLoc& loc) {
  Core& core = CurrentCore();
  uint64_t bits[2] = {mask, 0};
  if (!core.Registers().maskCounter) {
    const uint64_t perRepeat = 256 / sizeof(T);
    ASCENDC_SIM_CHECK(mask >= 1, loc, "continuous mask 0: no lane of the repeat runs");
    // AscendCUtils::SetMask sets both mask registers full for a length >= 128 (a b32 op reads the
    // low one): a longer mask runs the whole repeat on the device.
    ASCENDC_SIM_WARN_UNLESS(mask <= perRepeat, loc,
                            "continuous mask %llu out of range [1, %llu]: the whole repeat runs",
                            static_cast<unsigned long long>(mask), static_cast<unsigned long long>(perRepeat));
    mask = mask < perRepeat ? mask : perRepeat;
    bits[0] = mask >= 64 ? ~0ull : (1ull << mask) - 1;
    bits[1] = mask > 64 ? (mask >= 128 ? ~0ull : (1ull << (mask - 64)) - 1) : 0;
  }
  return MaskLanes<T>(bits, repeatTime, loc);
}

// Copy's counter mode is not the other instructions' (asc-devkit, Copy's constraints): the mask
// counts the lanes of each repeat, not of the whole instruction, and repeatTime counts. A repeat
// of more than 256 B takes one pass of the unit per 256 B, charged as that many repeats.
template <typename T>
Lanes CopyLanes(Lanes l, uint8_t repeatTime, const SrcLoc& loc) {
  if (!l.counter) return l;
  ASCENDC_SIM_CHECK(l.count <= CurrentCore().Local().Size(LocalBuf::kUB) / sizeof(T), loc,
                    "Copy: a counter-mode repeat of %llu lanes is larger than the UB",
                    static_cast<unsigned long long>(l.count));
  l.perRepeat = static_cast<uint32_t>(l.count);
  l.repeats = l.perRepeat ? repeatTime : 0;
  l.passes = static_cast<uint32_t>((l.count * sizeof(T) + 255) / 256);
  l.count *= l.repeats;
  return l;
}

// An operand of a vector instruction: its tensor view and lane geometry.
struct Operand {
  uint32_t addr;  // UB byte address
  uint32_t size;  // elements in the tensor view
  uint32_t elemBytes;
  Stride stride;
  bool write;
};

// Checks operands (alignment, bounds), then records the instruction. Returns nothing on error:
// Fail() throws.
// `extra`: UB ranges touched outside the lane geometry (a Gather source, a reduction's scratch).
void IssueVector(Op op, const char* api, const Lanes& lanes, std::initializer_list<Operand> operands,
                 uint32_t elemBytes, const SrcLoc& loc, std::initializer_list<UbAccess> extra = {});

// Run f(dstIndex, src0Index, src1Index) over the active lanes; the count form is one flat loop so
// g++ can vectorise it.
template <typename F>
inline void ForLanes(const Lanes& l, Stride d, Stride a, Stride b, F f) {
  if (l.contiguous) {
    for (uint64_t i = 0; i < l.count; ++i) f(i, i, i);
    return;
  }
  for (uint32_t r = 0; r < l.repeats; ++r)
    for (uint32_t e = 0; e < l.perRepeat; ++e)
      if (l.Active(r, e)) f(l.Offset(r, e, d), l.Offset(r, e, a), l.Offset(r, e, b));
}

}  // namespace ascendc_sim

namespace AscendC {

template <typename T, MaskMode mode = MaskMode::NORMAL>
__aicore__ inline void SetVectorMask(uint64_t maskHigh, uint64_t maskLow) {
  ascendc_sim::Core& core = ascendc_sim::CurrentCore();
  core.Registers().mask[0] = maskLow;
  core.Registers().mask[1] = maskHigh;
  core.Scalar(1);
}
template <typename T, MaskMode mode = MaskMode::NORMAL>
__aicore__ inline void SetVectorMask(int32_t len) {
  ascendc_sim::Core& core = ascendc_sim::CurrentCore();
  if (mode == MaskMode::COUNTER || core.Registers().maskCounter) {
    core.Registers().mask[0] = static_cast<uint64_t>(len);
    core.Registers().mask[1] = 0;
  } else {
    core.Registers().mask[0] = len >= 64 ? ~0ull : (1ull << len) - 1;
    core.Registers().mask[1] = len > 64 ? (len >= 128 ? ~0ull : (1ull << (len - 64)) - 1) : 0;
  }
  core.Scalar(1);
}
__aicore__ inline void SetMaskCount() {
  ascendc_sim::CurrentCore().Registers().maskCounter = true;
  ascendc_sim::CurrentCore().Scalar(1);
}
__aicore__ inline void SetMaskNorm() {
  ascendc_sim::CurrentCore().Registers().maskCounter = false;
  ascendc_sim::CurrentCore().Scalar(1);
}
__aicore__ inline void ResetMask() {
  ascendc_sim::Core& core = ascendc_sim::CurrentCore();
  core.Registers().mask[0] = core.Registers().mask[1] = ~0ull;
  core.Scalar(1);
}

// The library's mask utility class (kernel_utils.h), which operators call directly. SetMask writes
// the mask registers as they are, whatever the mask mode; SetMask(len) sets the low `len` bits,
// except that 64 sets only the low register and a full repeat of T (256 B) or len >= 128 sets both.
class AscendCUtils {
 public:
  static int32_t GetBitSize(int32_t byteSize) { return byteSize * 8; }
  static int32_t GetC0Size() { return 32; }
  static int32_t GetC0Count(int32_t dtypeSize) { return GetC0Size() / dtypeSize; }
  static int64_t GetRsvdCnt();  // defined with get_rsvd_cnt
  template <typename T, bool isSetMask = true>
  static void SetMask(const uint64_t& maskHigh, const uint64_t& maskLow) {
    if constexpr (isSetMask) SetVectorMask<T>(maskHigh, maskLow);
  }
  template <typename T, bool isSetMask = true>
  static void SetMask(int32_t len) {
    if constexpr (!isSetMask) return;
    constexpr uint64_t kFull = ~0ull;
    if (len == 64) return SetMask<T>(0, kFull);
    if (len == static_cast<int32_t>(256 / sizeof(T)) || len >= 128) return SetMask<T>(kFull, kFull);
    SetMask<T>(len > 64 ? (1ull << (len - 64)) - 1 : 0, len > 64 ? kFull : (1ull << len) - 1);
  }
  template <typename T>
  static void SetMaskCount() {
    AscendC::SetMaskCount();
  }
  template <typename T>
  static void SetMaskNorm() {
    AscendC::SetMaskNorm();
  }
  template <bool isSetMask = true>
  static void ResetMask() {
    if constexpr (isSetMask) AscendC::ResetMask();
  }
};

}  // namespace AscendC
