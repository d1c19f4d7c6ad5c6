// Cost of one PIPE_V instruction: a start cost plus cycles per repeat by op class, scaled by UB
// bank conflicts found from the operands' addresses (docs/ascendc.md hardware 3, the UB bank rules of
// the AscendC best-practice guide: 16 bank groups of 32 B rows, three 64 KiB bank thirds).
#pragma once

#include "ascendc_sim/core.h"
#include "model/params.h"

namespace ascendc_sim::model {

struct VectorCost {
  double cycles;
  uint32_t conflictRepeats;  // repeats slowed by a bank conflict
};

class VectorUnit {
 public:
  explicit VectorUnit(const Params& p) : p_(p) {}
  VectorCost Cost(const Instr& i) const;

 private:
  double CyclesPerRepeat(const Instr& i) const;
  // How many cycles one repeat needs to move its operands through the bank groups (1: no conflict).
  double ConflictFactor(const Instr& i) const;
  const Params& p_;
};

}  // namespace ascendc_sim::model
