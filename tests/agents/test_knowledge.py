"""The offline knowledge and model settings every policy shares: the same moves reach
AscendOptimizer, Best-of-N and OpenEvolve; policies differ only in how they choose and combine."""

from __future__ import annotations

import random

from agents.ascendoptimizer.bank import Experience, ExperienceBank
from agents.ascendoptimizer.embed import TfidfEmbedder
from agents.ascendoptimizer.policy import AscendOptimizer
from agents.knowledge import Knowledge, KnowledgeConfig, load_experiences
from ascend_core import suite
from ascend_gym import rewrites
from ascend_gym.policies import make_policy
from baselines.best_of_n import BestOfN
from baselines.openevolve.server import OfflineDiffProposer

ADD = "op://ascend-ops-v1/level1/add"


def _names(knowledge: Knowledge, package) -> list[str]:
    return [m.name for m in knowledge.moves(package)]


def test_every_policy_gets_the_same_knowledge_and_settings():
    base = suite.resolve("level1/add")
    configs = {
        name: make_policy(name).config.knowledge
        for name in ("ascendoptimizer", "bon", "openevolve")
    }
    assert len({c.model_dump_json() for c in configs.values()}) == 1
    assert configs["bon"] == KnowledgeConfig() and not configs["bon"].own_operator
    ao, _ = AscendOptimizer().make_proposer(ADD)
    bon = BestOfN()._proposer(0, ADD)
    oe = OfflineDiffProposer(base, seed=0, knowledge=Knowledge(configs["openevolve"], ADD))
    reference = _names(Knowledge(KnowledgeConfig(), ADD), base)
    assert _names(ao.knowledge, base) == _names(bon.knowledge, base) == reference
    assert _names(oe.knowledge, base) == reference
    # All three kinds of knowledge are there: tiling moves, kernel rewrites, transplants (gelu
    # receives mish's expert restructuring).
    gelu = suite.resolve("level1/gelu")
    moves = Knowledge(operator=gelu.uri).moves(gelu)
    assert {m.kind for m in moves} == {"rewrite", "transplant"}
    assert {m.part for m in moves if m.kind == "rewrite"} == {"tiling", "kernel"}
    # Every applicable catalogue rewrite is a move (or yields the package an earlier move does).
    yielded = {m.package.content_hash() for m in moves}
    assert all(r.apply(gelu).content_hash() in yielded for r in rewrites.applicable(gelu))


def test_an_operator_never_gets_its_own_experts_diffs_unless_the_overlap_is_on():
    experiences = load_experiences()
    if not experiences:
        return
    own = experiences[0].operator
    assert all(e.operator != own for e in Knowledge(operator=own).experiences)
    overlap = Knowledge(KnowledgeConfig(own_operator=True), operator=own)
    assert any(e.operator == own for e in overlap.experiences)


def test_random_composition_starts_from_the_given_package_and_says_what_it_did():
    base = suite.resolve("level1/add")
    knowledge, rng = Knowledge(operator=ADD), random.Random(0)
    changed = [knowledge.random_composition(base, rng, 3) for _ in range(40)]
    # Moves can cancel out (x2 then /2), which Best-of-N skips without an evaluation; most do not.
    assert sum(pkg.content_hash() != base.content_hash() for pkg, _ in changed) >= 30
    notes = "; ".join(note for _, note in changed)
    assert "jump" in notes and "double_buffer" in notes or "l2_bypass" in notes
    assert all(pkg.spec == base.spec for pkg, _ in changed)


def test_stage2_ranks_the_kernel_moves_by_the_retrieved_experience(tmp_path):
    experience = Experience(
        title="Bypass L2",
        description="d",
        bottleneck="MTE2-bound",
        code_diff="",
        motif="l2_cache_hint",
        operator="op://ascend-ops-v1/level1/mul",
        fast_us=1.0,
        slow_us=1.2,
    )
    ExperienceBank([experience], TfidfEmbedder()).save(tmp_path)
    proposer, _ = AscendOptimizer(knowledge={"bank_dir": str(tmp_path)}).make_proposer(ADD)
    base = suite.resolve("level1/add")
    ranked = proposer.ranked(base, [(experience, 0.9)])
    assert ranked[0][1].name == "l2_bypass:inputs" and "Bypass L2" in ranked[0][0]
    # Without a retrieval the stage still has the whole kernel knowledge to try.
    rest = proposer.ranked(base, [])
    assert {m.name for _, m in rest} == {m.name for m in proposer.knowledge.of_part(base, "kernel")}
    assert all(m.part == "kernel" for _, m in rest)
