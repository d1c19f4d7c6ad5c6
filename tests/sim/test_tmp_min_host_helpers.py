"""The host helpers of the sharedTmpBuffer minima (host_quant_tiling.h, host_tiling_api.h,
host_softmax_tiling.h) give the numbers the kernel side refuses a buffer under
(tests/guest/test_tmp_min_*.py): the same shapes, the same minima, from one definition
(math_tmp_sizes.h), as asc-devkit's A2 helpers compute them."""

from conftest import tiling_words


def test_the_helpers_give_the_minima_the_kernel_side_holds_buffers_to(kernel):
    code = """uint32_t mx = 0, mn = 0;
  AscendC::GetAscendQuantMaxMinTmpSize(ge::Shape({32}), 4, mx, mn); p[0] = mx * 100000 + mn;
  AscendC::GetAscendDequantMaxMinTmpSize(ge::Shape({1, 8}), 4, mx, mn); p[1] = mx * 100000 + mn;
  AscendC::GetAscendAntiQuantMaxMinTmpSize(ge::Shape({4, 16}), ge::Shape({1}), false, ge::DT_INT8, ge::DT_BF16, mx, mn);
  p[2] = mx * 100000 + mn;
  AscendC::GetCumSumMaxMinTmpSize(ge::Shape({1, 8}), 4, true, false, mx, mn); p[3] = mx * 100000 + mn;
  p[4] = AscendC::GetSoftMaxGradMinTmpSize(ge::Shape({4, 16}), 4, false, false) * 100000 +
         AscendC::GetSoftMaxFlashV2MinTmpSize(ge::Shape({4, 16}), 4, 4, true);
  AscendC::GetAsinMaxMinTmpSize(ge::Shape({8}), 4, false, mx, mn); p[5] = mx * 100000 + mn;
  AscendC::GetTanMaxMinTmpSize(ge::Shape({8}), 2, false, mx, mn); p[6] = mx * 100000 + mn;
  AscendC::GetAscendDequantMaxMinTmpSize(ge::Shape({4, 64}), 4, mx, mn); p[7] = mx * 100000 + mn;"""
    words = tiling_words(kernel, '#include "tiling/tiling_api.h"\n', code)
    assert words == [
        512 * 100000 + 512,  # AscendQuant of 32: two repeats, both
        352 * 100000 + 352,  # AscendDequant [1, 8]: a repeat of floats, a row and the scale's 16
        256 * 100000 + 256,  # AscendAntiQuant of 64 to bfloat16, scalar scale: the float copy
        1024 * 100000 + 1024,  # CumSum [1, 8] floats, last axis: two transposes of 16 rows
        384 * 100000 + 288,  # SoftmaxGrad and SoftmaxFlashV2 of rows of 16 floats: one row
        512 * 100000 + 512,  # Asin of 8 floats: two live buffers of a repeat
        2560 * 100000 + 2560,  # Tan of 8 halves: ten
        1568 * 100000 + 800,  # AscendDequant [4, 64]: every row at the most, one at the least
    ]
