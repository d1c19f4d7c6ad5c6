"""OpenEvolve adapter: program mapping, evaluator rules, the offline endpoint, and a tiny offline run."""

from __future__ import annotations

import dataclasses
import json
import random
import threading
import urllib.request

import gymnasium as gym
import pytest
import yaml

pytest.importorskip("openevolve")

import ascend_gym  # noqa: F401, E402  (registers AscendOp-v0)
from ascend_core import suite  # noqa: E402
from ascend_gym.env import AscendOpEnv  # noqa: E402
from baselines.openevolve import evaluator  # noqa: E402
from baselines.openevolve import program as program_io  # noqa: E402
from baselines.openevolve.policy import (  # noqa: E402
    DEFAULT_CONFIG,
    OpenEvolvePolicy,
    evaluator_settings,
)
from baselines.openevolve.server import OfflineDiffProposer, OfflineLLMServer  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def ray_session():
    import ray

    started = not ray.is_initialized()  # an earlier in-process bench may have left it running
    if started:
        ray.init(include_dashboard=False, log_to_driver=False, num_cpus=2)
    yield
    if started:
        ray.shutdown()


def test_yaml_sets_every_openevolve_config_value():
    from openevolve import config as oe

    data = yaml.safe_load(DEFAULT_CONFIG.read_text())
    sections = {
        "llm": oe.LLMConfig,
        "prompt": oe.PromptConfig,
        "database": oe.DatabaseConfig,
        "evaluator": oe.EvaluatorConfig,
        "evolution_trace": oe.EvolutionTraceConfig,
    }
    assert {f.name for f in dataclasses.fields(oe.Config)} == set(data)
    for name, cls in sections.items():
        assert {f.name for f in dataclasses.fields(cls)} == set(data[name]), name
    loaded = oe.Config.from_yaml(DEFAULT_CONFIG)
    assert loaded.evaluator.parallel_evaluations == 1 and loaded.enforce_evolve_blocks
    assert [m.name for m in loaded.llm.models] == ["ascend-gym-offline"]


def test_program_round_trip_and_evolve_block_rules():
    base = suite.resolve("level1/add")
    program = program_io.compose(base)
    assert program_io.split(program, base).content_hash() == base.content_hash()
    inside = program.replace("TILE_LENGTH = 4096;", "TILE_LENGTH = 8192;")
    program_io.check_blocks(program, inside)
    assert "TILE_LENGTH = 8192;" in program_io.split(inside, base).tiling_source
    outside = program.replace(
        "// Only the text inside", "// Anything goes, not only the text inside"
    )
    with pytest.raises(program_io.ProgramError, match="outside"):
        program_io.check_blocks(program, outside)
    with pytest.raises(program_io.ProgramError, match="markers"):
        program_io.check_blocks(program, program.replace(program_io.END, "", 1))


def test_search_replace_diffs_apply_with_openevolve():
    from openevolve.utils.code_utils import apply_diff_blocks, extract_diffs

    base = suite.resolve("level1/add")
    old = program_io.compose(base).rstrip("\n")
    rng = random.Random(0)
    for _ in range(10):
        new = old.replace("BLOCK_DIM = 40;", f"BLOCK_DIM = {rng.randint(1, 48)};").replace(
            "constexpr int32_t BUFFER_NUM = 2;", "constexpr int32_t BUFFER_NUM = 1;"
        )
        applied, count = apply_diff_blocks(old, extract_diffs(program_io.search_replace(old, new)))
        assert applied == new and count >= 1


def _evaluator_workdir(tmp_path, monkeypatch, daemon: str, run_id: str, budget: int) -> str:
    """The workdir and environment the policy gives the evaluator for level1/add; the program."""
    base = suite.resolve("level1/add")
    program = program_io.compose(base)
    (tmp_path / "baseline.json").write_text(base.model_dump_json())
    (tmp_path / "baseline_us").write_text("100.0")
    (tmp_path / "initial_program.cpp").write_text(program)
    for key, value in {
        "DAEMON": daemon,
        "RUN_ID": run_id,
        "BASELINE_RUN_ID": f"{run_id}/baseline",
        "BUDGET": str(budget),
        "WORKDIR": str(tmp_path),
    }.items():
        monkeypatch.setenv(f"ASCEND_GYM_OE_{key}", value)
    return program


def test_evaluator_rejects_edits_outside_blocks_without_spending(tmp_path, monkeypatch, daemon):
    program = _evaluator_workdir(tmp_path, monkeypatch, daemon, "t-oe-eval", budget=1)
    bad = tmp_path / "bad.cpp"
    bad.write_text(program.replace("// Only the text", "// Not only the text"))
    assert evaluator.evaluate(str(bad)).artifacts["status"] == "REJECTED"
    good = tmp_path / "good.cpp"
    good.write_text(program.replace("TILE_LENGTH = 4096;", "TILE_LENGTH = 2048;"))
    assert evaluator.evaluate(str(good)).metrics["correct"] == 1.0
    other = tmp_path / "other.cpp"
    other.write_text(program.replace("TILE_LENGTH = 4096;", "TILE_LENGTH = 1024;"))
    assert (
        evaluator.evaluate(str(other)).metrics.get("budget_exhausted") == 1.0
    )  # budget 1 is spent
    logged = evaluator.read_log(tmp_path)
    assert [e["charged"] for e in logged] == [True]
    assert logged[0]["head_us"] > 0  # the head of its latency, which the policy's best carries


def test_a_stopped_run_waits_for_the_evaluation_in_flight_to_be_logged(
    tmp_path, monkeypatch, daemon
):
    """The daemon charges a reply before the worker logs it: `stop_and_drain` returns only once
    the submission in flight is logged, and after it nothing more is submitted. A marker left by
    a dead process does not hold the stop up."""
    program = _evaluator_workdir(tmp_path, monkeypatch, daemon, "t-oe-drain", budget=5)
    (tmp_path / evaluator.INFLIGHT).mkdir()
    (tmp_path / evaluator.INFLIGHT / "4194304-gone").touch()  # 2**22, above any pid: a dead process
    # Stopped once the submission is past its own look at the stop (a stop written before that is
    # seen, and the submission ends STOPPED: the other outcome the protocol allows).
    submitted = threading.Event()

    def connect(address: str):
        client = real_connect(address)
        real_evaluate = client.evaluate

        def evaluate(request):
            submitted.set()
            return real_evaluate(request)

        client.evaluate = evaluate
        return client

    real_connect = evaluator.connect
    monkeypatch.setattr(evaluator, "connect", connect)
    candidate = tmp_path / "c.cpp"
    candidate.write_text(program.replace("TILE_LENGTH = 4096;", "TILE_LENGTH = 1536;"))
    worker = threading.Thread(target=evaluator.evaluate, args=(str(candidate),))
    worker.start()
    assert submitted.wait(timeout=120)
    evaluator.stop_and_drain(tmp_path, timeout_s=300)
    assert [e["charged"] for e in evaluator.read_log(tmp_path)] == [True]
    worker.join()
    later = tmp_path / "d.cpp"
    later.write_text(program.replace("TILE_LENGTH = 4096;", "TILE_LENGTH = 3072;"))
    assert evaluator.evaluate(str(later)).artifacts["status"] == "STOPPED"
    assert len(evaluator.read_log(tmp_path)) == 1


def test_evaluator_times_the_baseline_as_the_env_did_on_a_daemon_that_requires_run_tokens(
    tmp_path, monkeypatch, token_daemon
):
    """The initial program is the env's baseline: served under the env's runs (with their tokens)
    and timed as the env timed it (here warm), it passes and scores exactly 1.0."""
    env = AscendOpEnv(operator="level1/add", budget=1, daemon=token_daemon, timing_protocol="warm")
    try:
        env.reset(seed=0)
        for key, value in evaluator_settings(env.episode, tmp_path).items():
            monkeypatch.setenv(key, value)
        (tmp_path / "baseline.json").write_text(env.package.model_dump_json())
        (tmp_path / "baseline_us").write_text(repr(env.baseline_us))
        initial = tmp_path / "initial_program.cpp"
        initial.write_text(program_io.compose(env.package))
        scored = evaluator.evaluate(str(initial)).metrics
        assert (scored["correct"], scored["speedup"]) == (1.0, 1.0)
    finally:
        env.close()


def test_offline_endpoint_answers_openevolve_prompts_with_diffs():
    base = suite.resolve("level1/add")
    program = program_io.compose(base)
    server = OfflineLLMServer(base, seed=0)
    try:
        prompt = f"# Current Program\n```cpp\n{program.rstrip()}\n```\n\n# Task\nImprove it."
        request = urllib.request.Request(
            server.base_url + "/chat/completions",
            method="POST",
            data=json.dumps(
                {"model": "x", "messages": [{"role": "user", "content": prompt}]}
            ).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=30) as reply:
            content = json.loads(reply.read())["choices"][0]["message"]["content"]
    finally:
        server.close()
    assert "<<<<<<< SEARCH" in content and ">>>>>>> REPLACE" in content


def test_offline_endpoint_never_proposes_a_program_twice():
    """Asked again and again about the same parent (OpenEvolve samples the baseline often), the
    endpoint answers with a program it has not proposed before, until it has none: a repeat would
    be a free cache hit that the gateway's cap counts against the model."""
    base = suite.resolve("level1/relu")
    program = program_io.compose(base)
    proposer = OfflineDiffProposer(base, seed=0)
    prompt = [{"role": "user", "content": f"# Current Program\n```cpp\n{program.rstrip()}\n```"}]
    answers = [proposer.answer(prompt) for _ in range(30)]
    diffs = [a.partition("\n\n")[2] for a in answers if "<<<<<<< SEARCH" in a]
    assert len(diffs) >= 20 and len(set(diffs)) == len(diffs)
    assert len(proposer.proposed) == len(diffs) + 1  # and the baseline


def _real_relu():
    """A relu of ours in cann-ops' layout (tests/agents/real_layouts): its template's knobs and
    the kernel rewrites give about 40 distinct candidates."""
    from pathlib import Path

    from ascend_gym.corpus import build_package, find_ops, spec_for

    layouts = Path(__file__).parents[1] / "agents" / "real_layouts"
    (source,) = [s for s in find_ops(layouts) if s.op == "relu"]
    return build_package(source, spec_for(source))


def test_offline_endpoint_says_when_it_has_nothing_new():
    """Past the last new candidate, every answer is nothing new, counted in a row (`dry`): the
    policy reads that as the shared knowledge spent, not as a failing model."""
    base = _real_relu()
    proposer = OfflineDiffProposer(base, seed=0)
    program = program_io.compose(base)
    prompt = [{"role": "user", "content": f"# Current Program\n```cpp\n{program.rstrip()}\n```"}]
    answers = []
    while proposer.dry < 8 and len(answers) < 200:
        answers.append(proposer.answer(prompt))
    assert proposer.dry == 8 and 20 <= len(proposer.proposed) < len(answers)
    assert all("<<<<<<< SEARCH" not in a for a in answers[-8:])


@pytest.mark.slow  # an OpenEvolve run to the end of what the knowledge offers
def test_an_offline_run_that_spends_the_knowledge_ends_with_a_result(daemon, tmp_path):
    """With more budget than distinct candidates, the run stops `exhausted` with what it found
    (as AscendOptimizer and Best-of-N end early), not as a model failure."""
    from ascend_gym.corpus.importer import write_operator

    write_operator(_real_relu(), tmp_path / "relu", "tests/agents/real_layouts")
    env = gym.make(
        "ascend_gym:AscendOp-v0",
        operator=str(tmp_path / "relu"),
        budget=80,
        daemon=daemon,
        run_id="t-oe-exhausted",
    )
    try:
        result = OpenEvolvePolicy().run(env, seed=0)
    finally:
        env.close()
    assert result.stopped_by == "exhausted" and 20 <= result.evaluations < 80
    assert result.best_us <= result.baseline_us


def test_openevolve_offline_run_is_stopped_by_the_ledger_budget(daemon):
    env = gym.make(
        "ascend_gym:AscendOp-v0", operator="level1/add", budget=3, daemon=daemon, run_id="t-oe-run"
    )
    try:
        result = OpenEvolvePolicy().run(env, seed=0)
    finally:
        env.close()
    assert result.stopped_by == "budget" and result.evaluations == 3
    assert sum(not s.cache_hit for s in result.trajectory) == 3
    assert (
        result.best_us <= result.baseline_us
        and result.llm_calls >= 1
        and result.proposer == "offline"
    )
    assert result.model == "ascend-gym-offline"  # the account names the endpoint that answered
    # the head of its own best is known, as the env knows that of its best (reports split by it)
    assert result.best_head_us is not None and 0 < result.best_head_us < result.best_us
