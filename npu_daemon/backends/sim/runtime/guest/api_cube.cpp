// The guest engine's cube imports: GM -> L1 (Nd2Nz), LoadData, Fill / InitConstValue, Mmad and Fixpipe
// (cube_compute.h), the core type and the cross-core flags of a mixed launch (cube_sync.h). Each parameter struct is
// the one both sides include (ascendc_guest/cube_params.h), read from guest memory byte for byte; its bools are
// normalised, since the guest may write any byte there.
#include "import.h"

namespace ascendc_sim::guest {
namespace {

template <typename P>
P Params(const Call& c, uint32_t ptr, const char* api) {
  static_assert(std::is_trivially_copyable_v<P>);
  P p;
  std::memcpy(&p, c.Bytes(ptr, sizeof p, api), sizeof p);
  return p;
}
// A bool read from guest bytes: any nonzero byte is true.
template <typename... B>
void Normalise(B&... b) {
  auto one = [](bool& x) {
    uint8_t u;
    std::memcpy(&u, &x, 1);
    x = u != 0;
  };
  (one(b), ...);
}

// The cube's input types: f(Tag<T>) for half, bfloat16_t, float and int8_t.
template <typename F>
void WithCubeType(int32_t code, const char* api, F&& f) {
  WithType(code, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (ascendc_sim::kCubeIn<T>)
      f(tag);
    else
      Unsupported(api, code);
  });
}

void Nd2Nz(const Call& c, int32_t t, uint32_t l1, uint32_t l1Size, int32_t pos, uint32_t gm, int64_t gmSize,
           uint32_t params, int32_t line) {
  const auto p = Params<AscendC::Nd2NzParams>(c, params, "DataCopy(Nd2Nz)");
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    AscendC::DataCopy(Local<T>(l1, l1Size, pos), Global<T>(gm, gmSize, 1, "DataCopy(Nd2Nz)"), p, c.Loc(line));
  });
}

void LoadGm(const Call& c, int32_t t, uint32_t dst, uint32_t dstSize, int32_t dstPos, uint32_t gm, int64_t gmSize,
            uint32_t params, int32_t line) {
  WithCubeType(t, "LoadData(2D, GM)", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4) {
      auto p = Params<AscendC::LoadData2DParams>(c, params, "LoadData(2D, GM)");
      Normalise(p.ifTranspose);
      AscendC::LoadData(Local<T>(dst, dstSize, dstPos), Global<T>(gm, gmSize, 1, "LoadData(2D, GM)"), p, c.Loc(line));
    } else {
      Unsupported("LoadData(2D, GM)", t);
    }
  });
}

// IsResetLoad3dConfig by the form's bits 8 (keep FMATRIX) and 9 (keep PADDING).
constexpr AscendC::IsResetLoad3dConfig kSetBoth{true, true}, kSetPadding{false, true}, kSetFmatrix{true, false},
    kSetNone{false, false};
template <typename T>
void Load3dV2(const AscendC::LocalTensor<T>& d, const AscendC::LocalTensor<T>& s,
              const AscendC::LoadData3DParamsV2<T>& p, int32_t keep, const SrcLoc& loc) {
  switch (keep) {
    case 0:
      return AscendC::LoadData<T, kSetBoth>(d, s, p, loc);
    case 1:
      return AscendC::LoadData<T, kSetPadding>(d, s, p, loc);
    case 2:
      return AscendC::LoadData<T, kSetFmatrix>(d, s, p, loc);
    default:
      return AscendC::LoadData<T, kSetNone>(d, s, p, loc);
  }
}

void Load(const Call& c, int32_t t, int32_t form, uint32_t dst, uint32_t dstSize, int32_t dstPos, uint32_t src,
          uint32_t srcSize, int32_t srcPos, uint32_t params, int32_t line) {
  WithCubeType(t, "LoadData", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto d = Local<T>(dst, dstSize, dstPos);
    const auto s = Local<T>(src, srcSize, srcPos);
    if (form == 0) {
      auto p = Params<AscendC::LoadData2DParams>(c, params, "LoadData(2D)");
      Normalise(p.ifTranspose);
      AscendC::LoadData(d, s, p, c.Loc(line));
    } else if (form == 1) {
      const auto p = Params<AscendC::LoadData2dTransposeParams>(c, params, "LoadDataWithTranspose");
      if constexpr (sizeof(T) == 2 || sizeof(T) == 4)
        AscendC::LoadDataWithTranspose(d, s, p, c.Loc(line));
      else
        Unsupported("LoadDataWithTranspose", t);
    } else if ((form & 0xFF) == 2 && (form & ~0x3FF) == 0) {
      auto p = Params<AscendC::LoadData3DParamsV2<T>>(c, params, "LoadData(3Dv2)");
      Normalise(p.enTranspose, p.enSmallK, p.filterSizeW, p.filterSizeH, p.fMatrixCtrl);
      Load3dV2(d, s, p, (form >> 8) & 3, c.Loc(line));
    } else {
      throw SimError(Status::RUNTIME_ERROR, "LoadData: form " + std::to_string(form) + " unknown");
    }
  });
}

void MmadImport(const Call& c, int32_t t, uint32_t dst, uint32_t dstSize, int32_t dstPos, uint32_t a, uint32_t aSize,
                int32_t aPos, uint32_t b, uint32_t bSize, int32_t bPos, uint32_t bias, uint32_t biasSize,
                int32_t biasPos, uint32_t params, int32_t line) {
  auto p = Params<AscendC::MmadParams>(c, params, "Mmad");
  Normalise(p.isBias, p.enSsparse, p.enWinogradA, p.enWinogradB, p.kDirectionAlign, p.cmatrixSource, p.cmatrixInitVal);
  WithCubeType(t, "Mmad", [&](auto tag) {
    using A = typename decltype(tag)::type;
    using C = std::conditional_t<std::is_same_v<A, int8_t>, int32_t, float>;
    const auto cc = Local<C>(dst, dstSize, dstPos);
    const auto fa = Local<A>(a, aSize, aPos), fb = Local<A>(b, bSize, bPos);
    if (biasPos < 0)
      AscendC::Mmad(cc, fa, fb, p, c.Loc(line));
    else
      AscendC::Mmad(cc, fa, fb, Local<C>(bias, biasSize, biasPos), p, c.Loc(line));
  });
}

void FillImport(const Call& c, int32_t t, int32_t api, uint32_t dst, uint32_t dstSize, int32_t dstPos, uint32_t params,
                int32_t line) {
  if (api != 0 && api != 1) throw SimError(Status::RUNTIME_ERROR, "Fill: form " + std::to_string(api) + " unknown");
  const char* name = api == 0 ? "Fill" : "InitConstValue";
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (ascendc_sim::kCubeFill<T>)
      ascendc_sim::FillCube(Local<T>(dst, dstSize, dstPos), Params<AscendC::InitConstValueParams<T>>(c, params, name),
                            name, c.Loc(line));
    else
      Unsupported(name, t);
  });
}

// f(Tag<D>) for the types a Fixpipe writes.
template <typename F>
void WithFixpipeOut(int32_t code, F&& f) {
  WithType(code, [&](auto tag) {
    using D = typename decltype(tag)::type;
    if constexpr (kFloating<D> || std::is_same_v<D, bfloat16_t> || std::is_same_v<D, int8_t> ||
                  std::is_same_v<D, uint8_t> || std::is_same_v<D, int32_t>)
      f(tag);
    else
      Unsupported("Fixpipe", code);
  });
}

void FixpipeImport(const Call& c, int32_t d, int32_t s, int32_t rowMajor, int32_t toGm, uint32_t dst, int64_t dstSize,
                   int32_t dstPos, uint32_t src, uint32_t srcSize, int32_t srcPos, uint32_t params, int32_t line) {
  auto p = Params<AscendC::FixpipeParamsV220>(c, params, "Fixpipe");
  Normalise(p.reluEn, p.isChannelSplit);
  if (static_cast<Dtype>(s) != Dtype::kF32 && static_cast<Dtype>(s) != Dtype::kI32)
    throw SimError(Status::RUNTIME_ERROR, "Fixpipe: the source (L0C) must be float or int32_t");
  WithFixpipeOut(d, [&](auto dTag) {
    using D = typename decltype(dTag)::type;
    WithType(s, [&](auto sTag) {
      using S = typename decltype(sTag)::type;
      if constexpr (std::is_same_v<S, float> || std::is_same_v<S, int32_t>) {
        const auto l0c = Local<S>(src, srcSize, srcPos);
        auto run = [&](const auto& out) {
          if (rowMajor)
            AscendC::Fixpipe<D, S, AscendC::CFG_ROW_MAJOR>(out, l0c, p, c.Loc(line));
          else
            AscendC::Fixpipe<D, S, AscendC::CFG_NZ>(out, l0c, p, c.Loc(line));
        };
        if (toGm)
          run(Global<D>(dst, dstSize, 1, "Fixpipe"));
        else
          run(Local<D>(dst, static_cast<uint32_t>(dstSize), dstPos));
      }
    });
  });
}

void SetLoad3d(const Call& c, int32_t reg, int64_t bits, int32_t line) {
  AscendC::detail::SetLoad3dRegister(reg, static_cast<uint64_t>(bits), c.Loc(line));
}

void SetMode(const Call&, int32_t reg, int32_t value) {
  if (reg < 0 || reg > 2 || (value != 0 && value != 1))
    throw SimError(Status::RUNTIME_ERROR,
                   "SetHF32Mode / SetHF32TransMode / SetMMLayoutTransform: register or value out of range");
  if (reg == 0)
    AscendC::SetHF32Mode(value == 1);
  else if (reg == 1)
    AscendC::SetHF32TransMode(value == 1);
  else
    AscendC::SetMMLayoutTransform(value == 1);
}

void CheckPipe(int32_t pipe, const char* api) {
  if (pipe < PIPE_S || pipe > PIPE_ALL) throw SimError(Status::RUNTIME_ERROR, std::string(api) + ": pipe out of range");
}
void CrossSet(const Call& c, int32_t mode, int32_t pipe, int32_t flag, int32_t line) {
  CheckPipe(pipe, "CrossCoreSetFlag");
  ascendc_sim::CrossCoreSet(mode, pipe, flag, c.Loc(line));
}
void CrossWait(const Call& c, int32_t mode, int32_t pipe, int32_t flag, int32_t line) {
  CheckPipe(pipe, "CrossCoreWaitFlag");
  ascendc_sim::CrossCoreWait(mode, pipe, flag, c.Loc(line));
}
void CrossFfts(const Call& c, int32_t pipe, int64_t config, int32_t line) {
  CheckPipe(pipe, "ffts_cross_core_sync");
  ascendc_sim::FftsCrossCoreSync(pipe, static_cast<uint64_t>(config), c.Loc(line));
}

}  // namespace

void DefineCubeImports(wasmtime_linker_t* l) {
  Import<Nd2Nz>::Define(l, "cube_nd2nz");
  Import<Load>::Define(l, "cube_load");
  Import<LoadGm>::Define(l, "cube_load_gm");
  Import<FillImport>::Define(l, "cube_init_const");
  Import<MmadImport>::Define(l, "cube_mmad");
  Import<FixpipeImport>::Define(l, "cube_fixpipe");
  Import<SetMode>::Define(l, "cube_set_mode");
  Import<SetLoad3d>::Define(l, "cube_set_load3d");
  Import<CrossSet>::Define(l, "cross_core_set");
  Import<CrossWait>::Define(l, "cross_core_wait");
  Import<CrossFfts>::Define(l, "cross_core_ffts");
}

}  // namespace ascendc_sim::guest
