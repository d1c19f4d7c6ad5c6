// The op implementation registry of newer CANN projects: IMPL_OP_OPTILING(Op).Tiling(f)
// .TilingParse<CompileInfo>(parse) files the tiling function (and the compile-time parse that
// fills the CompileInfo the tiling reads with GetCompileInfo) by op type, in place of
// OpDef::AICore().SetTiling; IMPL_OP_INFERSHAPE / IMPL_OP register graph-mode shape inference,
// which a launch does not run.
#pragma once

#include <memory>

#include "ascendc_sim/host_context.h"

namespace gert {

using OpTilingFunc = ge::graphStatus (*)(TilingContext*);
using OpTilingParseFunc = ge::graphStatus (*)(TilingParseContext*);

// One op type's tiling, its compile-time parse and a factory for its CompileInfo.
struct OpImplTiling {
  OpTilingFunc tiling = nullptr;
  OpTilingParseFunc parse = nullptr;
  std::shared_ptr<void> (*newCompileInfo)() = nullptr;
};
void RegisterOpImpl(const char* type, const OpImplTiling& impl);  // defined in the simulator runtime

class OpImplRegisterV2 {
 public:
  explicit OpImplRegisterV2(const char* type) : type_(type) {}
  OpImplRegisterV2& Tiling(OpTilingFunc f, size_t = 0) {
    impl_.tiling = f;
    RegisterOpImpl(type_, impl_);
    return *this;
  }
  template <typename CompileInfo>
  OpImplRegisterV2& TilingParse(OpTilingParseFunc f) {
    impl_.parse = f;
    impl_.newCompileInfo = [] { return std::shared_ptr<void>(std::make_shared<CompileInfo>()); };
    RegisterOpImpl(type_, impl_);
    return *this;
  }
  template <typename F>
  OpImplRegisterV2& InferShape(F) {
    return *this;
  }
  template <typename F>
  OpImplRegisterV2& InferDataType(F) {
    return *this;
  }
  template <typename F>
  OpImplRegisterV2& InferShapeRange(F) {
    return *this;
  }
  template <typename... A>
  OpImplRegisterV2& InputsDataDependency(A...) {
    return *this;
  }
  OpImplRegisterV2& InputsDataDependency(std::initializer_list<int32_t>) { return *this; }
  OpImplRegisterV2& PrivateAttr(const char*, ...) { return *this; }
  OpImplRegisterV2& TilingInputsDataDependency(std::initializer_list<int32_t>) { return *this; }
  template <typename P>
  OpImplRegisterV2& TilingInputsDataDependency(std::initializer_list<int32_t>, std::initializer_list<P>) {
    return *this;
  }
  // What the graph engine alone uses (binary keys, formats, task generation, support checks): the
  // simulator runs the tiling and the kernel, so these register nothing.
  OpImplRegisterV2& InferOutDataTypeSameWithFirstInput() { return *this; }
  OpImplRegisterV2& HostInputs(std::initializer_list<int32_t>) { return *this; }
  OpImplRegisterV2& OutputShapeDependOnCompute(std::initializer_list<int32_t>) { return *this; }
  OpImplRegisterV2& NullableOutputs(std::initializer_list<int32_t>) { return *this; }
#define ASCENDC_SIM_GRAPH_ONLY(NAME) \
  template <typename F>              \
  OpImplRegisterV2& NAME(F) {        \
    return *this;                    \
  }
  ASCENDC_SIM_GRAPH_ONLY(GenSimplifiedKey)
  ASCENDC_SIM_GRAPH_ONLY(InferFormat)
  ASCENDC_SIM_GRAPH_ONLY(CalcOpParam)
  ASCENDC_SIM_GRAPH_ONLY(GenerateTask)
  ASCENDC_SIM_GRAPH_ONLY(CheckSupport)
  ASCENDC_SIM_GRAPH_ONLY(OpSelectFormat)
  ASCENDC_SIM_GRAPH_ONLY(OpExecuteFunc)
  ASCENDC_SIM_GRAPH_ONLY(ExceptionDumpParseFunc)
#undef ASCENDC_SIM_GRAPH_ONLY

 private:
  const char* type_;
  OpImplTiling impl_;
};

}  // namespace gert

#define ASCENDC_SIM_IMPL_CAT2(a, b) a##b
#define ASCENDC_SIM_IMPL_CAT(a, b) ASCENDC_SIM_IMPL_CAT2(a, b)
#define IMPL_OP(op)                                                                                           \
  [[maybe_unused]] static ::gert::OpImplRegisterV2 ASCENDC_SIM_IMPL_CAT(ascendc_sim_impl_##op, __COUNTER__) = \
      ::gert::OpImplRegisterV2(#op)
#define IMPL_OP_OPTILING(op) IMPL_OP(op)
#define IMPL_OP_INFERSHAPE(op) IMPL_OP(op)
