// Row-wise normalisations (docs/ascendc.md API 7): SoftMax, SimpleSoftMax, LogSoftMax, LayerNorm and
// RmsNorm, driven by the tiling structs of tiling/tiling_api.h.
//
// Rows are srcK (or hLength) elements apart, padded to 32 B; only the first oriSrcK
// (originalHLength) elements of a row take part. Statistics are computed in float. SoftMax's
// sum/max outputs hold each row's value repeated across one 32 B block, as the library writes them.
#pragma once

#include <vector>

#include "ascendc_sim/adv_reduce.h"
#include "ascendc_sim/math_tmp_sizes.h"
#include "tiling/tiling_api.h"

namespace ascendc_sim {

struct RowGeometry {
  uint32_t rows, pitch, valid;
};

inline RowGeometry SoftMaxRows(const SoftMaxTiling& t, const AscendC::SoftMaxShapeInfo& s) {
  const uint32_t rows = s.srcM ? s.srcM : t.srcM, pitch = s.srcK ? s.srcK : t.srcK;
  return {rows, pitch, s.oriSrcK ? s.oriSrcK : pitch};
}

// A lent source as SoftMax's library leaves it: every element of a row (its padding too, which the
// library's Sub and Exp run over) exp(x - the row's max). A source under the destination holds the
// result instead.
template <typename T>
void LeaveSourceExp(bool lent, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                    const RowGeometry& g, const std::vector<float>& rowMax) {
  const uint64_t bytes = static_cast<uint64_t>(g.rows) * g.pitch * sizeof(T), s = src.UbAddr(), d = dst.UbAddr();
  if (!lent || (s < d + bytes && d < s + bytes)) return;
  T* x = ascendc_sim::HostData(src);
  for (uint32_t r = 0; r < g.rows; ++r)
    for (uint32_t k = 0; k < g.pitch; ++k) {
      T& v = x[static_cast<uint64_t>(r) * g.pitch + k];
      v = static_cast<T>(std::exp(static_cast<float>(v) - rowMax[r]));
    }
}

// kind 0: softmax with sum/max out; 1: SimpleSoftMax from given sum/max; 2: LogSoftMax; 3: softmax
// without sum/max tensors (sum and max are null). `reuse` is the call's isReuseSource.
template <typename T, typename U>
void SoftMaxImpl(const char* api, int kind, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>* sum,
                 const AscendC::LocalTensor<U>* max, const AscendC::LocalTensor<T>& src,
                 const AscendC::LocalTensor<uint8_t>* tmp, const RowGeometry& g, bool reuse, const SrcLoc& loc) {
  const uint64_t n = static_cast<uint64_t>(g.rows) * g.pitch;
  const uint32_t stat = 32 / sizeof(U);
  CheckElems(api, src, n, "source", loc);
  CheckElems(api, dst, n, "destination", loc);
  if (sum) CheckElems(api, *sum, static_cast<uint64_t>(g.rows) * stat, "sum tensor", loc);
  if (max) CheckElems(api, *max, static_cast<uint64_t>(g.rows) * stat, "max tensor", loc);
  ASCENDC_SIM_CHECK(g.valid <= g.pitch && g.pitch * sizeof(T) % 32 == 0, loc,
                    "%s: srcK %u must be 32 B aligned and >= oriSrcK %u", api, g.pitch, g.valid);
  const uint32_t statBytes = static_cast<uint32_t>(g.rows * stat * sizeof(U));
  const bool statsOut = kind != 1;
  // The buffer up to GetSoftMaxMaxTmpSize's maximum for the call's isReuseSource: LogSoftMax's
  // helper gives the same, and SimpleSoftMax's buffer is sized by that helper too (asc-devkit's
  // SimpleSoftMax page). Under the least a helper gives for one row (ours for the flag, or the
  // A2's, which ignores it: the less) the device's library works past the buffer, over the kernel's data.
  const uint32_t tmpMax = SoftMaxMaxTmpBytes(g.rows, n, sizeof(T), reuse);
  const uint32_t ours = SoftMaxMinTmpBytes(1, g.pitch, g.pitch, sizeof(T), reuse);
  const uint32_t a2 = SoftMaxA2MinTmpBytes(g.pitch, sizeof(T));
  CheckTmpMin(api, tmp, std::min(ours, a2), ours <= a2 ? "GetSoftMaxMinTmpSize" : "the A2's GetSoftMaxMinTmpSize", loc);
  // SoftMax of a float source with isReuseSource takes the exponentials in the source (asc-devkit's
  // A2 SingleSoftMaxImpl: Exp(src, src - max), the row sums from there); LogSoftMax, SimpleSoftMax
  // and a half source leave it as it was.
  const bool lent = reuse && (kind == 0 || kind == 3) && sizeof(T) == 4;
  AdvIssue(api, 6, sizeof(T), n, {dst.UbAddr(), static_cast<uint32_t>(n * sizeof(T)), true},
           {src.UbAddr(), static_cast<uint32_t>(n * sizeof(T)), lent}, loc, tmp, tmpMax);
  if (sum && max) {
    Lanes l = CountLanes<U>(static_cast<uint64_t>(g.rows) * stat);
    IssueVector(Op::kVecReduce, api, l, {}, sizeof(U), loc,
                {{sum->UbAddr(), statBytes, statsOut}, {max->UbAddr(), statBytes, statsOut}});
  }
  const T* x = ascendc_sim::HostData(src);
  T* d = ascendc_sim::HostData(dst);
  std::vector<float> rowMax(g.rows);
  for (uint32_t r = 0; r < g.rows; ++r) {
    const T* row = x + static_cast<uint64_t>(r) * g.pitch;
    float mx, total;
    if (kind == 1) {
      mx = static_cast<float>(ascendc_sim::HostData(*max)[r * stat]);
      total = static_cast<float>(ascendc_sim::HostData(*sum)[r * stat]);
    } else {
      mx = -std::numeric_limits<float>::infinity();
      for (uint32_t k = 0; k < g.valid; ++k) mx = std::max(mx, static_cast<float>(row[k]));
      total = 0;
      for (uint32_t k = 0; k < g.valid; ++k) total += std::exp(static_cast<float>(row[k]) - mx);
      if (sum && max)
        for (uint32_t k = 0; k < stat; ++k)
          ascendc_sim::HostData(*sum)[r * stat + k] = static_cast<U>(total),
                                                 ascendc_sim::HostData(*max)[r * stat + k] = static_cast<U>(mx);
    }
    rowMax[r] = mx;
    for (uint32_t k = 0; k < g.valid; ++k) {
      const float v = static_cast<float>(row[k]) - mx;
      d[static_cast<uint64_t>(r) * g.pitch + k] = static_cast<T>(kind == 2 ? v - std::log(total) : std::exp(v) / total);
    }
  }
  LeaveSourceExp(lent, dst, src, g, rowMax);
}

// SoftmaxGrad over ND rows (asc-devkit SoftmaxGrad): dst = (grad - rowsum(grad * src)) * src; with
// isFront (and SoftmaxGradFront), dst holds each row's rowsum(grad * src) repeated across one 32 B
// block. Charged as the documented steps: mul, reduce, block broadcast; then broadcast, sub, mul.
template <typename T>
void SoftmaxGradImpl(const char* api, bool front, const AscendC::LocalTensor<T>& dst,
                     const AscendC::LocalTensor<T>& grad, const AscendC::LocalTensor<T>& src,
                     const AscendC::LocalTensor<uint8_t>* tmp, const RowGeometry& g, const SrcLoc& loc) {
  const uint64_t n = static_cast<uint64_t>(g.rows) * g.pitch;
  const uint32_t stat = 32 / sizeof(T);
  const uint64_t out = front ? static_cast<uint64_t>(g.rows) * stat : n;
  CheckElems(api, grad, n, "gradient", loc);
  CheckElems(api, src, n, "source", loc);
  CheckElems(api, dst, out, "destination", loc);
  ASCENDC_SIM_CHECK(g.valid <= g.pitch && g.pitch * sizeof(T) % 32 == 0, loc,
                    "%s: srcK %u must be 32 B aligned and >= oriSrcK %u", api, g.pitch, g.valid);
  const uint32_t bytes = static_cast<uint32_t>(n * sizeof(T));
  // The buffer from GetSoftMaxGradMinTmpSize's minimum (one row: under it the library works past
  // the buffer) up to GetSoftMaxGradMaxTmpSize's maximum: what the kernel keeps past that is its own.
  CheckTmpMin(api, tmp, SoftMaxGradMinTmpBytes(g.pitch, sizeof(T), front), "GetSoftMaxGradMinTmpSize", loc);
  AdvIssue(api, front ? 2 : 5, sizeof(T), n, {dst.UbAddr(), static_cast<uint32_t>(out * sizeof(T)), true},
           {src.UbAddr(), bytes, false}, loc, tmp, SoftMaxGradMaxTmpBytes(g.rows, g.pitch, sizeof(T), front));
  AdvIssue(api, 1, sizeof(T), n, {dst.UbAddr(), 0, true}, {grad.UbAddr(), bytes, false}, loc);
  const T* x = ascendc_sim::HostData(src);
  const T* dy = ascendc_sim::HostData(grad);
  T* d = ascendc_sim::HostData(dst);
  for (uint32_t r = 0; r < g.rows; ++r) {
    const uint64_t row = static_cast<uint64_t>(r) * g.pitch;
    float total = 0;
    for (uint32_t k = 0; k < g.valid; ++k) total += static_cast<float>(dy[row + k]) * static_cast<float>(x[row + k]);
    if (front) {
      for (uint32_t k = 0; k < stat; ++k) d[static_cast<uint64_t>(r) * stat + k] = static_cast<T>(total);
      continue;
    }
    for (uint32_t k = 0; k < g.valid; ++k)
      d[row + k] = static_cast<T>((static_cast<float>(dy[row + k]) - total) * static_cast<float>(x[row + k]));
  }
}
}  // namespace ascendc_sim

namespace AscendC {

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, typename U = T>
__aicore__ inline void SoftMax(const LocalTensor<T>& dst, const LocalTensor<U>& sumTensor,
                               const LocalTensor<U>& maxTensor, const LocalTensor<T>& src,
                               const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                               const SoftMaxShapeInfo& shapeInfo = {}, ASCENDC_SIM_LOC) {
  ascendc_sim::SoftMaxImpl("SoftMax", 0, dst, &sumTensor, &maxTensor, src, &sharedTmpBuffer,
                           ascendc_sim::SoftMaxRows(tiling, shapeInfo), isReuseSource, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, typename U = T>
__aicore__ inline void SoftMax(const LocalTensor<T>& dst, const LocalTensor<U>& sumTensor,
                               const LocalTensor<U>& maxTensor, const LocalTensor<T>& src, const SoftMaxTiling& tiling,
                               const SoftMaxShapeInfo& shapeInfo = {}, ASCENDC_SIM_LOC) {
  ascendc_sim::SoftMaxImpl("SoftMax", 0, dst, &sumTensor, &maxTensor, src, nullptr,
                           ascendc_sim::SoftMaxRows(tiling, shapeInfo), isReuseSource, loc);
}
// The overloads without sum/max outputs (each row's statistics stay internal).
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void SoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                               const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                               const SoftMaxShapeInfo& shapeInfo = {}, ASCENDC_SIM_LOC) {
  ascendc_sim::SoftMaxImpl<T, T>("SoftMax", 3, dst, nullptr, nullptr, src, &sharedTmpBuffer,
                                 ascendc_sim::SoftMaxRows(tiling, shapeInfo), isReuseSource, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void SoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const SoftMaxTiling& tiling,
                               const SoftMaxShapeInfo& shapeInfo = {}, ASCENDC_SIM_LOC) {
  ascendc_sim::SoftMaxImpl<T, T>("SoftMax", 3, dst, nullptr, nullptr, src, nullptr,
                                 ascendc_sim::SoftMaxRows(tiling, shapeInfo), isReuseSource, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, typename U = T>
__aicore__ inline void SimpleSoftMax(const LocalTensor<T>& dst, const LocalTensor<U>& inSumTensor,
                                     const LocalTensor<U>& inMaxTensor, const LocalTensor<T>& src,
                                     const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                                     const SoftMaxShapeInfo& shapeInfo = {}, ASCENDC_SIM_LOC) {
  ascendc_sim::SoftMaxImpl("SimpleSoftMax", 1, dst, &inSumTensor, &inMaxTensor, src, &sharedTmpBuffer,
                           ascendc_sim::SoftMaxRows(tiling, shapeInfo), isReuseSource, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, typename U = T>
__aicore__ inline void SimpleSoftMax(const LocalTensor<T>& dst, const LocalTensor<U>& inSumTensor,
                                     const LocalTensor<U>& inMaxTensor, const LocalTensor<T>& src,
                                     const SoftMaxTiling& tiling, const SoftMaxShapeInfo& shapeInfo = {},
                                     ASCENDC_SIM_LOC) {
  ascendc_sim::SoftMaxImpl("SimpleSoftMax", 1, dst, &inSumTensor, &inMaxTensor, src, nullptr,
                           ascendc_sim::SoftMaxRows(tiling, shapeInfo), isReuseSource, loc);
}
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false, typename U = T>
__aicore__ inline void LogSoftMax(const LocalTensor<T>& dst, const LocalTensor<U>& sumTensor,
                                  const LocalTensor<U>& maxTensor, const LocalTensor<T>& src,
                                  const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                                  const SoftMaxShapeInfo& shapeInfo = {}, ASCENDC_SIM_LOC) {
  ascendc_sim::SoftMaxImpl("LogSoftMax", 2, dst, &sumTensor, &maxTensor, src, &sharedTmpBuffer,
                           ascendc_sim::SoftMaxRows(tiling, shapeInfo), isReuseSource, loc);
}

// SoftmaxGrad and SoftmaxGradFront: the ND layout (an NZ one is not emulated).
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
__aicore__ inline void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                                   const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                   const SoftMaxTiling& tiling, bool isFront = false,
                                   const SoftMaxShapeInfo& softmaxShapeInfo = {}, ASCENDC_SIM_LOC) {
  static_assert(!isDataFormatNZ, "SoftmaxGrad: the simulator emulates the ND layout");
  ascendc_sim::SoftmaxGradImpl("SoftmaxGrad", isFront, dstTensor, gradTensor, srcTensor, &sharedTmpBuffer,
                               ascendc_sim::SoftMaxRows(tiling, softmaxShapeInfo), loc);
}
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
__aicore__ inline void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                                   const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling, bool isFront = false,
                                   const SoftMaxShapeInfo& softmaxShapeInfo = {}, ASCENDC_SIM_LOC) {
  static_assert(!isDataFormatNZ, "SoftmaxGrad: the simulator emulates the ND layout");
  ascendc_sim::SoftmaxGradImpl<T>("SoftmaxGrad", isFront, dstTensor, gradTensor, srcTensor, nullptr,
                                  ascendc_sim::SoftMaxRows(tiling, softmaxShapeInfo), loc);
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
__aicore__ inline void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                                        const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                        const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                                        ASCENDC_SIM_LOC) {
  static_assert(!isDataFormatNZ, "SoftmaxGradFront: the simulator emulates the ND layout");
  ascendc_sim::SoftmaxGradImpl("SoftmaxGrad", true, dstTensor, gradTensor, srcTensor, &sharedTmpBuffer,
                               ascendc_sim::SoftMaxRows(tiling, softmaxShapeInfo), loc);
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
__aicore__ inline void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                                        const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
                                        const SoftMaxShapeInfo& softmaxShapeInfo = {}, ASCENDC_SIM_LOC) {
  static_assert(!isDataFormatNZ, "SoftmaxGradFront: the simulator emulates the ND layout");
  ascendc_sim::SoftmaxGradImpl<T>("SoftmaxGrad", true, dstTensor, gradTensor, srcTensor, nullptr,
                                  ascendc_sim::SoftMaxRows(tiling, softmaxShapeInfo), loc);
}

// LayerNorm over the last axis of [B, S, H]: y = (x - mean) / sqrt(var + eps) * gamma + beta, with
// the population variance; mean and variance are written per row.
template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                                 const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
                                 const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon, LayerNormTiling& tiling,
                                 ASCENDC_SIM_LOC) {
  const uint32_t rows = tiling.bLength * tiling.sLength, h = tiling.hLength,
                 valid = tiling.originalHLength ? tiling.originalHLength : h;
  const uint64_t n = static_cast<uint64_t>(rows) * h;
  ascendc_sim::CheckElems("LayerNorm", inputX, n, "input", loc);
  ascendc_sim::CheckElems("LayerNorm", output, n, "output", loc);
  ascendc_sim::CheckElems("LayerNorm", gamma, h, "gamma", loc);
  ascendc_sim::CheckElems("LayerNorm", beta, h, "beta", loc);
  ascendc_sim::CheckElems("LayerNorm", outputMean, rows, "mean", loc);
  ascendc_sim::CheckElems("LayerNorm", outputVariance, rows, "variance", loc);
  ascendc_sim::AdvIssue("LayerNorm", 10, sizeof(T), n, {output.UbAddr(), static_cast<uint32_t>(n * sizeof(T)), true},
                        {inputX.UbAddr(), static_cast<uint32_t>(n * sizeof(T)), false}, loc, &sharedTmpBuffer);
  ascendc_sim::AdvIssue("LayerNorm", 1, sizeof(T), rows,
                        {outputMean.UbAddr(), static_cast<uint32_t>(rows * sizeof(T)), true},
                        {gamma.UbAddr(), static_cast<uint32_t>(h * sizeof(T)), false}, loc);
  ascendc_sim::AdvIssue("LayerNorm", 1, sizeof(T), rows,
                        {outputVariance.UbAddr(), static_cast<uint32_t>(rows * sizeof(T)), true},
                        {beta.UbAddr(), static_cast<uint32_t>(h * sizeof(T)), false}, loc);
  const T* x = ascendc_sim::HostData(inputX);
  const T* g = ascendc_sim::HostData(gamma);
  const T* b = ascendc_sim::HostData(beta);
  const float eps = static_cast<float>(epsilon);
  for (uint32_t r = 0; r < rows; ++r) {
    const T* row = x + static_cast<uint64_t>(r) * h;
    float mean = 0, var = 0;
    for (uint32_t k = 0; k < valid; ++k) mean += static_cast<float>(row[k]);
    mean /= static_cast<float>(valid);
    for (uint32_t k = 0; k < valid; ++k)
      var += (static_cast<float>(row[k]) - mean) * (static_cast<float>(row[k]) - mean);
    var /= static_cast<float>(valid);
    const float inv = 1.0f / std::sqrt(var + eps);
    for (uint32_t k = 0; k < valid; ++k)
      ascendc_sim::HostData(output)[static_cast<uint64_t>(r) * h + k] = static_cast<T>(
          (static_cast<float>(row[k]) - mean) * inv * static_cast<float>(g[k]) + static_cast<float>(b[k]));
    ascendc_sim::HostData(outputMean)[r] = static_cast<T>(mean);
    ascendc_sim::HostData(outputVariance)[r] = static_cast<T>(var);
  }
  // A lent float inputX is one of the library's work tensors (GetLayerNormMaxMinTmpSize counts one
  // buffer fewer for it).
  ascendc_sim::LeaveSourceLent(isReuseSource, output, inputX, n);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                                 const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
                                 const LocalTensor<T>& gamma, const LocalTensor<T>& beta, const T epsilon,
                                 LayerNormTiling& tiling, ASCENDC_SIM_LOC) {
  LocalTensor<uint8_t> none = inputX.template ReinterpretCast<uint8_t>();
  none.SetSize(0);
  LayerNorm<T, isReuseSource>(output, outputMean, outputVariance, inputX, gamma, beta, none, epsilon, tiling, loc);
}

// RmsNorm over the last axis: y = x / sqrt(mean(x^2) + eps) * gamma.
template <typename T, bool isBasicBlock = false>
__aicore__ inline void RmsNorm(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& gamma,
                               const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon,
                               const RmsNormTiling& tiling, ASCENDC_SIM_LOC) {
  const uint32_t rows = tiling.bLength * tiling.sLength, h = tiling.hLength,
                 valid = tiling.originalHLength ? tiling.originalHLength : h;
  const uint64_t n = static_cast<uint64_t>(rows) * h;
  ascendc_sim::CheckElems("RmsNorm", src, n, "source", loc);
  ascendc_sim::CheckElems("RmsNorm", dst, n, "destination", loc);
  ascendc_sim::CheckElems("RmsNorm", gamma, h, "gamma", loc);
  ascendc_sim::AdvIssue("RmsNorm", 6, sizeof(T), n, {dst.UbAddr(), static_cast<uint32_t>(n * sizeof(T)), true},
                        {src.UbAddr(), static_cast<uint32_t>(n * sizeof(T)), false}, loc, &sharedTmpBuffer);
  ascendc_sim::AdvIssue("RmsNorm", 1, sizeof(T), h, {dst.UbAddr(), 0, true},
                        {gamma.UbAddr(), static_cast<uint32_t>(h * sizeof(T)), false}, loc);
  const T* x = ascendc_sim::HostData(src);
  const T* g = ascendc_sim::HostData(gamma);
  const float eps = static_cast<float>(epsilon);
  for (uint32_t r = 0; r < rows; ++r) {
    const T* row = x + static_cast<uint64_t>(r) * h;
    float sq = 0;
    for (uint32_t k = 0; k < valid; ++k) sq += static_cast<float>(row[k]) * static_cast<float>(row[k]);
    const float inv = 1.0f / std::sqrt(sq / static_cast<float>(valid) + eps);
    for (uint32_t k = 0; k < valid; ++k)
      ascendc_sim::HostData(dst)[static_cast<uint64_t>(r) * h + k] =
          static_cast<T>(static_cast<float>(row[k]) * inv * static_cast<float>(g[k]));
  }
}
template <typename T, bool isBasicBlock = false>
__aicore__ inline void RmsNorm(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& gamma,
                               const T epsilon, const RmsNormTiling& tiling, ASCENDC_SIM_LOC) {
  LocalTensor<uint8_t> none = src.template ReinterpretCast<uint8_t>();
  none.SetSize(0);
  RmsNorm<T, isBasicBlock>(dst, src, gamma, none, epsilon, tiling, loc);
}

}  // namespace AscendC
