// The guest engine's host side: the wasmtime store per core, the metering, and the imports of
// module "ascendc", each run by the emulation on memory the guest cannot address (guest.h).
#include "guest.h"

#include <cstring>
#include <fstream>
#include <iterator>
#include <utility>

#include "import.h"

namespace ascendc_sim::guest {

using ascendc_guest::kGmBase;
using ascendc_guest::kGmDataBase;
using ascendc_guest::kGmDataHead;

uint32_t GmMap::Add(uint8_t* kernel, uint64_t bytes, uint64_t mapped) {
  const uint64_t at = kGmBase + next_;
  // A page apart, an empty buffer too: a stray offset (or any offset of an empty tensor) lands in
  // no other buffer.
  const uint64_t span = std::max<uint64_t>({(bytes + 4095) / 4096 * 4096, mapped, 4096});
  if (at + span > kGmDataBase)
    throw SimError(Status::RUNTIME_ERROR, "the launch's GM exceeds the guest engine's 1,984 MiB of GM addresses");
  ranges_.push_back({static_cast<uint32_t>(at), bytes == 0 ? 0 : mapped, kernel});
  next_ += span;
  return static_cast<uint32_t>(at);
}

void GmMap::AddData(uint8_t* kernel, uint64_t bytes, uint64_t mapped) {
  // Below the guest's memory (64 MiB), so within the range above kGmDataBase.
  ranges_.push_back({kGmDataBase, bytes == 0 ? 0 : std::min<uint64_t>(mapped, 0x100000000ull - kGmDataBase), kernel});
}

uint8_t* GmMap::Resolve(uint32_t addr, uint64_t bytes, const char* api) const {
  for (const Range& r : ranges_)
    if (addr >= r.guest && static_cast<uint64_t>(addr) - r.guest + bytes <= r.reach) return r.kernel + (addr - r.guest);
  char where[64];
  std::snprintf(where, sizeof where, "GM address 0x%x (+%llu B)", addr, static_cast<unsigned long long>(bytes));
  throw SimError(Status::RUNTIME_ERROR, std::string(api) + ": " + where + " is in no GM buffer of the launch");
}

namespace {

constexpr uint64_t kFuel = 1ull << 62;
// The module's declared maximum (guest_build.GUEST_MEMORY_BYTES), below kGmBase: a GM address
// never names guest memory.
constexpr int64_t kGuestMemoryBytes = 64ll << 20;
static_assert(kGuestMemoryBytes <= ascendc_guest::kUbBase, "a __ubuf__ pointer must lie past the guest's memory");

constexpr char kOutOfBounds[] =
    " (a load or store outside the kernel's own memory: a GM or UB address reaches tensor memory only through a "
    "__gm__ / __ubuf__ pointer or the API, not cast to a plain pointer)";

// The unchecked call reads the function's parameters from `n` slots and writes its results there:
// an export declaring more than the launch passes (or a reference) would have it read past them.
bool Fits(wasmtime_context_t* cx, const wasmtime_func_t& fn, size_t n) {
  wasm_functype_t* ty = wasmtime_func_type(cx, &fn);
  const wasm_valtype_vec_t* params = wasm_functype_params(ty);
  bool fits = params->size <= n && wasm_functype_results(ty)->size <= n;
  for (size_t i = 0; i < params->size; ++i) fits = fits && wasm_valtype_kind(params->data[i]) <= WASM_F64;
  wasm_functype_delete(ty);
  return fits;
}

// A trap's reason without its wasm backtrace: which function called which, how deep, is the
// kernel's to shape, so the frames could spell whatever it read of the case's data.
std::string Reason(const std::string& what) {
  const size_t cause = what.rfind("Caused by:");
  std::string r = cause != std::string::npos ? what.substr(cause + 10) : what.substr(0, what.find("wasm backtrace:"));
  r.erase(0, r.find_first_not_of(" \n"));
  return r;
}

std::string Take(wasm_byte_vec_t& v) {
  std::string s(v.data, v.size);
  wasm_byte_vec_delete(&v);
  while (!s.empty() && (s.back() == '\0' || s.back() == '\n')) s.pop_back();  // a trap message ends in "\n\0"
  return s;
}

// Runs a function of the core's module: the fuel it burnt charged, an emulation error an import of
// it raised thrown again here, a trap the emulation's RUNTIME_ERROR.
void Invoke(GuestCore& core, const wasmtime_func_t& fn, std::vector<wasmtime_val_raw_t>& values, const char* what) {
  wasm_trap_t* trap = nullptr;
  wasmtime_error_t* error = wasmtime_func_call_unchecked(core.cx, &fn, values.data(), values.size(), &trap);
  Meter(0);
  if (core.failure) std::rethrow_exception(std::exchange(core.failure, nullptr));
  Check(error, what);
  if (trap != nullptr) {
    wasm_byte_vec_t msg;
    wasm_trap_message(trap, &msg);
    wasm_trap_delete(trap);
    std::string why = Reason(Take(msg));
    if (why.find("out of bounds memory access") != std::string::npos) why += kOutOfBounds;
    throw SimError(Status::RUNTIME_ERROR, "the kernel trapped: " + why);
  }
}

void DefineImports(wasmtime_linker_t* l) {
  DefineCoreImports(l);
  DefineDataImports(l);
  DefineVectorImports(l);
  DefineAdvImports(l);
  DefineAdvSoftmaxFlashImports(l);
  DefineAdvQuantImports(l);
  DefineAdvNormImports(l);
  DefineVecCoreImports(l);
  DefineCubeImports(l);
  DefineMatmulImports(l);
  DefineVecFamilyImports(l);
  DefineRawImports(l);
  DefineCceImports(l);
  DefineCceCubeImports(l);
  DefineSliceImports(l);
  DefineSetupImports(l);
  DefineInt4Imports(l);
  DefineFp8Imports(l);
}

}  // namespace

thread_local GuestCore* t_core = nullptr;
Module::Impl* g_module = nullptr;

void Check(wasmtime_error_t* e, const char* what) {
  if (e == nullptr) return;
  wasm_byte_vec_t m;
  wasmtime_error_message(e, &m);
  wasmtime_error_delete(e);
  throw SimError(Status::RUNTIME_ERROR, std::string(what) + ": " + Take(m));
}

// The core's next trace record settles the charged fuel as scalar work before it, at
// guest_fuel_cycles per unit (Core::SettleScalarInstrs; RunGuest hands the core this counter).
void Meter(uint64_t args) {
  uint64_t left = 0;
  Check(wasmtime_context_get_fuel(t_core->cx, &left), "fuel");
  const uint64_t used = kFuel - left, burnt = used - t_core->used;
  g_module->scalar += burnt - std::min(burnt, args);
  t_core->used = used;
}

namespace {

// The engine every module is compiled and run with (a precompiled module runs only with the
// configuration it was compiled under: wasmtime checks it).
wasm_engine_t* NewEngine() {
  wasm_config_t* config = wasm_config_new();
  wasmtime_config_consume_fuel_set(config, true);
  wasmtime_config_parallel_compilation_set(config, false);  // no compiler threads in a confined process
  // Explicit bounds checks instead of signal handlers: the emulation owns SIGSEGV (raw_access.cpp).
  wasmtime_config_signals_based_traps_set(config, false);
  // A module's data is copied into its memory, not mapped copy-on-write from a memfd: the
  // harness's syscall filter allows no memfd_create (a large static array asks for one).
  wasmtime_config_memory_init_cow_set(config, false);
  // With those checks a memory needs no 4 GiB reservation and guard: each core's is a mapping of
  // the module's maximum, so `memory.grow` never moves it. A memory that outgrew its mapping was
  // copied whole into a larger one: a page at a time up to 1 GiB copied 32 GiB, tens of seconds
  // of the host's CPU for 16,000 instructions of fuel. A mixed launch holds every core's at once
  // within the harness's address-space limit. A mapping, not 0 (a heap block wasmtime zeroes
  // whole): its pages are zeroed when first touched, and a kernel touches little of its stack.
  wasmtime_config_memory_reservation_set(config, kGuestMemoryBytes);
  wasmtime_config_memory_reservation_for_growth_set(config, 0);
  wasmtime_config_memory_guard_size_set(config, 0);
  // No lanes: a v128 instruction does 4 to 16 elements' work for one unit of fuel, where the
  // device's scalar unit does one (its vector work goes through the API); such a module does not compile.
  wasmtime_config_wasm_simd_set(config, false);
  wasmtime_config_wasm_relaxed_simd_set(config, false);
  return wasm_engine_new_with_config(config);
}

std::vector<uint8_t> ReadFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

}  // namespace

void Precompile(const std::string& wasmPath, const std::string& outPath) {
  const std::vector<uint8_t> bytes = ReadFile(wasmPath);
  if (bytes.empty()) throw SimError(Status::RUNTIME_ERROR, "cannot read the kernel module " + wasmPath);
  wasm_engine_t* engine = NewEngine();
  wasmtime_module_t* module = nullptr;
  Check(wasmtime_module_new(engine, bytes.data(), bytes.size(), &module), "compiling the kernel module");
  wasm_byte_vec_t out;
  Check(wasmtime_module_serialize(module, &out), "serializing the kernel module");
  // A write that fails (a read-only link of that name, a full disk) must fail the step: whatever
  // is left at the path would be taken for the machine code wasmtime loads without checking it.
  std::ofstream file(outPath, std::ios::binary | std::ios::trunc);
  file.write(reinterpret_cast<const char*>(out.data), static_cast<std::streamsize>(out.size));
  file.close();
  const bool written = static_cast<bool>(file);
  wasm_byte_vec_delete(&out);
  wasmtime_module_delete(module);
  wasm_engine_delete(engine);
  if (!written) throw SimError(Status::RUNTIME_ERROR, "cannot write the precompiled module " + outPath);
}

namespace {

// Precompile's output at build time (the daemon's object cache): no launch compiles a module.
wasmtime_module_t* LoadModule(wasm_engine_t* engine, const std::string& path) {
  const std::vector<uint8_t> bytes = ReadFile(path);
  if (bytes.empty()) throw SimError(Status::RUNTIME_ERROR, "cannot read the kernel module " + path);
  wasmtime_module_t* module = nullptr;
  Check(wasmtime_module_deserialize(engine, bytes.data(), bytes.size(), &module), "loading the kernel module");
  return module;
}

}  // namespace

Module::Module(const std::string& wasmPath, const std::string& aicWasmPath, const std::string& entry,
               const std::string& kernelFile, LaunchGm gm)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.entry = entry;
  m.kernelFile = kernelFile;
  m.gm = std::move(gm);
  m.engine = NewEngine();
  m.module = LoadModule(m.engine, wasmPath);
  if (!aicWasmPath.empty()) m.aicModule = LoadModule(m.engine, aicWasmPath);
  m.linker = wasmtime_linker_new(m.engine);
  DefineImports(m.linker);
  g_module = &m;
}

Module::~Module() { g_module = nullptr; }

namespace {

// The image `module` initialises its memory with at the export guest_ir.GM_DATA names, read from a
// fresh instance of it. Instantiating consumes fuel, a unit per byte of data it initialises, so the
// instance gets as much as the largest memory's worth: a start function (our link emits none)
// could run that far on its own memory, and an API call of its traps (Import::Callback: no core
// runs). The image's bounds are checked against that memory, so the guest chooses only bytes of its
// own.
std::vector<uint8_t> ReadGmData(wasm_engine_t* engine, wasmtime_linker_t* linker, wasmtime_module_t* module) {
  wasmtime_store_t* store = wasmtime_store_new(engine, nullptr, nullptr);
  struct Free {
    wasmtime_store_t* s;
    ~Free() { wasmtime_store_delete(s); }
  } free{store};
  wasmtime_store_limiter(store, kGuestMemoryBytes, -1, -1, -1, -1);
  wasmtime_context_t* cx = wasmtime_store_context(store);
  constexpr uint64_t kInitFuel = kGuestMemoryBytes + (1 << 16);
  Check(wasmtime_context_set_fuel(cx, kInitFuel), "fuel");
  wasmtime_instance_t instance;
  wasm_trap_t* trap = nullptr;
  Check(wasmtime_linker_instantiate(linker, cx, module, &instance, &trap), "instantiating the kernel");
  if (trap != nullptr) {
    wasm_byte_vec_t m;
    wasm_trap_message(trap, &m);
    wasm_trap_delete(trap);
    throw SimError(Status::RUNTIME_ERROR, "instantiating the kernel for its GM data: " + Reason(Take(m)));
  }
  wasmtime_extern_t at, memory;
  static constexpr char kName[] = "__ascendc_gm_data";
  if (!wasmtime_instance_export_get(cx, &instance, kName, sizeof kName - 1, &at)) return {};
  if (at.kind != WASMTIME_EXTERN_GLOBAL || !wasmtime_instance_export_get(cx, &instance, "memory", 6, &memory) ||
      memory.kind != WASMTIME_EXTERN_MEMORY)
    throw SimError(Status::RUNTIME_ERROR, "the kernel module's GM data export is not an address in its memory");
  wasmtime_val_t addr;
  wasmtime_global_get(cx, &at.of.global, &addr);
  const uint8_t* data = wasmtime_memory_data(cx, &memory.of.memory);
  const uint64_t size = wasmtime_memory_data_size(cx, &memory.of.memory);
  const uint64_t head = addr.kind == WASMTIME_I32 ? static_cast<uint32_t>(addr.of.i32) : size;
  uint32_t bytes = 0;
  if (head + kGmDataHead <= size) std::memcpy(&bytes, data + head, sizeof bytes);
  if (head + kGmDataHead + bytes > size)
    throw SimError(Status::RUNTIME_ERROR, "the kernel module's GM data lies outside its memory");
  return {data + head + kGmDataHead, data + head + kGmDataHead + bytes};
}

}  // namespace

void CallGuest(const char* name, std::vector<wasmtime_val_raw_t> values, const std::vector<uint8_t>& kinds) {
  GuestCore& core = *t_core;
  wasmtime_extern_t fn;
  if (!wasmtime_instance_export_get(core.cx, &core.instance, name, std::strlen(name), &fn) ||
      fn.kind != WASMTIME_EXTERN_FUNC)
    throw SimError(Status::RUNTIME_ERROR, std::string("the kernel's module exports no ") + name);
  // Exactly these parameters and no result: the unchecked call reads and writes only these slots.
  wasm_functype_t* ty = wasmtime_func_type(core.cx, &fn.of.func);
  const wasm_valtype_vec_t* params = wasm_functype_params(ty);
  bool same = params->size == kinds.size() && values.size() == kinds.size() && wasm_functype_results(ty)->size == 0;
  for (size_t i = 0; same && i < kinds.size(); ++i) same = wasm_valtype_kind(params->data[i]) == kinds[i];
  wasm_functype_delete(ty);
  if (!same) throw SimError(Status::RUNTIME_ERROR, std::string("the kernel's ") + name + " is not the API's");
  Invoke(core, fn.of.func, values, name);
}

std::vector<uint8_t> Module::GmData() const {
  const Impl& m = *impl_;
  std::vector<uint8_t> data = ReadGmData(m.engine, m.linker, m.module);
  // A kernel built per core type has one GM: both builds must load the same image into it.
  if (m.aicModule != nullptr && ReadGmData(m.engine, m.linker, m.aicModule) != data)
    throw SimError(Status::RUNTIME_ERROR, "the kernel's AIC and AIV builds declare different __gm__ data");
  return data;
}

void Module::MapGmData(uint8_t* kernel, uint64_t bytes, uint64_t mapped) {
  impl_->gm.map.AddData(kernel, bytes, mapped);
}

const uint64_t* Module::ScalarCounter() const { return &impl_->scalar; }

void Module::Run(const std::vector<uint32_t>& args) {
  Impl& m = *impl_;
  GuestCore core;
  core.store = wasmtime_store_new(m.engine, nullptr, nullptr);
  wasmtime_store_limiter(core.store, kGuestMemoryBytes, -1, -1, -1, -1);
  core.cx = wasmtime_store_context(core.store);
  Check(wasmtime_context_set_fuel(core.cx, kFuel), "fuel");
  t_core = &core;
  struct Reset {
    ~Reset() { t_core = nullptr; }
  } reset;
  wasmtime_instance_t instance;
  wasm_trap_t* trap = nullptr;
  // The core's type as the launcher started it (LaunchCores) picks its build: nothing the kernel writes.
  const bool aic = m.aicModule != nullptr && CurrentCore().Spec().type == CoreType::kAic;
  Check(wasmtime_linker_instantiate(m.linker, core.cx, aic ? m.aicModule : m.module, &instance, &trap),
        "instantiating the kernel");
  // Instantiating burns a unit of fuel per byte of the module's data it copies into the memory:
  // the binary's load (its __gm__ image, libc's tables), done before the device starts the kernel,
  // not the kernel's scalar work. The count starts after it. Our link emits no start function, the
  // only guest code an instantiation could run.
  uint64_t left = 0;
  Check(wasmtime_context_get_fuel(core.cx, &left), "fuel");
  core.used = kFuel - left;
  core.instance = instance;  // for the host's calls into the kernel (CallGuest)
  auto call = [&](const char* name, std::vector<wasmtime_val_raw_t> values) {
    wasmtime_extern_t fn;
    if (!wasmtime_instance_export_get(core.cx, &instance, name, std::strlen(name), &fn) ||
        fn.kind != WASMTIME_EXTERN_FUNC)
      return false;
    if (values.empty()) values.resize(1);
    if (!Fits(core.cx, fn.of.func, values.size()))
      throw SimError(Status::RUNTIME_ERROR,
                     std::string("the kernel's ") + name + " takes other parameters than the launch's GM addresses");
    Invoke(core, fn.of.func, values, "running the kernel");
    return true;
  };
  wasmtime_extern_t memory;
  if (!wasmtime_instance_export_get(core.cx, &instance, "memory", 6, &memory) || memory.kind != WASMTIME_EXTERN_MEMORY)
    throw SimError(Status::RUNTIME_ERROR, "the kernel module exports no memory");
  core.memory = memory.of.memory;
  call("__wasm_call_ctors", {});
  std::vector<wasmtime_val_raw_t> values(args.size());
  for (size_t i = 0; i < args.size(); ++i) values[i].i32 = static_cast<int32_t>(args[i]);
  if (!call(m.entry.c_str(), values))
    throw SimError(Status::RUNTIME_ERROR, "kernel entry '" + m.entry + "' not found (extern \"C\" missing?)");
}

}  // namespace ascendc_sim::guest
