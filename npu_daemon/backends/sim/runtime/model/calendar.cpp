#include "model/calendar.h"

#include <algorithm>
#include <cmath>

namespace ascendc_sim::model {

Calendar::Calendar(double capacityPerCycle, uint32_t ringBuckets)
    : cap_(capacityPerCycle * kBucketCycles), used_(ringBuckets, 0.0f), mask_(ringBuckets - 1) {}

float& Calendar::Used(int64_t bucket) {
  const int64_t size = mask_ + 1;
  if (bucket >= base_ + size) {  // slide forward, forgetting the oldest buckets
    const int64_t newBase = bucket - size + 1;
    for (int64_t b = base_; b < std::min(newBase, base_ + size); ++b) used_[b & mask_] = 0;
    base_ = newBase;
  }
  return used_[std::max(bucket, base_) & mask_];
}

double Calendar::Reserve(double t, double amount) {
  int64_t b = static_cast<int64_t>(t / kBucketCycles);
  b = std::max(b, base_);
  double at = std::max(t, b * kBucketCycles);
  while (true) {
    float& used = Used(b);
    const double bucketEnd = (b + 1) * kBucketCycles;
    // Capacity left in this bucket after `at` (a reservation cannot use time already past).
    const double window = cap_ * (bucketEnd - at) / kBucketCycles;
    const double free = std::min<double>(cap_ - used, window);
    if (free >= amount) {
      used += static_cast<float>(amount);
      // Served at the bucket's rate from the later of `at` and the work already queued in it.
      const double from = std::max(at, b * kBucketCycles + (used - amount) / cap_ * kBucketCycles);
      return from + amount / cap_ * kBucketCycles;
    }
    if (free > 0) {
      used += static_cast<float>(free);
      amount -= free;
    }
    ++b;
    at = b * kBucketCycles;
  }
}

}  // namespace ascendc_sim::model
