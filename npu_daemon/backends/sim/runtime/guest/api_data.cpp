// The guest engine's data imports: DataCopy and DataCopyPad between GM and local buffers and UB to
// UB, the pad value and atomic registers, InitGlobalMemory, and element access (GetValue, SetValue),
// each charged by the emulation as the native API is. A copy's local reach (bursts and the gaps
// between them) is held to the buffer of the tensor it names, its GM reach to the emulation's own
// check, before a byte moves.
#include "import.h"

namespace ascendc_sim::guest {
namespace {

// The parameter structs come from the guest by pointer: both sides declare them in
// ascendc_guest/params.h, plain integers that wasm32 and x86-64 lay out alike.
static_assert(sizeof(AscendC::DataCopyParams) == 8 && sizeof(AscendC::DataCopyExtParams) == 20 &&
              sizeof(AscendC::DataCopyPadParams) == 16);
template <typename P>
P Read(const Call& c, uint32_t ptr, const char* api) {
  static_assert(std::is_trivially_copyable_v<P>);
  P p;
  std::memcpy(&p, c.Bytes(ptr, sizeof p, api), sizeof p);
  return p;
}
// f(Tag<T>) for the element type the guest named, double and fp8 too: the copies and element access serve
// any element type as the native engine's do (a double tensor is 8-byte elements no vector
// instruction takes; WithType refuses it for the others).
template <typename F>
decltype(auto) WithElement(int32_t code, F&& f) {
  if (static_cast<Dtype>(code) == Dtype::kF64) return f(Tag<double>{});
  return WithTypeOrFp8(code, std::forward<F>(f));
}
CacheMode Cache(int32_t code) {
  if (code < 0 || code > static_cast<int32_t>(CacheMode::CACHE_MODE_PERSISTENT))
    throw SimError(Status::RUNTIME_ERROR, "SetL2CacheHint: cache mode " + std::to_string(code) + " out of range");
  return static_cast<CacheMode>(code);
}
// Bytes that `bursts` rows of `row` bytes, `gap` bytes apart, span.
uint64_t Span(uint64_t bursts, uint64_t row, uint64_t gap) {
  return bursts == 0 ? 0 : bursts * row + (bursts - 1) * gap;
}
// The guest's local tensor, and the `bytes` a copy touches from its start inside its position's buffer.
template <typename T>
AscendC::LocalTensor<T> LocalSpan(uint32_t addr, uint32_t size, int32_t pos, uint64_t bytes, const char* api) {
  const auto l = Local<T>(addr, size, pos);
  // Addresses are the core's local address space: a cube buffer's start past the UB's end.
  const ascendc_sim::LocalBuf b = AscendC::BufferOf(l.GetPosition());
  const uint64_t base = ascendc_sim::CurrentCore().Local().Base(b), end = LocalEnd(b);
  if (addr + bytes > end)
    throw SimError(Status::RUNTIME_ERROR, std::string(api) + ": " + std::to_string(bytes) + " B from byte " +
                                              std::to_string(addr - base) + " run past the " +
                                              std::to_string(end - base) + " B of the tensor's buffer");
  return l;
}
// A copy's GM tensor: its start in a GM buffer of the launch. How far past the buffer the copy may
// reach is the emulation's check before any byte moves (IssueDma: a read a little past a buffer is
// tolerated as on the device, anything further is an error), as for a native kernel.
template <typename T>
AscendC::GlobalTensor<T> Gm(uint32_t gm, int64_t gmSize, int32_t cache, const char* api) {
  auto g = Global<T>(gm, gmSize, 1, api);
  g.SetL2CacheHint(Cache(cache));
  return g;
}

void CopyGmUb(const Call& c, int32_t t, int32_t toGm, uint32_t gm, int64_t gmSize, int32_t cache, uint32_t ub,
              uint32_t ubSize, int32_t pos, uint32_t count, int32_t line) {
  WithElement(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto l = Local<T>(ub, ubSize, pos);
    const auto g = Gm<T>(gm, gmSize, cache, "DataCopy");
    if (toGm)
      AscendC::DataCopy(g, l, count, c.Loc(line));
    else
      AscendC::DataCopy(l, g, count, c.Loc(line));
  });
}
void CopyBlocksGmUb(const Call& c, int32_t t, int32_t toGm, uint32_t gm, int64_t gmSize, int32_t cache, uint32_t ub,
                    uint32_t ubSize, int32_t pos, uint32_t params, int32_t line) {
  const auto p = Read<AscendC::DataCopyParams>(c, params, "DataCopy");
  ascendc_sim::CheckParams(p, "DataCopy", c.Loc(line));
  const uint64_t row = p.blockLen * 32ull, ubGap = (toGm ? p.srcStride : p.dstStride) * 32ull;
  WithElement(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto l = LocalSpan<T>(ub, ubSize, pos, Span(p.blockCount, row, ubGap), "DataCopy");
    const auto g = Gm<T>(gm, gmSize, cache, "DataCopy");
    if (toGm)
      AscendC::DataCopy(g, l, p, c.Loc(line));
    else
      AscendC::DataCopy(l, g, p, c.Loc(line));
  });
}
// `legacy`: DataCopyParams and DataCopyPadParams (the value as 8 bytes) instead of the Ext forms.
void CopyPadGmUb(const Call& c, int32_t t, int32_t toGm, uint32_t gm, int64_t gmSize, int32_t cache, uint32_t ub,
                 uint32_t ubSize, int32_t pos, int32_t legacy, uint32_t params, uint32_t pad, int32_t line) {
  AscendC::DataCopyExtParams p;
  if (legacy) {
    const auto b = Read<AscendC::DataCopyParams>(c, params, "DataCopyPad");
    p = AscendC::DataCopyExtParams(b.blockCount, b.blockLen, b.srcStride, b.dstStride, 0);
  } else {
    p = Read<AscendC::DataCopyExtParams>(c, params, "DataCopyPad");
  }
  WithElement(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto g = Gm<T>(gm, gmSize, cache, "DataCopyPad");
    if (toGm) {
      const uint64_t row = (p.blockLen + 31ull) / 32 * 32;
      const auto l = LocalSpan<T>(ub, ubSize, pos, Span(p.blockCount, row, p.srcStride * 32ull), "DataCopyPad");
      AscendC::DataCopyPad(g, l, p, c.Loc(line));
      return;
    }
    AscendC::DataCopyPadExtParams<T> h;
    if (legacy) {
      const auto l = Read<AscendC::DataCopyPadParams>(c, pad, "DataCopyPad");
      T value;
      std::memcpy(&value, &l.paddingValue, sizeof(T));
      h = AscendC::DataCopyPadExtParams<T>(l.isPad, l.leftPadding, l.rightPadding, value);
    } else {
      h = Read<AscendC::DataCopyPadExtParams<T>>(c, pad, "DataCopyPad");
    }
    const uint64_t side = h.isPad ? (h.leftPadding + h.rightPadding) * sizeof(T) : 0;
    const uint64_t row = (p.blockLen + side + 31) / 32 * 32;
    const auto l = LocalSpan<T>(ub, ubSize, pos, Span(p.blockCount, row, p.dstStride * 32ull), "DataCopyPad");
    AscendC::DataCopyPad(l, g, p, h, c.Loc(line));
  });
}
// `params` 0: the count form.
void CopyUbUb(const Call& c, int32_t t, uint32_t dst, uint32_t dstSize, int32_t dstPos, uint32_t src, uint32_t srcSize,
              int32_t srcPos, uint32_t params, uint32_t count, int32_t line) {
  WithElement(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (params == 0) {
      // The count form's blocks are 32 B, or 64 B into the bias table: count elements bound both.
      const uint64_t bytes = static_cast<uint64_t>(count) * sizeof(T);
      AscendC::DataCopy(LocalSpan<T>(dst, dstSize, dstPos, bytes, "DataCopy"),
                        LocalSpan<T>(src, srcSize, srcPos, bytes, "DataCopy"), count, c.Loc(line));
      return;
    }
    const auto p = Read<AscendC::DataCopyParams>(c, params, "DataCopy");
    ascendc_sim::CheckParams(p, "DataCopy", c.Loc(line));
    const uint64_t row = p.blockLen * 32ull;
    AscendC::DataCopy(LocalSpan<T>(dst, dstSize, dstPos, Span(p.blockCount, row, p.dstStride * 32ull), "DataCopy"),
                      LocalSpan<T>(src, srcSize, srcPos, Span(p.blockCount, row, p.srcStride * 32ull), "DataCopy"), p,
                      c.Loc(line));
  });
}

// L1 -> bias table with a type conversion: the bias table holds float or int32_t; the reach of both
// tensors as the native copy counts it (blockLen 64 B rows of the destination, the source's rows as
// many elements, srcStride in 32 B and dstStride in 64 B), checked in their buffers before it runs.
void CopyL1Bt(const Call& c, int32_t dstType, int32_t srcType, uint32_t dst, uint32_t dstSize, int32_t dstPos,
              uint32_t src, uint32_t srcSize, int32_t srcPos, uint32_t params, int32_t line) {
  const auto p = Read<AscendC::DataCopyParams>(c, params, "DataCopy");
  ascendc_sim::CheckParams(p, "DataCopy", c.Loc(line));
  const auto run = [&](auto dtag) {
    using D = typename decltype(dtag)::type;
    WithType(srcType, [&](auto stag) {
      using S = typename decltype(stag)::type;
      const uint64_t rowElems = p.blockLen * 64ull / sizeof(D);
      const auto d = LocalSpan<D>(dst, dstSize, dstPos, Span(p.blockCount, rowElems * sizeof(D), p.dstStride * 64ull),
                                  "DataCopy(L1 -> BT)");
      const auto s = LocalSpan<S>(src, srcSize, srcPos, Span(p.blockCount, rowElems * sizeof(S), p.srcStride * 32ull),
                                  "DataCopy(L1 -> BT)");
      AscendC::DataCopy<D, S>(d, s, p, c.Loc(line));
    });
  };
  if (static_cast<Dtype>(dstType) == Dtype::kF32) return run(Tag<float>{});
  if (static_cast<Dtype>(dstType) == Dtype::kI32) return run(Tag<int32_t>{});
  throw SimError(Status::RUNTIME_ERROR, "DataCopy(L1 -> BT): the bias table holds float or int32_t");
}

void SetPadValueImport(const Call&, int64_t bits) { AscendC::SetPadValue(static_cast<uint64_t>(bits)); }
void SetAtomic(const Call&, int32_t t, int32_t op) {
  if (op == static_cast<int32_t>(ascendc_guest::AtomicOp::kNone)) return AscendC::SetAtomicNone();
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kFloating<T> || std::is_same_v<T, bfloat16_t> || std::is_same_v<T, int8_t> ||
                  std::is_same_v<T, int16_t> || std::is_same_v<T, int32_t>) {
      switch (static_cast<ascendc_guest::AtomicOp>(op)) {
        case ascendc_guest::AtomicOp::kAdd:
          return AscendC::SetAtomicAdd<T>();
        case ascendc_guest::AtomicOp::kMax:
          return AscendC::SetAtomicMax<T>();
        case ascendc_guest::AtomicOp::kMin:
          return AscendC::SetAtomicMin<T>();
        case ascendc_guest::AtomicOp::kKeep:
          return AscendC::SetAtomicType<T>();
        default:
          throw SimError(Status::RUNTIME_ERROR, "SetAtomic: operation code " + std::to_string(op) + " unknown");
      }
    } else {
      Unsupported("SetAtomicAdd/Max/Min", t);
    }
  });
}
void InitGm(const Call& c, int32_t t, uint32_t gm, int64_t gmSize, int64_t count, int64_t bits, int32_t line) {
  WithElement(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (count < 0) throw SimError(Status::RUNTIME_ERROR, "InitGlobalMemory: negative size");
    AscendC::InitGlobalMemory(Global<T>(gm, gmSize, count, "InitGlobalMemory"), static_cast<uint64_t>(count),
                              FromBits<T>(bits), c.Loc(line));
  });
}
void DataCacheClean(const Call&, uint32_t gm, int32_t entire) {
  const auto g = Global<uint8_t>(gm, 1, 1, "DataCacheCleanAndInvalid");
  if (entire)
    AscendC::DataCacheCleanAndInvalid<uint8_t, AscendC::CacheLine::ENTIRE_DATA_CACHE>(g);
  else
    AscendC::DataCacheCleanAndInvalid<uint8_t, AscendC::CacheLine::SINGLE_CACHE_LINE>(g);
}
// The preloaded byte is resolved in the guest's GM, so an offset past its buffers stops the launch.
void DataCachePreload(const Call& c, uint32_t gm, int64_t offset, int32_t line) {
  const int64_t at = static_cast<int64_t>(gm) + offset;
  if (at < 0 || at > static_cast<int64_t>(UINT32_MAX))
    throw SimError(Status::RUNTIME_ERROR, "DataCachePreload: byte offset " + std::to_string(offset) + " leaves the GM");
  // Resolved at the preloaded byte itself: the guest's buffers are not laid out as the host's.
  ascendc_sim::PreloadDataCache(Global<uint8_t>(static_cast<uint32_t>(at), 1, 1, "DataCachePreload").GetPhyAddr(), 0,
                                c.Loc(line));
}

int64_t UbGet(const Call& c, int32_t t, uint32_t addr, uint32_t size, uint32_t index, int32_t line) {
  return WithElement(t, [&](auto tag) -> int64_t {
    using T = typename decltype(tag)::type;
    return BitsOf(Local<T>(addr, size).GetValue(index, c.Loc(line)));
  });
}
void UbSet(const Call& c, int32_t t, uint32_t addr, uint32_t size, uint32_t index, int64_t bits, int32_t line) {
  WithElement(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    Local<T>(addr, size).SetValue(index, FromBits<T>(bits), c.Loc(line));
  });
}
int64_t GmGet(const Call& c, int32_t t, uint32_t gm, int64_t offset, int32_t line) {
  return WithElement(t, [&](auto tag) -> int64_t {
    using T = typename decltype(tag)::type;
    return BitsOf(Global<T>(gm + static_cast<uint32_t>(offset * static_cast<int64_t>(sizeof(T))), 1, 1, "GetValue")
                      .GetValue(0, c.Loc(line)));
  });
}
void GmSet(const Call& c, int32_t t, uint32_t gm, int64_t offset, int64_t bits, int32_t line) {
  WithElement(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    Global<T>(gm + static_cast<uint32_t>(offset * static_cast<int64_t>(sizeof(T))), 1, 1, "SetValue")
        .SetValue(0, FromBits<T>(bits), c.Loc(line));
  });
}

}  // namespace

void DefineDataImports(wasmtime_linker_t* l) {
  Import<CopyGmUb>::Define(l, "copy_gm_ub");
  Import<CopyBlocksGmUb>::Define(l, "copy_blocks_gm_ub");
  Import<CopyPadGmUb>::Define(l, "copy_pad_gm_ub");
  Import<CopyUbUb>::Define(l, "copy_ub_ub");
  Import<CopyL1Bt>::Define(l, "copy_l1_bt");
  Import<SetPadValueImport>::Define(l, "set_pad_value");
  Import<SetAtomic>::Define(l, "set_atomic");
  Import<InitGm>::Define(l, "init_gm");
  Import<DataCacheClean>::Define(l, "data_cache_clean");
  Import<DataCachePreload>::Define(l, "data_cache_preload");
  Import<UbGet>::Define(l, "ub_get");
  Import<UbSet>::Define(l, "ub_set");
  Import<GmGet>::Define(l, "gm_get");
  Import<GmSet>::Define(l, "gm_set");
}

}  // namespace ascendc_sim::guest
