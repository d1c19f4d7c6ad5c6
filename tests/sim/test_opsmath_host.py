"""hicann/ops-math's host headers: the op base's bfloat16 (util/bfloat16.h), its template
registry (op_host/math_tiling_templates_registry.h over op_host/tiling_base_class.h), the
platform description's memory sizes (fe::PlatFormInfos::GetLocalMemSize), and the high-level
APIs' host tiling sizes (Sin/Cos, Power, the pattern reduces) as asc-devkit computes them; on the
kernel side, what the device build compiles away (ASCENDC_ASSERT, KERNEL_LOG) and the generated
tiling header's `__tiling_data_ptr__`; the op base's atvoss DAG vocabulary and its elementwise
tiling, which refuses the arch35 regbase tiling it cannot emulate."""

import numpy as np
from conftest import HOST

# The kernel writes the eight tiling words the host filled.
WORDS = """GET_TILING_DATA(t, tiling); GlobalTensor<int64_t> zg; zg.SetGlobalBuffer((__gm__ int64_t*)z, 8);
  for (int i = 0; i < 8; ++i) zg.SetValue(i, t.p[i]);"""


def _words(kernel, includes: str, code: str) -> list[int]:
    """The tiling words after `code` (host C++ filling int64_t p[8]) ran in the tiling function."""
    host = includes + HOST.replace("  t.set_p(p);", code + "\n  t.set_p(p);")
    r = kernel(WORDS, {"x": np.zeros(8, np.float32)}, {"z": ("int64", (8,))}, host=host).ok()
    return [int(v) for v in r.outputs["z"]]


def test_bfloat16_rounds_to_nearest_even_and_keeps_nan_quiet(kernel):
    code = """using Ops::Base::bfloat16;
  p[0] = bfloat16(1.00390625f).value;   // 0x3F808000: a tie, the even 0x3F80 stays
  p[1] = bfloat16(1.01171875f).value;   // 0x3F818000: a tie, odd 0x3F81 rounds up
  p[2] = bfloat16(std::nanf("")).value; // any NaN becomes the quiet 0x7FC0
  p[3] = bfloat16(-2.0).value;          // from double
  uint16_t bits = 0x4049;               // the op base reinterprets attribute bits
  p[4] = static_cast<int64_t>(1e6f * float(*reinterpret_cast<bfloat16*>(&bits)));
  p[5] = bfloat16().IsZero() && bfloat16(-0.0f).IsZero();"""
    words = _words(kernel, '#include <cmath>\n#include "util/bfloat16.h"\n', code)
    assert words[:6] == [0x3F80, 0x3F82, 0x7FC0, 0xC000, 3140625, 1]


def test_sin_cos_and_power_tmp_sizes_follow_asc_devkit(kernel):
    includes = '#include "lib/math/sin_tiling.h"\n#include "lib/math/cos_tiling.h"\n'
    code = """uint32_t mx = 0, mn = 0, nodes = 0, extra = 0;
  AscendC::GetSinMaxMinTmpSize(ge::Shape({1024}), 4, false, mx, mn); p[0] = mx; p[1] = mn;
  AscendC::GetCosMaxMinTmpSize(ge::Shape({1024}), 2, false, mx, mn); p[2] = mx; p[3] = mn;
  AscendC::GetSinMaxMinTmpSize(ge::Shape({10}), 4, true, mx, mn); p[4] = mx * 100000 + mn;
  AscendC::GetCosMaxMinTmpSize(ge::Shape({10}), 2, true, mx, mn); p[5] = mx + mn;  // half cannot reuse
  AscendC::GetPowerMaxMinTmpSize(ge::Shape({1024}), ge::Shape({1}), false, 4, false, mx, mn);
  p[6] = mx * 100000 + mn;
  AscendC::GetPowerTmpBufferFactorSize(true, true, false, 2, nodes, extra); p[7] = nodes * 1000 + extra;"""
    words = _words(kernel, includes, code)
    # Sin fp32: 3 float buffers of the input (max) or of one 256 B repeat (min); Cos fp16: 8;
    # reusing the fp32 source saves one. Power fp32 tensor^scalar: 5 nodes + a repeat, min 5 + 1
    # repeats; fp16 tensor^tensor: 14 nodes and a 256 B extra.
    assert words == [12288, 768, 16384, 2048, 512 * 100000 + 512, 0, 20736 * 100000 + 1536, 14256]


def test_pattern_reduce_tmp_sizes_follow_asc_devkit(kernel):
    code = """uint32_t mx = 0, mn = 0;
  using AscendC::ReducePattern;
  AscendC::GetReduceSumMaxMinTmpSize(ge::Shape({8, 1000}), ge::DT_FLOAT, ReducePattern::AR, true, false, mx, mn);
  p[0] = mx;  // 8 rows x a 512 split of the axis, in float
  AscendC::GetReduceSumMaxMinTmpSize(ge::Shape({4, 64}), ge::DT_FLOAT, ReducePattern::AR, true, false, mx, mn);
  p[1] = mx;  // a row of one repeat needs none
  AscendC::GetReduceMeanMaxMinTmpSize(ge::Shape({16, 10}), ge::DT_FLOAT, ReducePattern::RA, true, false, mx, mn);
  p[2] = mx;  // 16 rows split in halves of 8, each padded to 16 floats
  AscendC::GetReduceMaxMaxMinTmpSize(ge::Shape({8, 100}), ge::DT_FLOAT16, ReducePattern::AR, true, false, mx, mn);
  p[3] = mx;  // less than a repeat per row: a block per row
  AscendC::GetReduceMinMaxMinTmpSize(ge::Shape({5, 10}), ge::DT_FLOAT, ReducePattern::RA, true, true, mx, mn);
  p[4] = mx;  // reusing the source needs none
  AscendC::GetReduceProdMaxMinTmpSize(ge::Shape({3, 16}), ge::DT_FLOAT, ReducePattern::AR, true, false, mx, mn);
  p[5] = mx;
  AscendC::GetReduceAnyMaxMinTmpSize(ge::Shape({2, 40}), ge::DT_UINT8, ReducePattern::AR, true, false, mx, mn);
  p[6] = mx;  // a uint16 copy of the padded row and a block per row
  mx = 7;
  AscendC::GetReduceSumMaxMinTmpSize(ge::Shape({1000}), ge::DT_FLOAT16, ReducePattern::AR, true, false, mx, mn);
  p[7] = mx;  // a type the A2's ReduceSum does not take leaves the sizes as they were"""
    words = _words(kernel, '#include "tiling/tiling_api.h"\n', code)
    assert words == [16384, 0, 512, 256, 0, 384, 192, 7]


def test_a_shape_of_one_dim_reads_its_missing_dim_as_zero(kernel):
    # The library reads dims 0 and 1 whatever the shape holds (pdist passes [n] with pattern R):
    # its checks fail (logged) and the RA formula runs with last = 0.
    code = """uint32_t mx = 9, mn = 9;
  AscendC::GetReduceSumMaxMinTmpSize(ge::Shape({1000}), ge::DT_FLOAT, AscendC::ReducePattern::R, true, false, mx, mn);
  p[0] = mx; p[1] = mn;
  AscendC::GetReduceMaxMaxMinTmpSize(ge::Shape({3, 8, 5}), ge::DT_FLOAT, AscendC::ReducePattern::RA, true, false, mx, mn);
  p[2] = mx;  // dims past the second are not read: RA over [3, 8]"""
    words = _words(kernel, '#include "tiling/tiling_api.h"\n', code)
    assert words[:3] == [0, 0, 2 * 32]


def test_platform_infos_report_whole_memories_and_ascendc_what_is_left(kernel):
    code = """uint64_t whole = 0, left = 0;
  ctx->GetPlatformInfo()->GetLocalMemSize(fe::LocalMemType::UB, whole);
  platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo()).GetCoreMemSize(platform_ascendc::CoreMemType::UB, left);
  p[0] = whole; p[1] = left;
  ctx->GetPlatformInfo()->GetLocalMemSize(fe::LocalMemType::L0_C, whole); p[2] = whole;"""
    words = _words(kernel, '#include "platform/platform_infos_def.h"\n', code)
    assert words[:3] == [196608, 196608 - 256, 128 * 1024]


# Two templates of our own under the ops-math registry: priority 0 declines, priority 5 tiles.
MATH_TEMPLATES = """#include "op_host/math_tiling_templates_registry.h"

namespace optiling {
using namespace Ops::Base;

class SimkBase : public TilingBaseClass {
 public:
  SimkBase(gert::TilingContext* context, int64_t mark, bool capable)
      : TilingBaseClass(context), mark_(mark), capable_(capable) {}

 protected:
  bool IsCapable() override { return capable_; }
  ge::graphStatus GetPlatformInfo() override { return ge::GRAPH_SUCCESS; }
  ge::graphStatus GetShapeAttrsInfo() override { return ge::GRAPH_SUCCESS; }
  ge::graphStatus DoOpTiling() override {
    SimkTilingData t;
    int64_t p[8] = {mark_};
    t.set_p(p);
    t.SaveToBuffer(context_->GetRawTilingData()->GetData(), context_->GetRawTilingData()->GetCapacity());
    context_->GetRawTilingData()->SetDataSize(t.GetDataSize());
    context_->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus DoLibApiTiling() override { return ge::GRAPH_SUCCESS; }
  uint64_t GetTilingKey() const override { return 0; }
  ge::graphStatus GetWorkspaceSize() override {
    context_->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus PostTiling() override { return ge::GRAPH_SUCCESS; }

 private:
  int64_t mark_;
  bool capable_;
};
struct Declines : SimkBase { explicit Declines(gert::TilingContext* c) : SimkBase(c, 100, false) {} };
struct Tiles : SimkBase { explicit Tiles(gert::TilingContext* c) : SimkBase(c, 5, true) {} };

REGISTER_OPS_TILING_TEMPLATE(Simk, Tiles, 5);
REGISTER_OPS_TILING_TEMPLATE(Simk, Declines, 0);

static ge::graphStatus SimkTiling(gert::TilingContext* ctx) {
  return Ops::Math::OpTiling::TilingRegistry::GetInstance().DoTilingImpl(ctx);
}
}  // namespace optiling
"""


def test_the_ops_math_registry_runs_templates_by_priority(kernel):
    tiling = HOST[HOST.index("namespace optiling {") : HOST.index("namespace ops {")]
    host = HOST.replace(tiling, MATH_TEMPLATES)
    r = kernel(WORDS, {"x": np.zeros(8, np.float32)}, {"z": ("int64", (8,))}, host=host).ok()
    assert r.outputs["z"][0] == 5  # Declines (priority 0) passed the tiling on


def test_device_build_compiles_away_the_library_checks(kernel):
    # ASCENDC_ASSERT and KERNEL_LOG are empty in the device build: a false condition does not
    # stop the kernel and the log's level names need not exist. `__tiling_data_ptr__` is the
    # generated tiling header's qualifier for GET_TILING_DATA_PTR_WITH_STRUCT's pointer.
    prelude = """#include "lib/math/sin.h"
__aicore__ inline int64_t First(__tiling_data_ptr__ SimkTilingData* t) { return t->p[0]; }"""
    body = """GET_TILING_DATA_PTR_WITH_STRUCT(SimkTilingData, t, tiling);
  ASCENDC_ASSERT(false, { KERNEL_LOG(KERNEL_ERROR, "never %d", undeclared_name); });
  GlobalTensor<int64_t> zg; zg.SetGlobalBuffer((__gm__ int64_t*)z, 8);
  zg.SetValue(0, First(t) + 1);"""
    r = kernel(
        body, {"x": np.zeros(8, np.float32)}, {"z": ("int64", (8,))}, params=[41], prelude=prelude
    ).ok()
    assert r.outputs["z"][0] == 42


# An elementwise DAG of our own in the op base's atvoss vocabulary: y = |x| < 4 as uint8.
ATVOSS_DAG = """#include "atvoss/util/dag.h"
#include "atvoss/util/vec.h"
#include "atvoss/util/placeholder.h"
#include "atvoss/elewise/elewise_tiling.h"
namespace simk_dag {
using namespace Ops::Base;
template <typename U, typename T = float>
struct BelowFour {
  using Four = MAKE_CONST(T, 4.0f);
  using One = MAKE_CONST(uint8_t, 1);
  using Zero = MAKE_CONST(uint8_t, 0);
  using Ones = Bind<Vec::Duplicate<uint8_t>, One>;
  using Abs = Bind<Vec::Abs<T>, Bind<Vec::Cast<T, U, 0>, Bind<Vec::CopyIn<U>, Placeholder::In0<U>>>>;
  using Mask = Bind<Vec::Compare<uint8_t, T, 0>, Abs, Four>;
  using Picked = Bind<Vec::Select<uint8_t, uint8_t, 1>, Mask, Ones, Zero>;
  using OpDag = DAGSch<Elems<Bind<Vec::CopyOut<uint8_t>, Placeholder::Out0<uint8_t>, Picked>>, void,
                       MemOptCfg<MemLevel::LEVEL_2>>;
};
}  // namespace simk_dag
"""


def test_atvoss_dag_vocabulary_describes_an_elementwise_op_as_types(kernel):
    code = """using Dag = simk_dag::BelowFour<Ops::Base::half>;
  using Out = Dag::OpDag::OutList;
  p[0] = Out::Size;
  p[1] = static_cast<int64_t>(Dag::OpDag::MemOpt::memoryLevel);
  p[2] = static_cast<int64_t>(Dag::Four::Value);
  p[3] = Dag::Picked::ArgList::Size;
  p[4] = sizeof(Dag::Abs::DType) * 10 + sizeof(Dag::Mask::DType);  // float, then a uint8_t mask
  p[5] = Ops::Base::IsRegbaseSocVersion(ctx);  // no A2 preset is one: A2 tilings skip DoTiling
  p[6] = sizeof(Ops::Base::EleBaseTilingDataV2);  // the layout the arch35 kernels read
  p[7] = Placeholder::Out0<uint8_t>::Position + 10 * Placeholder::In<3, float>::Position;"""
    includes = ATVOSS_DAG + '#include "op_host/tiling_base_util.h"\nusing namespace Ops::Base;\n'
    words = _words(kernel, includes, code)
    assert words == [1, 2, 4, 3, 41, 0, 80, 30]


def test_elewise_base_tiling_refuses_the_regbase_tiling(kernel):
    # Called, DoTiling names what is missing instead of returning made-up numbers.
    code = """Ops::Base::EleBaseTilingDataV2 data{};
  if (Ops::Base::ElewiseBaseTiling(ctx).DoTiling<simk_dag::BelowFour<float>::OpDag>(data) ==
      ge::GRAPH_SUCCESS)
    p[1] = data.blockNum;"""
    host = ATVOSS_DAG + HOST.replace("  t.set_p(p);", code + "\n  t.set_p(p);")
    r = kernel(WORDS, {"x": np.zeros(8, np.float32)}, {"z": ("int64", (8,))}, host=host)
    assert r.status == "TILING_ERROR"
    assert "ElewiseBaseTiling::DoTiling" in r.message and "is not emulated" in r.message
