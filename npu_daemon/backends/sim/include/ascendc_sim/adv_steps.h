// How the emulation charges a high-level API whose library form is a sequence of basic vector
// instructions (adv_softmax_flash.h, adv_quant.h): `steps` count-mode instructions over `elems`
// elements, each touching the call's UB operands, so the model times and orders them as it does
// the basic API's.
#pragma once

#include <cstring>

#include "ascendc_sim/vec_core.h"

namespace ascendc_sim {

// A sharedTmpBuffer is the library's work space: the device keeps its intermediate values there,
// so a buffer that overlaps an operand corrupts it mid-call, and what the kernel kept in the buffer
// is gone after the call. The emulation computes from copies and never wrote the buffer, so such a
// kernel passed here and not on the device: the overlap is refused and the buffer left holding
// 0xFF bytes (a NaN in every float type), never the kernel's own values.
inline void CheckScratchApart(const char* api, std::initializer_list<UbAccess> ubs, const SrcLoc& loc) {
  for (const UbAccess& tmp : ubs) {
    if (!tmp.scratch || tmp.bytes == 0) continue;
    for (const UbAccess& op : ubs) {
      if (op.scratch || op.bytes == 0) continue;
      const bool apart = uint64_t{tmp.addr} + tmp.bytes <= op.addr || uint64_t{op.addr} + op.bytes <= tmp.addr;
      ASCENDC_SIM_CHECK(apart, loc, "%s: the sharedTmpBuffer (UB bytes %u to %llu) overlaps an operand (%u to %llu)",
                        api, tmp.addr, static_cast<unsigned long long>(uint64_t{tmp.addr} + tmp.bytes), op.addr,
                        static_cast<unsigned long long>(uint64_t{op.addr} + op.bytes));
    }
  }
}

inline void ClobberScratch(const char* api, std::initializer_list<UbAccess> ubs, const SrcLoc& loc) {
  for (const UbAccess& tmp : ubs) {
    if (!tmp.scratch || tmp.bytes == 0) continue;
    CurrentCore().CheckInsideUb(tmp.addr, tmp.bytes, loc, api);
    std::memset(CurrentCore().UbPtr(tmp.addr), 0xFF, tmp.bytes);
  }
}

inline void AdvSteps(const char* api, int steps, uint32_t elemBytes, uint64_t elems,
                     std::initializer_list<UbAccess> ubs, const SrcLoc& loc) {
  CheckScratchApart(api, ubs, loc);
  Lanes l;
  l.perRepeat = 256 / elemBytes;
  l.perBlock = 32 / elemBytes;
  l.repeats = static_cast<uint32_t>((elems + l.perRepeat - 1) / l.perRepeat);
  l.count = elems;
  l.counter = l.contiguous = true;
  for (int s = 0; s < steps; ++s) IssueVector(Op::kVecReduce, api, l, {}, elemBytes, loc, ubs);
  ClobberScratch(api, ubs, loc);
}

// A tensor's first `elems` elements as an operand of those steps.
template <typename T>
UbAccess Touch(const AscendC::LocalTensor<T>& t, uint64_t elems, bool write) {
  return {t.UbAddr(), static_cast<uint32_t>(elems * sizeof(T)), write};
}

// A sharedTmpBuffer the steps write, or nothing (an empty access).
inline UbAccess Scratch(const AscendC::LocalTensor<uint8_t>* tmp) {
  return tmp ? UbAccess{tmp->UbAddr(), tmp->GetLength(), true, 32, true} : UbAccess{0, 0, false};
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
