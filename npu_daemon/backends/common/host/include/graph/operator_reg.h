// The graph IR's operator prototypes (an op_graph/<op>_proto.h: REG_OP(Name).INPUT(...)...
// .OP_END_FACTORY_REG(Name)), which a tiling header may include. The simulator builds no graph:
// a prototype is one constant whose initialiser walks the chain and discards the declarations.
#pragma once

namespace ge::sim_detail {
struct OpRegChain {
  constexpr OpRegChain Item() const { return *this; }
  constexpr int End() const { return 0; }
};
}  // namespace ge::sim_detail

#define REG_OP(x) \
  namespace op {  \
  [[maybe_unused]] inline constexpr int x##_prototype = ::ge::sim_detail::OpRegChain()
#define INPUT(...) Item()
#define OPTIONAL_INPUT(...) Item()
#define DYNAMIC_INPUT(...) Item()
#define OUTPUT(...) Item()
#define DYNAMIC_OUTPUT(...) Item()
#define ATTR(...) Item()
#define REQUIRED_ATTR(...) Item()
#define GRAPH(...) Item()
#define DYNAMIC_GRAPH(...) Item()
#define OP_END_FACTORY_REG(x) \
  End();                      \
  }
