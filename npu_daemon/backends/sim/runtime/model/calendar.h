// A bandwidth calendar: time cut into fixed buckets, each with a capacity (bytes, or port cycles)
// that reservations consume from a start time forward. Reservations may arrive somewhat out of time
// order (cores are advanced one DMA at a time, each in program order); the ring keeps a sliding
// window of buckets far wider than that disorder.
#pragma once

#include <cstdint>
#include <vector>

namespace ascendc_sim::model {

class Calendar {
 public:
  static constexpr double kBucketCycles = 64;  // model resolution, not a hardware constant
  Calendar(double capacityPerCycle, uint32_t ringBuckets);
  // Consume `amount` starting at `t`; returns when the last of it is served.
  double Reserve(double t, double amount);

 private:
  float& Used(int64_t bucket);
  double cap_;  // per bucket
  std::vector<float> used_;
  int64_t base_ = 0;  // oldest bucket still in the ring
  uint32_t mask_;
};

}  // namespace ascendc_sim::model
