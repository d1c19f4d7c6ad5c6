"""The derived suite ascend-ops-v1-untuned: ascend-ops-v1 without @tune markers, generated (not
copied), on which AscendOptimizer's Stage I must synthesise its own evolvable template."""

from __future__ import annotations

import gymnasium as gym

import ascend_gym  # noqa: F401  (registers AscendOp-v0)
from ascend_core import suite, tune
from ascend_gym.policies import make_policy

UNTUNED = f"{suite.SUITE_NAME}-untuned"


def test_every_untuned_operator_is_its_original_without_markers():
    uris = suite.op_uris(UNTUNED)
    assert len(uris) == len(suite.op_uris()) and uris[0].startswith(f"op://{UNTUNED}/")
    for uri in uris:
        untuned = suite.resolve(uri)
        original = suite.resolve(uri.replace(UNTUNED, suite.SUITE_NAME))
        assert untuned.uri == uri and untuned.spec == original.spec
        assert not tune.find_tunables(untuned.tiling_source)
        assert untuned.tiling_source == tune.strip_markers(original.tiling_source)
        assert untuned.kernel_source == original.kernel_source
    assert suite.load_expert(f"op://{UNTUNED}/level1/add") is not None


def test_stage1_synthesises_a_template_for_an_untuned_operator(daemon):
    env = gym.make(
        "ascend_gym:AscendOp-v0",
        operator=f"op://{UNTUNED}/level1/add",
        budget=2,
        daemon=daemon,
        run_id="t-untuned",
    )
    try:
        policy = make_policy("ascendoptimizer", rounds=1, stage1_steps=2, stage2_steps=0)
        result = policy.run(env, seed=0)
    finally:
        env.close()
    assert result.evaluations == 2 and result.trajectory[0].note.startswith("template:")
    assert result.trajectory[0].status.value == "OK"
