// The pairs of instructions on two of PIPE_V, PIPE_MTE2 and PIPE_MTE3 touching the same UB bytes
// with nothing but timing between them (TimedPair, found by the race checker), decided on the
// simulated timeline:
// a race when the second starts before the first is done, a device-tolerated warning otherwise.
// Where the kernel needed a flag the two overlap and it stays a race; where it did not, the
// flag would have cost nothing, so no kernel gains by dropping one.
#pragma once

#include <string>
#include <vector>

#include "model/events.h"

namespace ascendc_sim::model {

class TimedOrder : public Listener {
 public:
  explicit TimedOrder(size_t blocks) : blocks_(blocks) {}
  // A finished block's pairs (its sites name the instructions in messages).
  void Add(const CoreTrace& block);
  bool Empty() const { return empty_; }
  void OnInstr(const InstrEvent& e) override;
  // Once the launch is timed: a SimError (RACE_DETECTED) for the first pair that overlaps, else
  // the warning for the pairs ordered by timing ("" when there are none).
  std::string Verdict() const;

 private:
  struct Timed {
    double start = 0, done = 0;
    uint32_t site = 0;
    uint8_t pipe = 0;
  };
  struct Block {
    std::vector<TimedPair> pairs;
    std::vector<Site> sites;
    std::vector<int64_t> wanted;  // the pairs' trace indices, ascending
    std::vector<Timed> at;        // their times, in the order of `wanted`
    size_t next = 0;              // events arrive in trace order: the next wanted index
    const Timed& Of(int64_t index) const;
  };
  // "API at file:line on PIPE reads UB [a, b) that API at file:line on PIPE writes".
  static std::string Describe(const Block& b, const TimedPair& p);

  std::vector<Block> blocks_;  // by the block's index among the launch's cores
  bool empty_ = true;
};

}  // namespace ascendc_sim::model
