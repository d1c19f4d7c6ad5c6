// The guest engine's compare/select imports: Compare and CompareScalar into a bit mask or the
// CMPMASK register, Select by a bit mask or the register, in count and mask forms.
#include "vec_shape.h"

namespace ascendc_sim::guest {
namespace {

using AscendC::CMPMODE;
using AscendC::SELMODE;

CMPMODE CmpMode(int32_t m) {
  if (m < 0 || m > static_cast<int32_t>(CMPMODE::NE))
    throw SimError(Status::RUNTIME_ERROR, "Compare: CMPMODE " + std::to_string(m) + " out of range");
  return static_cast<CMPMODE>(m);
}
SELMODE SelMode(int32_t m) {
  if (m < 0 || m > static_cast<int32_t>(SELMODE::VSEL_TENSOR_TENSOR_MODE))
    throw SimError(Status::RUNTIME_ERROR, "Select: SELMODE " + std::to_string(m) + " out of range");
  return static_cast<SELMODE>(m);
}
template <typename T>
constexpr bool kComparable = kArith<T>;

void VecCompare(const Call& c, int32_t t, int32_t mode, uint32_t d, uint32_t dBytes, uint32_t a, uint32_t an,
                uint32_t b, uint32_t bn, uint32_t shape, int32_t line) {
  const VecShape s = ShapeAt(c, shape, "Compare");
  const CMPMODE m = CmpMode(mode);
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kComparable<T>) {
      const auto D = Local<uint8_t>(d, dBytes);
      const auto A = Local<T>(a, an), B = Local<T>(b, bn);
      const SrcLoc loc = c.Loc(line);
      if (s.form == static_cast<int32_t>(MaskForm::kCount))
        return AscendC::Compare(D, A, B, m, static_cast<uint32_t>(s.mask[0]), loc);
      return ByMask(s, [&](auto set, auto mask) {
        AscendC::Compare<T, uint8_t, decltype(set)::value>(D, A, B, m, mask, static_cast<uint8_t>(s.repeat),
                                                           BinaryOf(s), loc);
      });
    }
    Unsupported("Compare", t);
  });
}
void VecCompareReg(const Call& c, int32_t t, int32_t mode, uint32_t a, uint32_t an, uint32_t b, uint32_t bn,
                   uint32_t shape, int32_t line) {
  const VecShape s = ShapeAt(c, shape, "Compare");
  const CMPMODE m = CmpMode(mode);
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kComparable<T>) {
      const auto A = Local<T>(a, an), B = Local<T>(b, bn);
      return ByMask(s, [&](auto set, auto mask) {
        AscendC::Compare<T, decltype(set)::value>(A, B, m, mask, BinaryOf(s), c.Loc(line));
      });
    }
    Unsupported("Compare", t);
  });
}
void VecCompareScalar(const Call& c, int32_t t, int32_t mode, uint32_t d, uint32_t dBytes, uint32_t a, uint32_t an,
                      int64_t scalar, uint32_t shape, int32_t line) {
  const VecShape s = ShapeAt(c, shape, "CompareScalar");
  const CMPMODE m = CmpMode(mode);
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kComparable<T>) {
      const auto D = Local<uint8_t>(d, dBytes);
      const auto A = Local<T>(a, an);
      const T v = FromBits<T>(scalar);
      const SrcLoc loc = c.Loc(line);
      if (s.form == static_cast<int32_t>(MaskForm::kCount))
        return AscendC::CompareScalar(D, A, v, m, static_cast<uint32_t>(s.mask[0]), loc);
      return ByMask(s, [&](auto set, auto mask) {
        AscendC::CompareScalar<T, uint8_t, decltype(set)::value>(D, A, v, m, mask, static_cast<uint8_t>(s.repeat),
                                                                 UnaryOf(s), loc);
      });
    }
    Unsupported("CompareScalar", t);
  });
}

// The mask tensor's form of Select: a count, or a continuous mask with repeats (the library has no
// bit-mask or register-mask overload of it).
void CheckSelectShape(const VecShape& s) {
  if (s.form != static_cast<int32_t>(MaskForm::kCount) && s.form != static_cast<int32_t>(MaskForm::kContinuous))
    throw SimError(Status::RUNTIME_ERROR, "Select with a mask tensor: a count or a continuous mask");
}
void VecSelect(const Call& c, int32_t t, int32_t mode, uint32_t d, uint32_t dn, uint32_t m, uint32_t mBytes, uint32_t a,
               uint32_t an, uint32_t b, uint32_t bn, uint32_t shape, int32_t line) {
  const VecShape s = ShapeAt(c, shape, "Select");
  const SELMODE sel = SelMode(mode);
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kComparable<T>) {
      const auto D = Local<T>(d, dn), A = Local<T>(a, an), B = Local<T>(b, bn);
      const SrcLoc loc = c.Loc(line);
      if (s.form == static_cast<int32_t>(MaskForm::kRegister)) {  // the CMPMASK register form
        if (sel != SELMODE::VSEL_CMPMASK_SPR || mBytes != 0)
          throw SimError(Status::RUNTIME_ERROR, "Select without a mask tensor: the CMPMASK register mode");
        return AscendC::Select<T, SELMODE::VSEL_CMPMASK_SPR>(D, A, B, static_cast<uint8_t>(s.repeat), BinaryOf(s), loc);
      }
      CheckSelectShape(s);
      const auto M = Local<uint8_t>(m, mBytes);
      if (s.form == static_cast<int32_t>(MaskForm::kCount))
        return AscendC::Select(D, M, A, B, sel, static_cast<uint32_t>(s.mask[0]), loc);
      return AscendC::Select(D, M, A, B, sel, s.mask[0], static_cast<uint8_t>(s.repeat), BinaryOf(s), loc);
    }
    Unsupported("Select", t);
  });
}
void VecSelectScalar(const Call& c, int32_t t, int32_t mode, uint32_t d, uint32_t dn, uint32_t m, uint32_t mBytes,
                     uint32_t a, uint32_t an, int64_t scalar, uint32_t shape, int32_t line) {
  const VecShape s = ShapeAt(c, shape, "Select");
  const SELMODE sel = SelMode(mode);
  CheckSelectShape(s);
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kComparable<T>) {
      const auto D = Local<T>(d, dn), A = Local<T>(a, an);
      const auto M = Local<uint8_t>(m, mBytes);
      const T v = FromBits<T>(scalar);
      const SrcLoc loc = c.Loc(line);
      if (s.form == static_cast<int32_t>(MaskForm::kCount))
        return AscendC::Select(D, M, A, v, sel, static_cast<uint32_t>(s.mask[0]), loc);
      return AscendC::Select(D, M, A, v, sel, s.mask[0], static_cast<uint8_t>(s.repeat), BinaryOf(s), loc);
    }
    Unsupported("Select", t);
  });
}

void CmpMaskMove(const Call& c, uint32_t ub, uint32_t bytes, int32_t toUb, int32_t line) {
  VectorCore("SetCmpMask");
  const auto U = Local<uint8_t>(ub, bytes);
  if (toUb)
    AscendC::GetCmpMask(U, c.Loc(line));
  else
    AscendC::SetCmpMask(U, c.Loc(line));
}

}  // namespace

void DefineCompareImports(wasmtime_linker_t* l) {
  Import<VecCompare>::Define(l, "vec_compare");
  Import<VecCompareReg>::Define(l, "vec_compare_reg");
  Import<VecCompareScalar>::Define(l, "vec_compare_scalar");
  Import<VecSelect>::Define(l, "vec_select");
  Import<VecSelectScalar>::Define(l, "vec_select_scalar");
  Import<CmpMaskMove>::Define(l, "cmp_mask_move");
}

}  // namespace ascendc_sim::guest
