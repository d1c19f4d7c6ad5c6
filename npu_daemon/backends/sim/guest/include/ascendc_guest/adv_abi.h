// The codes of the high-level APIs that cross the guest engine's boundary (ascendc_guest/adv.h on
// the guest, runtime/guest/api_adv.cpp on the host), and the layout both sides rely on for the
// tiling structs a kernel passes by address: one definition (tiling/tiling_api.h), included by both.
#pragma once

#include <cstdint>

#include "tiling/tiling_api.h"

namespace ascendc_guest {

// The element-wise math of adv_api/math. The last ones take the call's scalar: Exp its Taylor level,
// Swish its beta, ClampMax/ClampMin the bound, Power the exponent (kPowScalar) or base (kScalarPow).
enum class AdvMath : int32_t {
  kAsin = 1,
  kSinh,
  kCosh,
  kAsinh,
  kAcosh,
  kAtanh,
  kSigmoid,
  kTanh,
  kSin,
  kCos,
  kErf,
  kAtan,
  kAcos,
  kTan,
  kSign,
  kLog,
  kLog2,
  kLog10,
  kGelu,
  kFasterGelu,
  kSilu,
  kFloor,
  kCeil,
  kRound,
  kTrunc,
  kFrac,
  kExp,
  kSwish,
  kClampMax,
  kClampMin,
  kPowScalar,
  kScalarPow,
};
// adv_math's flags word: bit 0 a sharedTmpBuffer named, bit 1 isReuseSource (the library may keep
// its intermediate values in the source).
constexpr int32_t kReuseSource = 2;
// The SoftMax family: the emulation's kinds (adv_norm.h SoftMaxImpl).
enum class AdvSoftMax : int32_t { kSoftMax = 0, kSimple, kLog, kNoStats };
// adv_softmax's form word: the kind in bits 0-3, isReuseSource in bit 4 (SoftMax's library may take
// its exponentials in a float source; the flag sizes the buffer).
constexpr int32_t kSoftMaxReuseSource = 16;
constexpr int32_t SoftMaxForm(AdvSoftMax kind, bool isReuseSource) {
  return static_cast<int32_t>(kind) | (isReuseSource ? kSoftMaxReuseSource : 0);
}
// The pattern reductions of adv_api/reduce.
enum class AdvReduce : int32_t { kSum = 1, kMax, kMin, kProd, kAny, kAll, kMean };
// adv_reduce's form word: bit 0 the pattern is RA, bit 1 isReuseSource (the library may work in
// the source, which the call then leaves undefined; the flag sizes the buffer).
constexpr int32_t ReduceForm(bool ra, bool isReuseSource) { return (ra ? 1 : 0) | (isReuseSource ? 2 : 0); }
// CumSumConfig's flags as one code.
enum AdvCumSum : int32_t { kCumLastAxis = 1, kCumReuseSource = 2, kCumOutputLastRow = 4 };

// Plain 4-byte fields on both targets (wasm32 and the host's), so the bytes the guest hands over by
// address are the struct the host reads.
static_assert(sizeof(SoftMaxTiling) == 16 * 4, "SoftMaxTiling: 16 words");
static_assert(sizeof(LayerNormTiling) == 14 * 4, "LayerNormTiling: 14 words");
static_assert(sizeof(RmsNormTiling) == 12 * 4, "RmsNormTiling: 12 words");

}  // namespace ascendc_guest
