// The guest engine's gather imports: GatherMask by a pattern tensor or a built-in pattern, Gather by
// byte offsets.
#include "vec_shape.h"

namespace ascendc_sim::guest {
namespace {

// The emulation gathers before it checks the instruction, so the UB the source and the pattern
// tensor reach under the guest's params is checked here first: both must end inside the UB.
template <typename T>
void CheckGatherMaskReach(uint32_t a, uint32_t pattern, bool patternTensor, bool counter, uint32_t mask,
                          const AscendC::GatherMaskParams& p) {
  constexpr uint64_t perRepeat = 256 / sizeof(T), perBlock = 32 / sizeof(T);
  if (p.repeatTimes == 0 || (counter && mask == 0)) return;
  const uint64_t lanes = counter ? mask : perRepeat;  // lanes of one repeat
  const uint64_t ub = CurrentCore().Local().Size(LocalBuf::kUB);
  const uint64_t patternBytes = static_cast<uint64_t>(p.repeatTimes - 1) * p.src1RepeatStride * 32 + (lanes + 7) / 8;
  bool past = patternTensor && pattern + patternBytes > ub;
  if (lanes <= perRepeat) {  // a longer counter-mode repeat has its source checked by the emulation
    const uint64_t last = lanes - 1;
    const uint64_t srcElems = static_cast<uint64_t>(p.repeatTimes - 1) * p.src0RepeatStride * perBlock +
                              last / perBlock * p.src0BlockStride * perBlock + last % perBlock + 1;
    past = past || a + srcElems * sizeof(T) > ub;
  }
  if (past) throw SimError(Status::RUNTIME_ERROR, "GatherMask: its source or pattern reaches past the end of the UB");
}

int64_t VecGatherMask(const Call& c, int32_t t, uint32_t d, uint32_t dn, uint32_t a, uint32_t an, uint32_t pattern,
                      uint32_t patternBytes, int32_t reduceMode, uint32_t mask, int32_t blk, int32_t repeats,
                      int32_t rep, int32_t patternRep, int32_t line) {
  VectorCore("GatherMask");
  if (blk < 0 || blk > UINT8_MAX || repeats < 0 || repeats > UINT16_MAX || rep < 0 || rep > UINT16_MAX ||
      patternRep < 0 || patternRep > UINT8_MAX)
    throw SimError(Status::RUNTIME_ERROR, "GatherMask: a GatherMaskParams field out of its range");
  AscendC::GatherMaskParams p;
  p.src0BlockStride = static_cast<uint8_t>(blk);
  p.repeatTimes = static_cast<uint16_t>(repeats);
  p.src0RepeatStride = static_cast<uint16_t>(rep);
  p.src1RepeatStride = static_cast<uint8_t>(patternRep);
  return WithType(t, [&](auto tag) -> int64_t {
    using T = typename decltype(tag)::type;
    if constexpr (sizeof(T) == 2 || sizeof(T) == 4) {
      using U = std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>;  // the pattern's element type
      const auto D = Local<T>(d, dn), A = Local<T>(a, an);
      CheckGatherMaskReach<T>(a, pattern, patternBytes != 0, reduceMode != 0, mask, p);
      uint64_t n = 0;
      if (patternBytes == 0) {
        if (pattern > UINT8_MAX) throw SimError(Status::RUNTIME_ERROR, "GatherMask: built-in pattern out of range");
        AscendC::GatherMask(D, A, static_cast<uint8_t>(pattern), reduceMode != 0, mask, p, n, c.Loc(line));
      } else {
        AscendC::GatherMask(D, A, Local<U>(pattern, patternBytes / sizeof(U)), reduceMode != 0, mask, p, n,
                            c.Loc(line));
      }
      return static_cast<int64_t>(n);
    }
    Unsupported("GatherMask", t);
  });
}

void VecGather(const Call& c, int32_t t, uint32_t d, uint32_t dn, uint32_t a, uint32_t an, uint32_t offsets,
               uint32_t offsetsSize, uint32_t base, uint32_t count, int32_t line) {
  VectorCore("Gather");
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (sizeof(T) == 2 || sizeof(T) == 4) {
      return AscendC::Gather(Local<T>(d, dn), Local<T>(a, an), Local<uint32_t>(offsets, offsetsSize), base, count,
                             c.Loc(line));
    }
    Unsupported("Gather", t);
  });
}
void VecGatherb(const Call& c, int32_t t, uint32_t d, uint32_t dn, uint32_t a, uint32_t an, uint32_t offsets,
                uint32_t offsetsSize, int32_t repeat, int32_t blk, int32_t rep, int32_t line) {
  VectorCore("Gatherb");
  if (blk < 0 || blk > UINT8_MAX || rep < 0 || rep > UINT16_MAX)
    throw SimError(Status::RUNTIME_ERROR, "Gatherb: a stride out of its type's range");
  const uint8_t r = Repeat(repeat);
  AscendC::GatherRepeatParams p;
  p.dstBlkStride = static_cast<uint8_t>(blk);
  p.dstRepStride = static_cast<uint16_t>(rep);
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, uint16_t> || std::is_same_v<T, uint32_t>) {
      return AscendC::Gatherb(Local<T>(d, dn), Local<T>(a, an), Local<uint32_t>(offsets, offsetsSize), r, p,
                              c.Loc(line));
    }
    Unsupported("Gatherb", t);
  });
}

}  // namespace

void DefineGatherImports(wasmtime_linker_t* l) {
  Import<VecGatherMask>::Define(l, "vec_gather_mask");
  Import<VecGather>::Define(l, "vec_gather");
  Import<VecGatherb>::Define(l, "vec_gatherb");
}

}  // namespace ascendc_sim::guest
