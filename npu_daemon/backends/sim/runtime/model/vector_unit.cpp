#include "model/vector_unit.h"

#include <algorithm>

namespace ascendc_sim::model {

namespace {
// Operands each class reads besides its destination: binary ops read two sources, the rest one.
int Sources(Op op) {
  switch (op) {
    case Op::kVecBinary:
    case Op::kVecFma:
    case Op::kVecDiv:
    case Op::kVecSelect:
      return 2;
    default:
      return 1;
  }
}
}  // namespace

double VectorUnit::CyclesPerRepeat(const Instr& i) const {
  const bool half = i.elemBytes <= 2;
  switch (i.op) {
    case Op::kVecBinary:
      return p_.cprBinary;
    case Op::kVecUnary:
      return p_.cprUnary;
    case Op::kVecCast:
      return p_.cprCast;
    case Op::kVecTransc:
      return half ? p_.cprTranscHalf : p_.cprTranscFloat;
    case Op::kVecDiv:
      return p_.cprDiv;
    case Op::kVecFma:
      return p_.cprFma;
    case Op::kVecReduce:
      return half ? p_.cprReduceHalf : p_.cprReduceFloat;
    case Op::kVecCompare:
      return p_.cprCompare;
    case Op::kVecSelect:
      return p_.cprSelect;
    case Op::kVecGather:
      return p_.cprGather;
    case Op::kVecIndex:
      return p_.cprIndex;
    case Op::kVecMerge:
      return p_.cprMergeSort;
    default:
      return p_.cprUnary;
  }
}

// A repeat touches 8 blocks of 32 B per operand. Reads of all sources share the bank groups (one
// row per group per cycle), so the most-loaded group sets the cycles of a repeat; the same holds
// for the destination's writes. A write to the same bank (group and 64 KiB third) a source reads
// stalls the read port; an in-place operation (dst == src) streams and does not.
double VectorUnit::ConflictFactor(const Instr& i) const {
  // The merge's fit (vec_cpr_merge_sort) already holds its reads of four lists.
  if (i.op == Op::kVecMask || i.op == Op::kVecGather || i.op == Op::kVecReduce || i.op == Op::kVecMerge) return 1;
  const uint32_t groups = p_.bankGroups;
  uint8_t readLoad[64] = {}, writeLoad[64] = {};
  uint32_t dstBank[8];
  auto row = [](uint32_t addr, uint32_t blk, int b) {
    return addr / 32 + static_cast<uint32_t>(b) * std::max<uint32_t>(blk, 1);
  };
  int readMax = 1, writeMax = 1;
  for (int b = 0; b < 8; ++b) {
    const uint32_t r = row(i.ubAddr[0], i.blkStride[0], b);
    writeMax = std::max<int>(writeMax, ++writeLoad[r % groups]);
    dstBank[b] = r % groups + groups * (r * 32 / p_.bankBytes);
  }
  bool rw = false;
  for (int s = 1; s <= Sources(i.op); ++s) {
    if (i.ubBytes[s] == 0 && s > 1) break;
    for (int b = 0; b < 8; ++b) {
      const uint32_t r = row(i.ubAddr[s], i.blkStride[s], b);
      readMax = std::max<int>(readMax, ++readLoad[r % groups]);
      const uint32_t bank = r % groups + groups * (r * 32 / p_.bankBytes);
      if (i.ubAddr[s] != i.ubAddr[0])
        for (uint32_t d : dstBank) rw |= d == bank;
    }
  }
  return std::max({static_cast<double>(readMax), static_cast<double>(writeMax), rw ? p_.rwConflictFactor : 1.0});
}

VectorCost VectorUnit::Cost(const Instr& i) const {
  if (i.op == Op::kVecMask) return {1, 0};
  if (i.op == Op::kCopyUbToUb) {  // UB -> UB on PIPE_V: one 256 B repeat per 8 blocks
    const double repeats = (static_cast<double>(i.repeats) * i.unitBytes + 255) / 256;
    return {p_.vecStart + repeats * p_.cprUnary, 0};
  }
  const double factor = ConflictFactor(i);
  return {p_.vecStart + i.repeats * CyclesPerRepeat(i) * factor, factor > 1 ? i.repeats : 0};
}

}  // namespace ascendc_sim::model
