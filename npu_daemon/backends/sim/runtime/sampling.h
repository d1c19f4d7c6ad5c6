// Representative-block timing: run a sample of a launch's blocks and derive the others' traces.
//
// Blocks of one class (same tiling branch, same loop counts) issue the same instructions; only
// their GM addresses move, by a fixed step per instruction from one block to the next (each
// block's slice of every tensor). Two neighbouring blocks lo, lo+1 give that step; a block b of
// their class is then lo's trace with every GM address moved by (b - lo) steps. Which blocks
// belong to the class is found by probing: the last block (and the one before it, a common tail),
// the middle, a few blocks drawn at random by the launcher (so the kernel cannot know which of its
// blocks run), then bisection; a probe belongs when its simulated trace equals the derived one
// exactly, and every block simulated so far is a probe. Blocks past the class's last member start
// the next class. The model then times every block, derived or simulated, as in a full run.
//
// What it assumes: blocks between two probes that fit are of the class too (a lone odd block
// between them goes unseen unless a random probe lands on it), and a block's trace does not depend
// on what other blocks wrote (the launcher checks the sampled outputs only where no block
// exchanges data with another: launcher.cpp, SampledCheck).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <vector>

#include "ascendc_sim/runtime.h"

namespace ascendc_sim::sampling {

struct BlockRecord {
  uint32_t ubPeak = 0;
  std::vector<Instr> trace;
  std::vector<Site> sites;
  std::vector<TimedPair> timed;  // UB pairs: a derived block's are its model's
};

inline bool SameButGm(const Instr& a, const Instr& b) {
  auto eq3 = [](const auto& x, const auto& y) { return x[0] == y[0] && x[1] == y[1] && x[2] == y[2]; };
  return a.pipe == b.pipe && a.op == b.op && a.elemBytes == b.elemBytes && a.cacheMode == b.cacheMode &&
         a.site == b.site && a.repeats == b.repeats && a.unitBytes == b.unitBytes && eq3(a.ubAddr, b.ubAddr) &&
         a.link == b.link && a.scalarCycles == b.scalarCycles && a.elements == b.elements &&
         eq3(a.blkStride, b.blkStride) && eq3(a.repStride, b.repStride) && a.maskBits[0] == b.maskBits[0] &&
         a.maskBits[1] == b.maskBits[1] && a.maskCounter == b.maskCounter && a.atomic == b.atomic &&
         a.gmPitch == b.gmPitch && eq3(a.ubBytes, b.ubBytes);
}

// Block lo's trace with its GM addresses moved `steps` times by (next - lo)'s step (unsigned: a
// step may be negative).
inline BlockRecord Derive(const BlockRecord& lo, const BlockRecord& next, uint64_t steps) {
  BlockRecord out = lo;
  for (size_t i = 0; i < out.trace.size(); ++i)
    out.trace[i].gmAddr += steps * (next.trace[i].gmAddr - lo.trace[i].gmAddr);
  return out;
}

// Whether `b` is exactly what Derive gives (false when lo and next differ in more than addresses).
inline bool Fits(const BlockRecord& lo, const BlockRecord& next, uint64_t steps, const BlockRecord& b) {
  if (lo.trace.size() != next.trace.size() || lo.trace.size() != b.trace.size() || lo.ubPeak != next.ubPeak ||
      lo.ubPeak != b.ubPeak || lo.sites.size() != b.sites.size() || lo.sites.size() != next.sites.size())
    return false;
  for (size_t s = 0; s < lo.sites.size(); ++s)
    for (const Site* o : {&next.sites[s], &b.sites[s]})
      if (o->api != lo.sites[s].api || o->file != lo.sites[s].file || o->line != lo.sites[s].line) return false;
  for (size_t i = 0; i < lo.trace.size(); ++i) {
    const Instr& x = lo.trace[i];
    if (!SameButGm(x, next.trace[i]) || !SameButGm(x, b.trace[i])) return false;
    if (b.trace[i].gmAddr != x.gmAddr + steps * (next.trace[i].gmAddr - x.gmAddr)) return false;
  }
  return true;
}

// Blocks drawn from `seed` (the launcher's random draw): probes the kernel cannot predict.
inline std::set<uint32_t> RandomProbes(uint32_t n, uint64_t seed, uint32_t count = 3) {
  std::set<uint32_t> out;
  for (uint32_t k = 0; k < count; ++k) {  // splitmix64
    uint64_t z = (seed += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    out.insert(static_cast<uint32_t>((z ^ (z >> 31)) % n));
  }
  return out;
}

// Runs the sampled blocks through `simulate` (block indices in, one record per block out) and
// hands every block of the launch to `send`, simulated or derived (`derived` says which). Returns
// how many were simulated.
inline uint32_t Run(uint32_t n, uint64_t seed,
                    const std::function<void(const std::vector<uint32_t>&, std::map<uint32_t, BlockRecord>&)>& simulate,
                    const std::function<void(uint32_t, const BlockRecord&, bool derived)>& send) {
  std::map<uint32_t, BlockRecord> sim;
  auto need = [&](std::set<uint32_t> blocks) {
    std::vector<uint32_t> missing;
    for (uint32_t b : blocks)
      if (b < n && !sim.count(b)) missing.push_back(b);
    if (!missing.empty()) simulate(missing, sim);
  };
  std::set<uint32_t> first = RandomProbes(n, seed);
  first.insert({0, 1, n / 2, n - 1});
  need(first);
  for (uint32_t lo = 0; lo + 1 < n;) {
    need({lo, lo + 1});
    const BlockRecord &a = sim.at(lo), &a1 = sim.at(lo + 1);
    auto fits = [&](uint32_t b) {
      need({b});
      return Fits(a, a1, b - lo, sim.at(b));
    };
    if (!fits(lo + 1)) {  // lo differs from its neighbour: a class of its own
      ++lo;
      continue;
    }
    // The class's last member lies in [good, bad): every simulated block past lo + 1 is a probe;
    // the first that does not fit bounds the class, the last that fits before it is in it.
    uint32_t good = lo + 1, bad = n;
    auto settle = [&] {
      good = lo + 1, bad = n;
      for (auto it = sim.upper_bound(lo + 1); it != sim.end(); ++it) {
        if (!Fits(a, a1, it->first - lo, it->second)) {
          bad = it->first;
          break;
        }
        good = it->first;
      }
    };
    need({n - 1, n - 2});
    settle();
    need({lo + 1 + (good - lo - 1) / 2});  // the middle of what the ends claim
    settle();
    while (bad - good > 1) {
      const uint32_t m = good + (bad - good) / 2;
      if (fits(m))
        good = m;
      else
        bad = m;
    }
    for (uint32_t b = lo + 2; b <= good; ++b)
      if (!sim.count(b)) send(b, Derive(a, a1, b - lo), true);
    lo = good + 1;
  }
  for (const auto& [b, record] : sim) send(b, record, false);
  return static_cast<uint32_t>(sim.size());
}

}  // namespace ascendc_sim::sampling
