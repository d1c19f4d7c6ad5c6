// What the host units of the compare/select, gather, reduction, sort and transdata families share:
// the VecShape record a mask form passes (vec_abi.h), read from the guest and checked, and the
// dispatch to the native overload its mask form names.
#pragma once

#include "../../guest/include/ascendc_guest/vec_abi.h"
#include "import.h"

namespace ascendc_sim::guest {

using ascendc_guest::MaskForm;
using ascendc_guest::VecShape;
static_assert(sizeof(VecShape) == 40, "VecShape has the guest's layout");

// These families run on the vector unit, which the A2's cube core lacks; on a vector core every UB
// range an instruction touches is checked against the UB before the emulation touches it.
inline void VectorCore(const char* api) {
  if (CurrentCore().Spec().type != CoreType::kAiv)
    throw SimError(Status::RUNTIME_ERROR, std::string(api) + ": a vector instruction on a cube core");
}

// The guest's VecShape at `p`, its mask form checked.
inline VecShape ShapeAt(const Call& c, uint32_t p, const char* api) {
  VectorCore(api);
  VecShape s;
  std::memcpy(&s, c.Bytes(p, sizeof s, api), sizeof s);
  if (s.form < static_cast<int32_t>(MaskForm::kCount) || s.form > static_cast<int32_t>(MaskForm::kRegister))
    throw SimError(Status::RUNTIME_ERROR, std::string(api) + ": mask form " + std::to_string(s.form) + " unknown");
  return s;
}

inline AscendC::BinaryRepeatParams BinaryOf(const VecShape& s) {
  return AscendC::BinaryRepeatParams(s.dstBlk, s.src0Blk, s.src1Blk, s.dstRep, s.src0Rep, s.src1Rep);
}
inline AscendC::UnaryRepeatParams UnaryOf(const VecShape& s) {
  return AscendC::UnaryRepeatParams(s.dstBlk, s.src0Blk, s.dstRep, s.src0Rep);
}

// f(isSetMask, mask) for a mask form: isSetMask as std::bool_constant, mask as the native overload
// takes it (a lane count, or the bit mask's two words; the register forms ignore it).
template <typename F>
decltype(auto) ByMask(const VecShape& s, F&& f) {
  if (s.form == static_cast<int32_t>(MaskForm::kContinuous)) return f(std::true_type{}, s.mask[0]);
  if (s.form == static_cast<int32_t>(MaskForm::kBits)) return f(std::true_type{}, static_cast<const uint64_t*>(s.mask));
  if (s.form == static_cast<int32_t>(MaskForm::kRegister))
    return f(std::false_type{}, static_cast<const uint64_t*>(s.mask));
  throw SimError(Status::RUNTIME_ERROR, "a count where the instruction takes a mask");
}

// Each family's imports (api_compare, api_gather, api_reduce, api_sort, api_transdata.cpp).
void DefineCompareImports(wasmtime_linker_t* l);
void DefineGatherImports(wasmtime_linker_t* l);
void DefineReduceImports(wasmtime_linker_t* l);
void DefineSortImports(wasmtime_linker_t* l);
void DefineTransDataImports(wasmtime_linker_t* l);

}  // namespace ascendc_sim::guest
