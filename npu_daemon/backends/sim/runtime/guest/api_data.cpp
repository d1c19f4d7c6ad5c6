// The guest engine's data imports: DataCopy and DataCopyPad between GM and local buffers, and element
// access (GetValue, SetValue), each charged by the emulation as the native API is.
#include "import.h"

namespace ascendc_sim::guest {
namespace {

void CopyGmUb(const Call& c, int32_t t, int32_t toGm, uint32_t gm, int64_t gmSize, uint32_t ub, uint32_t ubSize,
              int32_t pos, uint32_t count, int32_t line) {
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto l = Local<T>(ub, ubSize, pos);
    const auto g = Global<T>(gm, gmSize, count, "DataCopy");
    if (toGm)
      AscendC::DataCopy(g, l, count, c.Loc(line));
    else
      AscendC::DataCopy(l, g, count, c.Loc(line));
  });
}
void CopyPadGmUb(const Call& c, int32_t t, int32_t toGm, uint32_t gm, int64_t gmSize, uint32_t ub, uint32_t ubSize,
                 int32_t pos, uint32_t params, uint32_t pad, int32_t line) {
  // The guest's DataCopyExtParams: the same five fields with wasm32's natural alignment.
  struct ExtParams {
    uint16_t blockCount;
    uint32_t blockLen, srcStride, dstStride, rsv;
  };
  ExtParams e;
  std::memcpy(&e, c.Bytes(params, sizeof e, "DataCopyPad"), sizeof e);
  const AscendC::DataCopyExtParams p(e.blockCount, e.blockLen, e.srcStride, e.dstStride, e.rsv);
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto l = Local<T>(ub, ubSize, pos);
    // The GM the copy reaches: its bursts and the gaps between them.
    const int64_t bursts = std::max<int64_t>(e.blockCount, 1), gap = toGm ? e.dstStride : e.srcStride;
    const int64_t reach = (bursts * e.blockLen + (bursts - 1) * gap + sizeof(T) - 1) / static_cast<int64_t>(sizeof(T));
    const auto g = Global<T>(gm, gmSize, reach, "DataCopyPad");
    if (toGm) {
      AscendC::DataCopyPad(g, l, p, c.Loc(line));
    } else {
      // The guest's DataCopyPadExtParams<T>: isPad, leftPadding, rightPadding, then the value.
      struct PadHead {
        bool isPad;
        uint8_t left, right;
      };
      PadHead h;
      std::memcpy(&h, c.Bytes(pad, sizeof h, "DataCopyPad"), sizeof h);
      constexpr uint32_t kValueAt = (3 + alignof(T) - 1) / alignof(T) * alignof(T);  // after the three bytes
      T value;
      std::memcpy(&value, c.Bytes(pad + kValueAt, sizeof(T), "DataCopyPad"), sizeof(T));
      AscendC::DataCopyPad(l, g, p, AscendC::DataCopyPadExtParams<T>(h.isPad, h.left, h.right, value), c.Loc(line));
    }
  });
}

int64_t UbGet(const Call& c, int32_t t, uint32_t addr, uint32_t size, uint32_t index, int32_t line) {
  return WithType(t, [&](auto tag) -> int64_t {
    using T = typename decltype(tag)::type;
    return BitsOf(Local<T>(addr, size).GetValue(index, c.Loc(line)));
  });
}
void UbSet(const Call& c, int32_t t, uint32_t addr, uint32_t size, uint32_t index, int64_t bits, int32_t line) {
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    Local<T>(addr, size).SetValue(index, FromBits<T>(bits), c.Loc(line));
  });
}
int64_t GmGet(const Call& c, int32_t t, uint32_t gm, int64_t offset, int32_t line) {
  return WithType(t, [&](auto tag) -> int64_t {
    using T = typename decltype(tag)::type;
    return BitsOf(Global<T>(gm + static_cast<uint32_t>(offset * static_cast<int64_t>(sizeof(T))), 1, 1, "GetValue")
                      .GetValue(0, c.Loc(line)));
  });
}
void GmSet(const Call& c, int32_t t, uint32_t gm, int64_t offset, int64_t bits, int32_t line) {
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    Global<T>(gm + static_cast<uint32_t>(offset * static_cast<int64_t>(sizeof(T))), 1, 1, "SetValue")
        .SetValue(0, FromBits<T>(bits), c.Loc(line));
  });
}

}  // namespace

void DefineDataImports(wasmtime_linker_t* l) {
  Import<CopyGmUb>::Define(l, "copy_gm_ub");
  Import<CopyPadGmUb>::Define(l, "copy_pad_gm_ub");
  Import<UbGet>::Define(l, "ub_get");
  Import<UbSet>::Define(l, "ub_set");
  Import<GmGet>::Define(l, "gm_get");
  Import<GmSet>::Define(l, "gm_set");
}

}  // namespace ascendc_sim::guest
