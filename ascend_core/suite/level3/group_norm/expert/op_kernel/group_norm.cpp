#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// GroupNorm per (n, g) group in fp32. gamma and beta are loaded into UB once per block. A group
// that fits the UB (tiling key 1) is read once with one multi-burst copy (each channel on its own
// 32 B-aligned row, zero-padded so whole-group reductions see only real data), reduced with two
// ReduceSums, normalised in place and written with one copy; the next group's copy overlaps. A
// larger group (key 0) takes two passes over GM in tiles.
template <typename T>
class KernelGroupNorm {
 public:
  __aicore__ inline KernelGroupNorm() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, uint32_t channels, uint32_t spatial,
                              uint32_t groupChannels, uint32_t numGroups, uint32_t formerNum, uint32_t formerGroups,
                              uint32_t tailGroups, uint32_t tileLength, float eps) {
    const uint32_t block = GetBlockIdx();
    groupStart = block < formerNum ? block * formerGroups : formerNum * formerGroups + (block - formerNum) * tailGroups;
    blockGroups = block < formerNum ? formerGroups : tailGroups;
    this->channels = channels;
    this->spatial = spatial;
    this->groupChannels = groupChannels;
    this->numGroups = numGroups;
    this->tileLength = tileLength;
    this->eps = eps;
    spatialPad = (spatial + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T));
    channelsPad = (channels + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T));
    groupLength = static_cast<uint64_t>(groupChannels) * spatial;
    xGm.SetGlobalBuffer((__gm__ T*)x + groupStart * groupLength, blockGroups * groupLength);
    yGm.SetGlobalBuffer((__gm__ T*)y + groupStart * groupLength, blockGroups * groupLength);
    gammaGm.SetGlobalBuffer((__gm__ T*)gamma, channels);
    betaGm.SetGlobalBuffer((__gm__ T*)beta, channels);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(T));
    pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(T));
    pipe.InitBuffer(xfBuf, tileLength * sizeof(float));
    pipe.InitBuffer(sqBuf, tileLength * sizeof(float));
    pipe.InitBuffer(workBuf, tileLength * sizeof(float));
    pipe.InitBuffer(affineQueue, 1, 2 * channelsPad * sizeof(T));
    pipe.InitBuffer(affineBuf, 2 * channelsPad * sizeof(float));
    pipe.InitBuffer(redBuf, 64);
  }
  __aicore__ inline void Process(bool resident) {
    LoadAffine();
    if (resident && blockGroups > 0) LoadGroup(0);
    for (uint32_t g = 0; g < blockGroups; ++g) {
      if (resident) {
        if (g + 1 < blockGroups) LoadGroup(g + 1);  // the second queue slot: the copy overlaps this group's compute
        ResidentGroup(g);
      } else {
        StreamedGroup(g);
      }
    }
  }

 private:
  // gamma | beta as fp32 rows of channelsPad: per-channel scalars come from UB, not from GM.
  __aicore__ inline void LoadAffine() {
    LocalTensor<T> ab = affineQueue.AllocTensor<T>();
    const DataCopyExtParams row{1, static_cast<uint32_t>(channels * sizeof(T)), 0, 0, 0};
    DataCopyPad(ab, gammaGm, row, DataCopyPadExtParams<T>{false, 0, 0, 0});
    DataCopyPad(ab[channelsPad], betaGm, row, DataCopyPadExtParams<T>{false, 0, 0, 0});
    affineQueue.EnQue(ab);
    ab = affineQueue.DeQue<T>();
    LocalTensor<float> af = affineBuf.Get<float>();
    if constexpr (sizeof(T) == sizeof(float)) {
      Adds(af, ab, 0.0f, 2 * channelsPad);
    } else {
      Cast(af, ab, RoundMode::CAST_NONE, 2 * channelsPad);
    }
    affineQueue.FreeTensor(ab);
  }
  __aicore__ inline void Stats(float sum, float sumSq, float& mean, float& rstd) const {
    mean = sum / static_cast<float>(groupLength);
    const float var = sumSq / static_cast<float>(groupLength) - mean * mean;
    rstd = 1.0f / sqrtf((var > 0 ? var : 0) + eps);
  }
  __aicore__ inline DataCopyExtParams GroupRows() const {
    return {static_cast<uint16_t>(groupChannels), static_cast<uint32_t>(spatial * sizeof(T)), 0, 0, 0};
  }
  __aicore__ inline void LoadGroup(uint32_t g) {
    LocalTensor<T> x = inQueueX.AllocTensor<T>();
    DataCopyPad(x, xGm[g * groupLength], GroupRows(), DataCopyPadExtParams<T>{true, 0, static_cast<uint8_t>(spatialPad - spatial), 0});
    inQueueX.EnQue(x);
  }
  __aicore__ inline void ResidentGroup(uint32_t g) {
    LocalTensor<T> x = inQueueX.DeQue<T>();
    LocalTensor<T> y = outQueueY.AllocTensor<T>();
    LocalTensor<float> xf = xfBuf.Get<float>();
    LocalTensor<float> sq = sqBuf.Get<float>();
    LocalTensor<float> work = workBuf.Get<float>();
    LocalTensor<float> red = redBuf.Get<float>();
    LocalTensor<float> af = affineBuf.Get<float>();
    const uint32_t all = groupChannels * spatialPad;
    if constexpr (sizeof(T) == sizeof(float)) {
      Adds(xf, x, 0.0f, all);
    } else {
      Cast(xf, x, RoundMode::CAST_NONE, all);
    }
    inQueueX.FreeTensor(x);
    Mul(sq, xf, xf, all);
    ReduceSum(red, xf, work, all);
    ReduceSum(red[8], sq, work, all);
    float mean, rstd;
    Stats(red.GetValue(0), red.GetValue(8), mean, rstd);
    const uint32_t firstChannel = (groupStart + g) % numGroups * groupChannels;
    for (uint32_t c = 0; c < groupChannels; ++c) {
      const float scale = rstd * af.GetValue(firstChannel + c);
      const float shift = af.GetValue(channelsPad + firstChannel + c) - mean * scale;
      Muls(xf[c * spatialPad], xf[c * spatialPad], scale, spatialPad);
      Adds(xf[c * spatialPad], xf[c * spatialPad], shift, spatialPad);
    }
    if constexpr (sizeof(T) == sizeof(float)) {
      Adds(y, xf, 0.0f, all);
    } else {
      Cast(y, xf, RoundMode::CAST_RINT, all);
    }
    outQueueY.EnQue<T>(y);
    y = outQueueY.DeQue<T>();
    DataCopyPad(yGm[g * groupLength], y, GroupRows());
    outQueueY.FreeTensor(y);
  }
  __aicore__ inline void StreamedGroup(uint32_t g) {
    const uint64_t base = g * groupLength;
    float sum = 0, sumSq = 0;
    for (uint64_t done = 0; done < groupLength; done += tileLength) {
      const uint32_t len = static_cast<uint32_t>(groupLength - done < tileLength ? groupLength - done : tileLength);
      CopyIn(base + done, len);
      Accumulate(len, sum, sumSq);
    }
    float mean, rstd;
    Stats(sum, sumSq, mean, rstd);
    LocalTensor<float> af = affineBuf.Get<float>();
    const uint32_t firstChannel = (groupStart + g) % numGroups * groupChannels;
    for (uint32_t c = 0; c < groupChannels; ++c) {
      const float scale = rstd * af.GetValue(firstChannel + c);
      const float shift = af.GetValue(channelsPad + firstChannel + c) - mean * scale;
      for (uint32_t done = 0; done < spatial; done += tileLength) {
        const uint32_t len = spatial - done < tileLength ? spatial - done : tileLength;
        const uint64_t offset = base + static_cast<uint64_t>(c) * spatial + done;
        CopyIn(offset, len);
        Normalize(len, scale, shift);
        CopyOut(offset, len);
      }
    }
  }
  __aicore__ inline void CopyIn(uint64_t offset, uint32_t len) {
    LocalTensor<T> x = inQueueX.AllocTensor<T>();
    DataCopyPad(x, xGm[offset], DataCopyExtParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0}, DataCopyPadExtParams<T>{false, 0, 0, 0});
    inQueueX.EnQue(x);
  }
  __aicore__ inline void Accumulate(uint32_t len, float& sum, float& sumSq) {
    LocalTensor<T> x = inQueueX.DeQue<T>();
    LocalTensor<float> xf = xfBuf.Get<float>();
    LocalTensor<float> sq = sqBuf.Get<float>();
    LocalTensor<float> work = workBuf.Get<float>();
    LocalTensor<float> red = redBuf.Get<float>();
    if constexpr (sizeof(T) == sizeof(float)) {
      Adds(xf, x, 0.0f, len);
    } else {
      Cast(xf, x, RoundMode::CAST_NONE, len);
    }
    inQueueX.FreeTensor(x);
    Mul(sq, xf, xf, len);
    ReduceSum(red, xf, work, len);
    ReduceSum(red[8], sq, work, len);
    sum += red.GetValue(0);
    sumSq += red.GetValue(8);
  }
  // y = x * (rstd * gamma) + (beta - mean * rstd * gamma)
  __aicore__ inline void Normalize(uint32_t len, float scale, float shift) {
    LocalTensor<T> x = inQueueX.DeQue<T>();
    LocalTensor<T> y = outQueueY.AllocTensor<T>();
    LocalTensor<float> xf = xfBuf.Get<float>();
    if constexpr (sizeof(T) == sizeof(float)) {
      Adds(xf, x, 0.0f, len);
    } else {
      Cast(xf, x, RoundMode::CAST_NONE, len);
    }
    Muls(xf, xf, scale, len);
    Adds(xf, xf, shift, len);
    if constexpr (sizeof(T) == sizeof(float)) {
      Adds(y, xf, 0.0f, len);
    } else {
      Cast(y, xf, RoundMode::CAST_RINT, len);
    }
    outQueueY.EnQue<T>(y);
    inQueueX.FreeTensor(x);
  }
  __aicore__ inline void CopyOut(uint64_t offset, uint32_t len) {
    LocalTensor<T> y = outQueueY.DeQue<T>();
    DataCopyPad(yGm[offset], y, DataCopyExtParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0});
    outQueueY.FreeTensor(y);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueY;
  TQue<QuePosition::VECIN, 1> affineQueue;
  TBuf<QuePosition::VECCALC> xfBuf, sqBuf, workBuf, affineBuf, redBuf;
  GlobalTensor<T> xGm, gammaGm, betaGm, yGm;
  uint64_t groupStart, blockGroups, groupLength;
  uint32_t channels, channelsPad, spatial, spatialPad, groupChannels, numGroups, tileLength;
  float eps;
};

extern "C" __global__ __aicore__ void group_norm(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  KernelGroupNorm<DTYPE_Y> op;
  op.Init(x, gamma, beta, y, tilingData.channels, tilingData.spatial, tilingData.groupChannels, tilingData.numGroups,
          tilingData.formerNum, tilingData.formerGroups, tilingData.tailGroups, tilingData.tileLength, tilingData.eps);
  if (TILING_KEY_IS(1)) {
    op.Process(true);
  } else {
    op.Process(false);
  }
}
