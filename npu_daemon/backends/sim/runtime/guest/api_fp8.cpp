// The guest's one-byte float scalars (fp8_e4m3fn_t, fp8_e5m2_t, fp8_e8m0_t, hifloat8_t) converted by
// the native engine's codec (ascendc_sim/fp8.h), so a guest kernel rounds as a native one does.
#include "import.h"

namespace ascendc_sim::guest {
namespace {

Fp8Format FormatOf(int32_t code) {
  switch (static_cast<Dtype>(code)) {
    case Dtype::kF8E4M3FN:
      return Fp8Format::kE4M3FN;
    case Dtype::kF8E5M2:
      return Fp8Format::kE5M2;
    case Dtype::kF8E8M0:
      return Fp8Format::kE8M0;
    case Dtype::kHiF8:
      return Fp8Format::kHiF8;
    default:
      Unsupported("a one-byte float conversion", code);
  }
}

int32_t FromFloat(const Call&, int32_t code, float f) { return Fp8FromFloat(FormatOf(code), f); }
float ToFloat(const Call&, int32_t code, int32_t byte) {
  return Fp8ToFloat(FormatOf(code), static_cast<uint8_t>(byte));
}

}  // namespace

void DefineFp8Imports(wasmtime_linker_t* l) {
  Import<FromFloat>::Define(l, "fp8_from_float");
  Import<ToFloat>::Define(l, "fp8_to_float");
}

}  // namespace ascendc_sim::guest
