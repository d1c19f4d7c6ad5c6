#include "model/timed_order.h"

#include <algorithm>
#include <cstdio>

#include "race_checker.h"

namespace ascendc_sim::model {

void TimedOrder::Add(const CoreTrace& block) {
  if (block.timed.empty()) return;
  Block& b = blocks_.at(static_cast<size_t>(block.globalId));
  b.pairs = block.timed;
  b.sites = block.sites;
  for (const TimedPair& p : b.pairs) b.wanted.insert(b.wanted.end(), {p.first, p.second});
  std::sort(b.wanted.begin(), b.wanted.end());
  b.wanted.erase(std::unique(b.wanted.begin(), b.wanted.end()), b.wanted.end());
  b.at.resize(b.wanted.size());
  empty_ = false;
}

void TimedOrder::OnInstr(const InstrEvent& e) {
  Block& b = blocks_[e.block];
  if (b.next == b.wanted.size() || b.wanted[b.next] != e.index) return;
  b.at[b.next++] = Timed{e.start, e.done, e.site, e.pipe};
}

const TimedOrder::Timed& TimedOrder::Block::Of(int64_t index) const {
  return at[static_cast<size_t>(std::lower_bound(wanted.begin(), wanted.end(), index) - wanted.begin())];
}

// Worded as the race checker's messages, for the same pair.
std::string TimedOrder::Describe(const Block& b, const TimedPair& p) {
  const Timed &first = b.Of(p.first), &second = b.Of(p.second);
  return std::string(b.sites.at(second.site).api) + " on " + PipeName(second.pipe) +
         (p.secondWrites ? " writes" : " reads") + " UB [" + std::to_string(p.ub) + ", " + std::to_string(p.ub + 32) +
         ") while " + ascendc_sim::Describe(b.sites.at(first.site)) + " on " + PipeName(first.pipe) +
         (p.firstWrites ? " may still be writing it" : " may still be reading it");
}

std::string TimedOrder::Verdict() const {
  const Block* closest = nullptr;
  const TimedPair* closestPair = nullptr;
  double slack = 0;
  size_t n = 0;
  for (size_t k = 0; k < blocks_.size(); ++k) {
    const Block& b = blocks_[k];
    if (b.next != b.wanted.size()) throw SimError(Status::RUNTIME_ERROR, "performance model: a timed pair untimed");
    for (const TimedPair& p : b.pairs) {
      const Timed &first = b.Of(p.first), &second = b.Of(p.second);
      if (second.start < first.done) {
        char when[160];
        std::snprintf(when, sizeof when, "at cycle %.0f, before the other is done at cycle %.0f (block %zu)",
                      second.start, first.done, k);
        throw SimError(Status::RACE_DETECTED,
                       Describe(b, p) + " (no flag orders them); in the simulated timeline it starts " + when +
                           ", and on the A2 only flags and queues order PIPE_V, PIPE_MTE2 and PIPE_MTE3");
      }
      ++n;
      if (closest == nullptr || second.start - first.done < slack) {
        closest = &b, closestPair = &p;
        slack = second.start - first.done;
      }
    }
  }
  if (closest == nullptr) return "";
  return std::to_string(n) +
         " pair(s) of instructions on two of PIPE_V, PIPE_MTE2, PIPE_MTE3 over the same UB bytes with no flag between "
         "them, ordered "
         "only by timing: in the simulated timeline each second one starts after the first is done (the closest: " +
         Describe(*closest, *closestPair) + ", but starts " + std::to_string(static_cast<long long>(slack)) +
         " cycles after it is done); the device runs them so, strict mode makes them a race";
}

}  // namespace ascendc_sim::model
