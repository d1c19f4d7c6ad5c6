// A small operator of our own in the hicann/ops-nn layout: y = x * scale + shift, computed by
// helpers of the repository's shared kernel headers (common/inc/op_kernel).
#include "register/op_def_registry.h"

namespace ops {
class AffineRows : public OpDef {
 public:
  explicit AffineRows(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Attr("scale").AttrType(OPTIONAL).Float(1.0f);
    this->Attr("shift").AttrType(OPTIONAL).Float(0.0f);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(AffineRows);
}  // namespace ops
