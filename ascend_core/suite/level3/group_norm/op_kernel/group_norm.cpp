#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Two passes per (n, g) group: statistics over the contiguous group in tiles, then normalise and
// apply gamma/beta channel by channel. Computed in fp32 whatever the storage dtype T.
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
    this->spatial = spatial;
    this->groupChannels = groupChannels;
    this->numGroups = numGroups;
    this->tileLength = tileLength;
    this->eps = eps;
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
    pipe.InitBuffer(redBuf, 32);
  }
  __aicore__ inline void Process() {
    for (uint32_t g = 0; g < blockGroups; ++g) {
      const uint64_t base = g * groupLength;
      float sum = 0, sumSq = 0;
      for (uint64_t done = 0; done < groupLength; done += tileLength) {
        const uint32_t len = static_cast<uint32_t>(groupLength - done < tileLength ? groupLength - done : tileLength);
        CopyIn(base + done, len);
        Accumulate(len, sum, sumSq);
      }
      const float mean = sum / static_cast<float>(groupLength);
      const float var = sumSq / static_cast<float>(groupLength) - mean * mean;
      const float rstd = 1.0f / sqrtf((var > 0 ? var : 0) + eps);
      const uint32_t firstChannel = (groupStart + g) % numGroups * groupChannels;
      for (uint32_t c = 0; c < groupChannels; ++c) {
        const float scale = rstd * static_cast<float>(gammaGm.GetValue(firstChannel + c));
        const float shift = static_cast<float>(betaGm.GetValue(firstChannel + c)) - mean * scale;
        for (uint32_t done = 0; done < spatial; done += tileLength) {
          const uint32_t len = spatial - done < tileLength ? spatial - done : tileLength;
          const uint64_t offset = base + static_cast<uint64_t>(c) * spatial + done;
          CopyIn(offset, len);
          Normalize(len, scale, shift);
          CopyOut(offset, len);
        }
      }
    }
  }

 private:
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
      Mul(sq, x, x, len);
      ReduceSum(red, x, work, len);
    } else {
      Cast(xf, x, RoundMode::CAST_NONE, len);
      Mul(sq, xf, xf, len);
      ReduceSum(red, xf, work, len);
    }
    sum += red.GetValue(0);
    ReduceSum(red, sq, work, len);
    sumSq += red.GetValue(0);
    inQueueX.FreeTensor(x);
  }
  // y = x * (rstd * gamma) + (beta - mean * rstd * gamma)
  __aicore__ inline void Normalize(uint32_t len, float scale, float shift) {
    LocalTensor<T> x = inQueueX.DeQue<T>();
    LocalTensor<T> y = outQueueY.AllocTensor<T>();
    if constexpr (sizeof(T) == sizeof(float)) {
      Muls(y, x, scale, len);
      Adds(y, y, shift, len);
    } else {
      LocalTensor<float> xf = xfBuf.Get<float>();
      Cast(xf, x, RoundMode::CAST_NONE, len);
      Muls(xf, xf, scale, len);
      Adds(xf, xf, shift, len);
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
  TBuf<QuePosition::VECCALC> xfBuf, sqBuf, workBuf, redBuf;
  GlobalTensor<T> xGm, gammaGm, betaGm, yGm;
  uint64_t groupStart, blockGroups, groupLength;
  uint32_t spatial, groupChannels, numGroups, tileLength;
  float eps;
};

extern "C" __global__ __aicore__ void group_norm(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  KernelGroupNorm<DTYPE_Y> op;
  op.Init(x, gamma, beta, y, tilingData.channels, tilingData.spatial, tilingData.groupChannels, tilingData.numGroups,
          tilingData.formerNum, tilingData.formerGroups, tilingData.tailGroups, tilingData.tileLength, tilingData.eps);
  op.Process();
}
