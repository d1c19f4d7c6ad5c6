// The guest engine's CCE intrinsic imports (ascendc_guest/cce.h): each runs the native engine's
// intrinsic (ascendc_sim/cce_intrinsics.h) on the running core, with the guest's addresses made the
// native engine's pointers: a UB address as the device's small integer (which the native intrinsic
// holds to the UB), a GM address resolved to the one launch buffer its whole reach lies in.
#include "import.h"

namespace ascendc_sim::guest {
namespace {

using ascendc_guest::CceCopy;
using ascendc_guest::Vconv;

// The native intrinsic's __ubuf__ pointer: the UB address as a small integer, which it holds to the UB.
template <typename T>
T* Ub(uint32_t addr) {
  return reinterpret_cast<T*>(static_cast<uintptr_t>(UbOfPointer(addr)));
}
// `bursts` runs of `len` bytes, `gap` bytes apart, from GM address `addr`: all in one buffer.
void* Gm(uint32_t addr, int64_t bursts, int64_t len, int64_t gap, const char* api) {
  const int64_t n = std::max<int64_t>(bursts, 1);
  return g_module->gm.map.Resolve(addr, static_cast<uint64_t>(n * len + (n - 1) * gap), api);
}

void Copy(const Call& c, int32_t kind, uint32_t dst, uint32_t src, int32_t nBurst, int32_t lenBurst, int32_t srcGap,
          int32_t dstGap, int32_t line) {
  const auto n = static_cast<uint16_t>(nBurst), len = static_cast<uint16_t>(lenBurst);
  const auto sg = static_cast<uint16_t>(srcGap), dg = static_cast<uint16_t>(dstGap);
  switch (static_cast<CceCopy>(kind)) {
    case CceCopy::kGmToUb:
      return copy_gm_to_ubuf(Ub<void>(dst), Gm(src, n, len * 32, sg * 32, "copy_gm_to_ubuf"), 0, n, len, sg, dg,
                             c.Loc(line));
    case CceCopy::kUbToGm:
      return copy_ubuf_to_gm(Gm(dst, n, len * 32, dg * 32, "copy_ubuf_to_gm"), Ub<void>(src), 0, n, len, sg, dg,
                             c.Loc(line));
    case CceCopy::kUbToUb:
      return copy_ubuf_to_ubuf(Ub<void>(dst), Ub<void>(src), 0, n, len, sg, dg, c.Loc(line));
  }
  throw SimError(Status::RUNTIME_ERROR, "copy intrinsic code " + std::to_string(kind) + " unknown");
}

void CopyAlign(const Call& c, int32_t toGm, int32_t bits, uint32_t dst, uint32_t src, int32_t nBurst, uint32_t lenBurst,
               int32_t leftPad, int32_t rightPad, uint32_t srcGap, uint32_t dstGap, int32_t line) {
  const auto n = static_cast<uint16_t>(nBurst);
  const auto l = static_cast<uint8_t>(leftPad), r = static_cast<uint8_t>(rightPad);
  const char* api = toGm ? "copy_ubuf_to_gm_align" : "copy_gm_to_ubuf_align";
  void* gm = Gm(toGm ? dst : src, n, lenBurst, toGm ? dstGap : srcGap, api);
  void* ub = Ub<void>(toGm ? src : dst);
#define ASCENDC_GUEST_ALIGN(BITS)                                                                          \
  case BITS:                                                                                               \
    return toGm ? copy_ubuf_to_gm_align_b##BITS(gm, ub, 0, n, lenBurst, l, r, srcGap, dstGap, c.Loc(line)) \
                : copy_gm_to_ubuf_align_b##BITS(ub, gm, 0, n, lenBurst, l, r, srcGap, dstGap, c.Loc(line));
  switch (bits) {
    ASCENDC_GUEST_ALIGN(8)
    ASCENDC_GUEST_ALIGN(16)
    ASCENDC_GUEST_ALIGN(32)
  }
#undef ASCENDC_GUEST_ALIGN
  throw SimError(Status::RUNTIME_ERROR, std::string(api) + ": elements of " + std::to_string(bits) + " bits");
}

void PadVal(const Call&, int64_t bits) { set_mov_pad_val(static_cast<uint64_t>(bits)); }

void Mask(const Call&, int32_t mode, int64_t high, int64_t low) {
  if (mode == 0)
    set_vector_mask(static_cast<uint64_t>(high), static_cast<uint64_t>(low));
  else if (mode == 1)
    set_mask_norm();
  else if (mode == 2)
    set_mask_count();
  else
    throw SimError(Status::RUNTIME_ERROR, "mask intrinsic code " + std::to_string(mode) + " unknown");
}

void BinaryCce(const Call& c, int32_t op, int32_t t, uint32_t dst, uint32_t src0, uint32_t src1, int32_t repeat,
               int32_t dstBlk, int32_t src0Blk, int32_t src1Blk, int32_t dstRep, int32_t src0Rep, int32_t src1Rep,
               int32_t line) {
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!kArith<T>) {
      Unsupported("a vector intrinsic", t);
    } else {
      using Fn = void (*)(T*, T*, T*, uint8_t, uint16_t, uint16_t, uint16_t, uint16_t, uint16_t, uint16_t, SrcLoc);
      Fn fn = nullptr;
      switch (static_cast<ascendc_guest::Binary>(op)) {
        case ascendc_guest::Binary::kAdd:
          fn = vadd<T>;
          break;
        case ascendc_guest::Binary::kSub:
          fn = vsub<T>;
          break;
        case ascendc_guest::Binary::kMul:
          fn = vmul<T>;
          break;
        case ascendc_guest::Binary::kMax:
          fn = vmax<T>;
          break;
        case ascendc_guest::Binary::kMin:
          fn = vmin<T>;
          break;
        case ascendc_guest::Binary::kDiv:
          fn = vdiv<T>;
          break;
        case ascendc_guest::Binary::kAnd:
          if constexpr (std::is_same_v<T, int16_t>) fn = vand<T>;
          break;
        case ascendc_guest::Binary::kOr:
          if constexpr (std::is_same_v<T, int16_t>) fn = vor<T>;
          break;
        default:
          throw SimError(Status::RUNTIME_ERROR, "vector intrinsic code " + std::to_string(op) + " unknown");
      }
      if (fn == nullptr) Unsupported("vand / vor", t);  // 16-bit integer lanes only
      fn(Ub<T>(dst), Ub<T>(src0), Ub<T>(src1), static_cast<uint8_t>(repeat), static_cast<uint16_t>(dstBlk),
         static_cast<uint16_t>(src0Blk), static_cast<uint16_t>(src1Blk), static_cast<uint16_t>(dstRep),
         static_cast<uint16_t>(src0Rep), static_cast<uint16_t>(src1Rep), c.Loc(line));
    }
  });
}

void UnaryCce(const Call& c, int32_t op, int32_t t, uint32_t dst, uint32_t src, int32_t repeat, int32_t dstBlk,
              int32_t srcBlk, int32_t dstRep, int32_t srcRep, int32_t line) {
  using ascendc_guest::Unary;
  if (op < static_cast<int32_t>(Unary::kExp) || op > static_cast<int32_t>(Unary::kNot))
    throw SimError(Status::RUNTIME_ERROR, "unary intrinsic code " + std::to_string(op) + " unknown");
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using Fn = void (*)(T*, T*, uint8_t, uint16_t, uint16_t, uint16_t, uint16_t, SrcLoc);
    Fn fn = nullptr;
    // The A2's types: the transcendentals, vabs and vrelu on half / float, vnot on 16-bit integers.
    if constexpr (kFloating<T>) {
      constexpr Fn fns[] = {vexp<T>, vln<T>, vabs<T>, vrec<T>, vsqrt<T>, vrsqrt<T>, vrelu<T>};
      if (op != static_cast<int32_t>(Unary::kNot)) fn = fns[op - static_cast<int32_t>(Unary::kExp)];
    } else if constexpr (std::is_integral_v<T> && sizeof(T) == 2) {
      if (op == static_cast<int32_t>(Unary::kNot)) fn = vnot<T>;
    }
    if (fn == nullptr) Unsupported("a unary intrinsic", t);
    fn(Ub<T>(dst), Ub<T>(src), static_cast<uint8_t>(repeat), static_cast<uint16_t>(dstBlk),
       static_cast<uint16_t>(srcBlk), static_cast<uint16_t>(dstRep), static_cast<uint16_t>(srcRep), c.Loc(line));
  });
}

void Vbrcb(const Call& c, int32_t t, uint32_t dst, uint32_t src, int32_t dstBlockStride, int32_t dstRepeatStride,
           int32_t repeat, int32_t line) {
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (sizeof(T) != 2 && sizeof(T) != 4)
      Unsupported("vbrcb", t);  // the A2's b16 and b32
    else
      vbrcb(Ub<T>(dst), Ub<T>(src), static_cast<uint16_t>(dstBlockStride), static_cast<uint16_t>(dstRepeatStride),
            static_cast<uint8_t>(repeat), c.Loc(line));
  });
}

void ScalarCce(const Call& c, int32_t op, int32_t t, uint32_t dst, uint32_t src, int64_t scalar, int32_t repeat,
               int32_t dstBlk, int32_t srcBlk, int32_t dstRep, int32_t srcRep, int32_t line) {
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!kArith<T>) {
      Unsupported("a vector-scalar intrinsic", t);
    } else {
      const auto r = static_cast<uint8_t>(repeat);
      const auto db = static_cast<uint16_t>(dstBlk), sb = static_cast<uint16_t>(srcBlk);
      const auto dr = static_cast<uint16_t>(dstRep), sr = static_cast<uint16_t>(srcRep);
      if (static_cast<ascendc_guest::WithScalar>(op) == ascendc_guest::WithScalar::kAdds)
        vadds<T>(Ub<T>(dst), Ub<T>(src), FromBits<T>(scalar), r, db, sb, dr, sr, c.Loc(line));
      else if (static_cast<ascendc_guest::WithScalar>(op) == ascendc_guest::WithScalar::kMuls)
        vmuls<T>(Ub<T>(dst), Ub<T>(src), FromBits<T>(scalar), r, db, sb, dr, sr, c.Loc(line));
      else
        throw SimError(Status::RUNTIME_ERROR, "vector-scalar intrinsic code " + std::to_string(op) + " unknown");
    }
  });
}

void Dup(const Call& c, int32_t t, uint32_t dst, int64_t scalar, int32_t repeat, int32_t dstBlk, int32_t dstRep,
         int32_t line) {
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!kArith<T> && !std::is_same_v<T, uint16_t> && !std::is_same_v<T, uint32_t>)
      Unsupported("vector_dup", t);
    else
      vector_dup<T>(Ub<T>(dst), FromBits<T>(scalar), static_cast<uint8_t>(repeat), static_cast<uint16_t>(dstBlk), 0,
                    static_cast<uint8_t>(dstRep), 0, c.Loc(line));
  });
}

void VconvImport(const Call& c, int32_t form, uint32_t dst, uint32_t src, int32_t repeat, int32_t dstBlk,
                 int32_t srcBlk, int32_t dstRep, int32_t srcRep, int32_t line) {
  const auto r = static_cast<uint8_t>(repeat);
  const auto db = static_cast<uint16_t>(dstBlk), sb = static_cast<uint16_t>(srcBlk);
  const auto dr = static_cast<uint16_t>(dstRep), sr = static_cast<uint16_t>(srcRep);
#define ASCENDC_GUEST_VCONV(FORM, INTRINSIC, D, S) \
  case Vconv::FORM:                                \
    return INTRINSIC(Ub<D>(dst), Ub<S>(src), r, db, sb, dr, sr, c.Loc(line));
  switch (static_cast<Vconv>(form)) {
    ASCENDC_GUEST_VCONV(kF16F32, vconv_f162f32, float, half)
    ASCENDC_GUEST_VCONV(kBf16F32, vconv_bf162f32, float, bfloat16_t)
    ASCENDC_GUEST_VCONV(kS16F32, vconv_s162f32, float, int16_t)
    ASCENDC_GUEST_VCONV(kS32F32, vconv_s322f32, float, int32_t)
    ASCENDC_GUEST_VCONV(kS16F16, vconv_s162f16, half, int16_t)
    ASCENDC_GUEST_VCONV(kF32F16, vconv_f322f16, half, float)
    ASCENDC_GUEST_VCONV(kF32F16r, vconv_f322f16r, half, float)
    ASCENDC_GUEST_VCONV(kF32Bf16r, vconv_f322bf16r, bfloat16_t, float)
    ASCENDC_GUEST_VCONV(kF32S16r, vconv_f322s16r, int16_t, float)
    ASCENDC_GUEST_VCONV(kF32S32r, vconv_f322s32r, int32_t, float)
    ASCENDC_GUEST_VCONV(kF32S32f, vconv_f322s32f, int32_t, float)
    ASCENDC_GUEST_VCONV(kF16S32r, vconv_f162s32r, int32_t, half)
  }
#undef ASCENDC_GUEST_VCONV
  throw SimError(Status::RUNTIME_ERROR, "vconv form " + std::to_string(form) + " unknown");
}

void WholeReduce(const Call& c, int32_t op, int32_t t, uint32_t dst, uint32_t src, int32_t repeat, int32_t dstRep,
                 int32_t srcBlk, int32_t srcRep, int32_t order, int32_t line) {
  const auto reduce = static_cast<ascendc_guest::Reduce>(op);
  if (reduce != ascendc_guest::Reduce::kSum && reduce != ascendc_guest::Reduce::kMax &&
      reduce != ascendc_guest::Reduce::kMin)
    throw SimError(Status::RUNTIME_ERROR, "whole reduce intrinsic code " + std::to_string(op) + " unknown");
  // vcadd's last operand is its ACC_VAL flag, vcmax / vcmin's the order.
  if (order < 0 || order > static_cast<int32_t>(Order_t::ONLY_INDEX))
    throw SimError(Status::RUNTIME_ERROR, "vcadd / vcmax / vcmin: last operand " + std::to_string(order) + " unknown");
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!kFloating<T>) {
      Unsupported("vcadd / vcmax / vcmin", t);
    } else if (reduce == ascendc_guest::Reduce::kSum) {
      vcadd<T>(Ub<T>(dst), Ub<T>(src), static_cast<uint8_t>(repeat), static_cast<uint16_t>(dstRep),
               static_cast<uint16_t>(srcBlk), static_cast<uint16_t>(srcRep), order != 0, c.Loc(line));
    } else {
      const auto fn = reduce == ascendc_guest::Reduce::kMax ? vcmax<T> : vcmin<T>;
      fn(Ub<T>(dst), Ub<T>(src), static_cast<uint8_t>(repeat), static_cast<uint16_t>(dstRep),
         static_cast<uint16_t>(srcBlk), static_cast<uint16_t>(srcRep), static_cast<Order_t>(order), c.Loc(line));
    }
  });
}

// The six compare intrinsics of one form, by CMPMODE's code.
template <typename Fn>
Fn ByMode(int32_t mode, const std::array<Fn, 6>& fns) {
  if (mode < 0 || mode >= 6) throw SimError(Status::RUNTIME_ERROR, "compare mode " + std::to_string(mode) + " unknown");
  return fns[static_cast<size_t>(mode)];
}

void Compare(const Call& c, int32_t form, int32_t mode, int32_t t, uint32_t dst, uint32_t src0, uint32_t src1,
             int32_t repeat, int32_t dstBlk, int32_t src0Blk, int32_t src1Blk, int32_t dstRep, int32_t src0Rep,
             int32_t src1Rep, int32_t line) {
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!kArith<T>) {
      Unsupported("a compare intrinsic", t);
    } else {
      const auto r = static_cast<uint8_t>(repeat);
      const auto db = static_cast<uint16_t>(dstBlk), ab = static_cast<uint16_t>(src0Blk),
                 bb = static_cast<uint16_t>(src1Blk);
      const auto dr = static_cast<uint16_t>(dstRep), ar = static_cast<uint16_t>(src0Rep),
                 br = static_cast<uint16_t>(src1Rep);
      if (static_cast<ascendc_guest::CceCompare>(form) == ascendc_guest::CceCompare::kBits) {
        using Fn =
            void (*)(uint8_t*, T*, T*, uint8_t, uint16_t, uint16_t, uint16_t, uint16_t, uint16_t, uint16_t, SrcLoc);
        const Fn fn = ByMode<Fn>(mode, {vcmpv_lt<T>, vcmpv_gt<T>, vcmpv_eq<T>, vcmpv_le<T>, vcmpv_ge<T>, vcmpv_ne<T>});
        fn(Ub<uint8_t>(dst), Ub<T>(src0), Ub<T>(src1), r, db, ab, bb, dr, ar, br, c.Loc(line));
      } else if (static_cast<ascendc_guest::CceCompare>(form) == ascendc_guest::CceCompare::kCmpMask) {
        using Fn = void (*)(T*, T*, uint8_t, uint16_t, uint16_t, uint16_t, uint16_t, uint16_t, uint16_t, SrcLoc);
        const Fn fn = ByMode<Fn>(mode, {vcmp_lt<T>, vcmp_gt<T>, vcmp_eq<T>, vcmp_le<T>, vcmp_ge<T>, vcmp_ne<T>});
        fn(Ub<T>(src0), Ub<T>(src1), r, db, ab, bb, dr, ar, br, c.Loc(line));
      } else {
        throw SimError(Status::RUNTIME_ERROR, "compare intrinsic form " + std::to_string(form) + " unknown");
      }
    }
  });
}

void CompareScalar(const Call& c, int32_t mode, int32_t t, uint32_t dst, uint32_t src, int64_t scalar, int32_t repeat,
                   int32_t dstBlk, int32_t srcBlk, int32_t dstRep, int32_t srcRep, int32_t line) {
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!kArith<T>) {
      Unsupported("a compare intrinsic", t);
    } else {
      using Fn = void (*)(uint8_t*, T*, T, uint8_t, uint16_t, uint16_t, uint16_t, uint16_t, SrcLoc);
      const Fn fn =
          ByMode<Fn>(mode, {vcmpvs_lt<T>, vcmpvs_gt<T>, vcmpvs_eq<T>, vcmpvs_le<T>, vcmpvs_ge<T>, vcmpvs_ne<T>});
      fn(Ub<uint8_t>(dst), Ub<T>(src), FromBits<T>(scalar), static_cast<uint8_t>(repeat), static_cast<uint16_t>(dstBlk),
         static_cast<uint16_t>(srcBlk), static_cast<uint16_t>(dstRep), static_cast<uint16_t>(srcRep), c.Loc(line));
    }
  });
}

void SetCmpMask(const Call& c, uint32_t src, int32_t line) { set_cmpmask(Ub<uint64_t>(src), c.Loc(line)); }

void Select(const Call& c, int32_t mode, int32_t t, uint32_t dst, uint32_t src0, uint32_t src1, int32_t repeat,
            int32_t dstBlk, int32_t src0Blk, int32_t src1Blk, int32_t dstRep, int32_t src0Rep, int32_t src1Rep,
            int32_t line) {
  if (mode < 0 || mode > 2)
    throw SimError(Status::RUNTIME_ERROR, "vsel: mode " + std::to_string(mode) +
                                              " (modes 0 and 2 select between two tensors of the destination's type)");
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!kArith<T>) {
      Unsupported("vsel", t);
    } else {
      const auto r = static_cast<uint8_t>(repeat);
      const auto db = static_cast<uint16_t>(dstBlk), ab = static_cast<uint16_t>(src0Blk),
                 bb = static_cast<uint16_t>(src1Blk);
      const auto dr = static_cast<uint16_t>(dstRep), ar = static_cast<uint16_t>(src0Rep),
                 br = static_cast<uint16_t>(src1Rep);
      if (mode == 2) {
        // CMPMASK's low word names the mask: the guest's __ubuf__ pointer (kUbBase + the UB address)
        // or the bare UB address. Resolved here, not by the intrinsic's reading of the word as a
        // pointer of this process (which a small UB address can be mistaken for).
        const uint32_t bits = UbOfPointer(static_cast<uint32_t>(CurrentCore().Registers().cmpMask[0]));
        VselByMaskAt(Ub<T>(dst), Ub<T>(src0), Ub<T>(src1), bits, r, AscendC::BinaryRepeatParams(db, ab, bb, dr, ar, br),
                     c.Loc(line));
      } else if (mode == 1)
        vsel(Ub<T>(dst), Ub<T>(src0), Ub<uint8_t>(src1), r, db, ab, bb, dr, ar, br, uint8_t{1}, c.Loc(line));
      else
        vsel(Ub<T>(dst), Ub<T>(src0), Ub<T>(src1), r, db, ab, bb, dr, ar, br, static_cast<uint8_t>(mode), c.Loc(line));
    }
  });
}

void Vgather(const Call& c, int32_t t, uint32_t dst, uint32_t offsets, uint32_t srcBase, int32_t dstRepStride,
             int32_t repeat, int32_t line) {
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_same_v<T, uint16_t> && !std::is_same_v<T, uint32_t>)
      Unsupported("vgather", t);
    else
      // The guest's base is its pointer's value (kUbBase + the address) or the bare address, resolved
      // here: the native intrinsic's reading of a 32-bit word as this process's pointer is not its.
      VgatherAt(Ub<T>(dst), Ub<uint32_t>(offsets), UbOfPointer(srcBase), static_cast<uint16_t>(dstRepStride),
                static_cast<uint8_t>(repeat), c.Loc(line));
  });
}

void ReduceV2(const Call& c, int32_t t, uint32_t dst, uint32_t src0, uint32_t src1, int32_t repeat,
              int32_t src0BlockStride, int32_t patternMode, int32_t src0RepeatStride, int32_t src1RepeatStride,
              int32_t line) {
  if (patternMode < 0 || patternMode > 7)
    throw SimError(Status::RUNTIME_ERROR, "vreducev2: pattern mode " + std::to_string(patternMode) + " unknown");
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (sizeof(T) != 2 && sizeof(T) != 4)
      Unsupported("vreducev2", t);
    else
      vreducev2(Ub<T>(dst), Ub<T>(src0), Ub<T>(src1), static_cast<uint16_t>(repeat),
                static_cast<uint8_t>(src0BlockStride), static_cast<uint8_t>(patternMode),
                static_cast<uint16_t>(src0RepeatStride), static_cast<uint8_t>(src1RepeatStride), c.Loc(line));
  });
}

int64_t RsvdCnt(const Call&) { return get_rsvd_cnt(); }

void Vtranspose(const Call& c, uint32_t dst, uint32_t src, int32_t line) {
  vtranspose(Ub<uint16_t>(dst), Ub<uint16_t>(src), c.Loc(line));
}

int64_t GetCtrl(const Call&) { return get_ctrl(); }
void SetCtrl(const Call& c, int64_t value, int32_t line) { set_ctrl(static_cast<uint64_t>(value), c.Loc(line)); }

}  // namespace

void DefineCceImports(wasmtime_linker_t* l) {
  Import<Copy>::Define(l, "cce_copy");
  Import<CopyAlign>::Define(l, "cce_copy_align");
  Import<PadVal>::Define(l, "cce_pad_val");
  Import<Mask>::Define(l, "cce_mask");
  Import<BinaryCce>::Define(l, "cce_binary");
  Import<ScalarCce>::Define(l, "cce_scalar");
  Import<UnaryCce>::Define(l, "cce_unary");
  Import<Vbrcb>::Define(l, "cce_vbrcb");
  Import<Dup>::Define(l, "cce_dup");
  Import<VconvImport>::Define(l, "cce_vconv");
  Import<WholeReduce>::Define(l, "cce_whole_reduce");
  Import<Compare>::Define(l, "cce_compare");
  Import<CompareScalar>::Define(l, "cce_compare_scalar");
  Import<SetCmpMask>::Define(l, "cce_set_cmpmask");
  Import<Select>::Define(l, "cce_select");
  Import<Vgather>::Define(l, "cce_vgather");
  Import<ReduceV2>::Define(l, "cce_reducev2");
  Import<RsvdCnt>::Define(l, "cce_rsvd_cnt");
  Import<Vtranspose>::Define(l, "cce_vtranspose");
  Import<GetCtrl>::Define(l, "cce_get_ctrl");
  Import<SetCtrl>::Define(l, "cce_set_ctrl");
}

}  // namespace ascendc_sim::guest
