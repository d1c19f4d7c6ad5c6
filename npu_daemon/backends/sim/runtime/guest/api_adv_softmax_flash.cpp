// The guest engine's Softmax flash import (ascendc_guest/adv_softmax_flash.h): each call runs the
// native emulation's SoftmaxFlashImpl, so its trace, charge and numerics are the native engine's.
// The tensors, tiling and shape come from the guest: every tensor is held to its buffer (Local),
// the structs are copied out of guest memory, and the native function checks the shape against
// the tensors before it touches them.
#include "../../guest/include/ascendc_guest/adv_abi.h"
#include "../../guest/include/ascendc_guest/adv_softmax_flash_abi.h"
#include "import.h"

namespace ascendc_sim::guest {
namespace {

using ascendc_guest::FlashHandles;

template <typename T>
AscendC::LocalTensor<T> Tensor(const FlashHandles& h, int32_t i) {
  return Local<T>(h.addr[i], h.size[i]);
}

template <typename S, typename U>
void Flash(int32_t form, const FlashHandles& h, const RowGeometry& g, const SrcLoc& loc) {
  using namespace ascendc_guest;
  const bool update = form & kFlashUpdate, brc = form & kFlashBrc, maxForm = form & kFlashMaxForm;
  // The outReduceMax forms compute nothing in the broadcast mode, as the native ones.
  if (maxForm && brc) return;
  // The optional tensors are made only when the call names them (Local holds each to its buffer).
  const bool hasMax = maxForm && update, hasTmp = form & kFlashTmp;
  const auto reduceMax = hasMax ? Tensor<S>(h, kFlashReduceMax) : AscendC::LocalTensor<S>();
  const auto tmp = hasTmp ? Tensor<uint8_t>(h, kFlashTmpBuf) : AscendC::LocalTensor<uint8_t>();
  const char* api = form & kFlashV2 ? "SoftmaxFlashV2" : "SoftmaxFlash";
  SoftmaxFlashImpl<S, U>(api, FlashForm{form & kFlashV2 ? 2 : 1, update, brc},
                         {Tensor<S>(h, kFlashDst), Tensor<U>(h, kFlashSum), Tensor<U>(h, kFlashMax),
                          Tensor<S>(h, kFlashSrc), Tensor<S>(h, kFlashExpMax), Tensor<U>(h, kFlashInSum),
                          Tensor<U>(h, kFlashInMax), hasMax ? &reduceMax : nullptr, hasTmp ? &tmp : nullptr},
                         g, loc);
}

void AdvSoftmaxFlash(const Call& c, int32_t form, int32_t t, int32_t u, uint32_t tensors, uint32_t tilingPtr,
                     uint32_t shapePtr, uint32_t cfgM, uint32_t cfgK, int32_t line) {
  const char* api = "SoftmaxFlash";
  if (form < 0 || form >= 2 * ascendc_guest::kFlashTmp) Refuse(api, "form " + std::to_string(form) + " unknown");
  const auto h = c.Read<FlashHandles>(tensors, api);
  const RowGeometry g =
      FlashRows(c.Read<SoftMaxTiling>(tilingPtr, api), c.Read<AscendC::SoftMaxShapeInfo>(shapePtr, api), cfgM, cfgK);
  const SrcLoc loc = c.Loc(line);
  WithType(t, [&](auto st) {
    using S = typename decltype(st)::type;
    WithType(u, [&](auto ut) {
      using U = typename decltype(ut)::type;
      if constexpr (kFloating<S> && (std::is_same_v<S, U> || (std::is_same_v<S, half> && std::is_same_v<U, float>)))
        Flash<S, U>(form, h, g, loc);
      else
        Unsupported(api, u);
    });
  });
}

}  // namespace

void DefineAdvSoftmaxFlashImports(wasmtime_linker_t* l) { Import<AdvSoftmaxFlash>::Define(l, "adv_softmax_flash"); }

}  // namespace ascendc_sim::guest
