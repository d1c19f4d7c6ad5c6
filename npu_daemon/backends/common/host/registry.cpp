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
// The A2's AI Core intrinsics and the dtypes each takes: the [AICoreintrinsicDtypeMap] section of
// CANN's platform file for the Ascend910B parts (data/platform_config/Ascend910B*.ini, AIC-C-220),
// key the intrinsic, value its dtype list. A tiling takes a listed intrinsic as present (the cube
// tilings read Intrinsic_fix_pipe_l0c2out to tell the A2's L0C -> GM fixpipe from the 310P's path)
// and an absent one as missing (Intrinsic_data_move_l0c2ub, Intrinsic_data_move_l12ub: the A2 has
// no L0C/L1 -> UB path), so the map is the whole section, not the entries one corpus asks for.
std::map<std::string, std::string> IntrinsicDtypes() {
  const std::string f16f32 = "float16,float32";
  const std::string vec4 = "float16,float32,int32,int16";
  const std::string cube_move = "u8,s8,f16,u16,s16,f32,s32,u32";
  const std::string conv =
      "f322f32r,f322f32f,f322f32c,deq,f322f32a,f322f32z,f322f16,f322f16r,f322f16f,f322f16c,f322f16a,"
      "f322f16z,f322f16o,f322s64r,f322s64f,f322s64c,f322s64a,f322s64z,f322s32r,f322s32f,f322s32c,"
      "f322s32a,f322s32z,f322s16r,f322s16f,f322s16c,f322s16a,f322s16z,f162f32,f162s32r,f162s32f,"
      "f162s32c,f162s32a,f162s32z,f162s16r,f162s16f,f162s16c,f162s16a,f162s16z,f162s8,f162s8r,"
      "f162s8f,f162s8c,f162s8a,f162s8z,f162u8,f162u8r,f162u8f,f162u8c,f162u8a,f162u8z,u82f16,s82f16,"
      "s162f16,s162f16r,s162f16f,s162f16c,s162f16a,s162f16z,s162f32,s162s8,s162u8,s322f32,s322f32r,"
      "s322f32f,s322f32c,s322f32a,s322f32z,s322f16,s322s64,s322s16,s642s32,s642f32r,s642f32f,"
      "s642f32c,s642f32a,s642f32z,f322bf16r,f322bf16f,f322bf16c,f322bf16a,f322bf16z,bf162f32,"
      "bf162s32r,bf162s32f,bf162s32c,bf162s32a,bf162s32z";
  std::map<std::string, std::string> map = {
      {"Intrinsic_vconv", conv},
      {"Intrinsic_mmad",
       "u32u8u8,s32s8s8,s32u8s8,f16f16f16,f32f16f16,f16f16u2,u8,s8,f162f16,f162f32,f16u2,"
       "u8s8,h322f32,f32f32f32,f322f32"},
      {"Intrinsic_vor", "int16,uint16"},
      {"Intrinsic_vand", "int16,uint16"},
      {"Intrinsic_vnot", "int16,uint16"},
      {"Intrinsic_vaxpy", "f16f16f16,f32f32f32,f32f16f16,float16,float32"},
      {"Intrinsic_vmla", "f16f16f16,f32f32f32,f32f16f16,float16,float32"},
      {"Intrinsic_vrelu", "float16,float32,int32"},
      {"Intrinsic_vcmp", "float16,float32,int16"},
      {"Intrinsic_vcmpv_eq", "float16,float32,int32"},
      {"Intrinsic_vcmpvs_eq", "float16,float32,int32"},
      {"Intrinsic_sqrt", "int64,float32"},
      {"Intrinsic_abs", "int64,float32"},
      {"Intrinsic_max", "int64,float32"},
      {"Intrinsic_min", "int64,float32"},
      {"Intrinsic_bcnt0", "uint64"},
      {"Intrinsic_bcnt1", "uint64"},
      {"Intrinsic_clz", "uint64"},
      {"Intrinsic_vtranspose", "uint16,int16,float16"},
      {"Intrinsic_vbitsort", "float16"},
      {"Intrinsic_vmrgsort4", "float16"},
      {"Intrinsic_vmulconv", "u8f16f16,s8f16f16"},
      {"Intrinsic_vnchwconv", "int16,uint16,int8,uint8,float16,int32,uint32,float32"},
      {"Intrinsic_vgather", "int16,uint16,float16,float32,int32,uint32"},
      {"Intrinsic_vreduce", "int16,uint16,float16,float32,int32,uint32"},
      {"Intrinsic_vreducev2", "int16,uint16,float16,float32,int32,uint32"},
      {"Intrinsic_vcopy", "int16,uint16,float16,float32,int32,uint32"},
      {"Intrinsic_vshr", "uint16,int16,uint32,int32"},
      {"Intrinsic_vshl", "int16,uint16,int32,uint32"},
      {"Intrinsic_vgatherb", "u16u16,s16s16,f16f16,u32u32,s32s32,f32f32"},
      {"Intrinsic_vbrcb", "u16u16,s16s16,f16f16,u32u32,s32s32,f32f32"},
      {"Intrinsic_data_move_pad", "uint8,int8,uint16,int16,float16,int32,float32,uint32,bfloat16"},
      {"Intrinsic_vaddrelu", "int16,float16,float32"},
      {"Intrinsic_set_l1", "f16,u16,s16,f32,s32,u32"},
      {"Intrinsic_set_l0a", "f16,u16,s16,f32,s32,u32"},
      {"Intrinsic_set_l0b", "f16,u16,s16,f32,s32,u32"},
      {"Intrinsic_fix_pipe_l0c2l1", "f32,s32,f16"},
      {"Intrinsic_fix_pipe_l0c2out", "f32,s32,f16"},
      {"Intrinsic_fix_pipe_l12fb", cube_move},
      {"Intrinsic_fix_pipe_support_multiple_output", "true"},
      {"Intrinsic_fix_pipe_unit_list", "pre_conv,pre_act,post_transform"},
      {"Intrinsic_fix_pipe_pre_conv_func_list", "requant,dequant,quant,cast"},
      {"Intrinsic_fix_pipe_pre_conv_requant", "s322s8,s322u8,s322s4"},
      {"Intrinsic_fix_pipe_pre_conv_dequant", "s322f16"},
      {"Intrinsic_fix_pipe_pre_conv_quant", "f322s8,f322u8,f322s4"},
      {"Intrinsic_fix_pipe_pre_conv_cast", "f322f16,f322bf16"},
      {"Intrinsic_fix_pipe_pre_act_func_list", "normal_relu,scalar_relu,vector_relu"},
      {"Intrinsic_fix_pipe_pre_act_normal_relu", "f32,f16,bf16,s8,u8,s4,s32"},
      {"Intrinsic_fix_pipe_pre_act_scalar_relu", "f16,s8,u8,s4"},
      {"Intrinsic_fix_pipe_pre_act_vector_relu", "f16,s8,u8,s4"},
      {"Intrinsic_fix_pipe_post_transform_func_list", "nz2nd"},
      {"Intrinsic_fix_pipe_post_transform_nz2nd", "f32,f16,bf16,s8,u8,s4,s32"},
      {"Intrinsic_data_move_out2l1_nd2nz", "u8,s8,f16,bf16,u16,s16,f32,s32,u32"},
  };
  for (const char* name :
       {"vrec",      "vdiv",      "vrsqrt",    "vln",       "vexp",     "vabs",       "vcmax",      "vcgmax",
        "vcmin",     "vcgmin",    "vcadd",     "vcgadd",    "vcpadd",   "vsqrt",      "vmadd",      "vmaddrelu",
        "vsel",      "vcmpv_ne",  "vcmpv_gt",  "vcmpv_ge",  "vcmpv_lt", "vcmpv_le",   "vlrelu",     "vcmpvs_ne",
        "vcmpvs_gt", "vcmpvs_ge", "vcmpvs_lt", "vcmpvs_le", "vbi",      "vbitsort32", "vmrgsort4v2"})
    map[std::string("Intrinsic_") + name] = f16f32;
  for (const char* name : {"vadd", "vadds", "vsub", "vmul", "vmax", "vmin", "vmuls", "vmaxs", "vmins"})
    map[std::string("Intrinsic_") + name] = vec4;
  for (const char* name :
       {"out2l1", "out2l0a", "out2l0b", "l12l0a", "l12l0b", "l12out", "l12bt", "transpose_l12l0a", "transpose_l12l0b"})
    map[std::string("Intrinsic_data_move_") + name] = cube_move;
  return map;
}
const std::map<std::string, std::map<std::string, std::string>>& PlatformFacts() {
  static const std::map<std::string, std::map<std::string, std::string>> facts = {
      {"SoCInfo", {{"core_type_list", "AiCore,VectorCore"}}},
      {"version", {{"Short_SoC_version", "Ascend910B"}, {"NpuArch", "2201"}}},
      {"AICoreintrinsicDtypeMap", IntrinsicDtypes()},
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
