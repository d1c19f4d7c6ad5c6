// The cube unit's arithmetic (built at -O3 with the runtime: a large Mmad is billions of products).
// Order (docs/simulator.md, cube): per output, each fractal step of k0 products is summed in fp32 in
// k order starting from 0, and that partial sum is added to the accumulator in fp32.
#include <algorithm>
#include <cstring>
#include <vector>

#include "ascendc_sim/cube_compute.h"

namespace ascendc_sim {

void MmadFloat(float* c, const float* a, const float* b, uint32_t m, uint32_t n, uint32_t k, uint32_t k0,
               bool exactProducts) {
  (void)exactProducts;  // fp16/bf16 products are exact in fp32; fp32 products round once, as written
  std::vector<float> partial(n);
  for (uint32_t i = 0; i < m; ++i) {
    float* row = c + static_cast<size_t>(i) * n;
    for (uint32_t kb = 0; kb < k; kb += k0) {
      std::fill(partial.begin(), partial.end(), 0.0f);
      const uint32_t ke = std::min(k, kb + k0);
      for (uint32_t kk = kb; kk < ke; ++kk) {
        const float av = a[static_cast<size_t>(i) * k + kk];
        const float* brow = b + static_cast<size_t>(kk) * n;
        for (uint32_t j = 0; j < n; ++j) {
          const float prod = av * brow[j];
          partial[j] = partial[j] + prod;
        }
      }
      for (uint32_t j = 0; j < n; ++j) row[j] = row[j] + partial[j];
    }
  }
}

void RoundToHf32(float* v, size_t n, bool tiesAway) {
  constexpr uint32_t kDropped = 12;  // fp32's 23 mantissa bits less HF32's 11
  constexpr uint32_t kHalf = 1u << (kDropped - 1), kLow = (1u << kDropped) - 1;
  for (size_t i = 0; i < n; ++i) {
    uint32_t u;
    std::memcpy(&u, &v[i], sizeof u);
    if ((u & 0x7f800000u) == 0x7f800000u) continue;  // infinity or NaN
    u += tiesAway ? kHalf : kHalf - 1 + ((u >> kDropped) & 1);
    u &= ~kLow;
    std::memcpy(&v[i], &u, sizeof u);
  }
}

void MmadInt(int32_t* c, const int8_t* a, const int8_t* b, uint32_t m, uint32_t n, uint32_t k) {
  for (uint32_t i = 0; i < m; ++i) {
    int32_t* row = c + static_cast<size_t>(i) * n;
    for (uint32_t kk = 0; kk < k; ++kk) {
      const int32_t av = a[static_cast<size_t>(i) * k + kk];
      const int8_t* brow = b + static_cast<size_t>(kk) * n;
      for (uint32_t j = 0; j < n; ++j)
        row[j] = static_cast<int32_t>(static_cast<uint32_t>(row[j]) + static_cast<uint32_t>(av * brow[j]));
    }
  }
}

}  // namespace ascendc_sim

namespace AscendC::detail {

// The reads: of each ND matrix (srcNdStride fractals apart; one when they coincide) the mSize rows
// of every column block, srcStride rows apart. Every byte read is a read: a matrix or a block the
// copy takes while a Mmad still writes it is a race however far from the first it lies. At most
// 128 matrices: FixSource held the last inside L0C.
void IssueFixpipe(ascendc_sim::Core& core, const ascendc_sim::Instr& ins, const FixpipeParamsV220& p, uint32_t s,
                  uint32_t srcBytes, const ascendc_sim::UbAccess* dst, const ascendc_sim::SrcLoc& loc,
                  const char* api) {
  const uint32_t blocks = (p.nSize + 15) / 16, matrices = p.srcNdStride == 0 ? 1 : std::max<uint32_t>(p.ndNum, 1);
  const uint32_t rowBytes = p.mSize * 16 * srcBytes, pitch = p.srcStride * 16 * srcBytes;
  const bool rows = blocks > 1 && pitch > rowBytes;  // else one run: the blocks meet or overlap
  std::vector<ascendc_sim::UbAccess> acc;
  for (uint32_t t = 0; t < matrices; ++t) {
    ascendc_sim::UbAccess a{s + t * p.srcNdStride * 256 * srcBytes, (blocks - 1) * pitch + rowBytes, false};
    if (rows) a.rowBytes = rowBytes, a.pitch = pitch;
    acc.push_back(a);
  }
  if (dst != nullptr) acc.push_back(*dst);
  core.IssueAccesses(ins, loc, api, acc.data(), acc.size());
}

}  // namespace AscendC::detail
