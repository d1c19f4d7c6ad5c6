// The guest engine's quantisation imports (ascendc_guest/adv_quant.h): each call runs the native
// emulation's AscendQuantImpl, AscendAntiQuantImpl or AscendDequantImpl, so its trace, charge and
// numerics are the native engine's. Every tensor the guest names is held to its buffer (Local) and
// a parameter struct copied out of guest memory; the native function then checks counts, groups and
// shapes against the tensors.
#include "../../guest/include/ascendc_guest/adv_quant_abi.h"
#include "import.h"

namespace ascendc_sim::guest {
namespace {

using namespace ascendc_guest;

// The tensor a call names, or an empty one it leaves out (never read).
template <typename T>
AscendC::LocalTensor<T> Named(bool named, uint32_t addr, uint32_t size) {
  return named ? Local<T>(addr, size) : AscendC::LocalTensor<T>();
}

void AdvQuant(const Call& c, int32_t form, int32_t t, uint32_t d, uint32_t dn, uint32_t s, uint32_t sn, uint32_t sc,
              uint32_t scn, uint32_t of, uint32_t ofn, uint32_t tmp, uint32_t tmpn, float scale, float offset,
              uint32_t scaleCount, uint32_t offsetCount, uint32_t calCount, int32_t line) {
  if (form < 0 || form >= 2 * kQuantTmp) Refuse("AscendQuant", "form " + std::to_string(form) + " unknown");
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kFloating<T>) {
      const bool hasScale = form & kQuantScaleTensor, hasOffset = form & kQuantOffsetTensor, hasTmp = form & kQuantTmp;
      const auto S = Named<T>(hasScale, sc, scn), O = Named<T>(hasOffset, of, ofn);
      const auto T8 = Named<uint8_t>(hasTmp, tmp, tmpn);
      AscendQuantImpl<T>(Local<int8_t>(d, dn), Local<T>(s, sn), hasTmp ? &T8 : nullptr,
                         {hasScale ? &S : nullptr, scale, scaleCount}, {hasOffset ? &O : nullptr, offset, offsetCount},
                         calCount, c.Loc(line));
    } else {
      Unsupported("AscendQuant", t);
    }
  });
}

void AdvAntiQuant(const Call& c, int32_t form, int32_t o, uint32_t d, uint32_t dn, uint32_t s, uint32_t sn, uint32_t of,
                  uint32_t ofn, uint32_t sc, uint32_t scn, uint32_t tmp, uint32_t tmpn, float offset, float scale,
                  uint32_t k, uint32_t shapePtr, int32_t line) {
  const char* api = "AscendAntiQuant";
  if (form < 0 || form >= 2 * kAntiTranspose) Refuse(api, "form " + std::to_string(form) + " unknown");
  const auto shape = c.Read<AscendC::AntiQuantShapeInfo>(shapePtr, api);
  WithType(o, [&](auto tag) {
    using O = typename decltype(tag)::type;
    if constexpr (std::is_same_v<O, half> || std::is_same_v<O, bfloat16_t>) {
      const bool hasOffset = form & kAntiOffset, offsetTensor = form & kAntiOffsetTensor,
                 scaleTensor = form & kAntiScaleTensor, hasTmp = form & kAntiTmp;
      const auto OT = Named<O>(offsetTensor, of, ofn), ST = Named<O>(scaleTensor, sc, scn);
      const auto T8 = Named<uint8_t>(hasTmp, tmp, tmpn);
      const QuantParam<O> off{offsetTensor ? &OT : nullptr, offset, 0};
      AscendAntiQuantImpl<int8_t, O>(Local<O>(d, dn), Local<int8_t>(s, sn), hasOffset || offsetTensor ? &off : nullptr,
                                     {scaleTensor ? &ST : nullptr, scale, 0}, hasTmp ? &T8 : nullptr,
                                     form & kAntiTranspose, k, shape, c.Loc(line));
    } else {
      Unsupported(api, o);
    }
  });
}

// The destination and scale types the guest named, where the A2 takes them (else refused).
template <typename F>
void WithDequantTypes(int32_t dst, int32_t scale, bool tensor, F&& f) {
  WithType(dst, [&](auto dtag) {
    WithType(scale, [&](auto stag) {
      using D = typename decltype(dtag)::type;
      using S = typename decltype(stag)::type;
      if constexpr (DequantTypesValid<D, S, true>() || DequantTypesValid<D, S, false>()) {
        if (tensor ? DequantTypesValid<D, S, true>() : DequantTypesValid<D, S, false>()) return f(dtag, stag);
      }
      Refuse("AscendDequant",
             "type codes " + std::to_string(dst) + " and " + std::to_string(scale) + " not a pair the A2 takes");
    });
  });
}

void AdvDequant(const Call& c, int32_t form, int32_t dt, int32_t st, uint32_t d, uint32_t dn, uint32_t s, uint32_t sn,
                uint32_t sc, uint32_t scn, uint32_t tmp, uint32_t tmpn, float scale, uint32_t paramsPtr, uint32_t count,
                int32_t line) {
  const char* api = "AscendDequant";
  if (form < 0 || form >= 2 * kDequantCount) Refuse(api, "form " + std::to_string(form) + " unknown");
  const bool tensor = form & kDequantTensor, hasTmp = form & kDequantTmp, singleRow = form & kDequantSingleRow;
  if ((form & kDequantCount) && !tensor) Refuse(api, "a count with a scalar deqScale");
  const auto params = c.Read<AscendC::DequantParams>(paramsPtr, api);
  WithDequantTypes(dt, st, tensor, [&](auto dtag, auto stag) {
    using D = typename decltype(dtag)::type;
    using S = typename decltype(stag)::type;
    const auto T8 = Named<uint8_t>(hasTmp, tmp, tmpn);
    const auto dst = Local<D>(d, dn);
    const auto src = Local<int32_t>(s, sn);
    const auto* t8 = hasTmp ? &T8 : nullptr;
    if (form & kDequantCount) {
      AscendDequantCount<D, S>(dst, src, Local<S>(sc, scn), t8, singleRow, count, c.Loc(line));
    } else {
      const auto ST = Named<S>(tensor, sc, scn);
      AscendDequantImpl<D, S>(dst, src, {tensor ? &ST : nullptr, scale, 0}, t8, params, singleRow, 0, c.Loc(line));
    }
  });
}

}  // namespace

void DefineAdvQuantImports(wasmtime_linker_t* l) {
  Import<AdvQuant>::Define(l, "adv_quant");
  Import<AdvAntiQuant>::Define(l, "adv_anti_quant");
  Import<AdvDequant>::Define(l, "adv_dequant");
}

}  // namespace ascendc_sim::guest
