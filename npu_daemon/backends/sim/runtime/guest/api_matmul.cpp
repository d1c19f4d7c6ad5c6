// The guest engine's Matmul imports: the kernel's Matmul object is a handle of a native Matmul
// (ascendc_sim/matmul.h) its core owns here, so the library's schedule, buffers, flags and the
// mixed launch's AIC service are the native engine's, and none of its state is the guest's to forge.
// A user copy of A or B into L1 (MatmulCallBackFunc's CopyA1 / CopyB1) is a function of the kernel's
// module: the native Matmul calls it, where the library does, through the module's export
// ascendc_guest_matmul_user_copy (ascendc_guest/matmul.h), which runs it on the tile's L1 buffer. It
// is guest code like any: its fuel is the kernel's, and the copies it asks for are imports, charged
// by the emulation; what it returns is nothing the Matmul reads.
#include "import.h"
#include "lib/matmul_intf.h"

namespace ascendc_sim::guest {
namespace {

static_assert(sizeof(TCubeTiling) == 50 * sizeof(int32_t),
              "TCubeTiling crosses the boundary as the shared header's 50 int32 fields");

constexpr size_t kMaxMatmuls = 64;  // objects per core: a kernel holds a few

// The calls of one Matmul, whatever its template arguments.
struct MatmulObject : HostObject {
  // Init takes the object's L1 buffers from the core's TPipe (the host's, which the guest's mirror).
  virtual void Init(const TCubeTiling& t, const SrcLoc& loc) = 0;
  virtual void SetTensor(int32_t operand, uint32_t gm, int64_t size, bool trans) = 0;
  virtual void SetLocal(int32_t operand, uint32_t addr, int64_t size, int32_t pos, bool trans) = 0;
  virtual void SetShape(int32_t shape, int32_t m, int32_t n, int32_t ka, int32_t kb) = 0;
  virtual void IterateAll(uint32_t gm, int64_t size, uint8_t enAtomic, const SrcLoc& loc) = 0;
  virtual void IterateAllLocal(uint32_t dst, int64_t size, int32_t pos, uint8_t enAtomic, const SrcLoc& loc) = 0;
  virtual bool Iterate(bool sync, const SrcLoc& loc) = 0;
  virtual void IterateBatch(uint32_t gm, int64_t size, bool cube, int32_t batchA, int32_t batchB, bool sequential,
                            uint32_t strideA, uint32_t strideB, bool partialSum, uint8_t enAtomic,
                            const SrcLoc& loc) = 0;
  virtual void GetC(bool sync, bool toGm, uint32_t dst, int64_t size, int32_t pos, uint8_t enAtomic, bool sequential,
                    const SrcLoc& loc) = 0;
  virtual void End(const SrcLoc& loc) = 0;
  virtual void SetHF32(bool enable, int32_t transMode, const SrcLoc& loc) = 0;
  virtual void SetUserCopy(int32_t operand, uint32_t fn) = 0;
  virtual void SetUserData(int32_t which, uint64_t value) = 0;

  // The formats of A, B and C (matmul_new's flags): the host's Matmul reads and writes ND and NZ in GM
  // (SetFormats); an operand of another format is refused where the library would use it.
  virtual void SetFormats(bool nzA, bool nzB, bool nzC) = 0;
  // Whether A's / B's MatmulType is at an L1 position (matmul_new's flags), as the host's Matmul would
  // read it from its own MatmulTypes: the library's L1 buffers are sized by it at Init.
  virtual void SetL1Positions(bool l1A, bool l1B) = 0;
  CubeFormat format[3] = {};
  bool inL1[2] = {};  // A / B set by a LocalTensor in L1 (read as NZ, whatever the format)
  void HoldToNdOrNz() const {
    static const char* const kNames[] = {"A", "B", "C"};
    for (int op = 0; op < 3; ++op)
      if (!AscendC::detail::NdOrNz(format[op]) && !(op < 2 && inL1[op]))
        throw SimError(Status::RUNTIME_ERROR, std::string("Matmul: ") + kNames[op] + " in GM of CubeFormat " +
                                                  std::to_string(static_cast<int>(format[op])) +
                                                  " (not ND or NZ) is not modelled");
  }
};

// Set while a user copy runs: it is kernel code the Matmul calls inside its own step, and a Matmul
// call from it would re-enter an object mid-iteration, which the library never does.
thread_local bool t_inUserCopy = false;

// The kernel's user copy `fn` (a function of its module, by its table index) on a tile's L1 buffer.
void RunUserCopy(uint32_t fn, const AscendC::LocalTensor<int8_t>& l1, uint32_t gm, int row, int col, int height,
                 int width, uint64_t tilingPtr, uint64_t dataPtr) {
  std::vector<wasmtime_val_raw_t> v(11);
  v[0].i32 = static_cast<int32_t>(fn);
  v[1].i32 = static_cast<int32_t>(l1.UbAddr());
  v[2].i32 = static_cast<int32_t>(l1.GetSize());
  v[3].i32 = static_cast<int32_t>(l1.GetPosition());
  v[4].i32 = static_cast<int32_t>(gm);
  v[5].i32 = row, v[6].i32 = col, v[7].i32 = height, v[8].i32 = width;
  v[9].i64 = static_cast<int64_t>(tilingPtr), v[10].i64 = static_cast<int64_t>(dataPtr);
  std::vector<uint8_t> kinds(9, WASM_I32);
  kinds.push_back(WASM_I64), kinds.push_back(WASM_I64);
  struct Inside {
    Inside() { t_inUserCopy = true; }
    ~Inside() { t_inUserCopy = false; }
  } inside;
  CallGuest("ascendc_guest_matmul_user_copy", std::move(v), kinds);
}

// Every Matmul import's first step.
void Outside() {
  if (t_inUserCopy)
    throw SimError(Status::RUNTIME_ERROR, "Matmul: called from a user copy, which runs inside the Matmul's own step");
}

template <typename T>
using GmNd = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, T>;
template <typename AT, typename CT, typename BiasT, bool kMdl>
using NativeMatmul =
    std::conditional_t<kMdl, AscendC::Matmul<GmNd<AT>, GmNd<AT>, GmNd<CT>, GmNd<BiasT>, AscendC::CFG_MDL>,
                       AscendC::Matmul<GmNd<AT>, GmNd<AT>, GmNd<CT>, GmNd<BiasT>, AscendC::CFG_NORM>>;

template <typename AT, typename CT, typename BiasT, bool kMdl>
class MatmulOf final : public MatmulObject {
 public:
  void Init(const TCubeTiling& t, const SrcLoc& loc) override { mm_.Init(&t, nullptr, loc); }
  void SetTensor(int32_t operand, uint32_t gm, int64_t size, bool trans) override {
    switch (operand) {
      case 0:
        gm_[0] = gm, inL1[0] = false;
        return mm_.SetTensorA(Global<AT>(gm, size, 1, "Matmul::SetTensorA"), trans);
      case 1:
        gm_[1] = gm, inL1[1] = false;
        return mm_.SetTensorB(Global<AT>(gm, size, 1, "Matmul::SetTensorB"), trans);
      case 2:
        if (gm == 0) return mm_.DisableBias();
        return mm_.SetBias(Global<BiasT>(gm, size, 1, "Matmul::SetBias"));
      case 3:
        return mm_.SetWorkspace(reinterpret_cast<GM_ADDR>(g_module->gm.map.Resolve(gm, 1, "Matmul::SetWorkspace")),
                                static_cast<int>(size));
    }
    throw SimError(Status::RUNTIME_ERROR, "Matmul: operand " + std::to_string(operand) + " unknown");
  }
  // The L1 tensor is held to its position's buffer (Local); the native Matmul checks it is L1.
  void SetLocal(int32_t operand, uint32_t addr, int64_t size, int32_t pos, bool trans) override {
    if (operand != 0 && operand != 1)
      throw SimError(Status::RUNTIME_ERROR, "Matmul: a local operand " + std::to_string(operand) + " unknown");
    if (size < 0 || size > UINT32_MAX)
      throw SimError(Status::RUNTIME_ERROR,
                     "Matmul::SetTensor: a LocalTensor of " + std::to_string(size) + " elements");
    const AscendC::LocalTensor<AT> l1 = Local<AT>(addr, static_cast<uint32_t>(size), pos);
    inL1[operand] = true;
    if (operand == 0) return mm_.SetTensorA(l1, trans);
    mm_.SetTensorB(l1, trans);
  }
  void SetShape(int32_t shape, int32_t m, int32_t n, int32_t ka, int32_t kb) override {
    if (shape == 0) return mm_.SetTail(m, n, ka);
    if (shape == 1) return mm_.SetOrgShape(m, n, ka, kb);
    if (shape == 2) return mm_.SetBatchNum(m, n);
    throw SimError(Status::RUNTIME_ERROR, "Matmul: shape " + std::to_string(shape) + " unknown");
  }
  void IterateAll(uint32_t gm, int64_t size, uint8_t enAtomic, const SrcLoc& loc) override {
    HoldToNdOrNz();
    mm_.IterateAll(Global<CT>(gm, size, 1, "Matmul::IterateAll"), enAtomic, false, false, false, loc);
  }
  void IterateAllLocal(uint32_t dst, int64_t size, int32_t pos, uint8_t enAtomic, const SrcLoc& loc) override {
    HoldToNdOrNz();
    mm_.template IterateAll<true>(Local<CT>(dst, static_cast<uint32_t>(size), pos), enAtomic, loc);
  }
  void IterateBatch(uint32_t gm, int64_t size, bool cube, int32_t batchA, int32_t batchB, bool sequential,
                    uint32_t strideA, uint32_t strideB, bool partialSum, uint8_t enAtomic, const SrcLoc& loc) override {
    HoldToNdOrNz();
    const AscendC::GlobalTensor<CT> c = Global<CT>(gm, size, 1, "Matmul::IterateBatch");
    if (cube) {
      return mm_.IterateBatch(c, partialSum, enAtomic, sequential, strideA, strideB, 0, loc);
    }
    if (batchA < 0 || batchB < 0)
      throw SimError(Status::RUNTIME_ERROR,
                     "Matmul::IterateBatch: batch counts " + std::to_string(batchA) + ", " + std::to_string(batchB));
    mm_.template IterateBatch<true, false>(c, static_cast<uint32_t>(batchA), static_cast<uint32_t>(batchB), sequential,
                                           strideA, strideB, 0, partialSum, enAtomic, loc);
  }
  bool Iterate(bool sync, const SrcLoc& loc) override {
    HoldToNdOrNz();
    return sync ? mm_.template Iterate<true>(false, loc) : mm_.template Iterate<false>(false, loc);
  }
  void GetC(bool sync, bool toGm, uint32_t dst, int64_t size, int32_t pos, uint8_t enAtomic, bool sequential,
            const SrcLoc& loc) override {
    auto get = [&](const auto& c) {
      if (sync)
        mm_.template GetTensorC<true>(c, enAtomic, sequential, loc);
      else
        mm_.template GetTensorC<false>(c, enAtomic, sequential, loc);
    };
    if (toGm)
      get(Global<CT>(dst, size, 1, "Matmul::GetTensorC"));
    else
      get(Local<CT>(dst, static_cast<uint32_t>(size), pos));
  }
  void SetFormats(bool nzA, bool nzB, bool nzC) override { mm_.SetFormats(nzA, nzB, nzC); }
  void SetL1Positions(bool l1A, bool l1B) override { mm_.SetL1Positions(l1A, l1B); }
  void End(const SrcLoc& loc) override { mm_.End(loc); }
  void SetHF32(bool enable, int32_t transMode, const SrcLoc& loc) override { mm_.SetHF32(enable, transMode, loc); }
  void SetUserCopy(int32_t operand, uint32_t fn) override {
    if (operand != 0 && operand != 1)
      throw SimError(Status::RUNTIME_ERROR, "Matmul: user copy of operand " + std::to_string(operand) + " unknown");
    fn_[operand] = fn;
    mm_.SetUserCopy(operand, &MatmulOf::Route, this);
  }
  void SetUserData(int32_t which, uint64_t value) override {
    if (which == 0) return mm_.SetUserDefInfo(value);
    if (which == 1) return mm_.SetSelfDefineData(value);
    throw SimError(Status::RUNTIME_ERROR, "Matmul: user data " + std::to_string(which) + " unknown");
  }

 private:
  // The operand's GM address as the kernel set it: the user function gets it as the library passes it.
  static void Route(void* self, int operand, const AscendC::LocalTensor<int8_t>& l1, int row, int col, int height,
                    int width, uint64_t tilingPtr, uint64_t dataPtr) {
    const MatmulOf& m = *static_cast<const MatmulOf*>(self);
    RunUserCopy(m.fn_[operand], l1, m.gm_[operand], row, col, height, width, tilingPtr, dataPtr);
  }
  NativeMatmul<AT, CT, BiasT, kMdl> mm_;
  uint32_t gm_[2] = {};  // A's and B's guest GM addresses (SetTensorA / B)
  uint32_t fn_[2] = {};  // their user copies in the kernel's module (table indices)
};

// f(Tag<T>) for a type among Ts, else the guest engine's "not in the API" error.
template <typename... Ts, typename F>
void Among(int32_t code, const char* api, F&& f) {
  WithType(code, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr ((std::is_same_v<T, Ts> || ...))
      f(tag);
    else
      Unsupported(api, code);
  });
}

template <typename AT, typename CT, typename BiasT>
std::unique_ptr<MatmulObject> Make(bool mdl) {
  if (mdl) return std::make_unique<MatmulOf<AT, CT, BiasT, true>>();
  return std::make_unique<MatmulOf<AT, CT, BiasT, false>>();
}

int32_t MatmulNew(const Call&, int32_t a, int32_t c, int32_t bias, int32_t flags, int32_t) {
  const int32_t mdl = flags & 1;
  Outside();
  if (t_core->matmuls.size() >= kMaxMatmuls)
    throw SimError(Status::RUNTIME_ERROR, "Matmul: more than " + std::to_string(kMaxMatmuls) + " objects on a core");
  std::unique_ptr<MatmulObject> mm;
  if (static_cast<Dtype>(a) == Dtype::kI8) {
    Among<int32_t>(c, "Matmul's C", [&](auto) {
      Among<int32_t>(bias, "Matmul's bias", [&](auto) { mm = Make<int8_t, int32_t, int32_t>(mdl != 0); });
    });
  } else {
    Among<half, bfloat16_t, float>(a, "Matmul's A", [&](auto aTag) {
      Among<half, bfloat16_t, float>(c, "Matmul's C", [&](auto cTag) {
        Among<float, half>(bias, "Matmul's bias", [&](auto biasTag) {
          mm = Make<typename decltype(aTag)::type, typename decltype(cTag)::type, typename decltype(biasTag)::type>(
              mdl != 0);
        });
      });
    });
  }
  for (int op = 0; op < 3; ++op) mm->format[op] = static_cast<CubeFormat>((flags >> (1 + 3 * op)) & 7);
  mm->SetFormats(mm->format[0] == CubeFormat::NZ, mm->format[1] == CubeFormat::NZ, mm->format[2] == CubeFormat::NZ);
  mm->SetL1Positions((flags >> 10 & 1) != 0, (flags >> 11 & 1) != 0);
  t_core->matmuls.push_back(std::move(mm));
  return static_cast<int32_t>(t_core->matmuls.size() - 1);
}

MatmulObject& Mm(int32_t id) {
  Outside();
  if (id < 0 || static_cast<size_t>(id) >= t_core->matmuls.size())
    throw SimError(Status::RUNTIME_ERROR, "Matmul: handle " + std::to_string(id) + " names no object of this core");
  return static_cast<MatmulObject&>(*t_core->matmuls[static_cast<size_t>(id)]);
}

// A mixed launch has vector cores; REGIST_MATMUL_OBJ on one of them is a client of its group's AIC.
bool Mixed() {
  for (const CoreSpec& s : LaunchSpecs())
    if (s.type == CoreType::kAiv) return true;
  return false;
}

void MatmulInit(const Call& c, int32_t id, uint32_t tiling, int32_t regist, int32_t line) {
  TCubeTiling t;
  std::memcpy(&t, c.Bytes(tiling, sizeof t, "Matmul::Init"), sizeof t);
  Mm(id).Init(t, c.Loc(line));
  if (regist && Mixed() && CurrentCore().Spec().type == CoreType::kAiv) PostToGroupAic(c.Loc(line));
}
int32_t MatmulServe(const Call&, int32_t) {
  Outside();
  Core& core = CurrentCore();
  if (core.Spec().type != CoreType::kAic || !Mixed()) return 0;
  ServeGroupAivs(core.Spec().group);
  return 1;
}
void MatmulSetTensor(const Call&, int32_t id, int32_t operand, uint32_t gm, int64_t size, int32_t trans) {
  Mm(id).SetTensor(operand, gm, size, trans != 0);
}
void MatmulSetLocal(const Call&, int32_t id, int32_t operand, uint32_t addr, int64_t size, int32_t pos, int32_t trans) {
  Mm(id).SetLocal(operand, addr, size, pos, trans != 0);
}
void MatmulSetShape(const Call&, int32_t id, int32_t shape, int32_t m, int32_t n, int32_t ka, int32_t kb) {
  Mm(id).SetShape(shape, m, n, ka, kb);
}
void MatmulIterateAllLocal(const Call& c, int32_t id, uint32_t dst, int64_t size, int32_t pos, int32_t enAtomic,
                           int32_t line) {
  Mm(id).IterateAllLocal(dst, size, pos, static_cast<uint8_t>(enAtomic), c.Loc(line));
}
void MatmulIterateBatch(const Call& c, int32_t id, uint32_t gm, int64_t size, int32_t cube, int32_t batchA,
                        int32_t batchB, int32_t sequential, int64_t strideA, int64_t strideB, int32_t partialSum,
                        int32_t enAtomic, int32_t line) {
  Mm(id).IterateBatch(gm, size, cube != 0, batchA, batchB, sequential != 0, static_cast<uint32_t>(strideA),
                      static_cast<uint32_t>(strideB), partialSum != 0, static_cast<uint8_t>(enAtomic), c.Loc(line));
}
void MatmulIterateAll(const Call& c, int32_t id, uint32_t gm, int64_t size, int32_t enAtomic, int32_t line) {
  Mm(id).IterateAll(gm, size, static_cast<uint8_t>(enAtomic), c.Loc(line));
}
int32_t MatmulIterate(const Call& c, int32_t id, int32_t sync, int32_t line) {
  return Mm(id).Iterate(sync != 0, c.Loc(line)) ? 1 : 0;
}
void MatmulGetC(const Call& c, int32_t id, int32_t sync, int32_t toGm, uint32_t dst, int64_t size, int32_t pos,
                int32_t enAtomic, int32_t sequential, int32_t line) {
  Mm(id).GetC(sync != 0, toGm != 0, dst, size, pos, static_cast<uint8_t>(enAtomic), sequential != 0, c.Loc(line));
}
void MatmulEnd(const Call& c, int32_t id, int32_t line) { Mm(id).End(c.Loc(line)); }
void MatmulSetHf32(const Call& c, int32_t id, int32_t enable, int32_t transMode, int32_t line) {
  Mm(id).SetHF32(enable != 0, transMode, c.Loc(line));
}
void MatmulUserCopy(const Call&, int32_t id, int32_t operand, uint32_t fn) { Mm(id).SetUserCopy(operand, fn); }
void MatmulUserData(const Call&, int32_t id, int32_t which, int64_t value) {
  Mm(id).SetUserData(which, static_cast<uint64_t>(value));
}

}  // namespace

void DefineMatmulImports(wasmtime_linker_t* l) {
  Import<MatmulNew>::Define(l, "matmul_new");
  Import<MatmulInit>::Define(l, "matmul_init");
  Import<MatmulServe>::Define(l, "matmul_serve");
  Import<MatmulSetTensor>::Define(l, "matmul_set_tensor");
  Import<MatmulSetLocal>::Define(l, "matmul_set_local");
  Import<MatmulSetShape>::Define(l, "matmul_set_shape");
  Import<MatmulIterateAll>::Define(l, "matmul_iterate_all");
  Import<MatmulIterate>::Define(l, "matmul_iterate");
  Import<MatmulIterateBatch>::Define(l, "matmul_iterate_batch");
  Import<MatmulIterateAllLocal>::Define(l, "matmul_iterate_all_local");
  Import<MatmulGetC>::Define(l, "matmul_get_c");
  Import<MatmulEnd>::Define(l, "matmul_end");
  Import<MatmulSetHf32>::Define(l, "matmul_set_hf32");
  Import<MatmulUserCopy>::Define(l, "matmul_user_copy");
  Import<MatmulUserData>::Define(l, "matmul_user_data");
}

}  // namespace ascendc_sim::guest
