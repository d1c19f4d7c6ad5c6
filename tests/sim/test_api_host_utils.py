"""Host helpers of the Ops base libraries and metadef on a tiling of ours: shape utilities
(op_common/op_host/util/shape_util.h, gert::Shape / StorageShape), the math helpers
(LastPow2, MurmurHash, SplitIntoEqualBy*), ComputeNodeInfo and the context's getters, and the
logging and check macros with their `##` forms; the op base's host bfloat16 (util/bfloat16.h); the
kernel-side math helpers (op_kernel/math_util.h) with their narrow-type wrap."""

import numpy as np
from conftest import HOST, tiling_words

OUT8 = {"z": ("int64", (8,))}
X = {"x": np.zeros(8, np.float32)}
WRITE8 = """GET_TILING_DATA(t, tiling); GlobalTensor<int64_t> zg; zg.SetGlobalBuffer((__gm__ int64_t*)z, 8);
  for (int i = 0; i < 8; ++i) zg.SetValue(i, t.p[i]);"""


def _host(code: str, includes: str) -> str:
    return (includes + HOST).replace("t.set_p(p);", code + "\n  t.set_p(p);")


def murmur(data: bytes, seed: int = 271828) -> int:
    """The op base's MurmurHash3 x86-32, its tail bytes read from the start of the data."""
    m = 0xFFFFFFFF

    def rotl(x: int, r: int) -> int:
        return ((x << r) | (x >> (32 - r))) & m

    def scramble(k: int) -> int:
        return rotl(k * 0xCC9E2D51 & m, 15) * 0x1B873593 & m

    h = seed
    for i in range(0, len(data) // 4 * 4, 4):
        h = (rotl(h ^ scramble(int.from_bytes(data[i : i + 4], "little")), 13) * 5 + 0xE6546B64) & m
    tail = 0
    for i in range(len(data) % 4, 0, -1):
        tail = (tail << 8) | data[i - 1]
    h ^= scramble(tail) ^ len(data)
    h = (h ^ (h >> 16)) * 0x85EBCA6B & m
    h = (h ^ (h >> 13)) * 0xC2B2AE35 & m
    return h ^ (h >> 16)


def test_shape_utilities(kernel):
    code = """using namespace Ops::Base;
  gert::Shape s{4, 5, 6};
  p[0] = CheckAxisBounds(3, -3) * 100 + CheckAxisBounds(3, 3) * 10 + CheckAxisBounds(0u, 0);
  SetUnknownRank(s);
  p[1] = IsUnknownRank(s) * 10 + s.GetDim(0);
  SetUnknownShape(3, s);
  p[2] = IsUnknownShape(s) * 100 + static_cast<int64_t>(s.GetDimNum()) * 10 - s.GetDim(2);
  gert::StorageShape st(gert::Shape{2, 3});
  st.MutableShape().AppendDim(7);
  st.MutableStorageShape().SetScalar();
  p[3] = st.GetShape().GetShapeSize() * 10 + st.GetStorageShape().IsScalar();
  p[4] = IsUnknownShape(gert::Shape{1, 2}) * 10 + IsUnknownRank(gert::Shape{-2, 1});"""
    host = _host(code, '#include "op_common/op_host/util/shape_util.h"\n')
    r = kernel(WRITE8, X, OUT8, host=host).ok()
    assert list(r.outputs["z"][:5]) == [101, 8, 131, 421, 0]


def test_math_helpers(kernel):
    code = """using namespace Ops::Base;
  SplitResult a, b, c;
  const char text[] = "ascend-gym";
  p[0] = static_cast<int64_t>(LastPow2(100) * 1000 + LastPow2(0));
  p[1] = SplitIntoEqualByParts(10, 4, a) * 1000 + a.splitCount * 100 + a.splitFactor * 10 + a.splitTailFactor;
  p[2] = SplitIntoEqualByFactor(10, 4, b) * 1000 + b.splitCount * 100 + b.splitFactor * 10 + b.splitTailFactor;
  p[3] = SplitIntoEqualByFactor(3, 4, c) * 1000 + c.splitCount * 100 + c.splitFactor * 10 + c.splitTailFactor;
  p[4] = SplitIntoEqualByParts(0, 4, c);
  p[5] = MurmurHash(text, 10);
  p[6] = MurmurHash(text, 8, 7);"""
    host = _host(code, '#include "op_common/op_host/util/math_util.h"\n')
    r = kernel(WRITE8, X, OUT8, host=host).ok()
    z = [int(v) for v in r.outputs["z"][:7]]
    assert z[:5] == [64001, 1431, 1342, 1103, 0]
    assert z[5:] == [murmur(b"ascend-gym"), murmur(b"ascend-g", 7)]


def test_compute_node_info_and_context_getters(kernel):
    code = """const gert::ComputeNodeInfo* node = ctx->GetComputeNodeInfo();
  ctx->SetScheduleMode(1); ctx->SetTilingCond(5); ctx->SetNeedAtomic(true); ctx->SetLocalMemorySize(4096);
  p[0] = node->GetInputsNum() * 10 + node->GetOutputsNum();
  p[1] = ctx->GetScheduleMode() * 100 + ctx->GetTilingCond() * 10 + ctx->NeedAtomic();
  p[2] = ctx->GetLocalMemorySize();
  p[3] = node->GetAttrs()->GetAttrNum() > 0 && std::string(node->GetNodeType()) == ctx->GetNodeType();"""
    host = _host(code, "#include <string>\n")
    r = kernel(
        WRITE8, {"x": np.zeros(8, np.float32), "y": np.zeros(8, np.float32)}, OUT8, host=host
    )
    assert list(r.ok().outputs["z"][:4]) == [21, 151, 4096, 1]


def test_logging_and_check_macros_run_their_actions(kernel):
    # Every form compiles with and without variadic arguments (the `##` forms); the checks run
    # their action: n == 0 and n > 3 fail the tiling, n == 2 passes.
    code = """const int64_t n = p[0];
  D_OP_LOGI(ctx, "info %ld", n);
  D_OP_LOGW(ctx, "no arguments");
  OP_LOGE_LIBOPAPI_REPORT(ctx->GetNodeName(), "plain report");
  OP_LOGI_IF_RETURN(n == 0, ge::GRAPH_FAILED, ctx, "nothing to do");
  OP_TILING_CHECK(n > 3, D_OP_LOGE(ctx, "n is %ld, at most %d", n, 3), return ge::GRAPH_FAILED);
  OP_CHECK_IF(n < 0, D_OP_LOGE(ctx, "negative"), return ge::GRAPH_FAILED);"""
    host = _host(code, '#include "error_util.h"\n')
    ok = kernel(WRITE8, X, OUT8, host=host, params=[2]).ok()
    assert int(ok.outputs["z"][0]) == 2
    for n in (0, 5):
        r = kernel(WRITE8, X, OUT8, host=host, params=[n])
        assert r.status == "TILING_ERROR" and "GRAPH_FAILED" in r.message


def test_kernel_math_util(kernel):
    body = """GlobalTensor<int64_t> zg; zg.SetGlobalBuffer((__gm__ int64_t*)z, 8);
  using namespace Ops::Base;
  zg.SetValue(0, CeilDiv<uint8_t>(250, 100));
  zg.SetValue(1, CeilAlign<uint16_t>(65000, 1024));  // 65536 wraps to 0 in uint16_t
  zg.SetValue(2, CeilAlign<uint32_t>(1000, 64));
  zg.SetValue(3, FloorAlign<int32_t>(1000, 64));
  zg.SetValue(4, FloorDiv<int64_t>(-7, 2));
  zg.SetValue(5, CeilDiv<int64_t>(7, 2));"""
    r = kernel(body, X, OUT8, prelude='#include "op_kernel/math_util.h"').ok()
    assert list(r.outputs["z"][:6]) == [3, 0, 1024, 960, -3, 4]


def test_platform_and_matmul_tiling_queries(kernel):
    # The preset's AIV cores are twice its AIC cores (A2 parts). CalcTschNumBlocks pairs each AIC with two AIVs and
    # refuses (0) more blocks than AICs; SetSimdNumBlocks is the block dim's newer setter.
    code = """platform_ascendc::PlatformAscendC plat(ctx->GetPlatformInfo());
  const uint32_t aic = plat.GetCoreNumAic(), aiv = plat.GetCoreNumAiv();
  p[0] = plat.CalcTschNumBlocks(aiv, aic, aiv) * 1000 + plat.CalcTschNumBlocks(60 * 2, aic, aiv);
  p[1] = plat.CalcTschBlockDim(7, aic, aiv) * 10 + plat.GetVecRegLen();
  matmul_tiling::MultiCoreMatmulTiling mt(plat);
  p[2] = mt.GetBaseM();
  mt.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
  mt.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
  mt.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
  mt.SetShape(64, 48, 96); mt.SetOrgShape(64, 48, 96);
  optiling::TCubeTiling cube;
  p[3] = mt.GetTiling(cube);
  p[4] = mt.GetBaseM() * 1000000 + mt.GetBaseN() * 1000 + mt.GetBaseK();
  p[5] = aic * 1000 + aiv;
  ctx->SetSimdNumBlocks(3);"""
    host = _host(code, '#include "tiling/tiling_api.h"\n').replace(
        "ctx->SetBlockDim(static_cast<uint32_t>(*attrs->GetInt(1)));", ""
    )
    r = kernel("if (GetBlockIdx() != 0) return;\n" + WRITE8, X, OUT8, host=host).ok()
    aic, aiv = divmod(int(r.outputs["z"][5]), 1000)
    assert aiv == 2 * aic and 60 > aic
    assert list(r.outputs["z"][:5]) == [aic * 1000, 40, -1, 0, 64048064]
    assert r.result["block_dim"] == 3


def test_bfloat16_rounds_to_nearest_even_and_keeps_nan_quiet(kernel):
    code = """using Ops::Base::bfloat16;
  p[0] = bfloat16(1.00390625f).value;   // 0x3F808000: a tie, the even 0x3F80 stays
  p[1] = bfloat16(1.01171875f).value;   // 0x3F818000: a tie, odd 0x3F81 rounds up
  p[2] = bfloat16(std::nanf("")).value; // any NaN becomes the quiet 0x7FC0
  p[3] = bfloat16(-2.0).value;          // from double
  uint16_t bits = 0x4049;               // the op base reinterprets attribute bits
  p[4] = static_cast<int64_t>(1e6f * float(*reinterpret_cast<bfloat16*>(&bits)));
  p[5] = bfloat16().IsZero() && bfloat16(-0.0f).IsZero();"""
    words = tiling_words(kernel, '#include <cmath>\n#include "util/bfloat16.h"\n', code)
    assert words[:6] == [0x3F80, 0x3F82, 0x7FC0, 0xC000, 3140625, 1]


def test_a_shape_of_one_dim_reads_its_missing_dim_as_zero(kernel):
    # The library reads dims 0 and 1 whatever the shape holds (pdist passes [n] with pattern R):
    # its checks fail (logged) and the RA formula runs with last = 0.
    code = """uint32_t mx = 9, mn = 9;
  AscendC::GetReduceSumMaxMinTmpSize(ge::Shape({1000}), ge::DT_FLOAT, AscendC::ReducePattern::R, true, false, mx, mn);
  p[0] = mx; p[1] = mn;
  AscendC::GetReduceMaxMaxMinTmpSize(ge::Shape({3, 8, 5}), ge::DT_FLOAT, AscendC::ReducePattern::RA, true, false, mx, mn);
  p[2] = mx;  // dims past the second are not read: RA over [3, 8]"""
    words = tiling_words(kernel, '#include "tiling/tiling_api.h"\n', code)
    assert words[:3] == [0, 0, 2 * 32]
