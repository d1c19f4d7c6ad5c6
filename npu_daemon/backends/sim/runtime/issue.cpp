// The non-template halves of the kernel API (data_copy.h, vec_core.h): checking an instruction's
// operands and recording it, and the GM store under an atomic mode. Compiled once into the runtime
// library instead of into every kernel, where they cost compile time and nothing else.
#include <algorithm>
#include <cstring>

#include "kernel_operator.h"

namespace ascendc_sim {

namespace {
// A sharedTmpBuffer (an access marked `scratch`) is the library's work space: the device keeps its
// intermediate values there, so a buffer that overlaps an operand corrupts it mid-call, and what
// the kernel kept in the buffer is gone after the call. The emulation computes from copies and
// never wrote it, so such a kernel passed here and not on the device: the overlap is refused and
// the buffer left holding 0xFF bytes (a NaN in every float type), never the kernel's own values.
void CheckScratchApart(const char* api, const UbAccess* acc, size_t n, const SrcLoc& loc) {
  for (size_t t = 0; t < n; ++t) {
    if (!acc[t].scratch || acc[t].bytes == 0) continue;
    const uint64_t tmpEnd = uint64_t{acc[t].addr} + acc[t].bytes;
    for (size_t o = 0; o < n; ++o) {
      if (acc[o].scratch || acc[o].bytes == 0) continue;
      const uint64_t opEnd = uint64_t{acc[o].addr} + acc[o].bytes;
      ASCENDC_SIM_CHECK(tmpEnd <= acc[o].addr || opEnd <= acc[t].addr, loc,
                        "%s: the sharedTmpBuffer (UB bytes %u to %llu) overlaps an operand (%u to %llu)", api,
                        acc[t].addr, static_cast<unsigned long long>(tmpEnd), acc[o].addr,
                        static_cast<unsigned long long>(opEnd));
    }
  }
}

// After IssueAccesses held every access inside the UB.
void ClobberScratch(Core& core, const UbAccess* acc, size_t n) {
  for (size_t t = 0; t < n; ++t)
    if (acc[t].scratch && acc[t].bytes > 0) std::memset(core.UbPtr(acc[t].addr), 0xFF, acc[t].bytes);
}
}  // namespace

void IssueVector(Op op, const char* api, const Lanes& lanes, std::initializer_list<Operand> operands,
                 uint32_t elemBytes, const SrcLoc& loc, std::initializer_list<UbAccess> extra) {
  Core& core = CurrentCore();
  Instr ins{};
  ins.pipe = PIPE_V;
  ins.op = op;
  ins.elemBytes = static_cast<uint8_t>(elemBytes);
  ins.repeats = lanes.repeats * lanes.passes;
  ins.link = -1;
  ins.elements = lanes.ActiveLanes();
  ins.maskCounter = lanes.counter;
  ins.maskBits[0] = lanes.bits[0];
  ins.maskBits[1] = lanes.bits[1];
  UbAccess accesses[8];
  int i = 0;
  for (const Operand& o : operands) {
    ASCENDC_SIM_CHECK(o.addr % 32 == 0, loc, "%s: operand %d at UB address %u is not 32 B aligned", api, i, o.addr);
    Stride s = o.stride;
    if (s.perBlock == 0) s.perBlock = 32 / o.elemBytes;
    uint64_t extent = lanes.Extent(s);
    if (extent > o.size) {  // past the tensor: the device runs on while it stays inside the UB
      ASCENDC_SIM_CHECK(o.addr + extent * o.elemBytes <= core.Local().Size(LocalBuf::kUB), loc,
                        "%s: operand %d touches %llu elements but the tensor has %u, past the end of the UB", api, i,
                        static_cast<unsigned long long>(extent), o.size);
      DeviceTolerated(loc, "%s: operand %d touches %llu elements but the tensor has %u", api, i,
                      static_cast<unsigned long long>(extent), o.size);
    }
    if (i < 3) {
      ins.ubAddr[i] = o.addr;
      ins.ubBytes[i] = static_cast<uint32_t>(extent * o.elemBytes);
      ins.blkStride[i] = static_cast<uint16_t>(lanes.contiguous ? 1 : s.blk);
      ins.repStride[i] = static_cast<uint16_t>(lanes.contiguous ? 8 : s.rep);
    }
    accesses[i] = UbAccess{o.addr, static_cast<uint32_t>(extent * o.elemBytes), o.write};
    ++i;
  }
  // In counter mode the unit derives the repeats from the lane count and ignores repeatTime (asc-devkit,
  // mask setting in counter mode): only an explicit repeatTime has the 8-bit field's limit.
  if (!lanes.counter) ASCENDC_SIM_CHECK(lanes.repeats <= 255, loc, "%s: repeatTime %u > 255", api, lanes.repeats);
  for (const UbAccess& a : extra) {
    ASCENDC_SIM_CHECK(a.addr % a.align == 0, loc, "%s: operand at UB address %u is not %u B aligned", api, a.addr,
                      a.align);
    accesses[i++] = a;
  }
  CheckScratchApart(api, accesses, static_cast<size_t>(i), loc);
  core.IssueAccesses(ins, loc, api, accesses, static_cast<size_t>(i));
  ClobberScratch(core, accesses, static_cast<size_t>(i));
}

void IssueDma(Op op, const char* api, uint8_t* gm, uint32_t ubAddr, const Dma& d, CacheMode cache, const SrcLoc& loc) {
  Core& core = CurrentCore();
  ASCENDC_SIM_CHECK(ubAddr % 32 == 0, loc, "%s: UB address %u is not 32 B aligned", api, ubAddr);
  // MTE2 and MTE3 move between GM and the UB or L1 alone: asc-devkit's DataCopy refuses a local tensor
  // of any other position and moves nothing, so a copy into L0A, L0B, L0C or a table is no move the
  // device makes (the load into L0 is MTE1's, charged as such). How far the copy reaches inside its
  // buffer is IssueAccesses' check (Core::CheckReach), before a byte moves.
  const LocalBuf buf = core.Local().Of(ubAddr);
  ASCENDC_SIM_CHECK(buf == LocalBuf::kUB || buf == LocalBuf::kL1, loc,
                    "%s: a copy between GM and %s: the DMA reaches the UB and L1 alone", api, LocalBufName(buf));
  uint64_t ubEnd =
      static_cast<uint64_t>(ubAddr) + (d.bursts ? static_cast<uint64_t>(d.bursts - 1) * d.ubPitch + d.ubRowBytes : 0);
  ASCENDC_SIM_CHECK(ubEnd <= core.LocalBytes(), loc, "%s: UB range [%u, %llu) is outside the Unified Buffer", api,
                    ubAddr, static_cast<unsigned long long>(ubEnd));
  uint64_t gmSpan = d.bursts ? static_cast<uint64_t>(d.bursts - 1) * d.gmPitch + d.rowBytes : 0;
  const bool toUb = op == Op::kCopyGmToUb;
  if (gmSpan != 0 && !GmRangeValid(gm, gmSpan)) {
    // A read a little past a buffer gets whatever memory follows on the device (zeros here), a
    // write into the rest of its allocator block touches no other tensor; a write further, or a
    // read beyond the buffer's pages, is an error.
    ASCENDC_SIM_CHECK(GmRangeTolerated(gm, gmSpan, !toUb), loc,
                      "%s: GM range of %llu bytes at %s is outside every GM buffer (out-of-range GlobalTensor access)",
                      api, static_cast<unsigned long long>(gmSpan),
                      DescribeGm(reinterpret_cast<uintptr_t>(gm)).c_str());
    if (toUb)
      DeviceTolerated(
          loc, "%s: GM read of %llu bytes at %s runs past the buffer (the device reads the memory that follows)", api,
          static_cast<unsigned long long>(gmSpan), DescribeGm(reinterpret_cast<uintptr_t>(gm)).c_str());
    else
      DeviceTolerated(
          loc, "%s: GM write of %llu bytes at %s runs past the buffer's padding, inside its 512 B allocator block", api,
          static_cast<unsigned long long>(gmSpan), DescribeGm(reinterpret_cast<uintptr_t>(gm)).c_str());
  }
  Instr ins{};
  ins.pipe = toUb ? PIPE_MTE2 : PIPE_MTE3;
  ins.op = op;
  ins.cacheMode = static_cast<uint8_t>(cache);
  ins.repeats = d.bursts;
  ins.unitBytes = d.rowBytes;
  ins.gmAddr = reinterpret_cast<uintptr_t>(gm);
  ins.ubAddr[0] = ubAddr;
  ins.link = -1;
  ins.elements = static_cast<uint64_t>(d.bursts) * d.rowBytes;
  ins.gmPitch = d.gmPitch;
  ins.ubBytes[0] = static_cast<uint32_t>(ubEnd - ubAddr);
  ins.atomic = toUb ? 0 : static_cast<uint8_t>(core.Registers().atomicOp);
  UbAccess a{ubAddr, static_cast<uint32_t>(ubEnd - ubAddr), toUb};
  // A copy out reads each row's bytes only (DataCopyPad's 32 B padding of a UB row stays unread); a
  // copy in is taken as writing its padded rows.
  const uint32_t touched = toUb ? d.ubRowBytes : std::min(d.rowBytes, d.ubRowBytes);
  if (d.bursts > 0 && touched < d.ubPitch) {
    a.rowBytes = touched;
    a.pitch = d.ubPitch;
  }
  core.IssueAccesses(ins, loc, api, &a, 1);
  // A plain write of the bytes GM already holds leaves memory as it is whichever block writes last.
  bool sameBytes = !toUb && ins.atomic == 0 && GmRangeValid(gm, gmSpan);
  for (uint32_t b = 0; sameBytes && b < d.bursts; ++b)
    sameBytes = std::memcmp(GmHost(gm + b * d.gmPitch), core.UbPtr(ubAddr + b * d.ubPitch), d.rowBytes) == 0;
  core.GmAccess(ins.pipe, GmPattern{ins.gmAddr, d.bursts, d.rowBytes, d.gmPitch}, !toUb, loc, api, sameBytes);
}

// One element of an atomic store: integers wrap on add (signed overflow is undefined in C++) and
// compare exactly; floating types add and compare in fp32, rounded back to E.
template <typename E>
E CombineOne(E a, E b, AtomicOp op) {
  if constexpr (std::is_integral_v<E>) {
    using U = std::make_unsigned_t<E>;
    if (op == AtomicOp::kAdd) return static_cast<E>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
    return op == AtomicOp::kMax ? (b > a ? b : a) : (b < a ? b : a);
  } else {
    const float fa = static_cast<float>(a), fb = static_cast<float>(b);
    if (op == AtomicOp::kAdd) return static_cast<E>(fa + fb);
    return op == AtomicOp::kMax ? (fb > fa ? b : a) : (fb < fa ? b : a);
  }
}

// Combine `bytes` of UB data into GM under the core's atomic mode (a plain store without one).
template <typename E>
void Combine(uint8_t* gm, const uint8_t* ub, uint32_t bytes, AtomicOp op) {
  for (uint32_t i = 0; i + sizeof(E) <= bytes; i += sizeof(E)) {
    E a, b;
    std::memcpy(&a, gm + i, sizeof(E));
    std::memcpy(&b, ub + i, sizeof(E));
    const E r = CombineOne(a, b, op);
    std::memcpy(gm + i, &r, sizeof(E));
  }
}
void StoreGm(uint8_t* gm, const uint8_t* ub, uint32_t bytes) {
  const CoreRegisters& r = CurrentCore().Registers();
  switch (r.atomicOp == AtomicOp::kNone ? AtomicType::kNone : r.atomicType) {
    case AtomicType::kFloat:
      return Combine<float>(gm, ub, bytes, r.atomicOp);
    case AtomicType::kHalf:
      return Combine<half>(gm, ub, bytes, r.atomicOp);
    case AtomicType::kBf16:
      return Combine<bfloat16_t>(gm, ub, bytes, r.atomicOp);
    case AtomicType::kInt8:
      return Combine<int8_t>(gm, ub, bytes, r.atomicOp);
    case AtomicType::kInt16:
      return Combine<int16_t>(gm, ub, bytes, r.atomicOp);
    case AtomicType::kInt32:
      return Combine<int32_t>(gm, ub, bytes, r.atomicOp);
    case AtomicType::kNone:
      std::memcpy(gm, ub, bytes);
  }
}

void CheckParams(const AscendC::DataCopyParams& p, const char* api, const SrcLoc& loc) {
  ASCENDC_SIM_CHECK(p.blockCount >= 1 && p.blockCount <= 4095, loc, "%s: blockCount %u out of range [1, 4095]", api,
                    p.blockCount);
  ASCENDC_SIM_CHECK(p.blockLen >= 1, loc, "%s: blockLen %u out of range [1, 65535]", api, p.blockLen);
}

}  // namespace ascendc_sim
