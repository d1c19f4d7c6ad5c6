// x / d and x % d for a divisor fixed at run time, by a multiplication and shifts instead of a
// division (Granlund and Montgomery 1994, "Division by invariant integers using multiplication",
// fig. 4.1): the same quotient for every 64-bit x. The model divides per GM granule (its L2 set)
// and per burst (its first granule), where a 64-bit divide costs tens of cycles.
#pragma once

#include <algorithm>
#include <cstdint>

namespace ascendc_sim::model {

class Divisor {
 public:
  explicit Divisor(uint64_t d) : d_(d) {  // 1 <= d <= 2^63
    uint32_t l = 0;                       // ceil(log2 d)
    while ((uint64_t{1} << l) < d) ++l;
    m_ = static_cast<uint64_t>((static_cast<unsigned __int128>((uint64_t{1} << l) - d) << 64) / d + 1);
    sh1_ = std::min<uint32_t>(l, 1);
    sh2_ = l > 0 ? l - 1 : 0;
  }
  uint64_t Value() const { return d_; }
  uint64_t Quotient(uint64_t x) const {
    const uint64_t t = static_cast<uint64_t>(static_cast<unsigned __int128>(m_) * x >> 64);
    return (t + ((x - t) >> sh1_)) >> sh2_;
  }
  uint64_t Remainder(uint64_t x) const { return x - Quotient(x) * d_; }

 private:
  uint64_t d_, m_;
  uint32_t sh1_, sh2_;
};

}  // namespace ascendc_sim::model
