// How the emulation charges a high-level API whose library form is a sequence of basic vector
// instructions (adv_softmax_flash.h, adv_quant.h): `steps` count-mode instructions over `elems`
// elements, each touching the call's UB operands, so the model times and orders them as it does
// the basic API's.
#pragma once

#include "ascendc_sim/vec_core.h"

namespace ascendc_sim {

inline void AdvSteps(const char* api, int steps, uint32_t elemBytes, uint64_t elems,
                     std::initializer_list<UbAccess> ubs, const SrcLoc& loc) {
  Lanes l;
  l.perRepeat = 256 / elemBytes;
  l.perBlock = 32 / elemBytes;
  l.repeats = static_cast<uint32_t>((elems + l.perRepeat - 1) / l.perRepeat);
  l.count = elems;
  l.counter = l.contiguous = true;
  for (int s = 0; s < steps; ++s) IssueVector(Op::kVecReduce, api, l, {}, elemBytes, loc, ubs);
}

// A tensor's first `elems` elements as an operand of those steps.
template <typename T>
UbAccess Touch(const AscendC::LocalTensor<T>& t, uint64_t elems, bool write) {
  return {t.UbAddr(), static_cast<uint32_t>(elems * sizeof(T)), write};
}

// A sharedTmpBuffer the steps write (IssueVector's rule for a scratch access), or nothing. The
// device writes at most the API's documented maximum (`maxBytes`, its GetXxxMaxMinTmpSize's
// maxValue: "space past it is not used by the API"), so a buffer larger than that keeps its tail;
// where an API's maximum is not modelled the whole buffer is taken as written.
inline UbAccess Scratch(const AscendC::LocalTensor<uint8_t>* tmp, uint32_t maxBytes = UINT32_MAX) {
  return tmp ? UbAccess{tmp->UbAddr(), std::min(tmp->GetLength(), maxBytes), true, 32, true} : UbAccess{0, 0, false};
}

// A source the library worked in: what the kernel kept there is not its own after the call, so its
// first `elems` elements are left holding 0xFF bytes (a NaN of a floating type), as a
// sharedTmpBuffer is. A source under the destination holds the result instead.
template <typename T>
void LeaveSourceWorked(bool worked, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                       uint64_t elems) {
  if (!worked) return;
  const uint64_t bytes = elems * sizeof(T), s = src.UbAddr(), d = dst.UbAddr();
  if (s < d + bytes && d < s + bytes) return;
  std::memset(HostData(src), 0xFF, bytes);  // inside the UB: the call's checks held src's reach to it
}

// isReuseSource lets the library keep its intermediate values in a float source ("whether the
// source operand may be modified"; half cannot reuse it).
template <typename T>
void LeaveSourceLent(bool lent, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                     uint64_t elems) {
  LeaveSourceWorked(lent && sizeof(T) == 4, dst, src, elems);
}

}  // namespace ascendc_sim

namespace ascendc_sim {

// A sharedTmpBuffer under its API's documented minimum (`helper`'s minValue) stops the kernel: the
// device would compute over whatever lies past the buffer.
inline void CheckTmpMin(const char* api, const AscendC::LocalTensor<uint8_t>* tmp, uint32_t minBytes,
                        const char* helper, const SrcLoc& loc) {
  if (tmp == nullptr) return;
  ASCENDC_SIM_CHECK(tmp->GetSize() >= minBytes, loc,
                    "%s: the sharedTmpBuffer holds %u bytes, under the minimum of %u bytes %s gives", api,
                    tmp->GetSize(), minBytes, helper);
}

}  // namespace ascendc_sim
