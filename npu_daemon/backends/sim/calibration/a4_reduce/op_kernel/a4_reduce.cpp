// Anchor A4: the sum of `length` floats in UB, two ways.
//   tree: Add the upper half onto the lower half until one repeat (64 floats) is left, then one
//         WholeReduceSum;
//   whole only: WholeReduceSum of every 64-float repeat (zeros past the data), then of the partial
//         sums, then of those.
// Only PIPE_V work sits between the copy in and the copy out, so the two differ only there.
#include "kernel_operator.h"

using namespace AscendC;

class A4Reduce {
 public:
  __aicore__ inline void Run(GM_ADDR x, GM_ADDR z, const A4ReduceTilingData& t) {
    xGm_.SetGlobalBuffer((__gm__ float*)x, t.length);
    zGm_.SetGlobalBuffer((__gm__ float*)z, 1);
    pipe_.InitBuffer(data_, (t.length + kRepeat - 1) / kRepeat * kRepeat * sizeof(float));
    pipe_.InitBuffer(work_, 2 * kRepeat * kRepeat * sizeof(float));  // partial sums of two levels
    pipe_.InitBuffer(out_, 32);
    LocalTensor<float> data = data_.Get<float>(), work = work_.Get<float>(), out = out_.Get<float>();
    const uint32_t repeats = (t.length + kRepeat - 1) / kRepeat;
    if (t.wholeOnly) {  // every level reads whole repeats: the lanes past the data must hold zeros
      Duplicate(data[(repeats - 1) * kRepeat], 0.0f, kRepeat);
      Duplicate(work, 0.0f, (repeats + kRepeat - 1) / kRepeat * kRepeat);
      SetFlag<HardEvent::V_MTE2>(0);
      WaitFlag<HardEvent::V_MTE2>(0);
    }
    DataCopyPad(data, xGm_, DataCopyExtParams{1, t.length * static_cast<uint32_t>(sizeof(float)), 0, 0, 0},
                DataCopyPadExtParams<float>{false, 0, 0, 0});
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    if (t.wholeOnly) {  // three levels: lengths up to 64^3
      Level(work, data, repeats);
      PipeBarrier<PIPE_V>();
      const uint32_t second = (repeats + kRepeat - 1) / kRepeat;
      Level(work[kRepeat * kRepeat], work, second);
      PipeBarrier<PIPE_V>();
      WholeReduceSum(out, work[kRepeat * kRepeat], static_cast<int32_t>(second), 1, 1, 1, 8);
    } else {
      uint32_t n = t.length;
      while (n > kRepeat) {
        // The upper half starts on the other 8 bank groups (256 B past a 512 B multiple) so the two
        // sources of the Add never share a group; the last few small steps just round to 32 B.
        const uint32_t half = n > 4 * kRepeat ? ((n + 1) / 2 + kRepeat) / (2 * kRepeat) * (2 * kRepeat) + kRepeat
                                              : ((n + 1) / 2 + 7) / 8 * 8;
        Add(data, data, data[half], n - half);
        PipeBarrier<PIPE_V>();
        n = half;
      }
      WholeReduceSum(out, data, static_cast<int32_t>(n), 1, 1, 1, 8);
    }
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopyPad(zGm_, out, DataCopyExtParams{1, sizeof(float), 0, 0, 0});
  }

 private:
  static constexpr uint32_t kRepeat = 256 / sizeof(float);  // floats per repeat
  static constexpr uint32_t kMaxRepeats = 248;  // within the 8-bit repeatTime, chunks' sums stay 32 B aligned

  // One WholeReduceSum level: the sum of each of `repeats` 64-float repeats of src into dst.
  __aicore__ inline void Level(const LocalTensor<float>& dst, const LocalTensor<float>& src, uint32_t repeats) {
    for (uint32_t r = 0; r < repeats; r += kMaxRepeats) {
      const uint32_t n = repeats - r < kMaxRepeats ? repeats - r : kMaxRepeats;
      WholeReduceSum(dst[r], src[r * kRepeat], kRepeat, static_cast<int32_t>(n), 1, 1, 8);
    }
  }

  TPipe pipe_;
  TBuf<QuePosition::VECCALC> data_, work_, out_;
  GlobalTensor<float> xGm_, zGm_;
};

extern "C" __global__ __aicore__ void a4_reduce(GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(t, tiling);
  A4Reduce op;
  op.Run(x, z, t);
}
