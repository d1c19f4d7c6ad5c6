// The guest engine's reduction imports: the repeat forms (WholeReduce*, RepeatReduceSum,
// BlockReduce*, PairReduceSum), the mask forms of ReduceSum/Max/Min, and the special registers
// the reductions and MrgSort leave for the scalar unit.
#include "vec_shape.h"

namespace ascendc_sim::guest {
namespace {

using ascendc_guest::RepeatReduce;

// A stride the device holds in 16 bits: a negative one would move the emulation's pointers backwards.
int32_t Stride16(int32_t v, const char* api) {
  if (v < 0 || v > UINT16_MAX)
    throw SimError(Status::RUNTIME_ERROR, std::string(api) + ": stride " + std::to_string(v) + " out of [0, 65535]");
  return v;
}

void VecRepeatReduce(const Call& c, int32_t op, int32_t t, uint32_t d, uint32_t dn, uint32_t a, uint32_t an,
                     uint32_t shape, int32_t dstRep, int32_t srcBlk, int32_t srcRep, int32_t order, int32_t line) {
  const char* api = "a repeat reduction";
  const VecShape s = ShapeAt(c, shape, api);
  dstRep = Stride16(dstRep, api), srcBlk = Stride16(srcBlk, api), srcRep = Stride16(srcRep, api);
  if (order < AscendC::ORDER_VALUE_INDEX || order > AscendC::ORDER_ONLY_INDEX)
    throw SimError(Status::RUNTIME_ERROR, "ReduceOrder " + std::to_string(order) + " out of range");
  const auto ord = static_cast<AscendC::ReduceOrder>(order);
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kFloating<T>) {
      const auto D = Local<T>(d, dn), A = Local<T>(a, an);
      const SrcLoc loc = c.Loc(line);
      const int32_t rep = s.repeat;
      return ByMask(s, [&](auto set, auto mask) {
        constexpr bool kSet = decltype(set)::value;
        switch (static_cast<RepeatReduce>(op)) {
          case RepeatReduce::kWholeSum:
            return AscendC::WholeReduceSum<T, kSet>(D, A, mask, rep, dstRep, srcBlk, srcRep, loc);
          case RepeatReduce::kWholeMax:
            return AscendC::WholeReduceMax<T, kSet>(D, A, mask, rep, dstRep, srcBlk, srcRep, ord, loc);
          case RepeatReduce::kWholeMin:
            return AscendC::WholeReduceMin<T, kSet>(D, A, mask, rep, dstRep, srcBlk, srcRep, ord, loc);
          case RepeatReduce::kRepeatSum:
            if constexpr (std::is_same_v<decltype(mask), uint64_t>)
              return AscendC::RepeatReduceSum<T, kSet>(D, A, rep, static_cast<int32_t>(mask), 0, srcBlk, dstRep, srcRep,
                                                       loc);
            else if (s.form == static_cast<int32_t>(MaskForm::kRegister))
              return AscendC::RepeatReduceSum<T, kSet>(D, A, rep, 0, 0, srcBlk, dstRep, srcRep, loc);
            break;
          case RepeatReduce::kBlockSum:
            return AscendC::BlockReduceSum<T, kSet>(D, A, rep, mask, dstRep, srcBlk, srcRep, loc);
          case RepeatReduce::kBlockMax:
            return AscendC::BlockReduceMax<T, kSet>(D, A, rep, mask, dstRep, srcBlk, srcRep, loc);
          case RepeatReduce::kBlockMin:
            return AscendC::BlockReduceMin<T, kSet>(D, A, rep, mask, dstRep, srcBlk, srcRep, loc);
          case RepeatReduce::kPairSum:
            return AscendC::PairReduceSum<T, kSet>(D, A, rep, mask, dstRep, srcBlk, srcRep, loc);
        }
        throw SimError(Status::RUNTIME_ERROR, "repeat reduction code " + std::to_string(op) + " unknown");
      });
    }
    Unsupported(api, t);
  });
}

void VecRangeReduce(const Call& c, int32_t op, int32_t t, uint32_t d, uint32_t dn, uint32_t a, uint32_t an, uint32_t w,
                    uint32_t wn, uint32_t shape, int32_t srcRep, int32_t calIndex, int32_t line) {
  const char* api = "a whole-range reduction";
  const VecShape s = ShapeAt(c, shape, api);
  srcRep = Stride16(srcRep, api);
  if (s.form != static_cast<int32_t>(MaskForm::kContinuous) && s.form != static_cast<int32_t>(MaskForm::kBits))
    throw SimError(Status::RUNTIME_ERROR, "ReduceSum/Max/Min with a mask: a continuous or a bit mask");
  using ascendc_guest::Reduce;
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kFloating<T>) {
      const auto D = Local<T>(d, dn), A = Local<T>(a, an), W = Local<T>(w, wn);
      const SrcLoc loc = c.Loc(line);
      return ByMask(s, [&](auto, auto mask) {
        switch (static_cast<Reduce>(op)) {
          case Reduce::kSum:
            return AscendC::ReduceSum(D, A, W, mask, s.repeat, srcRep, loc);
          case Reduce::kMax:
            return AscendC::ReduceMax(D, A, W, mask, s.repeat, srcRep, calIndex != 0, loc);
          case Reduce::kMin:
            return AscendC::ReduceMin(D, A, W, mask, s.repeat, srcRep, calIndex != 0, loc);
        }
        throw SimError(Status::RUNTIME_ERROR, "reduction code " + std::to_string(op) + " unknown");
      });
    }
    Unsupported(api, t);
  });
}

int64_t VecSpr(const Call&, int32_t which) {
  using ascendc_guest::Spr;
  const CoreRegisters& reg = CurrentCore().Registers();
  switch (static_cast<Spr>(which)) {
    case Spr::kMaxMin:
      return static_cast<int64_t>(reg.maxMinSpr);
    case Spr::kAccVal:
      return static_cast<int64_t>(reg.accVal);
    case Spr::kSortedNum:
      return static_cast<int64_t>(reg.vms4Sr);
    case Spr::kMrgSortResult: {  // the scalar read GetMrgSortResult charges
      uint16_t n[4];
      AscendC::GetMrgSortResult(n[0], n[1], n[2], n[3]);
      return static_cast<int64_t>(n[0] | static_cast<uint64_t>(n[1]) << 16 | static_cast<uint64_t>(n[2]) << 32 |
                                  static_cast<uint64_t>(n[3]) << 48);
    }
  }
  throw SimError(Status::RUNTIME_ERROR, "special register code " + std::to_string(which) + " unknown");
}

}  // namespace

void DefineReduceImports(wasmtime_linker_t* l) {
  Import<VecRepeatReduce>::Define(l, "vec_repeat_reduce");
  Import<VecRangeReduce>::Define(l, "vec_range_reduce");
  Import<VecSpr>::Define(l, "vec_spr");
}

}  // namespace ascendc_sim::guest
