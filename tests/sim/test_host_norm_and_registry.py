"""Host APIs production tilings use, on tilings of ours: the [A, R] normalisation helpers
(LayerNorm returning rstd, Normalize, WelfordUpdate, WelfordFinalize) as asc-devkit's
documentation sizes them on the A2, the separate LayerNorm tiling's split of rows, the secure C
string functions, and what only the graph engine reads (an OpDef revision, simplified keys, a graph
prototype, SoC names), which must compile and register nothing."""

from conftest import tiling_words

NORM = '#include "tiling/tiling_api.h"\n'


def test_layer_norm_rstd_normalize_and_welford_tmp_sizes(kernel):
    code = """uint32_t mx = 0, mn = 0;
  const ge::Shape ar({16, 100});  // R = 100 halves, padded to 112
  AscendC::GetNormalizeMaxMinTmpSize(ar, 2, 2, false, true, false, mx, mn); p[0] = mx; p[1] = mn;
  AscendC::GetLayerNormMaxMinTmpSize(ar, 2, false, true, false, mx, mn); p[2] = mx; p[3] = mn;
  AscendC::GetWelfordUpdateMaxMinTmpSize(ge::Shape({4, 96}), 2, 4, false, false, mx, mn); p[4] = mx * 10000 + mn;
  AscendC::GetWelfordUpdateMaxMinTmpSize(ge::Shape({4, 96}), 4, 4, true, false, mx, mn); p[5] = mx * 10000 + mn;
  AscendC::GetWelfordFinalizeMaxMinTmpSize(ge::Shape({128}), 4, false, mx, mn); p[6] = mx * 10000 + mn;
  AscendC::GetWelfordFinalizeMaxMinTmpSize(ge::Shape({64}), 4, false, mx, mn); p[7] = mx * 10000 + mn;"""
    words = tiling_words(kernel, NORM, code)
    # Normalize: 2 [R] + 2 [A (to 8), R] floats at the most, max([A], 4 [R]) for half gamma at the
    # least; LayerNorm adds its [A] to the larger of its own need and Normalize's. WelfordUpdate:
    # 3 repeats of 256 B for half (1 reusing a float source), per 64 elements at the most;
    # WelfordFinalize: four 64-float buffers, two of them and 2 [ab] beyond 64.
    assert words == [
        2 * 448 + 2 * 7168,
        1792,
        64 + 2 * 448 + 2 * 7168,
        64 + 1792,
        4608 * 10000 + 768,
        1536 * 10000 + 256,
        1536 * 10000 + 1024,
        1024 * 10000 + 1024,
    ]


def test_the_separate_layer_norm_tiling_splits_whole_rows(kernel):
    code = """optiling::LayerNormSeparateTiling t2;
  AscendC::GetLayerNormNDTilingInfo(ge::Shape({16, 100}), 5000, 2, false, true, t2);
  p[0] = t2.get_rLength(); p[1] = t2.get_oneTmpSize(); p[2] = t2.get_loopRound();
  p[3] = t2.get_inputTailSize(); p[4] = t2.get_inputTailPos(); p[5] = t2.get_meanVarTailSize();
  p[6] = t2.get_secondTmpStartPos();
  optiling::LayerNormSeparateTiling none;
  AscendC::GetLayerNormNDTilingInfo(ge::Shape({16, 100}), 100, 2, false, true, none);
  p[7] = none.get_oneTmpSize();"""
    # 5000 B is 1250 floats: 16 for the variance, two buffers of 5 padded rows (560) each; the
    # 16 rows of 112 go in 3 rounds and a tail of one row. 100 B holds no row: oneTmpSize 0.
    assert tiling_words(kernel, NORM, code) == [100, 560, 3, 112, 1680, 1, 16 + 560, 0]


PROTOTYPE = """#include "graph/operator_reg.h"
#include "securec.h"
namespace ge {
REG_OP(SimkProto)
    .INPUT(x, TensorType({DT_FLOAT, DT_FLOAT16}))
    .OPTIONAL_INPUT(bias, TensorType::ALL())
    .OUTPUT(y, TensorType({DT_FLOAT}))
    .ATTR(perm, ListInt, {0, 1})
    .REQUIRED_ATTR(k, Int)
    .OP_END_FACTORY_REG(SimkProto)
}  // namespace ge
IMPL_OP_OPTILING(SimkKeyed)
    .InferOutDataTypeSameWithFirstInput()
    .GenSimplifiedKey([](gert::TilingContext*, char*) { return ge::GRAPH_SUCCESS; })
    .OutputShapeDependOnCompute({0});
"""


def test_secure_strings_and_what_only_the_graph_engine_reads(kernel):
    code = """char s[16] = {};
  p[0] = strcpy_s(s, sizeof(s), "ab") + strcat_s(s, sizeof(s), "cd");
  p[1] = static_cast<int64_t>(strlen(s));  // "abcd"
  p[2] = strcat_s(s, 6, "xyz");            // 7 characters do not fit in 6: emptied
  p[3] = static_cast<int64_t>(strlen(s));
  p[4] = snprintf_s(s, sizeof(s), sizeof(s) - 1, "%d-%d", 12, 34);
  p[5] = sprintf_s(s, 4, "%d", 12345);
  ops::OpAttrDef("extra").AttrType(ops::OPTIONAL).Version(1).Int(0);
  ops::OpParamDef("more").ParamType(ops::OPTIONAL).Version(2);
  const auto soc = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo()).GetSocVersion();
  p[6] = soc == platform_ascendc::SocVersion::ASCEND910B && soc != platform_ascendc::SocVersion::KIRINX90 &&
         soc != platform_ascendc::SocVersion::ASCEND950;
  p[7] = ge::op::SimkProto_prototype;"""
    words = tiling_words(kernel, PROTOTYPE, code)
    assert words == [0, 4, 162, 0, 5, -1, 1, 0]


def test_the_graph_libraries_headers_by_their_own_spellings(kernel):
    includes = """#include "runtime/tiling_context.h"
#include "graph/ascend_string.h"
#include "register/register_types.h"
FMK_FUNC_HOST_VISIBILITY ATTRIBUTED_DEPRECATED(SimkNew) inline int64_t SimkOld() { return 7; }
"""
    code = """const ge::AscendString name("matmul");
  p[0] = static_cast<int64_t>(strlen(name.GetString()));
  gert::TilingContext* same = ctx;
  p[1] = same == ctx;"""
    assert tiling_words(kernel, includes, code)[:2] == [6, 1]


def test_every_format_of_the_graph_numbering_is_named(kernel):
    """graph/types.h's formats by their values, the convolution ones cube tilings name too
    (cann-ops' cube tiling parameters compare a weight's format with FORMAT_FRACTAL_Z_C04)."""
    code = """p[0] = ge::FORMAT_NC1C0HWPAD; p[1] = ge::FORMAT_NC1HWC0_C04; p[2] = ge::FORMAT_FRACTAL_Z_C04;
  p[3] = ge::FORMAT_CHWN; p[4] = ge::FORMAT_FRACTAL_ZZ; p[5] = ge::FORMAT_MD;
  p[6] = ge::FORMAT_ND_RNN_BIAS; p[7] = ge::FORMAT_NYUV_A;"""
    assert tiling_words(kernel, "", code) == [5, 12, 13, 14, 28, 26, 43, 46]
