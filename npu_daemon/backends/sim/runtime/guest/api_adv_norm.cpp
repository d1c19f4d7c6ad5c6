// The guest engine's normalisation imports (ascendc_guest/adv_norm_ar.h): each call runs the native
// emulation's NormalizeImpl, LayerNormRstdImpl, WelfordUpdateImpl, WelfordFinalizeImpl,
// DeepNormImpl, LayerNormGradBetaImpl, BatchNormImpl, GroupNormImpl or LayerNormGradImpl, so its
// trace, charge and numerics are the native engine's. Every tensor the guest names is held
// to its buffer (Local) and the parameter struct copied out of guest memory; the native function
// then checks the shapes it gives against the tensors.
#include "../../guest/include/ascendc_guest/abi.h"
#include "ascendc_sim/adv_norm_params.h"
#include "import.h"

namespace ascendc_sim::guest {
namespace {

// The bits of a call's form (ascendc_guest::AdvNormForm).
enum FormBit : int32_t { kNoGamma = 1, kNoBeta = 2, kOnlyOutput = 4, kTmp = 8, kOutputVariance = 16 };

NormForm FormOf(const char* api, int32_t form) {
  if (form < 0 || form >= 2 * kOutputVariance) Refuse(api, "form " + std::to_string(form) + " unknown");
  return {!(form & kNoGamma), !(form & kNoBeta), !(form & kOnlyOutput), (form & kOutputVariance) != 0};
}

// The tensor a call names, or an empty one it leaves out (never read).
template <typename T>
AscendC::LocalTensor<T> Named(bool named, uint32_t addr, uint32_t size) {
  return named ? Local<T>(addr, size) : AscendC::LocalTensor<T>();
}

// The input and gamma/beta types the A2 takes: half or float, gamma/beta at least as precise.
template <typename F>
void WithNormTypes(const char* api, int32_t t, int32_t u, F&& f) {
  WithType(t, [&](auto ttag) {
    WithType(u, [&](auto utag) {
      using T = typename decltype(ttag)::type;
      using U = typename decltype(utag)::type;
      constexpr bool ok = (std::is_same_v<T, half> || std::is_same_v<T, float>) &&
                          (std::is_same_v<U, half> || std::is_same_v<U, float>) && sizeof(U) >= sizeof(T);
      if constexpr (ok) return f(ttag, utag);
      Refuse(api, "type codes " + std::to_string(t) + " and " + std::to_string(u) + " not a pair the A2 takes");
    });
  });
}

// The data types of WelfordUpdate, DeepNorm and the [B, S, H] norms: half or float.
template <typename F>
void WithHalfOrFloat(const char* api, int32_t t, F&& f) {
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, half> || std::is_same_v<T, float>)
      f(tag);
    else
      Unsupported(api, t);
  });
}

void AdvNormalize(const Call& c, int32_t form, int32_t t, int32_t u, uint32_t out, uint32_t outn, uint32_t rstd,
                  uint32_t rstdn, uint32_t mean, uint32_t meann, uint32_t var, uint32_t varn, uint32_t x, uint32_t xn,
                  uint32_t gamma, uint32_t gamman, uint32_t beta, uint32_t betan, uint32_t tmp, uint32_t tmpn,
                  float eps, uint32_t paraPtr, int32_t line) {
  const char* api = "Normalize";
  const NormForm f = FormOf(api, form);
  const auto para = c.Read<AscendC::NormalizePara>(paraPtr, api);
  WithNormTypes(api, t, u, [&](auto ttag, auto utag) {
    using T = typename decltype(ttag)::type;
    using U = typename decltype(utag)::type;
    const auto T8 = Named<uint8_t>(form & kTmp, tmp, tmpn);
    NormalizeImpl<U, T>(Local<T>(out, outn), Named<float>(f.stats, rstd, rstdn), Local<float>(mean, meann),
                        Local<float>(var, varn), Local<T>(x, xn), Named<U>(f.gamma, gamma, gamman),
                        Named<U>(f.beta, beta, betan), (form & kTmp) ? &T8 : nullptr, eps, para, f, c.Loc(line));
  });
}

void AdvLayerNormRstd(const Call& c, int32_t form, int32_t t, int32_t u, uint32_t out, uint32_t outn, uint32_t mean,
                      uint32_t meann, uint32_t rstd, uint32_t rstdn, uint32_t x, uint32_t xn, uint32_t gamma,
                      uint32_t gamman, uint32_t beta, uint32_t betan, uint32_t tmp, uint32_t tmpn, float eps,
                      uint32_t paraPtr, int32_t line) {
  const char* api = "LayerNorm";
  const NormForm f = FormOf(api, form);
  const auto para = c.Read<AscendC::LayerNormPara>(paraPtr, api);
  WithNormTypes(api, t, u, [&](auto ttag, auto utag) {
    using T = typename decltype(ttag)::type;
    using U = typename decltype(utag)::type;
    const auto T8 = Named<uint8_t>(form & kTmp, tmp, tmpn);
    LayerNormRstdImpl<U, T>(Local<T>(out, outn), Named<float>(f.stats, mean, meann), Named<float>(f.stats, rstd, rstdn),
                            Local<T>(x, xn), Named<U>(f.gamma, gamma, gamman), Named<U>(f.beta, beta, betan), eps,
                            (form & kTmp) ? &T8 : nullptr, para, f, c.Loc(line));
  });
}

void AdvWelfordUpdate(const Call& c, int32_t inplace, int32_t t, uint32_t om, uint32_t omn, uint32_t ov, uint32_t ovn,
                      uint32_t im, uint32_t imn, uint32_t iv, uint32_t ivn, uint32_t x, uint32_t xn, uint32_t tmp,
                      uint32_t tmpn, int32_t hasTmp, uint32_t paraPtr, int32_t line) {
  const char* api = "WelfordUpdate";
  const auto para = c.Read<AscendC::WelfordUpdateParam>(paraPtr, api);
  WithHalfOrFloat(api, t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto T8 = Named<uint8_t>(hasTmp, tmp, tmpn);
    WelfordUpdateImpl<T, float>(Local<float>(om, omn), Local<float>(ov, ovn), Local<float>(im, imn),
                                Local<float>(iv, ivn), Local<T>(x, xn), hasTmp ? &T8 : nullptr, para, inplace != 0,
                                c.Loc(line));
  });
}

void AdvWelfordFinalize(const Call& c, int32_t hasCounts, uint32_t om, uint32_t omn, uint32_t ov, uint32_t ovn,
                        uint32_t im, uint32_t imn, uint32_t iv, uint32_t ivn, uint32_t counts, uint32_t countsn,
                        uint32_t tmp, uint32_t tmpn, int32_t hasTmp, uint32_t paraPtr, int32_t line) {
  const auto para = c.Read<AscendC::WelfordFinalizePara>(paraPtr, "WelfordFinalize");
  const auto K = Named<int32_t>(hasCounts, counts, countsn);
  const auto T8 = Named<uint8_t>(hasTmp, tmp, tmpn);
  WelfordFinalizeImpl(Local<float>(om, omn), Local<float>(ov, ovn), Local<float>(im, imn), Local<float>(iv, ivn),
                      hasCounts ? &K : nullptr, hasTmp ? &T8 : nullptr, para, c.Loc(line));
}

void AdvDeepNorm(const Call& c, int32_t basicBlock, int32_t t, uint32_t d, uint32_t dn, uint32_t mean, uint32_t meann,
                 uint32_t rstd, uint32_t rstdn, uint32_t s, uint32_t sn, uint32_t gx, uint32_t gxn, uint32_t beta,
                 uint32_t betan, uint32_t gamma, uint32_t gamman, uint32_t tmp, uint32_t tmpn, int32_t hasTmp,
                 float alpha, float eps, uint32_t tilingPtr, int32_t line) {
  const char* api = "DeepNorm";
  const auto tiling = c.Read<DeepNormTiling>(tilingPtr, api);
  WithHalfOrFloat(api, t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto T8 = Named<uint8_t>(hasTmp, tmp, tmpn);
    DeepNormImpl<T>(Local<T>(d, dn), Local<T>(mean, meann), Local<T>(rstd, rstdn), Local<T>(s, sn), Local<T>(gx, gxn),
                    Local<T>(beta, betan), Local<T>(gamma, gamman), hasTmp ? &T8 : nullptr, alpha, eps, tiling,
                    basicBlock != 0, c.Loc(line));
  });
}

void AdvLayerNormGradBeta(const Call& c, int32_t t, uint32_t pg, uint32_t pgn, uint32_t pb, uint32_t pbn, uint32_t res,
                          uint32_t resn, uint32_t dy, uint32_t dyn, uint32_t tmp, uint32_t tmpn, int32_t hasTmp,
                          uint32_t tilingPtr, int32_t line) {
  const char* api = "LayerNormGradBeta";
  const auto tiling = c.Read<LayerNormGradBetaTiling>(tilingPtr, api);
  WithHalfOrFloat(api, t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto T8 = Named<uint8_t>(hasTmp, tmp, tmpn);
    LayerNormGradBetaImpl<T>(Local<T>(pg, pgn), Local<T>(pb, pbn), Local<T>(res, resn), Local<T>(dy, dyn),
                             hasTmp ? &T8 : nullptr, tiling, c.Loc(line));
  });
}

// BatchNorm and GroupNorm take the same operands: output, mean, variance, inputX, gamma, beta.
void AdvBatchNorm(const Call& c, int32_t basicBlock, int32_t t, uint32_t out, uint32_t outn, uint32_t mean,
                  uint32_t meann, uint32_t var, uint32_t varn, uint32_t x, uint32_t xn, uint32_t gamma, uint32_t gamman,
                  uint32_t beta, uint32_t betan, uint32_t tmp, uint32_t tmpn, int32_t hasTmp, float eps,
                  uint32_t tilingPtr, int32_t line) {
  const char* api = "BatchNorm";
  const auto tiling = c.Read<BatchNormTiling>(tilingPtr, api);
  WithHalfOrFloat(api, t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto T8 = Named<uint8_t>(hasTmp, tmp, tmpn);
    BatchNormImpl<T>(Local<T>(out, outn), Local<T>(mean, meann), Local<T>(var, varn), Local<T>(x, xn),
                     Local<T>(gamma, gamman), Local<T>(beta, betan), hasTmp ? &T8 : nullptr, eps, tiling,
                     basicBlock != 0, c.Loc(line));
  });
}

void AdvGroupNorm(const Call& c, int32_t reuseSource, int32_t t, uint32_t out, uint32_t outn, uint32_t mean,
                  uint32_t meann, uint32_t var, uint32_t varn, uint32_t x, uint32_t xn, uint32_t gamma, uint32_t gamman,
                  uint32_t beta, uint32_t betan, uint32_t tmp, uint32_t tmpn, int32_t hasTmp, float eps,
                  uint32_t tilingPtr, int32_t line) {
  const char* api = "GroupNorm";
  const auto tiling = c.Read<GroupNormTiling>(tilingPtr, api);
  WithHalfOrFloat(api, t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto T8 = Named<uint8_t>(hasTmp, tmp, tmpn);
    GroupNormImpl<T>(Local<T>(out, outn), Local<T>(mean, meann), Local<T>(var, varn), Local<T>(x, xn),
                     Local<T>(gamma, gamman), Local<T>(beta, betan), hasTmp ? &T8 : nullptr, eps, tiling,
                     reuseSource != 0, c.Loc(line));
  });
}

void AdvLayerNormGrad(const Call& c, int32_t reuseSource, int32_t t, uint32_t pdx, uint32_t pdxn, uint32_t res,
                      uint32_t resn, uint32_t dy, uint32_t dyn, uint32_t x, uint32_t xn, uint32_t var, uint32_t varn,
                      uint32_t mean, uint32_t meann, uint32_t gamma, uint32_t gamman, uint32_t tmp, uint32_t tmpn,
                      int32_t hasTmp, float eps, int32_t dataFormat, uint32_t tilingPtr, int32_t line) {
  const char* api = "LayerNormGrad";
  const auto tiling = c.Read<LayerNormGradTiling>(tilingPtr, api);
  CheckNdFormat(api, static_cast<AscendC::DataFormat>(dataFormat), c.Loc(line));
  WithHalfOrFloat(api, t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto T8 = Named<uint8_t>(hasTmp, tmp, tmpn);
    LayerNormGradImpl<T>(Local<T>(pdx, pdxn), Local<T>(res, resn), Local<T>(dy, dyn), Local<T>(x, xn),
                         Local<T>(var, varn), Local<T>(mean, meann), Local<T>(gamma, gamman), hasTmp ? &T8 : nullptr,
                         eps, tiling, reuseSource != 0, c.Loc(line));
  });
}

}  // namespace

void DefineAdvNormImports(wasmtime_linker_t* l) {
  Import<AdvNormalize>::Define(l, "adv_normalize");
  Import<AdvLayerNormRstd>::Define(l, "adv_layer_norm_rstd");
  Import<AdvWelfordUpdate>::Define(l, "adv_welford_update");
  Import<AdvWelfordFinalize>::Define(l, "adv_welford_finalize");
  Import<AdvDeepNorm>::Define(l, "adv_deep_norm");
  Import<AdvLayerNormGradBeta>::Define(l, "adv_layer_norm_grad_beta");
  Import<AdvBatchNorm>::Define(l, "adv_batch_norm");
  Import<AdvGroupNorm>::Define(l, "adv_group_norm");
  Import<AdvLayerNormGrad>::Define(l, "adv_layer_norm_grad");
}

}  // namespace ascendc_sim::guest
