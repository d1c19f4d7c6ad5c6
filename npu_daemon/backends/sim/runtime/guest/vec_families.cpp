// The imports of the vector families past the elementwise ones (guest header
// ascendc_guest/vec_families.h), each defined by its own unit.
#include "vec_shape.h"

namespace ascendc_sim::guest {

void DefineVecFamilyImports(wasmtime_linker_t* l) {
  DefineCompareImports(l);
  DefineGatherImports(l);
  DefineReduceImports(l);
  DefineSortImports(l);
  DefineTransDataImports(l);
}

}  // namespace ascendc_sim::guest
