// The guest engine's mask state imports: the core's mask registers and mask mode, which the
// vector instructions' mask forms read on the host (guest ascendc_guest/vec_core.h).
#include "import.h"

namespace ascendc_sim::guest {
namespace {

// The native calls ignore their element type where it is not named here.
void MaskSet(const Call&, int64_t high, int64_t low) {
  AscendC::SetVectorMask<float>(static_cast<uint64_t>(high), static_cast<uint64_t>(low));
}
void MaskSetLen(const Call&, int32_t counter, int32_t len) {
  if (counter)
    AscendC::SetVectorMask<float, AscendC::MaskMode::COUNTER>(len);
  else
    AscendC::SetVectorMask<float>(len);
}
void MaskUtilsLen(const Call&, int32_t t, int32_t len) {
  WithType(t, [&](auto tag) { AscendC::AscendCUtils::SetMask<typename decltype(tag)::type>(len); });
}
void MaskMode(const Call&, int32_t counter) {
  if (counter)
    AscendC::SetMaskCount();
  else
    AscendC::SetMaskNorm();
}
void MaskReset(const Call&) { AscendC::ResetMask(); }

}  // namespace

void DefineVecCoreImports(wasmtime_linker_t* l) {
  Import<MaskSet>::Define(l, "mask_set");
  Import<MaskSetLen>::Define(l, "mask_set_len");
  Import<MaskUtilsLen>::Define(l, "mask_utils_len");
  Import<MaskMode>::Define(l, "mask_mode");
  Import<MaskReset>::Define(l, "mask_reset");
}

}  // namespace ascendc_sim::guest
