// Process-wide state of one launch: SoC parameters, tiling key, workspace, GM buffers, op registry.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <string>

#include "ascendc_sim/runtime.h"
#include "register/op_def_registry.h"

namespace ascendc_sim {

namespace {
std::unordered_map<std::string, std::string>& Params() {
  static std::unordered_map<std::string, std::string> params;
  return params;
}
uint64_t g_tilingKey = 0;
uint8_t* g_sysWorkspace = nullptr;
struct GmBuf {
  uint64_t bytes;
  std::string name;
  intptr_t toHost;  // host address - kernel address (0: unguarded)
  uint64_t mapped;  // bytes of the guard mapping
};
std::map<uintptr_t, GmBuf>& GmBuffers() {
  static std::map<uintptr_t, GmBuf> buffers;
  return buffers;
}
std::vector<ops::OpDef*>& Ops() {
  static std::vector<ops::OpDef*> defs;
  return defs;
}
std::map<std::string, gert::OpImplTiling>& Impls() {
  static std::map<std::string, gert::OpImplTiling> impls;
  return impls;
}
const std::string& Param(const char* key) {
  auto it = Params().find(key);
  if (it == Params().end()) throw SimError(Status::RUNTIME_ERROR, std::string("SoC parameter '") + key + "' is not defined");
  return it->second;
}
}  // namespace

void SetSocParams(std::unordered_map<std::string, std::string> params) { Params() = std::move(params); }
int64_t SocParamInt(const char* key) { return std::stoll(Param(key)); }
bool SimStrict() {
  auto it = Params().find("sim_strict");
  return it != Params().end() && it->second == "1";
}
double SocParamDouble(const char* key) { return std::stod(Param(key)); }
const char* SocParamStr(const char* key) { return Param(key).c_str(); }

void SetTilingKey(uint64_t key) { g_tilingKey = key; }
uint64_t TilingKey() { return g_tilingKey; }
void SetSysWorkspace(uint8_t* ws) { g_sysWorkspace = ws; }
uint8_t* SysWorkspace() { return g_sysWorkspace; }

GuardedMemory::GuardedMemory(uint64_t n, const char* name, bool guarded, int file, uint64_t fileBytes) : bytes(n) {
  const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  mapped = std::max<uint64_t>((n + page - 1) / page * page, page);
  const auto fail = [&] {
    throw SimError(Status::RUNTIME_ERROR, "cannot map " + std::to_string(n) + " bytes of device memory for " + name);
  };
  if (file >= 0) {
    // Anonymous zero pages, the file's pages over their start (a page past its end would SIGBUS).
    const uint64_t filePages = std::min(mapped, (fileBytes + page - 1) / page * page);
    auto view = [&](int prot) {
      void* v = mmap(nullptr, mapped, prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (v == MAP_FAILED || (filePages > 0 && mmap(v, filePages, prot, MAP_PRIVATE | MAP_FIXED, file, 0) == MAP_FAILED)) fail();
      return static_cast<uint8_t*>(v);
    };
    host = view(PROT_READ | PROT_WRITE);
    guard = guarded ? view(PROT_NONE) : host;
    return;
  }
  // Shared anonymous pages; mremap with old size 0 maps the same pages a second time (no file, so
  // the sandbox's RLIMIT_FSIZE does not apply).
  void* h = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  void* g = h == MAP_FAILED || !guarded ? h : mremap(h, 0, mapped, MREMAP_MAYMOVE);
  if (h == MAP_FAILED || g == MAP_FAILED || (guarded && mprotect(g, mapped, PROT_NONE) != 0)) fail();
  host = static_cast<uint8_t*>(h);
  guard = static_cast<uint8_t*>(g);
}

GuardedMemory::~GuardedMemory() {
  if (guard != host) munmap(guard, mapped);
  munmap(host, mapped);
}

void RegisterGm(const void* base, uint64_t bytes, const std::string& name, const void* host, uint64_t mapped) {
  const auto b = reinterpret_cast<uintptr_t>(base);
  GmBuffers()[b] = GmBuf{bytes, name, host ? static_cast<intptr_t>(reinterpret_cast<uintptr_t>(host) - b) : 0, host ? mapped : 0};
}
uint8_t* GmHost(const void* p) {
  const auto addr = reinterpret_cast<uintptr_t>(p);
  auto it = GmBuffers().upper_bound(addr);
  if (it == GmBuffers().begin()) return static_cast<uint8_t*>(const_cast<void*>(p));
  --it;
  return reinterpret_cast<uint8_t*>(addr < it->first + it->second.mapped ? addr + it->second.toHost : addr);
}
bool InGuardedGm(uintptr_t addr) {
  auto it = GmBuffers().upper_bound(addr);
  if (it == GmBuffers().begin()) return false;
  --it;
  return addr < it->first + it->second.mapped;
}
bool GmRangeValid(const void* p, uint64_t bytes) {
  const auto addr = reinterpret_cast<uintptr_t>(p);
  auto it = GmBuffers().upper_bound(addr);
  if (it == GmBuffers().begin()) return false;
  --it;
  return addr + bytes <= it->first + it->second.bytes;
}
bool GmRangeReadable(const void* p, uint64_t bytes) {
  const auto addr = reinterpret_cast<uintptr_t>(p);
  auto it = GmBuffers().upper_bound(addr);
  if (it == GmBuffers().begin()) return false;
  --it;
  return addr + bytes <= it->first + std::max(it->second.bytes, it->second.mapped);
}
std::string DescribeGm(uint64_t addr) {
  auto it = GmBuffers().upper_bound(addr);
  if (it == GmBuffers().begin()) return "GM address " + std::to_string(addr);
  --it;
  return (it->second.name.empty() ? std::string("GM buffer") : it->second.name) + "+" + std::to_string(addr - it->first);
}

const std::vector<ops::OpDef*>& RegisteredOps() { return Ops(); }
const gert::OpImplTiling* RegisteredImpl(const std::string& type) {
  auto it = Impls().find(type);
  return it == Impls().end() ? nullptr : &it->second;
}

}  // namespace ascendc_sim

namespace ops {
void RegisterOpDef(OpDef* def) { ascendc_sim::Ops().push_back(def); }

// Out of line so a tiling compile does not instantiate the containers (op_def_registry.h).
OpParamDef::OpParamDef(std::string name) : name_(std::move(name)) {}
OpParamDef& OpParamDef::DataType(std::vector<ge::DataType> t) { dtypes_ = std::move(t); return *this; }
OpParamDef& OpParamDef::DataTypeList(std::vector<ge::DataType> t) { dtypes_ = std::move(t); return *this; }
OpAttrDef::OpAttrDef(std::string name) : name_(std::move(name)) {}
OpParamDef& OpAICoreConfig::Input(const char* name) { inputs_.emplace_back(name); return inputs_.back(); }
OpParamDef& OpAICoreConfig::Output(const char* name) { outputs_.emplace_back(name); return outputs_.back(); }
OpAICoreDef& OpAICoreDef::AddConfig(const char* soc) { socs_.emplace_back(soc); return *this; }
OpAICoreDef& OpAICoreDef::AddConfig(const char* soc, const OpAICoreConfig&) { socs_.emplace_back(soc); return *this; }
OpDef::OpDef(const char* type) : type_(type) {}
OpDef::~OpDef() = default;
OpParamDef& OpDef::Input(const char* name) { inputs_.emplace_back(name); return inputs_.back(); }
OpParamDef& OpDef::Output(const char* name) { outputs_.emplace_back(name); return outputs_.back(); }
OpAttrDef& OpDef::Attr(const char* name) { attrs_.emplace_back(name); return attrs_.back(); }
}  // namespace ops

namespace gert {
void RegisterOpImpl(const char* type, const OpImplTiling& impl) { ascendc_sim::Impls()[type] = impl; }
}  // namespace gert
