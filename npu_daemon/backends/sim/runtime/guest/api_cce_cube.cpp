// The guest engine's imports of the cube's CCE intrinsics (ascendc_guest/cce_cube.h): each runs the
// native engine's intrinsic (ascendc_sim/cce_cube.h) on the running core, so the API it backs checks
// and charges it. A cube pointer crosses as the buffer's byte address, or as a LocalTensor's
// GetPhyAddr (kUbBase + its local address), made here the native engine's view of that byte; a GM
// address is resolved to the launch buffer its first element lies in, and the native API holds the
// instruction's whole reach to the launch's buffers.
#include "import.h"

namespace ascendc_sim::guest {
namespace {

using ascendc_guest::CceLoad;
using ascendc_guest::CceReg;

// The native intrinsic's cube pointer: the bare byte address, which it holds to its buffer, or the
// kernel view of the local space at a GetPhyAddr value's address.
template <typename T>
T* Cube(uint32_t addr) {
  if (addr < ascendc_guest::kUbBase) return reinterpret_cast<T*>(static_cast<uintptr_t>(addr));
  return reinterpret_cast<T*>(CurrentCore().UbGuardPtr(addr - ascendc_guest::kUbBase));
}
template <typename T>
T* GmFirst(uint32_t addr, const char* api) {
  return reinterpret_cast<T*>(g_module->gm.map.Resolve(addr, sizeof(T), api));
}

void Nd2nz(const Call& c, int32_t t, uint32_t dst, uint32_t src, int32_t ndNum, int32_t nValue, int32_t dValue,
           int32_t srcNdMatrixStride, int32_t srcDValue, int32_t dstNzC0Stride, int32_t dstNzNStride,
           int32_t dstNzMatrixStride, int32_t line) {
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto u = [](int32_t v) { return static_cast<uint16_t>(v); };
    if constexpr (sizeof(T) == 1)
      copy_gm_to_cbuf_multi_nd2nz_b8(Cube<T>(dst), GmFirst<T>(src, "copy_gm_to_cbuf_multi_nd2nz_b8"), 0, u(ndNum),
                                     u(nValue), u(dValue), u(srcNdMatrixStride), u(srcDValue), u(dstNzC0Stride),
                                     u(dstNzNStride), u(dstNzMatrixStride), c.Loc(line));
    else if constexpr (sizeof(T) == 2)
      copy_gm_to_cbuf_multi_nd2nz_b16(Cube<T>(dst), GmFirst<T>(src, "copy_gm_to_cbuf_multi_nd2nz_b16"), 0, u(ndNum),
                                      u(nValue), u(dValue), u(srcNdMatrixStride), u(srcDValue), u(dstNzC0Stride),
                                      u(dstNzNStride), u(dstNzMatrixStride), c.Loc(line));
    else if constexpr (sizeof(T) == 4)
      copy_gm_to_cbuf_multi_nd2nz_b32s(Cube<T>(dst), GmFirst<T>(src, "copy_gm_to_cbuf_multi_nd2nz_b32s"), 0, u(ndNum),
                                       u(nValue), u(dValue), u(srcNdMatrixStride), u(srcDValue), u(dstNzC0Stride),
                                       u(dstNzNStride), u(dstNzMatrixStride), c.Loc(line));
    else
      Unsupported("copy_gm_to_cbuf_multi_nd2nz", t);
  });
}

// form: CceLoad. The 2D forms take (transpose, addrCalMode) in the last two, the transpose forms
// (addrmode, dstFracStride).
void CubeLoad(const Call& c, int32_t form, int32_t t, uint32_t dst, uint32_t src, int32_t baseIdx, int32_t repeat,
              int32_t srcStride, int32_t dstStride, int32_t a, int32_t b, int32_t line) {
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto idx = static_cast<uint16_t>(baseIdx), ss = static_cast<uint16_t>(srcStride);
    const auto ds = static_cast<uint16_t>(dstStride);
    const auto r = static_cast<uint8_t>(repeat);
    const auto mode = static_cast<addr_cal_mode_t>(b != 0);
    switch (static_cast<CceLoad>(form)) {
      case CceLoad::kToA:
        return load_cbuf_to_ca(Cube<T>(dst), Cube<T>(src), idx, r, ss, ds, 0, a != 0, mode, c.Loc(line));
      case CceLoad::kToB:
        return load_cbuf_to_cb(Cube<T>(dst), Cube<T>(src), idx, r, ss, ds, 0, a != 0, mode, c.Loc(line));
      case CceLoad::kToATranspose:
      case CceLoad::kToBTranspose:
        if constexpr (sizeof(T) != 2 && sizeof(T) != 4) {
          Unsupported("load_cbuf_to_*_transpose", t);  // the b16 and b32 forms are emulated
        } else {
          const auto fn = static_cast<CceLoad>(form) == CceLoad::kToATranspose ? load_cbuf_to_ca_transpose<T>
                                                                               : load_cbuf_to_cb_transpose<T>;
          return fn(Cube<T>(dst), Cube<T>(src), idx, r, ss, ds, a != 0, static_cast<uint16_t>(b), c.Loc(line));
        }
    }
    throw SimError(Status::RUNTIME_ERROR, "cube load intrinsic code " + std::to_string(form) + " unknown");
  });
}

void Mad(const Call& c, int32_t t, uint32_t dst, uint32_t a, uint32_t b, int32_t m, int32_t k, int32_t n,
         int32_t unitFlag, int32_t kDirectionAlign, int32_t cmatrixSource, int32_t cmatrixInitVal, int32_t line) {
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!kCubeIn<T>) {
      Unsupported("mad", t);
    } else {
      using C = std::conditional_t<std::is_same_v<T, int8_t>, int32_t, float>;
      mad(Cube<C>(dst), Cube<T>(a), Cube<T>(b), static_cast<uint16_t>(m), static_cast<uint16_t>(k),
          static_cast<uint16_t>(n), static_cast<uint8_t>(unitFlag), kDirectionAlign != 0, cmatrixSource != 0,
          cmatrixInitVal != 0, c.Loc(line));
    }
  });
}

// The fixpipe's copy out of L0C to GM (kToGm) or to L1.
enum class CcTo { kGm, kCbuf };
template <CcTo kTo>
void CopyMatrixCc(const Call& c, int32_t d, int32_t s, uint32_t dst, uint32_t src, int32_t nSize, int32_t mSize,
                  uint32_t dstStride, int32_t srcStride, int32_t unitFlag, int32_t quantPre, int32_t reluPre,
                  int32_t channelSplit, int32_t nz2ndEn, int32_t line) {
  WithType(s, [&](auto stag) {
    using S = typename decltype(stag)::type;
    WithType(d, [&](auto dtag) {
      using D = typename decltype(dtag)::type;
      if constexpr (!std::is_same_v<S, float> && !std::is_same_v<S, int32_t>) {
        Unsupported("copy_matrix_cc_to_* from L0C", s);  // L0C holds float or int32_t
      } else {
        const auto args = std::make_tuple(Cube<S>(src), uint8_t{0}, static_cast<uint16_t>(nSize),
                                          static_cast<uint16_t>(mSize), dstStride, static_cast<uint16_t>(srcStride),
                                          static_cast<uint8_t>(unitFlag), static_cast<QuantMode_t>(quantPre),
                                          static_cast<uint8_t>(reluPre), channelSplit != 0, nz2ndEn != 0, c.Loc(line));
        if constexpr (kTo == CcTo::kGm)
          std::apply([&](auto... a) { copy_matrix_cc_to_gm(GmFirst<D>(dst, "copy_matrix_cc_to_gm"), a...); }, args);
        else
          std::apply([&](auto... a) { copy_matrix_cc_to_cbuf(Cube<D>(dst), a...); }, args);
      }
    });
  });
}

void GmToCbuf(const Call& c, uint32_t dst, uint32_t src, int32_t nBurst, int32_t lenBurst, int32_t srcStride,
              int32_t dstStride, int32_t padMode, int32_t line) {
  ASCENDC_SIM_CHECK(padMode >= PAD_NONE && padMode <= PAD_MODE8, c.Loc(line), "copy_gm_to_cbuf: pad mode %d unknown",
                    padMode);
  copy_gm_to_cbuf(Cube<uint8_t>(dst), GmFirst<uint8_t>(src, "copy_gm_to_cbuf"), 0, static_cast<uint16_t>(nBurst),
                  static_cast<uint16_t>(lenBurst), static_cast<uint16_t>(srcStride), static_cast<uint16_t>(dstStride),
                  static_cast<pad_t>(padMode), c.Loc(line));
}

void CbufToBt(const Call& c, uint32_t dst, uint32_t src, int32_t convControl, int32_t nBurst, int32_t lenBurst,
              int32_t srcGap, int32_t dstGap, int32_t line) {
  copy_cbuf_to_bt(reinterpret_cast<uintptr_t>(Cube<uint8_t>(dst)), Cube<uint8_t>(src),
                  static_cast<uint16_t>(convControl), static_cast<uint16_t>(nBurst), static_cast<uint16_t>(lenBurst),
                  static_cast<uint16_t>(srcGap), static_cast<uint16_t>(dstGap), c.Loc(line));
}

// geometry and flags packed as ascendc_guest/cce_cube.h packs them.
void Img2col(const Call& c, int32_t form, int32_t t, uint32_t dst, uint32_t src, int32_t stepK, int32_t stepM,
             int32_t posK, int32_t posM, int64_t geometry, int32_t flags, int32_t sizeChannel, int32_t line) {
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto g = [&](int i) { return static_cast<uint8_t>(geometry >> (8 * i)); };
    const auto f = [&](int i) { return ((flags >> i) & 1) != 0; };
    const auto u = [](int32_t v) { return static_cast<uint16_t>(v); };
    switch (static_cast<CceLoad>(form)) {
      case CceLoad::kToA:
        return img2colv2_cbuf_to_ca(Cube<T>(dst), Cube<T>(src), u(stepK), u(stepM), u(posK), u(posM), g(0), g(1), g(2),
                                    g(3), g(4), g(5), f(0), f(1), f(2), f(3), u(sizeChannel), c.Loc(line));
      case CceLoad::kToB:
        return img2colv2_cbuf_to_cb(Cube<T>(dst), Cube<T>(src), u(stepK), u(stepM), u(posK), u(posM), g(0), g(1), g(2),
                                    g(3), g(4), g(5), f(0), f(1), f(2), f(3), u(sizeChannel), c.Loc(line));
      default:
        break;
    }
    throw SimError(Status::RUNTIME_ERROR, "img2col intrinsic code " + std::to_string(form) + " unknown");
  });
}

void SetReg(const Call& c, int32_t reg, int64_t value, int32_t line) {
  switch (static_cast<CceReg>(reg)) {
    case CceReg::kNdPara:
      return set_nd_para(static_cast<uint64_t>(value));
    case CceReg::kPadding:
      return set_padding(static_cast<uint64_t>(value), c.Loc(line));
    case CceReg::kFmatrixLeft:
      return set_fmatrix(static_cast<uint64_t>(value), c.Loc(line));
    case CceReg::kFmatrixRight:
      return set_fmatrix_b(static_cast<uint64_t>(value), c.Loc(line));
    case CceReg::kL3dRepeat:
      return set_l3d_rpt(static_cast<uint64_t>(value), c.Loc(line));
    case CceReg::kL3dSize:
      return set_l1_3d_size(static_cast<uint64_t>(value), c.Loc(line));
    case CceReg::kAtomicOp:
      switch (static_cast<ascendc_guest::AtomicOp>(value)) {
        case ascendc_guest::AtomicOp::kNone:
          return set_atomic_none();
        case ascendc_guest::AtomicOp::kAdd:
          return set_atomic_add();
        case ascendc_guest::AtomicOp::kMax:
          return set_atomic_max();
        case ascendc_guest::AtomicOp::kMin:
          return set_atomic_min();
        case ascendc_guest::AtomicOp::kKeep:
          break;
      }
      throw SimError(Status::RUNTIME_ERROR, "set_atomic: operation code " + std::to_string(value) + " unknown");
    case CceReg::kAtomicType:
      return WithType(static_cast<int32_t>(value), [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_same_v<T, float> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> ||
                      std::is_same_v<T, int8_t> || std::is_same_v<T, int16_t> || std::is_same_v<T, int32_t>)
          AscendC::SetAtomicType<T>();
        else
          Unsupported("set_atomic_<type>", static_cast<int32_t>(value));
      });
  }
  throw SimError(Status::RUNTIME_ERROR, "cube register intrinsic code " + std::to_string(reg) + " unknown");
}

}  // namespace

void DefineCceCubeImports(wasmtime_linker_t* l) {
  Import<Nd2nz>::Define(l, "cce_nd2nz");
  Import<CubeLoad>::Define(l, "cce_load");
  Import<Mad>::Define(l, "cce_mad");
  Import<CopyMatrixCc<CcTo::kGm>>::Define(l, "cce_fixpipe");
  Import<CopyMatrixCc<CcTo::kCbuf>>::Define(l, "cce_fixpipe_cbuf");
  Import<GmToCbuf>::Define(l, "cce_gm_to_cbuf");
  Import<CbufToBt>::Define(l, "cce_cbuf_to_bt");
  Import<Img2col>::Define(l, "cce_img2col");
  Import<SetReg>::Define(l, "cce_set_reg");
}

}  // namespace ascendc_sim::guest
