// The guest engine's sort imports: Sort32, MrgSort, Sort and Extract on the A2's (score, index)
// pairs (Concat, GetSortLen and GetSortOffset are the guest's own: no instruction).
#include "vec_shape.h"

namespace ascendc_sim::guest {
namespace {

template <typename T>
constexpr bool kScore = kFloating<T>;

void VecSort32(const Call& c, int32_t t, uint32_t d, uint32_t dn, uint32_t a, uint32_t an, uint32_t index,
               uint32_t indexSize, int32_t repeatTime, int32_t line) {
  VectorCore("Sort32");
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kScore<T>)
      return AscendC::Sort32(Local<T>(d, dn), Local<T>(a, an), Local<uint32_t>(index, indexSize), repeatTime,
                             c.Loc(line));
    Unsupported("Sort32", t);
  });
}

void VecMrgSort(const Call& c, int32_t t, uint32_t d, uint32_t dn, uint32_t lists, int64_t lengths, int32_t suspension,
                int32_t validBit, int32_t repeatTimes, int32_t line) {
  VectorCore("MrgSort");
  uint32_t l[8];
  std::memcpy(l, c.Bytes(lists, sizeof l, "MrgSort"), sizeof l);
  if (repeatTimes < 0 || repeatTimes > UINT8_MAX || validBit < 0 || validBit > UINT16_MAX)
    throw SimError(Status::RUNTIME_ERROR, "MrgSort: repeatTimes or validBit out of range");
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kScore<T>) {
      const AscendC::MrgSortSrcList<T> src(Local<T>(l[0], l[1]), Local<T>(l[2], l[3]), Local<T>(l[4], l[5]),
                                           Local<T>(l[6], l[7]));
      uint16_t len[4];
      for (int k = 0; k < 4; ++k) len[k] = static_cast<uint16_t>(static_cast<uint64_t>(lengths) >> (16 * k));
      return AscendC::MrgSort(Local<T>(d, dn), src,
                              AscendC::MrgSort4Info(len, suspension != 0, static_cast<uint16_t>(validBit),
                                                    static_cast<uint16_t>(repeatTimes)),
                              c.Loc(line));
    }
    Unsupported("MrgSort", t);
  });
}

void VecSort(const Call& c, int32_t t, int32_t fullSort, uint32_t d, uint32_t dn, uint32_t a, uint32_t an,
             uint32_t index, uint32_t indexSize, uint32_t tmp, uint32_t tmpSize, int32_t repeatTime, int32_t line) {
  VectorCore("Sort");
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kScore<T>) {
      const auto D = Local<T>(d, dn), A = Local<T>(a, an);
      const auto I = Local<uint32_t>(index, indexSize);
      auto W = Local<T>(tmp, tmpSize);
      if (fullSort) return AscendC::Sort<T, true>(D, A, I, W, repeatTime, c.Loc(line));
      return AscendC::Sort<T, false>(D, A, I, W, repeatTime, c.Loc(line));
    }
    Unsupported("Sort", t);
  });
}

void VecExtract(const Call& c, int32_t t, uint32_t value, uint32_t valueSize, uint32_t index, uint32_t indexSize,
                uint32_t sorted, uint32_t sortedSize, int32_t repeatTime, int32_t line) {
  VectorCore("Extract");
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kScore<T>)
      return AscendC::Extract(Local<T>(value, valueSize), Local<uint32_t>(index, indexSize),
                              Local<T>(sorted, sortedSize), repeatTime, c.Loc(line));
    Unsupported("Extract", t);
  });
}

}  // namespace

void DefineSortImports(wasmtime_linker_t* l) {
  Import<VecSort32>::Define(l, "vec_sort32");
  Import<VecMrgSort>::Define(l, "vec_mrgsort");
  Import<VecSort>::Define(l, "vec_sort");
  Import<VecExtract>::Define(l, "vec_extract");
}

}  // namespace ascendc_sim::guest
