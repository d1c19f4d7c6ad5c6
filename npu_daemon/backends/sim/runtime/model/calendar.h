// A bandwidth calendar: time cut into fixed buckets, each with a capacity (bytes, or port cycles)
// that reservations consume from a start time forward. Reservations may arrive somewhat out of time
// order (cores are advanced one DMA at a time, each in program order); the ring keeps a sliding
// window of buckets far wider than that disorder. Full buckets are skipped through jump links
// (path-compressed), so a reservation behind a long backlog does not walk every full bucket.
#pragma once

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <new>

namespace ascendc_sim::model {

// Zero-filled storage straight from mmap: fresh zero pages that cost nothing until touched, so a
// launch pays for the buckets (and L2 sets) it uses, not for every one it might; page-aligned, so
// an entry laid out on cache lines stays on them. Calendars share one such block. Huge pages are
// asked for (where the kernel grants them on request): a long launch touches tens of megabytes
// of buckets, and a fault per 4 KiB page cost more than the reservations themselves.
struct UnmapDeleter {
  size_t bytes;
  void operator()(void* p) const { munmap(p, bytes); }
};
template <typename T>
using ZeroArray = std::unique_ptr<T[], UnmapDeleter>;
template <typename T>
ZeroArray<T> MakeZeroArray(size_t n) {
  const size_t bytes = std::max<size_t>(n * sizeof(T), 1);
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  madvise(p, bytes, MADV_HUGEPAGE);
  return ZeroArray<T>(static_cast<T*>(p), UnmapDeleter{bytes});
}

class Calendar {
 public:
  static constexpr double kBucketCycles = 64;  // model resolution, not a hardware constant
  // A bucket's two fields side by side: a reservation reads both, from one cache line.
  struct Bucket {
    float used;
    uint16_t jump;  // 0: bucket not full; else buckets to skip ahead
  };
  // `buckets` holds `ringBuckets` (a power of two, at most 2^16) zeroed entries, owned elsewhere,
  // `stride` apart: calendars share one block bucket-major, so that the buckets every calendar is
  // using at one time sit together (a few cache lines and pages rather than one per calendar).
  Calendar(double capacityPerCycle, uint32_t ringBuckets, Bucket* buckets, uint32_t stride);
  // Consume `amount` starting at `t`; returns when the last of it is served.
  double Reserve(double t, double amount);

 private:
  float& Used(int64_t bucket);
  int64_t Open(int64_t bucket);  // first bucket at or after `bucket` that is not full
  void Fill(int64_t bucket);     // mark it full
  Bucket& At(int64_t bucket) { return ring_[(bucket & mask_) * stride_]; }
  double cap_;  // per bucket
  Bucket* ring_;
  uint64_t stride_;
  int64_t base_ = 0;  // oldest bucket still in the ring
  // Every bucket in [fullFrom_, fullTo_) is full (buckets stay full until the ring forgets them,
  // below base_): a backlog, which requests issued behind it skip without loading its buckets
  // (they filled long before and have left the CPU caches).
  int64_t fullFrom_ = 0, fullTo_ = 0;
  uint32_t mask_;
};

}  // namespace ascendc_sim::model
