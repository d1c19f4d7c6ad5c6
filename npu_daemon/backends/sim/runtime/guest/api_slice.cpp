// The guest engine's slice copies: DataCopy with SliceInfo, run by the emulation's SliceCopy. The
// native code trusts its slices (a library-made tensor, a kernel of the same process); from the
// guest they are held first: every sum SliceCopy forms in 32 bits without wrapping, and each piece
// row's bytes inside the GM buffer and the local buffer of the tensors the copy names.
#include <array>

#include "import.h"

namespace ascendc_sim::guest {
namespace {

using AscendC::SliceInfo;
static_assert(sizeof(SliceInfo) == 20, "SliceInfo crosses as five 32-bit words");
constexpr uint32_t kMaxDims = 8;  // SliceRowCount's range: more is its error
using Slices = std::array<SliceInfo, kMaxDims>;

// A dimension's sums as SliceCopy forms them in 32 bits (its index span plus its stride; the
// first dimension's burst bytes plus the stride's bytes) must not wrap: a wrapped divisor is 0.
void CheckExtents(const Slices& s, uint32_t dims, uint64_t elemBytes, const SrcLoc& loc) {
  for (uint32_t d = 0; d < dims; ++d) {
    const uint64_t piece = d == 0 ? s[d].burstLen * 32ull : 1;
    ASCENDC_SIM_CHECK(s[d].endIndex + 1ull + s[d].stride <= UINT32_MAX && piece + s[d].stride * elemBytes <= UINT32_MAX,
                      loc, "DataCopy with SliceInfo: dimension %u's extent overflows 32 bits", d);
  }
}

// The bytes past the tensor's start that the copy's rows reach, on the GM and on the local side
// (SliceCopy's bursts, pitches and row offsets, row by row, as it will issue them).
template <typename T>
std::pair<unsigned __int128, unsigned __int128> Reach(const Slices& gm, const Slices& ub, uint32_t dims, bool toUb,
                                                      uint64_t rows) {
  const SliceInfo& src = toUb ? gm[0] : ub[0];
  const uint32_t rowBytes = src.burstLen * 32;
  const uint32_t bursts = (src.endIndex - src.startIndex + 1 + src.stride) / (rowBytes / sizeof(T) + src.stride);
  if (bursts == 0) return {0, 0};
  const uint64_t gmSpan = (bursts - 1ull) * (rowBytes + static_cast<uint64_t>(gm[0].stride) * sizeof(T)) + rowBytes;
  const uint64_t ubSpan = (bursts - 1ull) * (rowBytes + ub[0].stride * sizeof(T) / 32 * 32) + rowBytes;
  unsigned __int128 gmEnd = 0, ubEnd = 0;
  for (uint64_t i = 0; i < rows; ++i) {
    gmEnd = std::max<unsigned __int128>(gmEnd, ascendc_sim::SliceRowOffset(gm.data(), dims, i) * sizeof(T) + gmSpan);
    ubEnd = std::max<unsigned __int128>(ubEnd, ascendc_sim::SliceRowOffset(ub.data(), dims, i) * sizeof(T) + ubSpan);
  }
  return {gmEnd, ubEnd};
}

void CopySlice(const Call& c, int32_t t, int32_t toGm, uint32_t gm, int64_t gmSize, int32_t cache, uint32_t ub,
               uint32_t ubSize, int32_t pos, uint32_t gmSlice, uint32_t ubSlice, uint32_t dims, int32_t line) {
  const char* api = "DataCopy";
  const SrcLoc loc = c.Loc(line);
  const uint32_t n = std::min(dims, kMaxDims);
  Slices g{}, u{};
  std::memcpy(g.data(), c.Bytes(gmSlice, n * sizeof(SliceInfo), api), n * sizeof(SliceInfo));
  std::memcpy(u.data(), c.Bytes(ubSlice, n * sizeof(SliceInfo), api), n * sizeof(SliceInfo));
  if (cache < 0 || cache > static_cast<int32_t>(CacheMode::CACHE_MODE_PERSISTENT))
    throw SimError(Status::RUNTIME_ERROR, "SetL2CacheHint: cache mode " + std::to_string(cache) + " out of range");
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto l = Local<T>(ub, ubSize, pos);
    AscendC::GlobalTensor<T> tensor = Global<T>(gm, gmSize, 1, api);
    const SliceInfo& src = toGm ? u[0] : g[0];
    // An empty or unequal first dimension, or dims out of range, is SliceCopy's own error.
    if (dims >= 1 && dims <= kMaxDims && src.burstLen >= 1) {
      CheckExtents(g, dims, sizeof(T), loc);
      CheckExtents(u, dims, sizeof(T), loc);
      const uint64_t rows = ascendc_sim::SliceRowCount(g.data(), dims, loc);
      if (rows == ascendc_sim::SliceRowCount(u.data(), dims, loc)) {
        const auto [gmEnd, ubEnd] = Reach<T>(g, u, dims, !toGm, rows);
        const auto buf = AscendC::BufferOf(l.GetPosition());
        const auto& local = ascendc_sim::CurrentCore().Local();
        if (ub + ubEnd > local.Base(buf) + local.Size(buf))
          throw SimError(Status::RUNTIME_ERROR, "DataCopy with SliceInfo: its rows run past the " +
                                                    std::to_string(local.Size(buf)) + " B of the tensor's buffer");
        // Every row in the GM buffer the tensor starts in, as one range from its start.
        const int64_t reach = static_cast<int64_t>(std::min<unsigned __int128>(gmEnd, UINT32_MAX) + sizeof(T) - 1) /
                              static_cast<int64_t>(sizeof(T));
        tensor = Global<T>(gm, gmSize, reach, api);
      }
    }
    tensor.SetL2CacheHint(static_cast<CacheMode>(cache));
    if (toGm)
      AscendC::DataCopy(tensor, l, g.data(), u.data(), dims, loc);
    else
      AscendC::DataCopy(l, tensor, u.data(), g.data(), dims, loc);
  });
}

}  // namespace

void DefineSliceImports(wasmtime_linker_t* l) { Import<CopySlice>::Define(l, "copy_slice"); }

}  // namespace ascendc_sim::guest
