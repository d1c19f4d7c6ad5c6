// A bandwidth calendar: time cut into fixed buckets, each with a capacity (bytes, or port cycles)
// that reservations consume from a start time forward. Reservations may arrive somewhat out of time
// order (cores are advanced one DMA at a time, each in program order); the ring keeps a sliding
// window of buckets far wider than that disorder. Full buckets are skipped through jump links
// (path-compressed), so a reservation behind a long backlog does not walk every full bucket.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>

namespace ascendc_sim::model {

// Zero-filled storage from calloc: large blocks arrive as fresh zero pages that cost nothing until
// touched, so a launch pays for the buckets (and L2 sets) it uses, not for every one it might.
// Calendars share one such block (small blocks would be cleared one by one).
struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};
template <typename T>
using ZeroArray = std::unique_ptr<T[], FreeDeleter>;
template <typename T>
ZeroArray<T> MakeZeroArray(size_t n) {
  void* p = std::calloc(n, sizeof(T));
  if (p == nullptr) throw std::bad_alloc();
  return ZeroArray<T>(static_cast<T*>(p));
}

class Calendar {
 public:
  static constexpr double kBucketCycles = 64;  // model resolution, not a hardware constant
  // `used` and `jump` hold `ringBuckets` (a power of two, at most 2^16) zeroed entries, owned elsewhere.
  Calendar(double capacityPerCycle, uint32_t ringBuckets, float* used, uint16_t* jump);
  // Consume `amount` starting at `t`; returns when the last of it is served.
  double Reserve(double t, double amount);

 private:
  float& Used(int64_t bucket);
  int64_t Open(int64_t bucket);  // first bucket at or after `bucket` that is not full
  double cap_;  // per bucket
  float* used_;
  uint16_t* jump_;  // 0: bucket not full; else buckets to skip ahead
  int64_t base_ = 0;  // oldest bucket still in the ring
  uint32_t mask_;
};

}  // namespace ascendc_sim::model
