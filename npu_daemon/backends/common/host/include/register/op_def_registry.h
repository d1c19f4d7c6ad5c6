// OpDef registration, as the framework's registry does it: OP_ADD constructs the op definition at
// static initialisation and files it by type name; AICore().SetTiling() is how the harness finds
// the tiling function, whatever the project named it. Members that build the definition are defined in
// backends/common/host/registry.cpp: inline, every tiling compile would instantiate their containers.
#pragma once

#include <initializer_list>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include "ascendc_sim/host_context.h"
#include "ascendc_sim/host_std.h"
#include "register/op_impl_registry.h"
#include "register/tilingdata_base.h"

namespace optiling {

// Graph-mode checks an op files by kind and op type (metadef register/op_check.h): the graph
// engine runs them to choose between implementations; the simulator builds no graph, so the
// registration is accepted and none is run.
#define FUNC_CHECK_SUPPORTED "check_supported"
#define FUNC_OP_SELECT_FORMAT "op_select_format"
#define FUNC_GET_OP_SUPPORT_INFO "get_op_support_info"
#define FUNC_GET_SPECIFIC_INFO "get_op_specific_info"
using OP_CHECK_FUNC = ge::graphStatus (*)(const ge::Operator& op, ge::AscendString& result);
class OpCheckFuncHelper {
 public:
  template <typename F>
  OpCheckFuncHelper(const ge::AscendString&, const ge::AscendString&, F) {}
};

}  // namespace optiling

namespace ops {

enum Option { IGNORE = 0, OPTIONAL = 1, REQUIRED = 2, DYNAMIC = 3, VIRTUAL = 4 };
// Where a value-depend input's data is needed: everywhere, or only by the tiling.
enum class DependScope : uint32_t { ALL = 0, TILING = 1, INVALID_SCOPE };
using TilingFunc = ge::graphStatus (*)(gert::TilingContext*);
using InferShapeFunc = ge::graphStatus (*)(gert::InferShapeContext*);
using InferDataTypeFunc = ge::graphStatus (*)(gert::InferDataTypeContext*);

// An output's initial value (OpParamDef::InitValue): the type the memset before the kernel writes
// and its value, as CANN's op_def.h declares them.
enum class ScalarType : uint32_t {
  UINT64 = 0,
  INT64 = 1,
  UINT32 = 2,
  INT32 = 3,
  UINT16 = 4,
  INT16 = 5,
  UINT8 = 6,
  INT8 = 7,
  FLOAT32 = 8,
  FLOAT16 = 9,
  INVALID_DTYPE = static_cast<uint32_t>(-1),
};
union ScalarNum {
  uint64_t value_u64;
  int64_t value_i64;
  float value_f32;
  ScalarNum() : value_u64(0) {}
  explicit ScalarNum(uint64_t value) : value_u64(value) {}
  explicit ScalarNum(int64_t value) : value_i64(value) {}
  explicit ScalarNum(float value) : value_f32(value) {}
};
struct ScalarVar {
  ScalarType scalar_type = ScalarType::INVALID_DTYPE;
  ScalarNum scalar_num;
  ScalarVar() = default;
  ScalarVar(ScalarType type, uint64_t num) : scalar_type(type), scalar_num(num) {}
  ScalarVar(ScalarType type, int64_t num) : scalar_type(type), scalar_num(num) {}
  ScalarVar(ScalarType type, int num) : ScalarVar(type, static_cast<int64_t>(num)) {}
  ScalarVar(ScalarType type, unsigned int num) : ScalarVar(type, static_cast<uint64_t>(num)) {}
  ScalarVar(ScalarType type, float num) : scalar_type(type), scalar_num(num) {}
  ScalarVar(ScalarType type, double num) : ScalarVar(type, static_cast<float>(num)) {}
  bool operator==(const ScalarVar& o) const {
    return scalar_type == o.scalar_type && scalar_num.value_u64 == o.scalar_num.value_u64;
  }
};

class OpParamDef {
 public:
  explicit OpParamDef(std::string name);
  OpParamDef& ParamType(Option o) {
    option_ = o;
    return *this;
  }
  // A braced list binds to the std::initializer_list overloads, so the candidate's compile builds
  // no vector (its instantiation and inlining were a sixth of a tiling compile).
  OpParamDef& DataType(std::initializer_list<ge::DataType> t);
  OpParamDef& DataType(const std::vector<ge::DataType>& t);
  OpParamDef& DataTypeList(std::initializer_list<ge::DataType> t);
  OpParamDef& DataTypeList(const std::vector<ge::DataType>& t);
  OpParamDef& Format(std::initializer_list<ge::Format>) { return *this; }
  OpParamDef& Format(const std::vector<ge::Format>&) { return *this; }
  OpParamDef& FormatList(std::initializer_list<ge::Format>) { return *this; }
  OpParamDef& FormatList(const std::vector<ge::Format>&) { return *this; }
  OpParamDef& UnknownShapeFormat(std::initializer_list<ge::Format>) { return *this; }
  OpParamDef& UnknownShapeFormat(const std::vector<ge::Format>&) { return *this; }
  // Its values reach the tiling (GetInputTensor(i)->GetData()); other inputs' do not, as in CANN.
  OpParamDef& ValueDepend(Option) {
    valueDepend_ = true;
    return *this;
  }
  OpParamDef& ValueDepend(Option o, DependScope) { return ValueDepend(o); }
  OpParamDef& AutoContiguous() { return *this; }
  // An output whose shape the kernel decides (masked select): the spec's case gives its storage.
  OpParamDef& OutputShapeDependOnCompute() { return *this; }
  OpParamDef& IgnoreContiguous() { return *this; }
  OpParamDef& Scalar() { return *this; }
  OpParamDef& ScalarList() { return *this; }
  OpParamDef& To(const char*) { return *this; }
  OpParamDef& Follow(const char*) { return *this; }
  OpParamDef& Version(uint32_t) { return *this; }  // the OpDef revision that added it
  // An output's initial value, written into its GM before the kernel runs (the launch does, as the
  // device's op framework): the uint64_t form zeroes it (0 is the one value CANN takes), the
  // ScalarVar form writes that type's value, the list form one value per DataType column.
  OpParamDef& InitValue(uint64_t value);
  OpParamDef& InitValue(const ScalarVar& value);
  OpParamDef& InitValue(const std::vector<ScalarVar>& value);
  const std::string& Name() const { return name_; }
  const std::vector<ge::DataType>& DataTypes() const { return dtypes_; }
  bool IsValueDepend() const { return valueDepend_; }
  // Its initial values (none: the output is not initialised); one, or one per DataType column.
  const std::vector<ScalarVar>& InitValues() const { return initValues_; }

 private:
  std::string name_;
  Option option_ = REQUIRED;
  bool valueDepend_ = false;
  std::vector<ge::DataType> dtypes_;
  std::vector<ScalarVar> initValues_;
};

class OpAttrDef {
 public:
  explicit OpAttrDef(std::string name);
  OpAttrDef& AttrType(Option) { return *this; }
  OpAttrDef& Int(int64_t = 0) { return *this; }
  OpAttrDef& Float(float = 0) { return *this; }
  OpAttrDef& Bool(bool = false) { return *this; }
  OpAttrDef& String(const char* = "") { return *this; }
  OpAttrDef& ListInt(std::initializer_list<int64_t> = {}) { return *this; }
  OpAttrDef& ListInt(const std::vector<int64_t>&) { return *this; }
  OpAttrDef& ListFloat(std::initializer_list<float> = {}) { return *this; }
  OpAttrDef& ListFloat(const std::vector<float>&) { return *this; }
  OpAttrDef& ListBool(std::initializer_list<bool> = {}) { return *this; }
  OpAttrDef& ListBool(const std::vector<bool>&) { return *this; }
  OpAttrDef& ListListInt(std::vector<std::vector<int64_t>> = {}) { return *this; }
  OpAttrDef& Comment(const char*) { return *this; }
  OpAttrDef& Version(uint32_t) { return *this; }  // the OpDef revision that added it
  const std::string& Name() const { return name_; }

 private:
  std::string name_;
};

class OpAICoreConfig {
 public:
  OpAICoreConfig() = default;
  explicit OpAICoreConfig(const char*) {}
  OpAICoreConfig& AsyncFlag(bool) { return *this; }
  OpAICoreConfig& RangeLimitValue(const char*) { return *this; }
  OpAICoreConfig& DynamicCompileStaticFlag(bool) { return *this; }
  OpAICoreConfig& DynamicFormatFlag(bool) { return *this; }
  OpAICoreConfig& DynamicRankSupportFlag(bool) { return *this; }
  OpAICoreConfig& DynamicShapeSupportFlag(bool) { return *this; }
  OpAICoreConfig& NeedCheckSupportFlag(bool) { return *this; }
  OpAICoreConfig& PrecisionReduceFlag(bool) { return *this; }
  OpAICoreConfig& ExtendCfgInfo(const char*, const char*) { return *this; }
  OpParamDef& Input(const char* name);
  OpParamDef& Output(const char* name);

 private:
  std::vector<OpParamDef> inputs_, outputs_;
};

class OpAICoreDef {
 public:
  OpAICoreDef& SetTiling(TilingFunc f) {
    tiling_ = f;
    return *this;
  }
  // Graph-mode hooks (tiling parse, check support, format selection): accepted, not run here.
  template <typename F>
  OpAICoreDef& SetTilingParse(F) {
    return *this;
  }
  // Kept when it has the framework's signature; one of another (the samples' int32_t) is accepted, not kept.
  template <typename F>
  OpAICoreDef& SetCheckSupport(F f) {
    if constexpr (std::is_convertible_v<F, optiling::OP_CHECK_FUNC>) checkSupport_ = f;
    return *this;
  }
  optiling::OP_CHECK_FUNC GetCheckSupport() const { return checkSupport_; }
  template <typename F>
  OpAICoreDef& SetOpSelectFormat(F) {
    return *this;
  }
  template <typename F>
  OpAICoreDef& SetOpSpecInfo(F) {
    return *this;
  }
  OpAICoreDef& AddConfig(const char* soc);
  OpAICoreDef& AddConfig(const char* soc, const OpAICoreConfig&);
  TilingFunc GetTiling() const { return tiling_; }

 private:
  TilingFunc tiling_ = nullptr;
  optiling::OP_CHECK_FUNC checkSupport_ = nullptr;
  std::vector<std::string> socs_;
};

class OpDef;
void RegisterOpDef(OpDef* def);  // defined in the simulator runtime

class OpDef {
 public:
  explicit OpDef(const char* type);
  virtual ~OpDef();
  OpParamDef& Input(const char* name);
  OpParamDef& Output(const char* name);
  OpAttrDef& Attr(const char* name);
  OpDef& SetInferShape(InferShapeFunc f) {
    inferShape_ = f;
    return *this;
  }
  template <typename F>
  OpDef& SetInferShapeRange(F) {
    return *this;
  }
  OpDef& SetInferDataType(InferDataTypeFunc f) {
    inferDataType_ = f;
    return *this;
  }
  OpAICoreDef& AICore() { return aicore_; }
  OpDef& Comment(const char*) { return *this; }

  const std::string& Type() const { return type_; }
  const std::vector<OpParamDef>& Inputs() const { return inputs_; }
  const std::vector<OpParamDef>& Outputs() const { return outputs_; }
  const std::vector<OpAttrDef>& Attrs() const { return attrs_; }
  const OpAICoreDef& AICoreDef() const { return aicore_; }

 private:
  std::string type_;
  std::vector<OpParamDef> inputs_, outputs_;
  std::vector<OpAttrDef> attrs_;
  InferShapeFunc inferShape_ = nullptr;
  InferDataTypeFunc inferDataType_ = nullptr;
  OpAICoreDef aicore_;
};

template <typename Op>
struct OpDefRegistrar {
  explicit OpDefRegistrar(const char* type) : def(type) { RegisterOpDef(&def); }
  Op def;
};

}  // namespace ops

#define OP_ADD(opType, ...) static ::ops::OpDefRegistrar<opType> ascendc_sim_op_def_##opType(#opType)
