"""Template synthesis on operators of our own written in the real projects' layouts
(tests/agents/real_layouts): a relu tiled as cann-ops tiles (core count and UB size from the
platform), a neg as the competition operators write theirs (a fixed block dim and tile count)
and a matmul as the Matmul samples write theirs (a literal core split and block dim). Each knob
is recognised, every value tried keeps the operator correct, and the policies' shared knowledge
offers the knobs' moves on a program without markers."""

import random
import tempfile
from pathlib import Path

import pytest

from agents import templates
from agents.ascendoptimizer.bank import Experience
from agents.ascendoptimizer.offline import OfflineProposer
from agents.knowledge import Knowledge
from agents.templates import CORE_CAP, MAX_CORES, synthesise
from ascend_core import tune
from ascend_core.package import OperatorPackage
from ascend_core.protocol import EvalRequest, EvalResult, Stage
from ascend_gym import rewrites
from ascend_gym.corpus import build_package, find_ops, spec_for

LAYOUTS = Path(__file__).parent / "real_layouts"


def _packages() -> dict[str, OperatorPackage]:
    return {s.op: build_package(s, spec_for(s)) for s in find_ops(LAYOUTS)}


def _evaluate(package: OperatorPackage, *stages: Stage) -> EvalResult:
    """The package's result on the simulator, which must pass."""
    from npu_daemon.backends.sim import SimBackend

    request = EvalRequest(run_id="t", package=package, stages=[Stage.COMPILE, Stage.CHECK, *stages])
    with tempfile.TemporaryDirectory() as d:
        result = SimBackend().evaluate(request, Path(d))
    assert result.ok, result.message
    return result


def _passes(package: OperatorPackage) -> bool:
    return _evaluate(package).ok


def _knobs(package: OperatorPackage) -> dict[str, tune.Tunable]:
    return {t.name: t for t in tune.find_tunables(synthesise(package.tiling_source))}


def test_platform_reads_become_a_core_cap_and_a_ub_share():
    relu = _packages()["relu"]
    knobs = _knobs(relu)
    assert set(knobs) == {"core_cap", "ub_eighths"}
    assert (knobs["core_cap"].value, knobs["core_cap"].hi) == (CORE_CAP, CORE_CAP)
    assert CORE_CAP >= MAX_CORES  # the unchanged template caps nothing on any part
    assert knobs["ub_eighths"].grid() == [1, 2, 4, 8]
    # The untouched template is the program itself; the markers are comments on new lines.
    assert tune.strip_markers(synthesise(relu.tiling_source)) != relu.tiling_source
    assert synthesise(synthesise(relu.tiling_source)) is None  # marked programs stay as they are


def test_literal_block_dim_and_tile_count_are_marked_in_place():
    neg = _packages()["neg"]
    knobs = _knobs(neg)
    assert set(knobs) == {"block_dim", "tile_num"}
    assert (knobs["block_dim"].value, knobs["block_dim"].lo, knobs["block_dim"].hi) == (
        8,
        1,
        MAX_CORES,
    )
    assert knobs["tile_num"].grid() == [1, 2, 4, 8, 16]


@pytest.mark.parametrize(
    "op,values",
    [
        ("relu", {"core_cap": 1, "ub_eighths": 1}),
        ("relu", {"core_cap": 8, "ub_eighths": 2}),
        ("neg", {"block_dim": MAX_CORES, "tile_num": 1}),
        ("neg", {"block_dim": 3, "tile_num": 16}),
        ("matmul_custom", {"matmul_dim": 6}),
        ("matmul_custom", {"matmul_dim": 40}),
    ],
)
def test_knob_values_keep_the_operator_correct(op, values):
    package = _packages()[op]
    tiling = synthesise(package.tiling_source)
    for name, value in values.items():
        tiling = tune.set_value(tiling, name, value)
    assert {t.name: t.value for t in tune.find_tunables(tiling)} == values
    assert _passes(package.with_sources(tiling=tiling))


def test_a_matmul_core_split_and_its_block_dim_are_one_knob():
    """`SetDim(2)` with `SetBlockDim(1)` (one AIC per two AIV blocks): the split is the knob, in
    steps that keep the block dim whole, and the block dim follows it; the literal block dim is no
    knob of its own, in this tiling or in one whose split is not literal."""
    matmul = _packages()["matmul_custom"]
    (knob,) = _knobs(matmul).values()
    assert (knob.name, knob.value, knob.grid()) == ("matmul_dim", 2, list(range(2, 49, 2)))
    tiling = synthesise(matmul.tiling_source)
    assert "SetBlockDim(tuneMatmulDim * 1 / 2)" in tiling
    two = _evaluate(matmul.with_sources(tiling=tiling), Stage.TIME).latency_us
    forty = tune.set_value(tiling, "matmul_dim", 40)
    assert _evaluate(matmul.with_sources(tiling=forty), Stage.TIME).latency_us < two / 2
    # "Every vector core" sets the split to the SoC's AIV count, the block dim following it.
    every = rewrites.by_name("block_dim:cores").apply(matmul.with_sources(tiling=tiling))
    assert every.tiling_source == forty
    from_platform = matmul.tiling_source.replace(
        "cubeTiling.SetDim(2);", "cubeTiling.SetDim(ascendcPlatform.GetCoreNumAiv());"
    )
    assert set(_knobs(matmul.with_sources(tiling=from_platform))) == {"core_cap"}


def test_a_core_count_read_into_a_reference_parameter_is_capped():
    """Tilings that read the core count in a helper through an out parameter (`int64_t&`): the
    cap takes the count's value type, so the template compiles and caps."""
    relu = _packages()["relu"]
    helper = (
        "static void ReadCores(platform_ascendc::PlatformAscendC& platform, int64_t& coreNum) {\n"
        "  coreNum = platform.GetCoreNumAiv();\n}\n\n"
    )
    source = relu.tiling_source.replace(
        "static ge::graphStatus TilingFunc", helper + "static ge::graphStatus TilingFunc"
    ).replace(
        "auto coreNum = ascendcPlatform.GetCoreNumAiv();",
        "int64_t coreNum = 0;\n  ReadCores(ascendcPlatform, coreNum);",
    )
    tiling = tune.set_value(synthesise(source), "core_cap", 8)
    assert "core_cap" in {t.name for t in tune.find_tunables(tiling)}
    assert _passes(relu.with_sources(tiling=tiling))


@pytest.mark.parametrize(
    "read",
    [
        # A vector tiling that also reads the cube count and never uses it (cann-ops abs).
        "auto aicNum = ascendcPlatform.GetCoreNumAic();\n  auto coreNum = ascendcPlatform.GetCoreNumAiv();",
        "const uint32_t coreNum = static_cast<uint32_t>(ascendcPlatform.GetCoreNumAiv());",
        # Read into a struct through a temporary platform object (ops-nn's capability structs).
        "struct { int64_t aiv; } caps;\n"
        "  caps.aiv = platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAiv();\n"
        "  const uint32_t coreNum = static_cast<uint32_t>(caps.aiv);",
    ],
)
def test_the_cap_bounds_the_core_count_wherever_the_tiling_reads_it(read):
    """Real tilings read the core count in many forms; each is capped, and the cap sets how
    many cores the operator launches."""
    relu = _packages()["relu"]
    source = relu.tiling_source.replace("auto coreNum = ascendcPlatform.GetCoreNumAiv();", read)
    tiling = tune.set_value(synthesise(source), "core_cap", 2)
    result = _evaluate(relu.with_sources(tiling=tiling), Stage.TIME)
    assert result.profile.block_dim == 2


def test_every_policy_knows_the_knobs_of_an_unmarked_tiling():
    relu = _packages()["relu"]
    knowledge = Knowledge(operator=relu.uri)
    names = {m.name for m in knowledge.moves(relu)}
    assert {"template core_cap:/2", "template ub_eighths:/2"} <= names
    jump = knowledge.jump(relu, random.Random(0))
    assert jump is not None and tune.find_tunables(jump.package.tiling_source)
    # AscendOptimizer's Stage I template: the knobs, not every integer constant.
    proposal = OfflineProposer(knowledge).template(relu)
    assert [t.name for t in tune.find_tunables(proposal.package.tiling_source)] == [
        "core_cap",
        "ub_eighths",
    ]


def test_a_tiling_without_real_knobs_gets_its_constants_as_every_policys_template():
    """Where no real knob is found (here a tiling that splits a UB size by its own CALC_BUF_NUM),
    the shared template marks the integer constants, so Best-of-N and OpenEvolve get the moves
    AscendOptimizer's Stage I gets, instead of none."""
    tiling = (
        "static constexpr int32_t CALC_BUF_NUM = 8;\n"
        "uint32_t PerTile(uint32_t ubSize) { return ubSize / CALC_BUF_NUM / 4; }\n"
    )
    assert synthesise(tiling) is None
    marked = templates.template(tiling)
    assert marked.of == "integer constants"
    assert [t.name for t in tune.find_tunables(marked.tiling)] == ["calc_buf_num"]
    relu = _packages()["relu"]
    knobs_first = templates.template(relu.tiling_source)
    assert knobs_first == (synthesise(relu.tiling_source), "knobs")
    package = relu.with_sources(tiling=tiling)
    knowledge = Knowledge(operator=relu.uri)
    jump = knowledge.jump(package, random.Random(0))
    assert jump is not None and jump.name.startswith("jump calc_buf_num:")
    proposal = OfflineProposer(knowledge).template(package)
    assert (
        proposal.note == "template: @tune markers on the tiling's integer constants (calc_buf_num)"
    )


def test_stage_ii_ranks_the_vectorised_loops_by_a_retrieved_scalar_bound_experience():
    """An experience of the motif "Vectorise the scalar loop" (the rewind's form of it) points
    Stage II at the catalogue's rewrite of real kernels' scalar loops first."""
    add = _packages()["add_v2"]
    experience = Experience(
        title="Vectorise the scalar loop",
        description="",
        bottleneck="scalar-bound",
        code_diff="",
        motif="vector_intrinsics",
        operator="level1/relu",
        fast_us=1.0,
        slow_us=2.0,
    )
    proposer = OfflineProposer(Knowledge(operator=add.uri))
    (why, first), *_ = proposer.ranked(add, [(experience, 0.9)])
    assert first.name == "scalar_loops_to_vector" and "Vectorise the scalar loop" in why
