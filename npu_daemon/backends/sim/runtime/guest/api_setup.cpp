// The guest engine's set-up imports (ascendc_guest/setup.h): the launch's parameter block
// (get_para_base: the arguments the launch passed the guest's entry, each a GM address of the
// guest's at its pointer width, then the tiling data, written into the kernel's own memory), the
// core's control state (InitSocState), and a LocalTensor at a fixed address of a position's buffer,
// checked by the native constructor.
#include "import.h"

namespace ascendc_sim::guest {
namespace {

uint32_t ParaBlock(const Call& c, uint32_t dst, uint32_t capacity) {
  const LaunchGm& l = g_module->gm;
  const uint64_t words = l.params.size() * sizeof(uint32_t), bytes = words + l.tilingBytes;
  if (capacity >= bytes) {
    uint8_t* out = c.Bytes(dst, bytes, "get_para_base");
    std::memcpy(out, l.params.data(), words);
    std::memcpy(out + words, l.tilingData, l.tilingBytes);
    Core& core = CurrentCore();  // the native kernel's loads of the block, as TilingCopy charges them
    core.Scalar(core.ScalarGmWordsCost(l.paramsAt, bytes));
  }
  return static_cast<uint32_t>(bytes);
}

void InitSoc(const Call&) { AscendC::InitSocState(); }

// The tensor's address in the core's local space (the position's base plus `addr`).
uint32_t LocalAt(const Call& c, int32_t t, int32_t pos, uint32_t addr, uint32_t size, int32_t line) {
  return WithTypeOrFp8(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return AscendC::LocalTensor<T>(Position(pos), addr, size, c.Loc(line)).UbAddr();
  });
}

}  // namespace

void DefineSetupImports(wasmtime_linker_t* l) {
  Import<ParaBlock>::Define(l, "para_block");
  Import<InitSoc>::Define(l, "init_soc_state");
  Import<LocalAt>::Define(l, "local_at");
}

}  // namespace ascendc_sim::guest
