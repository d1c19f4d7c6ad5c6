// The host side of a launch, shared by both backends' tiling runs: the SoC parameters of the
// request, and the registries a tiling program fills at static initialisation (OpDef by
// OP_ADD, IMPL_OP_OPTILING by op type). Built into libascendc_sim (backends/common/build.py), which
// the sim harness and the cann tiling runner both load with the candidate's tiling.so.
#include <algorithm>
#include <cstring>
#include <map>
#include <string>
#include <unordered_map>

#include "acl/acl_rt.h"
#include "ascendc_sim/runtime.h"
#include "ascendc/host_api/tiling/template_argument.h"
#include "register/op_def_registry.h"
#include "register/tilingdata_base.h"

namespace ascendc_sim {

namespace {
std::unordered_map<std::string, std::string>& Params() {
  static std::unordered_map<std::string, std::string> params;
  return params;
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
  if (it == Params().end())
    throw SimError(Status::RUNTIME_ERROR, std::string("SoC parameter '") + key + "' is not defined");
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
// A host API the simulation does not provide, refused where a tiling calls it.
[[noreturn]] void TilingError(const std::string& message) { throw SimError(Status::TILING_ERROR, message); }

namespace {
struct TilingDataPtr {
  const uint8_t* object;
  size_t bytes;
  uint8_t* data;
};
std::vector<TilingDataPtr>& TilingDataPtrs() {
  static std::vector<TilingDataPtr> ptrs;
  return ptrs;
}
}  // namespace

void SetTilingDataPtr(const void* object, size_t bytes, void* data) {
  auto& ptrs = TilingDataPtrs();
  const auto* o = static_cast<const uint8_t*>(object);
  ptrs.erase(std::remove_if(ptrs.begin(), ptrs.end(),
                            [&](const TilingDataPtr& p) { return p.object < o + bytes && o < p.object + p.bytes; }),
             ptrs.end());
  if (data != nullptr) ptrs.push_back({o, bytes, static_cast<uint8_t*>(data)});
}
void MirrorTilingField(const void* field, size_t bytes) {
  const auto* f = static_cast<const uint8_t*>(field);
  for (const TilingDataPtr& p : TilingDataPtrs())
    if (f >= p.object && f + bytes <= p.object + p.bytes) {
      std::memcpy(p.data + (f - p.object), f, bytes);
      return;
    }
}

const std::vector<ops::OpDef*>& RegisteredOps() { return Ops(); }
const gert::OpImplTiling* RegisteredImpl(const std::string& type) {
  auto it = Impls().find(type);
  return it == Impls().end() ? nullptr : &it->second;
}

}  // namespace ascendc_sim

namespace fe {
namespace {
// The platform description's labels and keys (the SoC's ini file) the A2 preset answers, each a
// preset parameter or a fact of the A2 (the architecture the simulator models).
const std::map<std::string, std::map<std::string, std::string>>& PlatformKeys() {
  static const std::map<std::string, std::map<std::string, std::string>> keys = {
      {"SoCInfo",
       {{"ai_core_cnt", "aic_cores"},
        {"cube_core_cnt", "aic_cores"},
        {"vector_core_cnt", "aiv_cores"},
        {"l2_size", "l2_bytes"},
        {"memory_size", "hbm_bytes"}}},
      {"AICoreSpec",
       {{"ub_size", "ub_bytes"},
        {"l1_size", "l1_bytes"},
        {"l0_a_size", "l0ab_bytes"},
        {"l0_b_size", "l0ab_bytes"},
        {"l0_c_size", "l0c_bytes"},
        {"fb0_size", "fb_bytes"},
        {"bt_size", "bt_bytes"}}},
  };
  return keys;
}
const std::map<std::string, std::map<std::string, std::string>>& PlatformFacts() {
  static const std::map<std::string, std::map<std::string, std::string>> facts = {
      {"SoCInfo", {{"core_type_list", "AiCore,VectorCore"}}},
      {"version", {{"Short_SoC_version", "Ascend910B"}, {"NpuArch", "2201"}}},
  };
  return facts;
}
}  // namespace

bool PlatFormInfos::GetPlatformRes(const std::string& label, const std::string& key, std::string& val) const {
  std::map<std::string, std::string> all;
  if (!GetPlatformRes(label, all) || all.count(key) == 0) return false;
  val = all[key];
  return true;
}

bool PlatFormInfos::GetPlatformRes(const std::string& label, std::map<std::string, std::string>& res) const {
  bool found = false;
  if (auto it = PlatformKeys().find(label); it != PlatformKeys().end()) {
    for (const auto& [key, param] : it->second) res[key] = std::to_string(ascendc_sim::SocParamInt(param.c_str()));
    found = true;
  }
  if (auto it = PlatformFacts().find(label); it != PlatformFacts().end()) {
    for (const auto& [key, value] : it->second) res[key] = value;
    found = true;
  }
  return found;
}
}  // namespace fe

// The ACL runtime's queries a tiling makes (acl/acl_rt.h): the simulation installs no CANN
// package, so none has a version.
extern "C" aclError aclsysGetVersionNum(char* pkgName, int32_t* versionNum) {
  (void)pkgName;
  (void)versionNum;
  return ACL_ERROR_INVALID_PARAM;
}
extern "C" size_t aclDataTypeSize(aclDataType dataType) {
  const int32_t bytes = ge::DataTypeBytes(static_cast<ge::DataType>(dataType));
  return bytes < 0 ? 0 : static_cast<size_t>(bytes);
}

namespace ops {
void RegisterOpDef(OpDef* def) { ascendc_sim::Ops().push_back(def); }

// Out of line so a tiling compile does not instantiate the containers (op_def_registry.h).
OpParamDef::OpParamDef(std::string name) : name_(std::move(name)) {}
OpParamDef& OpParamDef::DataType(std::initializer_list<ge::DataType> t) {
  dtypes_ = t;
  return *this;
}
OpParamDef& OpParamDef::DataType(const std::vector<ge::DataType>& t) {
  dtypes_ = t;
  return *this;
}
OpParamDef& OpParamDef::DataTypeList(std::initializer_list<ge::DataType> t) {
  dtypes_ = t;
  return *this;
}
OpParamDef& OpParamDef::DataTypeList(const std::vector<ge::DataType>& t) {
  dtypes_ = t;
  return *this;
}
// The uint64_t form is CANN's "clear to zero" (0 the one value it documents): a UINT64 of that value.
OpParamDef& OpParamDef::InitValue(uint64_t value) { return InitValue(ScalarVar(ScalarType::UINT64, value)); }
OpParamDef& OpParamDef::InitValue(const ScalarVar& value) {
  initValues_ = {value};
  return *this;
}
OpParamDef& OpParamDef::InitValue(const std::vector<ScalarVar>& value) {
  initValues_ = value;
  return *this;
}
OpAttrDef::OpAttrDef(std::string name) : name_(std::move(name)) {}
OpParamDef& OpAICoreConfig::Input(const char* name) {
  inputs_.emplace_back(name);
  return inputs_.back();
}
OpParamDef& OpAICoreConfig::Output(const char* name) {
  outputs_.emplace_back(name);
  return outputs_.back();
}
OpAICoreDef& OpAICoreDef::AddConfig(const char* soc) {
  socs_.emplace_back(soc);
  return *this;
}
OpAICoreDef& OpAICoreDef::AddConfig(const char* soc, const OpAICoreConfig&) {
  socs_.emplace_back(soc);
  return *this;
}
OpDef::OpDef(const char* type) : type_(type) {}
OpDef::~OpDef() = default;
OpParamDef& OpDef::Input(const char* name) {
  inputs_.emplace_back(name);
  return inputs_.back();
}
OpParamDef& OpDef::Output(const char* name) {
  outputs_.emplace_back(name);
  return outputs_.back();
}
OpAttrDef& OpDef::Attr(const char* name) {
  attrs_.emplace_back(name);
  return attrs_.back();
}
}  // namespace ops

namespace gert {
// Out of line: inline in host_context.h, the vector growth they instantiate (resize, push_back) was
// instantiated again at the end of every tiling and kernel compile.
void Shape::SetDimNum(size_t n) { dims_.resize(n, 1); }
void Shape::AppendDim(int64_t v) { dims_.push_back(v); }
bool Shape::operator==(const Shape& o) const { return dims_ == o.dims_; }

ge::graphStatus ExpandDimsType::Expand(const Shape& shape, Shape& out) const {
  if (shape.GetDimNum() == size_) {
    out = shape;
    return ge::GRAPH_SUCCESS;
  }
  std::vector<int64_t> dims;
  size_t next = 0;
  for (AxisIndex axis = 0; axis < size_; ++axis) {
    if (IsExpandIndex(axis)) {
      dims.push_back(1);
    } else if (next < shape.GetDimNum()) {
      dims.push_back(shape.GetDim(next++));
    } else {
      return ge::GRAPH_FAILED;  // fewer dims than the axes it does not expand
    }
  }
  while (next < shape.GetDimNum()) dims.push_back(shape.GetDim(next++));
  out = Shape(std::move(dims));
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus ExpandDimsType::Expand(Shape& shape) const {
  size_t left = shape.GetDimNum();
  if (left == size_) return ge::GRAPH_SUCCESS;
  while (shape.GetDimNum() < size_) shape.AppendDim(1);
  for (size_t axis = size_; axis-- > 0;) {
    if (IsExpandIndex(axis) || left == 0 || left - 1 >= axis) continue;
    shape.SetDim(axis, shape.GetDim(left - 1));
    shape.SetDim(left - 1, 1);
    --left;
  }
  return ge::GRAPH_SUCCESS;
}
ge::graphStatus InferDataTypeContext::SetOutputDataType(size_t i, ge::DataType t) {
  if (outputs_.size() <= i) outputs_.resize(i + 1, ge::DT_UNDEFINED);
  outputs_[i] = t;
  return ge::GRAPH_SUCCESS;
}
size_t* TilingContext::GetWorkspaceSizes(size_t n) {
  if (workspaces_.size() < n) workspaces_.resize(n, 0);
  return workspaces_.data();
}
void RegisterOpImpl(const char* type, const OpImplTiling& impl) { ascendc_sim::Impls()[type] = impl; }
}  // namespace gert

namespace ascendc_sim::tpl {

std::vector<uint64_t> UintValues(std::initializer_list<uint64_t> spelled) {
  std::vector<uint64_t> in(spelled), out;
  if (in.empty()) return out;
  if (in[0] == ASCENDC_TPL_UI_LIST) return {in.begin() + 1, in.end()};
  const size_t ranges = in.size() > 1 ? in[1] : 0;
  size_t next = 2;
  for (size_t r = 0; r < ranges && next + 1 < in.size(); ++r, next += 2)
    for (uint64_t v = in[next]; v <= in[next + 1]; ++v) out.push_back(v);
  if (in[0] == ASCENDC_TPL_UI_MIX) out.insert(out.end(), in.begin() + std::min(next, in.size()), in.end());
  return out;
}

uint64_t EncodeKey(const std::vector<Param>& declared, std::initializer_list<uint64_t> args) {
  uint64_t key = 0;
  uint32_t bits = 0;
  const uint64_t* arg = args.begin();
  for (size_t i = 0; i < declared.size() && arg != args.end(); ++i, ++arg) {
    const Param& p = declared[i];
    uint64_t code = *arg;
    if (p.type == ASCENDC_TPL_UINT) {
      auto it = std::find(p.values.begin(), p.values.end(), *arg);
      if (it == p.values.end())
        throw SimError(Status::TILING_ERROR, "GET_TPL_TILING_KEY: value " + std::to_string(*arg) + " of " + p.name +
                                                 " is not among its ASCENDC_TPL_UINT_DECL values");
      code = static_cast<uint64_t>(it - p.values.begin());
    }
    key |= code << bits;
    bits += p.bitWidth;
  }
  if (bits > 64)
    throw SimError(Status::TILING_ERROR, "GET_TPL_TILING_KEY: the key needs " + std::to_string(bits) + " bits");
  return key;
}

}  // namespace ascendc_sim::tpl
