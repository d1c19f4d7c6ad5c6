// The host side of a launch, shared by both backends' tiling runs: the SoC parameters of the
// request, and the registries a tiling program fills at static initialisation (OpDef by
// OP_ADD, IMPL_OP_OPTILING by op type). Built into libascendc_sim (backends/common/build.py), which
// the sim harness and the cann tiling runner both load with the candidate's tiling.so.
#include <map>
#include <string>
#include <unordered_map>

#include "ascendc_sim/runtime.h"
#include "register/op_def_registry.h"

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
OpParamDef& OpParamDef::DataType(std::initializer_list<ge::DataType> t) { dtypes_ = t; return *this; }
OpParamDef& OpParamDef::DataType(const std::vector<ge::DataType>& t) { dtypes_ = t; return *this; }
OpParamDef& OpParamDef::DataTypeList(std::initializer_list<ge::DataType> t) { dtypes_ = t; return *this; }
OpParamDef& OpParamDef::DataTypeList(const std::vector<ge::DataType>& t) { dtypes_ = t; return *this; }
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
// Out of line: inline in host_context.h, the vector growth they instantiate (resize, push_back) was
// instantiated again at the end of every tiling and kernel compile.
void Shape::SetDimNum(size_t n) { dims_.resize(n, 1); }
void Shape::AppendDim(int64_t v) { dims_.push_back(v); }
bool Shape::operator==(const Shape& o) const { return dims_ == o.dims_; }
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
