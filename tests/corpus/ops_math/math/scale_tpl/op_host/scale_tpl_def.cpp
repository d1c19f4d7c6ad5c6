// A small operator of our own in the hicann/ops-math layout: y = x * mode, negated if `negate`.
#include "register/op_def_registry.h"

namespace ops {
class ScaleTpl : public OpDef {
 public:
  explicit ScaleTpl(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Attr("mode").AttrType(OPTIONAL).Int(1);
    this->Attr("negate").AttrType(OPTIONAL).Bool(false);
    this->Attr("raw_key").AttrType(OPTIONAL).Int(-1);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(ScaleTpl);
}  // namespace ops
