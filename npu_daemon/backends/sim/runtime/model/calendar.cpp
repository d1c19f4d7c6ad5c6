#include "model/calendar.h"

#include <algorithm>
#include <cmath>

namespace ascendc_sim::model {

namespace {
constexpr double kFullSlack = 1e-3;  // capacity left below this counts as full (float rounding)
}

Calendar::Calendar(double capacityPerCycle, uint32_t ringBuckets, Bucket* buckets, uint32_t stride)
    : cap_(capacityPerCycle * kBucketCycles), ring_(buckets), stride_(stride), mask_(ringBuckets - 1) {}

// Used and Open are inline so that Reserve's loop, their only caller, has them in place rather than
// calling through the -fPIC library's PLT.
inline float& Calendar::Used(int64_t bucket) {
  const int64_t size = mask_ + 1;
  if (bucket >= base_ + size) {  // slide forward, forgetting the oldest buckets
    const int64_t newBase = bucket - size + 1;
    for (int64_t b = base_; b < std::min(newBase, base_ + size); ++b) At(b) = Bucket{};
    base_ = newBase;
  }
  return At(std::max(bucket, base_)).used;
}

inline void Calendar::Fill(int64_t bucket) {
  At(bucket).jump = 1;
  if (bucket == fullTo_) ++fullTo_;
}

inline int64_t Calendar::Open(int64_t bucket) {
  const int64_t end = base_ + mask_ + 1;  // buckets from here on are not in the ring yet: empty
  const bool inRun = bucket >= fullFrom_ && bucket <= fullTo_;
  const int64_t from = inRun ? fullTo_ : bucket;
  int64_t open = from;
  while (open < end && At(open).jump != 0) open += At(open).jump;
  for (int64_t b = from; b < open && b < end;) {  // compress the path
    const int64_t next = b + At(b).jump;
    At(b).jump = static_cast<uint16_t>(open - b);
    b = next;
  }
  if (inRun) {
    fullTo_ = open;
  } else if (fullTo_ <= base_ || open - bucket > fullTo_ - fullFrom_) {  // keep the longer run, if still live
    fullFrom_ = bucket;
    fullTo_ = open;
  }
  return open;
}

double Calendar::Reserve(double t, double amount) {
  int64_t b = std::max(static_cast<int64_t>(t / kBucketCycles), base_);
  double at = std::max(t, b * kBucketCycles);
  while (true) {
    const int64_t open = Open(b);
    if (open != b) {
      b = open;
      at = b * kBucketCycles;
    }
    float& used = Used(b);
    const double bucketEnd = (b + 1) * kBucketCycles;
    // Capacity left in this bucket after `at` (a reservation cannot use time already past).
    const double window = cap_ * (bucketEnd - at) / kBucketCycles;
    const double free = std::min<double>(cap_ - used, window);
    if (free >= amount) {
      used += static_cast<float>(amount);
      if (cap_ - used < kFullSlack) Fill(b);
      // Served at the bucket's rate from the later of `at` and the work already queued in it.
      const double from = std::max(at, b * kBucketCycles + (used - amount) / cap_ * kBucketCycles);
      return from + amount / cap_ * kBucketCycles;
    }
    if (free > 0) {
      used += static_cast<float>(free);
      amount -= free;
    }
    if (cap_ - used < kFullSlack) Fill(b);
    ++b;
    at = b * kBucketCycles;
  }
}

}  // namespace ascendc_sim::model
