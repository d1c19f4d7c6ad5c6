// Compare / CompareScalar (bit-mask results), Select and GatherMask.
//
// A comparison writes one bit per lane, little-endian within each byte: bit i of the mask is lane i
// of the flat lane sequence (repeat r, lane e -> bit r * lanesPerRepeat + e). Inactive lanes of an
// active repeat write 0. Select reads the same layout: a set bit takes src0, a clear bit src1.
#pragma once

#include "ascendc_sim/vec_elementwise.h"

namespace AscendC {

enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };
enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR = 0, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };

}  // namespace AscendC

namespace ascendc_sim {

template <typename T>
bool CmpLane(T a, T b, AscendC::CMPMODE m) {
  using AscendC::CMPMODE;
  switch (m) {
    case CMPMODE::LT:
      return a < b;
    case CMPMODE::GT:
      return a > b;
    case CMPMODE::EQ:
      return a == b;
    case CMPMODE::LE:
      return a <= b;
    case CMPMODE::GE:
      return a >= b;
    default:
      return a != b;
  }
}

// Bits of lanes [0, lanes) into the uint8 mask at `out`; `pred(r, e)` decides lane e of repeat r.
template <typename Pred>
void WriteBits(uint8_t* out, const Lanes& l, Pred pred) {
  for (uint32_t r = 0; r < l.repeats; ++r)
    for (uint32_t e = 0; e < l.perRepeat; ++e) {
      const uint64_t bit = static_cast<uint64_t>(r) * l.perRepeat + e;
      if (l.Active(r, e) && pred(r, e))
        out[bit / 8] |= static_cast<uint8_t>(1u << (bit % 8));
      else
        out[bit / 8] &= static_cast<uint8_t>(~(1u << (bit % 8)));
    }
}

// The mask tensor's UB footprint for `l` (one bit per lane of every repeat, whole bytes).
inline uint32_t MaskBytes(const Lanes& l) {
  return static_cast<uint32_t>((static_cast<uint64_t>(l.repeats) * l.perRepeat + 7) / 8);
}

template <typename T, typename U, typename Fn>
void CompareImpl(const char* api, Op op, const AscendC::LocalTensor<U>& dst, const AscendC::LocalTensor<T>& a,
                 const typename Identity<AscendC::LocalTensor<T>>::type* b, const Lanes& l, Stride sa, Stride sb,
                 Fn pred, const SrcLoc& loc) {
  sa = Blocks<T>(sa), sb = Blocks<T>(sb);
  const uint32_t bytes = MaskBytes(l);
  ASCENDC_SIM_CHECK(bytes <= dst.GetLength(), loc, "%s: the bit mask needs %u bytes, the destination has %u", api,
                    bytes, dst.GetLength());
  if (b != nullptr)
    IssueVector(op, api, l,
                {{a.UbAddr(), a.GetSize(), sizeof(T), sa, false}, {b->UbAddr(), b->GetSize(), sizeof(T), sb, false}},
                sizeof(T), loc, {{dst.UbAddr(), bytes, true}});
  else
    IssueVector(op, api, l, {{a.UbAddr(), a.GetSize(), sizeof(T), sa, false}}, sizeof(T), loc,
                {{dst.UbAddr(), bytes, true}});
  WriteBits(reinterpret_cast<uint8_t*>(ascendc_sim::HostData(dst)), l, pred);
}

}  // namespace ascendc_sim

namespace AscendC {

// ---- Compare: dst bits = src0 <op> src1 ----------------------------------------------------------
template <typename T, typename U>
__aicore__ inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                               CMPMODE mode, uint32_t count, ASCENDC_SIM_LOC) {
  ASCENDC_SIM_WARN_UNLESS(count * sizeof(T) % 256 == 0, loc, "Compare: count %u x %zu B is not a multiple of 256 B",
                          count, sizeof(T));
  ascendc_sim::Lanes l = ascendc_sim::CountLanes<T>(count);
  const T* x = ascendc_sim::HostData(src0);
  const T* y = ascendc_sim::HostData(src1);
  ascendc_sim::CompareImpl(
      "Compare", ascendc_sim::Op::kVecCompare, dst, src0, &src1, l, {}, {},
      [&](uint32_t r, uint32_t e) {
        return ascendc_sim::CmpLane(x[r * l.perRepeat + e], y[r * l.perRepeat + e], mode);
      },
      loc);
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                               CMPMODE mode, const uint64_t mask, uint8_t repeatTime, const BinaryRepeatParams& p,
                               ASCENDC_SIM_LOC) {
  (void)mask;
  ascendc_sim::Lanes l = ascendc_sim::EveryLane<T>(repeatTime);
  const ascendc_sim::Stride sa = ascendc_sim::Blocks<T>({p.src0BlkStride, p.src0RepStride});
  const ascendc_sim::Stride sb = ascendc_sim::Blocks<T>({p.src1BlkStride, p.src1RepStride});
  const T* x = ascendc_sim::HostData(src0);
  const T* y = ascendc_sim::HostData(src1);
  ascendc_sim::CompareImpl(
      "Compare", ascendc_sim::Op::kVecCompare, dst, src0, &src1, l, sa, sb,
      [&](uint32_t r, uint32_t e) { return ascendc_sim::CmpLane(x[l.Offset(r, e, sa)], y[l.Offset(r, e, sb)], mode); },
      loc);
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                               CMPMODE mode, const uint64_t mask[], uint8_t repeatTime, const BinaryRepeatParams& p,
                               ASCENDC_SIM_LOC) {
  (void)mask;
  ascendc_sim::Lanes l = ascendc_sim::EveryLane<T>(repeatTime);
  const ascendc_sim::Stride sa = ascendc_sim::Blocks<T>({p.src0BlkStride, p.src0RepStride});
  const ascendc_sim::Stride sb = ascendc_sim::Blocks<T>({p.src1BlkStride, p.src1RepStride});
  const T* x = ascendc_sim::HostData(src0);
  const T* y = ascendc_sim::HostData(src1);
  ascendc_sim::CompareImpl(
      "Compare", ascendc_sim::Op::kVecCompare, dst, src0, &src1, l, sa, sb,
      [&](uint32_t r, uint32_t e) { return ascendc_sim::CmpLane(x[l.Offset(r, e, sa)], y[l.Offset(r, e, sb)], mode); },
      loc);
}

// ---- Compare into the CMPMASK register: one repeat, bit e = lane e (inactive lanes 0) -------------
}  // namespace AscendC
namespace ascendc_sim {
template <typename T>
void CompareToRegister(const AscendC::LocalTensor<T>& a, const AscendC::LocalTensor<T>& b, AscendC::CMPMODE mode,
                       const Lanes& l, const AscendC::BinaryRepeatParams& p, const SrcLoc& loc) {
  const Stride sa = Blocks<T>({p.src0BlkStride, p.src0RepStride}), sb = Blocks<T>({p.src1BlkStride, p.src1RepStride});
  IssueVector(Op::kVecCompare, "Compare", l,
              {{a.UbAddr(), a.GetSize(), sizeof(T), sa, false}, {b.UbAddr(), b.GetSize(), sizeof(T), sb, false}},
              sizeof(T), loc);
  uint64_t* bits = CurrentCore().Registers().cmpMask;
  bits[0] = bits[1] = 0;
  const T* x = ascendc_sim::HostData(a);
  const T* y = ascendc_sim::HostData(b);
  for (uint32_t e = 0; e < l.perRepeat; ++e)
    if (l.Active(0, e) && CmpLane(x[l.Offset(0, e, sa)], y[l.Offset(0, e, sb)], mode)) bits[e / 64] |= 1ull << (e % 64);
}

// The 128-bit CMPMASK register to or from 16 B of UB (SetCmpMask / GetCmpMask and set_cmpmask).
inline void MoveCmpMask(const char* api, const AscendC::LocalTensor<uint64_t>& ub, bool toUb, const SrcLoc& loc) {
  ASCENDC_SIM_CHECK(ub.GetSize() >= 2, loc, "%s: the %s holds %u bytes, CMPMASK is 16", api,
                    toUb ? "destination" : "source", static_cast<unsigned>(ub.GetSize() * sizeof(uint64_t)));
  IssueVector(Op::kVecMask, api, CountLanes<uint64_t>(2), {{ub.UbAddr(), ub.GetSize(), sizeof(uint64_t), {}, toUb}},
              sizeof(uint64_t), loc);
  uint64_t* bits = CurrentCore().Registers().cmpMask;
  uint64_t* words = HostData(ub);
  for (int i = 0; i < 2; ++i) (toUb ? words[i] : bits[i]) = (toUb ? bits[i] : words[i]);
}

// The repeat forms of Select (and the vsel intrinsic): a set bit takes src0, a clear one src1, or
// `scalar` where there is no src1. The bit mask at UB `bitsAddr` is walked across repeats (bit
// r * lanes + e), or with `firstRepeatBits` (VSEL_CMPMASK_SPR) its first repeat's bits serve every
// repeat.
template <typename T>
void SelectByBits(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                  const AscendC::LocalTensor<T>* src1, T scalar, uint32_t bitsAddr, bool firstRepeatBits,
                  const Lanes& l, const AscendC::BinaryRepeatParams& p, const SrcLoc& loc) {
  const Stride sd = Blocks<T>({p.dstBlkStride, p.dstRepStride}), sa = Blocks<T>({p.src0BlkStride, p.src0RepStride});
  const Stride sb = Blocks<T>({p.src1BlkStride, p.src1RepStride});
  const UbAccess bits{bitsAddr, firstRepeatBits ? l.perRepeat / 8 : MaskBytes(l), false};
  if (src1)
    IssueVector(Op::kVecSelect, api, l,
                {{dst.UbAddr(), dst.GetSize(), sizeof(T), sd, true},
                 {src0.UbAddr(), src0.GetSize(), sizeof(T), sa, false},
                 {src1->UbAddr(), src1->GetSize(), sizeof(T), sb, false}},
                sizeof(T), loc, {bits});
  else
    IssueVector(
        Op::kVecSelect, api, l,
        {{dst.UbAddr(), dst.GetSize(), sizeof(T), sd, true}, {src0.UbAddr(), src0.GetSize(), sizeof(T), sa, false}},
        sizeof(T), loc, {bits});
  const uint8_t* m = reinterpret_cast<const uint8_t*>(CurrentCore().UbPtr(bitsAddr));
  T* d = ascendc_sim::HostData(dst);
  const T* a = ascendc_sim::HostData(src0);
  const T* b = src1 ? ascendc_sim::HostData(*src1) : nullptr;
  for (uint32_t r = 0; r < l.repeats; ++r)
    for (uint32_t e = 0; e < l.perRepeat; ++e) {
      if (!l.Active(r, e)) continue;
      const uint64_t bit = firstRepeatBits ? e : static_cast<uint64_t>(r) * l.perRepeat + e;
      const bool take = (m[bit / 8] >> (bit % 8)) & 1u;
      d[l.Offset(r, e, sd)] = take ? a[l.Offset(r, e, sa)] : (b ? b[l.Offset(r, e, sb)] : scalar);
    }
}
}  // namespace ascendc_sim
namespace AscendC {
template <typename T, bool isSetMask = true>
__aicore__ inline void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE mode,
                               const uint64_t mask, const BinaryRepeatParams& p, ASCENDC_SIM_LOC) {
  ascendc_sim::CompareToRegister(
      src0, src1, mode,
      isSetMask ? ascendc_sim::ContinuousMaskLanes<T>(mask, 1, loc) : ascendc_sim::RegisterMaskLanes<T>(1, loc), p,
      loc);
}
template <typename T, bool isSetMask = true>
__aicore__ inline void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE mode,
                               const uint64_t mask[], const BinaryRepeatParams& p, ASCENDC_SIM_LOC) {
  ascendc_sim::CompareToRegister(
      src0, src1, mode, isSetMask ? ascendc_sim::MaskLanes<T>(mask, 1, loc) : ascendc_sim::RegisterMaskLanes<T>(1, loc),
      p, loc);
}

// ---- CompareScalar: dst bits = src0 <op> scalar --------------------------------------------------
template <typename T, typename U>
__aicore__ inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0,
                                     const typename ascendc_sim::Identity<T>::type src1Scalar, CMPMODE mode,
                                     uint32_t count, ASCENDC_SIM_LOC) {
  ASCENDC_SIM_CHECK(count * sizeof(T) % 32 == 0, loc, "CompareScalar: count %u x %zu B is not a multiple of 32 B",
                    count, sizeof(T));
  ascendc_sim::Lanes l = ascendc_sim::CountLanes<T>(count);
  const T* x = ascendc_sim::HostData(src0);
  const T s = src1Scalar;
  ascendc_sim::CompareImpl(
      "CompareScalar", ascendc_sim::Op::kVecCompare, dst, src0, nullptr, l, {}, {},
      [&](uint32_t r, uint32_t e) { return ascendc_sim::CmpLane(x[r * l.perRepeat + e], s, mode); }, loc);
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0,
                                     const typename ascendc_sim::Identity<T>::type src1Scalar, CMPMODE mode,
                                     const uint64_t mask, uint8_t repeatTime, const UnaryRepeatParams& p,
                                     ASCENDC_SIM_LOC) {
  (void)mask;
  ascendc_sim::Lanes l = ascendc_sim::EveryLane<T>(repeatTime);
  const ascendc_sim::Stride sa = ascendc_sim::Blocks<T>(ascendc_sim::SrcStride(p));
  const T* x = ascendc_sim::HostData(src0);
  const T s = src1Scalar;
  ascendc_sim::CompareImpl(
      "CompareScalar", ascendc_sim::Op::kVecCompare, dst, src0, nullptr, l, sa, sa,
      [&](uint32_t r, uint32_t e) { return ascendc_sim::CmpLane(x[l.Offset(r, e, sa)], s, mode); }, loc);
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0,
                                     const typename ascendc_sim::Identity<T>::type src1Scalar, CMPMODE mode,
                                     const uint64_t mask[], uint8_t repeatTime, const UnaryRepeatParams& p,
                                     ASCENDC_SIM_LOC) {
  (void)mask;
  ascendc_sim::Lanes l = ascendc_sim::EveryLane<T>(repeatTime);
  const ascendc_sim::Stride sa = ascendc_sim::Blocks<T>(ascendc_sim::SrcStride(p));
  const T* x = ascendc_sim::HostData(src0);
  const T s = src1Scalar;
  ascendc_sim::CompareImpl(
      "CompareScalar", ascendc_sim::Op::kVecCompare, dst, src0, nullptr, l, sa, sa,
      [&](uint32_t r, uint32_t e) { return ascendc_sim::CmpLane(x[l.Offset(r, e, sa)], s, mode); }, loc);
}

// Compares: the current library's name of CompareScalar (asc-devkit kernel_operator_vec_cmpsel_intf.h),
// the same instruction in its three forms.
template <typename T, typename U>
__aicore__ inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0,
                                const typename ascendc_sim::Identity<T>::type src1Scalar, CMPMODE mode, uint32_t count,
                                ASCENDC_SIM_LOC) {
  CompareScalar(dst, src0, src1Scalar, mode, count, loc);
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0,
                                const typename ascendc_sim::Identity<T>::type src1Scalar, CMPMODE mode,
                                const uint64_t mask, uint8_t repeatTime, const UnaryRepeatParams& p, ASCENDC_SIM_LOC) {
  CompareScalar<T, U, isSetMask>(dst, src0, src1Scalar, mode, mask, repeatTime, p, loc);
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0,
                                const typename ascendc_sim::Identity<T>::type src1Scalar, CMPMODE mode,
                                const uint64_t mask[], uint8_t repeatTime, const UnaryRepeatParams& p,
                                ASCENDC_SIM_LOC) {
  CompareScalar<T, U, isSetMask>(dst, src0, src1Scalar, mode, mask, repeatTime, p, loc);
}

// ---- Select: dst = bit ? src0 : src1 (tensor or scalar) --------------------------------------------
// VSEL_CMPMASK_SPR applies the first repeat's bits to every repeat (the mask register form);
// the tensor modes walk the mask bit by bit across repeats.
template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              const LocalTensor<T>& src1, SELMODE mode, uint32_t count, ASCENDC_SIM_LOC) {
  ascendc_sim::Lanes l = ascendc_sim::CountLanes<T>(count);
  const uint32_t bytes = mode == SELMODE::VSEL_CMPMASK_SPR ? l.perRepeat / 8 : ascendc_sim::MaskBytes(l);
  ascendc_sim::IssueVector(ascendc_sim::Op::kVecSelect, "Select", l,
                           {{dst.UbAddr(), dst.GetSize(), sizeof(T), {}, true},
                            {src0.UbAddr(), src0.GetSize(), sizeof(T), {}, false},
                            {src1.UbAddr(), src1.GetSize(), sizeof(T), {}, false}},
                           sizeof(T), loc, {{selMask.UbAddr(), bytes, false}});
  ASCENDC_SIM_CHECK(bytes <= selMask.GetLength(), loc, "Select: %u mask bytes needed, the mask tensor has %u", bytes,
                    selMask.GetLength());
  const uint8_t* m = reinterpret_cast<const uint8_t*>(ascendc_sim::HostData(selMask));
  T* d = ascendc_sim::HostData(dst);
  const T* a = ascendc_sim::HostData(src0);
  const T* b = ascendc_sim::HostData(src1);
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t bit = mode == SELMODE::VSEL_CMPMASK_SPR ? i % l.perRepeat : i;
    d[i] = (m[bit / 8] >> (bit % 8)) & 1u ? a[i] : b[i];
  }
}
template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              const typename ascendc_sim::Identity<T>::type src1, SELMODE mode, uint32_t count,
                              ASCENDC_SIM_LOC) {
  ascendc_sim::Lanes l = ascendc_sim::CountLanes<T>(count);
  const uint32_t bytes = ascendc_sim::MaskBytes(l);
  ascendc_sim::IssueVector(
      ascendc_sim::Op::kVecSelect, "Select", l,
      {{dst.UbAddr(), dst.GetSize(), sizeof(T), {}, true}, {src0.UbAddr(), src0.GetSize(), sizeof(T), {}, false}},
      sizeof(T), loc, {{selMask.UbAddr(), bytes, false}});
  ASCENDC_SIM_CHECK(bytes <= selMask.GetLength(), loc, "Select: %u mask bytes needed, the mask tensor has %u", bytes,
                    selMask.GetLength());
  (void)mode;
  const uint8_t* m = reinterpret_cast<const uint8_t*>(ascendc_sim::HostData(selMask));
  T* d = ascendc_sim::HostData(dst);
  const T* a = ascendc_sim::HostData(src0);
  const T s = src1;
  for (uint32_t i = 0; i < count; ++i) d[i] = (m[i / 8] >> (i % 8)) & 1u ? a[i] : s;
}
template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              const LocalTensor<T>& src1, SELMODE mode, uint64_t mask, uint8_t repeatTime,
                              const BinaryRepeatParams& p, ASCENDC_SIM_LOC) {
  ascendc_sim::SelectByBits("Select", dst, src0, &src1, T{}, selMask.UbAddr(), mode == SELMODE::VSEL_CMPMASK_SPR,
                            ascendc_sim::ContinuousMaskLanes<T>(mask, repeatTime, loc), p, loc);
}

// Select with the CMPMASK register (mode 0): every repeat, under the vector mask, takes lane e from
// src0 where register bit e is set.
template <typename T, SELMODE selMode>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                              uint8_t repeatTime, const BinaryRepeatParams& p, ASCENDC_SIM_LOC) {
  static_assert(selMode == SELMODE::VSEL_CMPMASK_SPR, "Select without a mask tensor: the CMPMASK register mode");
  ascendc_sim::Lanes l = ascendc_sim::RegisterMaskLanes<T>(repeatTime, loc);
  const ascendc_sim::Stride sd = ascendc_sim::Blocks<T>({p.dstBlkStride, p.dstRepStride});
  const ascendc_sim::Stride sa = ascendc_sim::Blocks<T>({p.src0BlkStride, p.src0RepStride});
  const ascendc_sim::Stride sb = ascendc_sim::Blocks<T>({p.src1BlkStride, p.src1RepStride});
  ascendc_sim::IssueVector(ascendc_sim::Op::kVecSelect, "Select", l,
                           {{dst.UbAddr(), dst.GetSize(), sizeof(T), sd, true},
                            {src0.UbAddr(), src0.GetSize(), sizeof(T), sa, false},
                            {src1.UbAddr(), src1.GetSize(), sizeof(T), sb, false}},
                           sizeof(T), loc);
  const uint64_t* bits = ascendc_sim::CurrentCore().Registers().cmpMask;
  T* d = ascendc_sim::HostData(dst);
  const T* a = ascendc_sim::HostData(src0);
  const T* b = ascendc_sim::HostData(src1);
  for (uint32_t r = 0; r < l.repeats; ++r)
    for (uint32_t e = 0; e < l.perRepeat; ++e)
      if (l.Active(r, e))
        d[l.Offset(r, e, sd)] = (bits[e / 64] >> (e % 64)) & 1u ? a[l.Offset(r, e, sa)] : b[l.Offset(r, e, sb)];
}

// VSEL_TENSOR_SCALAR_MODE by repeats: the mask walks bit by bit across repeats, as the tensor mode's.
template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              const typename ascendc_sim::Identity<T>::type src1, SELMODE mode, uint64_t mask,
                              uint8_t repeatTime, const BinaryRepeatParams& p, ASCENDC_SIM_LOC) {
  (void)mode;
  ascendc_sim::SelectByBits("Select", dst, src0, static_cast<const LocalTensor<T>*>(nullptr), static_cast<T>(src1),
                            selMask.UbAddr(), false, ascendc_sim::ContinuousMaskLanes<T>(mask, repeatTime, loc), p,
                            loc);
}

// ---- GatherMask: pack the elements whose pattern bit is set ----------------------------------------
struct GatherMaskParams {
  uint8_t src0BlockStride = 1;
  uint16_t repeatTimes = 1;
  uint16_t src0RepeatStride = 8;
  uint8_t src1RepeatStride = 1;
};

}  // namespace AscendC

namespace ascendc_sim {

// Built-in patterns 1..7: 1 even lanes, 2 odd lanes, 3..6 lane % 4 == 0..3, 7 every lane.
inline bool BuiltinPattern(uint8_t p, uint32_t e) {
  switch (p) {
    case 1:
      return e % 2 == 0;
    case 2:
      return e % 2 == 1;
    case 3:
    case 4:
    case 5:
    case 6:
      return e % 4 == static_cast<uint32_t>(p - 3);
    default:
      return true;
  }
}

// Counter mode with more lanes than a 256 B repeat. On the A2 each of repeatTimes repeats takes
// `mask` lanes (asc-devkit GatherMask, "configuration one"): its blocks src0BlockStride apart as in
// any repeat, the pattern consumed continuously within it; repeats src0RepeatStride /
// src1RepeatStride apart. One instruction, costed as its 256 B steps.
template <typename T, typename Bit>
void GatherMaskLongRepeats(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0, uint32_t mask,
                           const AscendC::GatherMaskParams& p, uint64_t& rsvdCnt, Bit bit, bool patternTensor,
                           uint32_t patternAddr, const SrcLoc& loc) {
  Lanes c = CountLanes<T>(mask);  // one repeat's lanes, in 256 B steps
  c.contiguous = false;
  const Stride cs = Blocks<T>({p.src0BlockStride, 8u * p.src0BlockStride});
  const uint64_t step = static_cast<uint64_t>(p.src0RepeatStride) * c.perBlock;
  const uint64_t extent = (p.repeatTimes ? (p.repeatTimes - 1) * step : 0) + c.Extent(cs);
  const uint32_t ubBytes = CurrentCore().Local().Size(LocalBuf::kUB);
  ASCENDC_SIM_CHECK(src0.UbAddr() + extent * sizeof(T) <= ubBytes, loc,
                    "GatherMask: the source's %llu elements run past the end of the UB",
                    static_cast<unsigned long long>(extent));
  if (extent > src0.GetSize())
    DeviceTolerated(loc, "GatherMask: the source touches %llu elements but the tensor has %u",
                    static_cast<unsigned long long>(extent), src0.GetSize());
  const T* x = ascendc_sim::HostData(src0);
  std::vector<T> picked;
  for (uint32_t r = 0; r < p.repeatTimes; ++r)
    for (uint32_t j = 0; j < c.repeats; ++j)
      for (uint32_t e = 0; e < c.perRepeat; ++e)
        if (c.Active(j, e) && bit(r, j * c.perRepeat + e)) picked.push_back(x[r * step + c.Offset(j, e, cs)]);
  const uint64_t n = picked.size();
  ASCENDC_SIM_CHECK(n <= dst.GetSize(), loc, "GatherMask: %llu selected elements for a %u-element destination",
                    static_cast<unsigned long long>(n), dst.GetSize());
  Lanes all = CountLanes<T>(static_cast<uint64_t>(p.repeatTimes) * mask);
  all.repeats = p.repeatTimes * c.repeats;
  const UbAccess src{src0.UbAddr(), static_cast<uint32_t>(extent * sizeof(T)), false};
  const UbAccess out{dst.UbAddr(), static_cast<uint32_t>(n * sizeof(T)), true};
  if (patternTensor) {
    const uint32_t patternBytes = (p.repeatTimes ? (p.repeatTimes - 1) * p.src1RepeatStride * 32u : 0) + (mask + 7) / 8;
    IssueVector(Op::kVecSelect, "GatherMask", all, {}, sizeof(T), loc, {src, {patternAddr, patternBytes, false}, out});
  } else {
    IssueVector(Op::kVecSelect, "GatherMask", all, {}, sizeof(T), loc, {src, out});
  }
  std::copy(picked.begin(), picked.end(), ascendc_sim::HostData(dst));
  rsvdCnt = n;
  CurrentCore().Registers().rsvdCnt = n;  // the count register GetRsvdCnt reads
}

template <typename T, typename Bit>
void GatherMaskImpl(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0, bool reduceMode,
                    uint32_t mask, const AscendC::GatherMaskParams& p, uint64_t& rsvdCnt, Bit bit,
                    uint32_t patternBytes, uint32_t patternAddr, const SrcLoc& loc) {
  // Normal mode: every lane of repeatTimes repeats. Counter mode (reduceMode) on A2/A3: `mask`
  // lanes in each of repeatTimes repeats (GatherMaskLongRepeats past 256 B); the instruction leaves
  // the core in normal mode.
  Lanes l = CountLanes<T>(static_cast<uint64_t>(p.repeatTimes) * (256 / sizeof(T)));
  l.contiguous = false;
  if (reduceMode) {
    ASCENDC_SIM_CHECK(mask >= 1, loc, "GatherMask: counter-mode mask 0 (at least 1)");
    CurrentCore().Registers().maskCounter = false;
    if (mask > l.perRepeat)
      return GatherMaskLongRepeats(dst, src0, mask, p, rsvdCnt, bit, patternBytes != 0, patternAddr, loc);
    l.counter = false;
    l.bits[0] = mask >= 64 ? ~0ull : (1ull << mask) - 1;
    l.bits[1] = mask > 64 ? (mask >= 128 ? ~0ull : (1ull << (mask - 64)) - 1) : 0;
  }
  const Stride ss = Blocks<T>({p.src0BlockStride, p.src0RepeatStride});
  const T* x = ascendc_sim::HostData(src0);
  std::vector<T> picked;
  for (uint32_t r = 0; r < l.repeats; ++r)
    for (uint32_t e = 0; e < l.perRepeat; ++e)
      if (l.Active(r, e) && bit(r, e)) picked.push_back(x[l.Offset(r, e, ss)]);
  const uint64_t n = picked.size();
  ASCENDC_SIM_CHECK(n <= dst.GetSize(), loc, "GatherMask: %llu selected elements for a %u-element destination",
                    static_cast<unsigned long long>(n), dst.GetSize());
  const UbAccess out{dst.UbAddr(), static_cast<uint32_t>(n * sizeof(T)), true};
  if (patternBytes)
    IssueVector(Op::kVecSelect, "GatherMask", l, {{src0.UbAddr(), src0.GetSize(), sizeof(T), ss, false}}, sizeof(T),
                loc, {{patternAddr, patternBytes, false}, out});
  else
    IssueVector(Op::kVecSelect, "GatherMask", l, {{src0.UbAddr(), src0.GetSize(), sizeof(T), ss, false}}, sizeof(T),
                loc, {out});
  std::copy(picked.begin(), picked.end(), ascendc_sim::HostData(dst));
  rsvdCnt = n;
  CurrentCore().Registers().rsvdCnt = n;  // the count register GetRsvdCnt reads
}

}  // namespace ascendc_sim

namespace AscendC {

template <typename T, typename U>
__aicore__ inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                                  const LocalTensor<U>& src1Pattern, const bool reduceMode, const uint32_t mask,
                                  const GatherMaskParams& p, uint64_t& rsvdCnt, ASCENDC_SIM_LOC) {
  static_assert(sizeof(U) == sizeof(T),
                "GatherMask: the pattern tensor is uint16_t for 2-byte data, uint32_t for 4-byte data");
  const uint8_t* pat = reinterpret_cast<const uint8_t*>(ascendc_sim::HostData(src1Pattern));
  const uint32_t perRepeat = 256 / sizeof(T);
  const uint32_t repBytes = p.src1RepeatStride * 32u;
  ascendc_sim::GatherMaskImpl(
      dst, src0, reduceMode, mask, p, rsvdCnt,
      [&](uint32_t r, uint32_t e) {  // consumed in order within a repeat; src1RepeatStride 0 rereads it
        const uint32_t byte = r * repBytes + e / 8;
        return (pat[byte] >> (e % 8)) & 1u;
      },
      (p.repeatTimes ? (p.repeatTimes - 1) * repBytes : 0) + perRepeat / 8, src1Pattern.UbAddr(), loc);
}
template <typename T>
__aicore__ inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t src1Pattern,
                                  const bool reduceMode, const uint32_t mask, const GatherMaskParams& p,
                                  uint64_t& rsvdCnt, ASCENDC_SIM_LOC) {
  ASCENDC_SIM_CHECK(src1Pattern >= 1 && src1Pattern <= 7, loc, "GatherMask: built-in pattern %u out of range [1, 7]",
                    src1Pattern);
  ascendc_sim::GatherMaskImpl(
      dst, src0, reduceMode, mask, p, rsvdCnt,
      [&](uint32_t, uint32_t e) { return ascendc_sim::BuiltinPattern(src1Pattern, e); }, 0, 0, loc);
}

}  // namespace AscendC

namespace AscendC {
// Load the CMPMASK register from the first 16 B of src (read by Select<T, VSEL_CMPMASK_SPR>), or
// store it to dst.
template <typename T>
__aicore__ inline void SetCmpMask(const LocalTensor<T>& src, ASCENDC_SIM_LOC) {
  ascendc_sim::MoveCmpMask("SetCmpMask", src.template ReinterpretCast<uint64_t>(), false, loc);
}
template <typename T>
__aicore__ inline void GetCmpMask(const LocalTensor<T>& dst, ASCENDC_SIM_LOC) {
  ascendc_sim::MoveCmpMask("GetCmpMask", dst.template ReinterpretCast<uint64_t>(), true, loc);
}
}  // namespace AscendC

// The symbol overloads (dst = a + b, dst = a < b), shared with the guest.
#include "../../guest/include/ascendc_guest/operators.h"
