// The check of a sampled run's outputs (sampling.h): the simulated blocks' writes are compared, the
// derived blocks' are not there to compare.
//
// A sampled run leaves each output holding what its simulated blocks stored. The launcher collects
// every block's GM stores from the traces (simulated and derived) and writes, per output, the byte
// ranges the simulated blocks stored with those bytes, which the daemon compares against the
// reference (npu_daemon/backends/sim/sampled_outputs.py). The comparison vouches for the whole
// launch only when
//   - every output byte is stored by some block's traced DMA or fixpipe store (derived blocks
//     included): a block that computes nothing is a derived block that stores nothing, and leaves
//     part of the output unstored;
//   - no block exchanges data with another (SyncAll, cross-core flags, atomic stores): a block
//     that combines other blocks' results would have combined only the simulated ones;
//   - every store's footprint is the rows its record gives.
// Otherwise `Unchecked()` says why, and the daemon runs the case whole.
#pragma once

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "launch.h"

namespace ascendc_sim::sampled {

struct Range {
  uint64_t lo, hi;  // byte offsets in an output, [lo, hi)
};

class Writes {
 public:
  Writes(const LaunchSpec& l, const GmArgs& gm) {
    for (size_t k = 0; k < l.outputs.size(); ++k)
      outputs_.push_back(
          {reinterpret_cast<uintptr_t>(gm.outputs[k]->Kernel()), l.outputs[k].Bytes(), l.outputs[k].name});
  }

  // One block's trace; `simulated`: it ran (its stores are in the outputs now).
  void Add(const std::vector<Instr>& trace, bool simulated) {
    for (const Instr& i : trace) {
      if (i.op == Op::kSyncAll || i.op == Op::kCrossSet || i.op == Op::kCrossWait)
        Refuse("its blocks exchange data (SyncAll or cross-core flags)");
      if (i.op != Op::kCopyUbToGm && i.op != Op::kFixpipe) continue;
      if (i.atomic != 0) Refuse("its blocks combine their stores (atomic stores)");
      if (i.elements != static_cast<uint64_t>(i.repeats) * i.unitBytes)
        Refuse("a store's footprint is not the rows its record gives");
      if (!why_.empty()) return;
      for (Output& o : outputs_) Store(o, i, simulated);
    }
  }

  // Why the outputs cannot vouch for the launch ("" when they can); call after the last block.
  const std::string& Unchecked() {
    for (Output& o : outputs_) {
      if (!why_.empty()) break;
      Merge(o.all);
      Merge(o.simulated);
      const uint64_t covered = !o.all.empty() && o.all[0].lo == 0 ? o.all[0].hi : 0;  // merged: one run from 0
      if (covered < o.bytes)
        Refuse("output " + o.name + " is not wholly stored by its blocks' DMA stores (byte " + std::to_string(covered) +
               " of " + std::to_string(o.bytes) + " is not): scalar or untraced stores");
    }
    return why_;
  }

  // The byte ranges of output k the simulated blocks stored (after `Unchecked`).
  const std::vector<Range>& Simulated(size_t k) const { return outputs_[k].simulated; }

 private:
  static constexpr uint64_t kMaxRanges = 1u << 22;  // past this many store rows, run the case whole

  struct Output {
    uintptr_t base;
    uint64_t bytes;
    std::string name;
    std::vector<Range> all, simulated;
  };

  void Refuse(const std::string& why) {
    if (why_.empty()) why_ = why;
  }

  void Store(Output& o, const Instr& i, bool simulated) {
    const uint64_t rows = i.repeats, pitch = i.gmPitch, end = o.base + o.bytes;
    if (rows == 0 || i.unitBytes == 0 || i.gmAddr >= end || i.gmAddr + (rows - 1) * pitch + i.unitBytes <= o.base)
      return;
    for (uint64_t r = 0; r < rows; ++r) {
      const uint64_t lo = std::max<uint64_t>(i.gmAddr + r * pitch, o.base);
      const uint64_t hi = std::min<uint64_t>(i.gmAddr + r * pitch + i.unitBytes, end);
      if (lo >= hi) continue;
      Append(o.all, {lo - o.base, hi - o.base});
      if (simulated) Append(o.simulated, {lo - o.base, hi - o.base});
    }
  }

  void Append(std::vector<Range>& v, Range r) {
    if (!v.empty() && r.lo >= v.back().lo && r.lo <= v.back().hi) {  // the common case: the next row
      v.back().hi = std::max(v.back().hi, r.hi);
      return;
    }
    if (++ranges_ > kMaxRanges) return Refuse("its stores are too scattered to check a sample of them");
    v.push_back(r);
  }

  static void Merge(std::vector<Range>& v) {
    std::sort(v.begin(), v.end(), [](const Range& a, const Range& b) { return a.lo < b.lo; });
    std::vector<Range> out;
    for (const Range& r : v)
      if (!out.empty() && r.lo <= out.back().hi)
        out.back().hi = std::max(out.back().hi, r.hi);
      else
        out.push_back(r);
    v = std::move(out);
  }

  std::vector<Output> outputs_;
  uint64_t ranges_ = 0;
  std::string why_;
};

// An output as the daemon reads it from a sampled launch: uint64 count, `count` (lo, hi) byte
// ranges, then their bytes. False if the file could not be written.
inline bool WriteRanges(const std::string& path, const uint8_t* host, const std::vector<Range>& ranges) {
  std::ofstream f(path, std::ios::binary);
  const uint64_t count = ranges.size();
  f.write(reinterpret_cast<const char*>(&count), sizeof count);
  f.write(reinterpret_cast<const char*>(ranges.data()), static_cast<std::streamsize>(count * sizeof(Range)));
  for (const Range& r : ranges)
    f.write(reinterpret_cast<const char*>(host + r.lo), static_cast<std::streamsize>(r.hi - r.lo));
  f.close();
  return static_cast<bool>(f);
}

}  // namespace ascendc_sim::sampled
