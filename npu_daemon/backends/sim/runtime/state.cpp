// Process-wide state of one launch: SoC parameters, tiling key, workspace, GM buffers, op registry.
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
};
std::map<uintptr_t, GmBuf>& GmBuffers() {
  static std::map<uintptr_t, GmBuf> buffers;
  return buffers;
}
std::vector<ops::OpDef*>& Ops() {
  static std::vector<ops::OpDef*> defs;
  return defs;
}
const std::string& Param(const char* key) {
  auto it = Params().find(key);
  if (it == Params().end()) throw SimError(Status::RUNTIME_ERROR, std::string("SoC parameter '") + key + "' is not defined");
  return it->second;
}
}  // namespace

void SetSocParams(std::unordered_map<std::string, std::string> params) { Params() = std::move(params); }
int64_t SocParamInt(const char* key) { return std::stoll(Param(key)); }
double SocParamDouble(const char* key) { return std::stod(Param(key)); }
const char* SocParamStr(const char* key) { return Param(key).c_str(); }

void SetTilingKey(uint64_t key) { g_tilingKey = key; }
uint64_t TilingKey() { return g_tilingKey; }
void SetSysWorkspace(uint8_t* ws) { g_sysWorkspace = ws; }
uint8_t* SysWorkspace() { return g_sysWorkspace; }

void RegisterGm(const void* base, uint64_t bytes, const std::string& name) {
  GmBuffers()[reinterpret_cast<uintptr_t>(base)] = GmBuf{bytes, name};
}
bool GmRangeValid(const void* p, uint64_t bytes) {
  const auto addr = reinterpret_cast<uintptr_t>(p);
  auto it = GmBuffers().upper_bound(addr);
  if (it == GmBuffers().begin()) return false;
  --it;
  return addr + bytes <= it->first + it->second.bytes;
}
std::string DescribeGm(uint64_t addr) {
  auto it = GmBuffers().upper_bound(addr);
  if (it == GmBuffers().begin()) return "GM address " + std::to_string(addr);
  --it;
  return (it->second.name.empty() ? std::string("GM buffer") : it->second.name) + "+" + std::to_string(addr - it->first);
}

const std::vector<ops::OpDef*>& RegisteredOps() { return Ops(); }

}  // namespace ascendc_sim

namespace ops {
void RegisterOpDef(OpDef* def) { ascendc_sim::Ops().push_back(def); }
}  // namespace ops
