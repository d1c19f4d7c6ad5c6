// The sharedTmpBuffer sizes of the element-wise math APIs as the tree's host helpers give them
// (GetSigmoidMaxMinTmpSize and the rest of host_tiling_api.h, the Log family's log_tiling.h): one
// definition for the host helpers, the native kernel and the guest engine's imports. The kernel
// side takes a buffer as written only up to the maximum ("space past it is not used by the API"),
// so what a kernel keeps in the buffer's tail past it stays its own, as on the device.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>

#include "ascendc_sim/norm_tmp_sizes.h"

namespace ascendc_sim {

// Held to 32 bits as the helpers return it (a maximum past the UB is never a buffer's size).
inline uint32_t TmpBytes(uint64_t bytes) { return static_cast<uint32_t>(std::min<uint64_t>(bytes, UINT32_MAX)); }

// `buffers` float intermediates an element (one fewer for a float source the call may reuse), the
// maximum over the whole input but at least one 256 B repeat each, the minimum one repeat each.
inline TmpRange FloatBuffersTmpRange(uint64_t elems, uint32_t typeSize, bool reuse, uint32_t buffers) {
  const uint32_t n = buffers - (reuse && typeSize == 4 && buffers > 1 ? 1 : 0);
  return {TmpBytes(std::max<uint64_t>(elems * 4 * n, 256 * n)), 256 * n};
}

// SoftMax and LogSoftMax over `rows` rows of `elems` elements in all (GetSoftMaxMaxTmpSize,
// GetLogSoftMaxMaxTmpSize): two float buffers of the whole input (one fewer for a float source
// that may be reused), each at least one 256 B repeat, and 64 bytes a row for its statistics.
inline uint32_t SoftMaxMaxTmpBytes(uint64_t rows, uint64_t elems, uint32_t typeSize, bool reuse) {
  return TmpBytes(FloatBuffersTmpRange(elems, typeSize, reuse, 2).maxValue + rows * 64);
}

// The least sharedTmpBuffer of SoftMax and LogSoftMax (GetSoftMaxMinTmpSize, GetLogSoftMaxMinTmpSize)
// over `rows` rows of `pitch` elements, `elems` in all: their maximum or two float copies of a row
// and 64 bytes in 256 B repeats, the less. (asc-devkit's A2 helper gives a block, the row and 64
// floats, more than this for rows under 64 elements.)
inline uint32_t SoftMaxMinTmpBytes(uint64_t rows, uint64_t elems, uint64_t pitch, uint32_t typeSize, bool reuse) {
  return std::min(SoftMaxMaxTmpBytes(rows, elems, typeSize, reuse), TmpBytes((pitch * 8 + 64 + 255) / 256 * 256));
}

// The least sharedTmpBuffer asc-devkit's A2 GetSoftMaxMinTmpSize / GetLogSoftMaxMinTmpSize give for
// rows of `pitch` elements, whatever isReuseSource (the helper ignores it): float words of a block
// of the type, the row and 64. Ours above is the tree's own model: the kernel side refuses a buffer
// under the less of the two, so it refuses no buffer either helper sized.
inline uint32_t SoftMaxA2MinTmpBytes(uint64_t pitch, uint32_t typeSize) {
  return TmpBytes((32 / typeSize + pitch + 64) * 4);
}

// SoftmaxGrad (and SoftmaxGradFront) over `rows` rows of `pitch` elements as asc-devkit's A2
// GetSoftMaxGradMaxTmpSize sizes it (impl/adv_api/tiling/activation/softmax_tiling.cpp): float
// words a row of one 32 B block of statistics (two unless a float front), the row (three copies
// for half) and 64 for the reduction.
inline uint32_t SoftMaxGradMaxTmpBytes(uint64_t rows, uint64_t pitch, uint32_t typeSize, bool front) {
  const uint64_t block = 32 / typeSize;
  const uint64_t words = typeSize == 2 ? block * 2 + pitch * 3 + 64 : (front ? block : block * 2) + pitch + 64;
  return TmpBytes(rows * words * 4);
}
// Its minimum (GetSoftMaxGradMinTmpSize): one row's words, the library looping over the rows.
inline uint32_t SoftMaxGradMinTmpBytes(uint64_t pitch, uint32_t typeSize, bool front) {
  return SoftMaxGradMaxTmpBytes(1, pitch, typeSize, front);
}

// SoftmaxFlash (version 1) as asc-devkit's A2 GetSoftMaxFlashMaxTmpSize sizes it: float words a
// row of a 32 B block, the row and 64 for the reduction; with isUpdate, four blocks and two rows.
inline uint32_t SoftMaxFlashMaxTmpBytes(uint64_t rows, uint64_t pitch, uint32_t typeSize, bool update) {
  const uint64_t block = 32 / typeSize;
  return TmpBytes(rows * (update ? block * 4 + pitch * 2 : block + pitch + 64) * 4);
}
// Its minimum (GetSoftMaxFlashMinTmpSize): one row's words.
inline uint32_t SoftMaxFlashMinTmpBytes(uint64_t pitch, uint32_t typeSize, bool update) {
  return SoftMaxFlashMaxTmpBytes(1, pitch, typeSize, update);
}

// SoftmaxFlashV2 as asc-devkit's A2 GetSoftMaxFlashV2MaxTmpSize sizes it, for a source of
// `typeSize` and statistics of `statSize` bytes: float words a row of a 32 B block of statistics
// and 64 for the reduction, plus for a half source a second block and the row. Its basic-block
// form (a template parameter the call does not pass on) is never larger but for rows of 1,024
// elements in multiples of 8 (128 for the reduction, one block): the larger of the two is taken.
inline uint32_t SoftMaxFlashV2MaxTmpBytes(uint64_t rows, uint64_t pitch, uint32_t typeSize, uint32_t statSize) {
  const uint64_t block = 32 / statSize;
  const bool wide = pitch == 1024 && rows % 8 == 0;
  const uint64_t words =
      typeSize == 2 ? std::max(block * 2 + pitch + 64, wide ? block + pitch + 128 : 0) : block + (wide ? 128 : 64);
  return TmpBytes(rows * words * 4);
}
// Its minimum (GetSoftMaxFlashV2MinTmpSize) is one row's words, eight basic rows with isBasicBlock
// (a template parameter the call does not pass on) or a block of rows with isFlashOutputBrc: the
// least of them, one row of the plain form, so a buffer any of the helper's forms sized passes.
inline uint32_t SoftMaxFlashV2MinTmpBytes(uint64_t pitch, uint32_t typeSize, uint32_t statSize) {
  return SoftMaxFlashV2MaxTmpBytes(1, pitch, typeSize, statSize);
}

// Sin and Cos as asc-devkit's tiling (impl/adv_api/tiling/math/{sin,cos}_tiling_impl.cpp) sizes
// them: live buffers per element (float 3, or 2 reusing the source; half 8, which cannot reuse it:
// the library's host check then fails, both sizes 0), the maximum over the whole input but at
// least one 256 B repeat each, the minimum one repeat each.
inline uint32_t TrigLiveNodes(uint32_t typeSize, bool reuse) {
  return typeSize == 4 ? (reuse ? 2 : 3) : (reuse ? 0 : 8);
}
inline TmpRange TrigTmpRange(uint64_t elems, uint32_t typeSize, bool reuse) {
  const uint32_t nodes = TrigLiveNodes(typeSize, reuse);
  return {TmpBytes(nodes * std::max<uint64_t>(elems * typeSize, 256)), nodes * 256};
}

// Power as asc-devkit's A2 tiling (impl/adv_api/tiling/math/power_tiling_impl.cpp) sizes it: live
// buffers per element of the tensor operand by kind (tensor^tensor or with a scalar) and type, each
// at least 256 B (half 128 B), plus a 256 B repeat except for int; the minimum one repeat each.
struct PowerNodes {
  uint32_t nodes;
  uint32_t extra;
};
inline PowerNodes PowerLive(bool bothTensors, bool typeIsInt, uint32_t typeSize) {
  if (typeIsInt) return {bothTensors ? 6u : 7u, 0};
  return {typeSize == 4 ? (bothTensors ? 4u : 5u) : 14u, 256};
}
inline TmpRange PowerTmpRange(uint64_t elems, bool bothTensors, bool typeIsInt, uint32_t typeSize) {
  const PowerNodes live = PowerLive(bothTensors, typeIsInt, typeSize);
  const uint64_t perNode = std::max<uint64_t>(elems * typeSize, typeSize == 4 ? 256 : 128);
  const uint32_t minValue =
      typeIsInt ? 256 * live.nodes : (typeSize == 4 ? 256 * live.nodes : 128 * live.nodes) + live.extra;
  return {TmpBytes(perNode * live.nodes + live.extra), minValue};
}

// The Log family (asc-devkit's A2 log_tiling.cpp): Log and Log10 are single vector instructions and
// take no buffer; Log2 of half works in float intermediates (4 B an element, at least one 256 B
// repeat), of float needs none.
inline TmpRange Log2TmpRange(uint64_t elems, uint32_t typeSize) {
  if (typeSize != 2) return {};
  return {TmpBytes(std::max<uint64_t>(elems * 4, 256)), 256};
}

// CumSum over [outter, inner] as asc-devkit's GetCumSumMaxMinTmpSize sizes it
// (impl/adv_api/tiling/math/cumsum_tiling.cpp): down the first axis a float copy of a half input
// (a float one needs none), the same at the least; along the last, both transposes of the rows
// padded to 16 (and the half input's cast copy) at the most, of 16 rows at the least: the library
// takes 16 rows for each whole minimum the buffer holds at a time (none under it, a step of 0 rows).
inline TmpRange CumSumTmpRange(uint64_t outter, uint64_t inner, uint32_t typeSize, bool lastAxis) {
  if (!lastAxis) {
    const uint32_t copy = TmpBytes(typeSize == 2 ? outter * inner * 4 : 0);
    return {copy, copy};
  }
  const uint64_t rows = (outter + 15) / 16 * 16;
  return {TmpBytes((typeSize == 2 ? inner * rows * 2 : 0) + rows * inner * typeSize * 2),
          TmpBytes((typeSize == 2 ? inner * 16 * 2 : 0) + 16 * inner * typeSize * 2)};
}

// SelectWithBytesMask over `elems` source elements as asc-devkit's GetSelectWithBytesMaskMaxTmpSize
// sizes it (impl/adv_api/tiling/select/selectwithbytesmask_tiling_impl.cpp): a half copy of the
// source padded to 32 elements and 512 bytes, at least 1 KiB, plus a copy of the mask when its rows
// are longer than the source's and it may not be reused (the larger, taken whatever isReuseMask:
// the flag does not cross to the guest engine's import).
inline uint32_t SelectWithBytesMaskMaxTmpBytes(uint64_t elems, uint32_t maskTypeSize, bool maskWider) {
  const uint64_t base = std::max<uint64_t>(1024, (elems + 31) / 32 * 32 * 2 + 512);
  return TmpBytes(base + (maskWider ? (elems * maskTypeSize + 31) / 32 * 32 : 0));
}

// AscendQuant of `elems` elements (asc-devkit's GetAscendQuantMaxMinTmpSize): two bytes an element,
// at least two 256 B repeats, in whole blocks; the minimum those two repeats.
inline TmpRange AscendQuantTmpRange(uint64_t elems) {
  return {TmpBytes((std::max<uint64_t>(elems * 2, 512) + 31) / 32 * 32), 512};
}

// AscendDequant of m rows of n (asc-devkit's GetAscendDequantMaxMinTmpSize): floats of one repeat,
// the source's rows (all m at the most, one at the least) and the scale (n and a block).
inline TmpRange AscendDequantTmpRange(uint64_t m, uint64_t n) {
  return {TmpBytes((64 + m * n + n + 8) * 4), TmpBytes((64 + n + n + 8) * 4)};
}

// AscendAntiQuant of `elems` int8 elements, K rows of the source ([K, N]; [N, K] transposed)
// (asc-devkit's GetAscendAntiQuantMaxTmpSize / MinTmpSize): none to half; to bfloat16 with a
// scale tensor of `scales` values the same at the most and the least, transposed 80 floats a
// value, not transposed two floats a value and 64 a row of K; with a scalar scale a float copy of
// the source at the most and 1 KiB at the least. (For under 256 elements that 1 KiB is more than
// the maximum; the maximum is then the least taken, so a buffer either number sized passes.)
inline TmpRange AscendAntiQuantTmpRange(uint64_t elems, uint64_t k, uint64_t scales, bool transpose, bool toHalf) {
  if (toHalf) return {};
  if (scales <= 1) {
    const uint32_t copy = TmpBytes(elems * 4);
    return {copy, std::min<uint32_t>(copy, 1024)};
  }
  const uint32_t bytes = TmpBytes(transpose ? 80 * scales * 4 : scales * 2 * 4 + 64 * k * 4);
  return {bytes, bytes};
}

// The inverse trigonometric and hyperbolic functions, Tan, Trunc and Frac as asc-devkit's A2 tiling
// (impl/adv_api/tiling/math/{asin,acos,atan,tan,sinh,cosh,asinh,atanh,trunc,frac}_tiling*.cpp)
// sizes them: live buffers of the source's type by type (float, half), each of the whole input but
// at least one 256 B repeat at the most, one repeat each at the least; isReuseSource changes
// neither. Acosh keeps its live elements at least a repeat's worth of the type.
struct LiveNodes {
  const char* api;
  uint32_t floatNodes, halfNodes;
};
inline constexpr LiveNodes kLiveNodes[] = {
    {"Asin", 2, 6},  {"Acos", 2, 6},  {"Atan", 5, 12}, {"Tan", 4, 10},  {"Sinh", 1, 4}, {"Cosh", 2, 6},
    {"Asinh", 3, 3}, {"Acosh", 1, 2}, {"Atanh", 1, 4}, {"Trunc", 1, 2}, {"Frac", 0, 4},
};
inline TmpRange LiveNodesTmpRange(const LiveNodes& n, uint64_t elems, uint32_t typeSize) {
  const uint32_t nodes = typeSize == 4 ? n.floatNodes : n.halfNodes;
  const uint64_t most = std::strcmp(n.api, "Acosh") == 0 ? std::max<uint64_t>(nodes * elems, 256) * typeSize
                                                         : nodes * std::max<uint64_t>(elems * typeSize, 256);
  return {TmpBytes(most), nodes * 256};
}

// The range of an element-wise math API by the name the emulation records it under, for `elems`
// elements of `typeSize` bytes (the scalar forms for Power); none where the tree models no helper,
// whose buffer is then taken as written whole.
inline std::optional<TmpRange> MathTmpRange(const char* api, uint64_t elems, uint32_t typeSize, bool reuse) {
  struct Buffers {
    const char* api;
    uint32_t buffers;
  };
  static constexpr Buffers kFloatBuffers[] = {
      {"Sigmoid", 2}, {"Tanh", 2},  {"Erf", 3},  {"Sign", 1},  {"Gelu", 2},     {"FasterGelu", 2}, {"Silu", 2},
      {"Swish", 2},   {"Floor", 1}, {"Ceil", 1}, {"Round", 1}, {"ClampMax", 1}, {"ClampMin", 1},   {"Exp", 3},
  };
  for (const Buffers& b : kFloatBuffers)
    if (std::strcmp(api, b.api) == 0) return FloatBuffersTmpRange(elems, typeSize, reuse, b.buffers);
  for (const LiveNodes& n : kLiveNodes)
    if (std::strcmp(api, n.api) == 0) return LiveNodesTmpRange(n, elems, typeSize);
  if (std::strcmp(api, "Sin") == 0 || std::strcmp(api, "Cos") == 0) return TrigTmpRange(elems, typeSize, reuse);
  if (std::strcmp(api, "Power") == 0) return PowerTmpRange(elems, false, false, typeSize);
  if (std::strcmp(api, "Log") == 0 || std::strcmp(api, "Log10") == 0) return TmpRange{};
  if (std::strcmp(api, "Log2") == 0) return Log2TmpRange(elems, typeSize);
  return std::nullopt;
}

}  // namespace ascendc_sim
