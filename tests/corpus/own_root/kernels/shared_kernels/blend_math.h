// y = x * scale + offset for one core's n floats, in one UB buffer (the repository's kernels share
// it; found through the kernel objects' include directory).
#pragma once

__aicore__ inline void BlendRows(__gm__ float* x, __gm__ float* y, uint32_t n, float scale, float offset) {
  AscendC::GlobalTensor<float> src, dst;
  src.SetGlobalBuffer(x, n);
  dst.SetGlobalBuffer(y, n);
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, (n * sizeof(float) + 31) / 32 * 32);
  AscendC::LocalTensor<float> v = buf.Get<float>();
  AscendC::DataCopyPad(v, src, {1, n * 4, 0, 0, 0}, {false, 0, 0, 0});
  AscendC::PipeBarrier<PIPE_ALL>();
  AscendC::Muls(v, v, scale, n);
  AscendC::Adds(v, v, offset, n);
  AscendC::PipeBarrier<PIPE_ALL>();
  AscendC::DataCopyPad(dst, v, {1, n * 4, 0, 0, 0});
}
