"""AscendOptimizer end to end against the embedded simulator daemon (tiny budgets):
a scripted fake model drives Stage I and Stage II through prompt -> reply -> parse -> evaluate,
the record/replay cache reproduces a run exactly, and the offline proposer runs the whole method
on three suite operators."""

from __future__ import annotations

import json
import re

import gymnasium as gym
import pytest

import ascend_gym  # noqa: F401  (registers AscendOp-v0)
from agents.ascendoptimizer.bank import DEFAULT_BANK_DIR, Experience, ExperienceBank
from agents.ascendoptimizer.embed import TfidfEmbedder
from agents.ascendoptimizer.offline import OfflineProposer
from agents.ascendoptimizer.policy import AscendOptimizer
from agents.ascendoptimizer.rewind import RewindConfig, build_bank
from agents.llm import ChatServer
from agents.llm.server import answering
from agents.llm.sources import MAX_CONTEXT_CHARS, MAX_CONTEXT_TOTAL, cases_text, other_sources
from ascend_core import suite
from ascend_gym import cli
from ascend_gym.client import DaemonClient, LocalDaemon
from ascend_gym.policies import make_policy

L2_HINT = "xGm.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);"


def scripted_answer(messages: list[dict]) -> str:
    """A scripted model: Stage I doubles the tile length with a SEARCH/REPLACE edit, Stage II
    answers with the whole kernel plus an L2 hint on x."""
    system, user = messages[0]["content"], messages[1]["content"]
    if "mutation operator" in system:
        value = int(re.search(r"TILE_LENGTH = (\d+);", user).group(1))
        new = value * 2 if value < 16384 else value // 2
        content = (
            f"Change the tile length to {new}.\n<<<<<<< SEARCH\nconstexpr uint32_t TILE_LENGTH = {value};\n"
            f"=======\nconstexpr uint32_t TILE_LENGTH = {new};\n>>>>>>> REPLACE\n"
        )
    elif "retrieved optimisation experience" in system:
        kernel = re.search(r"```cpp kernel\n(.*?)```", user, re.DOTALL).group(1)
        kernel = re.sub(r"(xGm\.SetGlobalBuffer\([^;]*\);)", r"\1\n    " + L2_HINT, kernel, count=1)
        content = f"Applied [1]: bypass L2 for x.\n```cpp kernel\n{kernel}```\n"
    else:
        content = "I do not know."
    return content


@pytest.fixture()
def model():
    """The scripted model on a loopback OpenAI-compatible endpoint (stopped after the test)."""
    with ChatServer(answering(scripted_answer)) as server:
        yield server


def tiny_bank(root) -> str:
    bank = ExperienceBank(
        [
            Experience(
                title="Bypass L2 for read-once inputs",
                description="SetL2CacheHint on inputs read once",
                bottleneck="MTE2-bound: input data movement GM -> UB dominates",
                code_diff="",
                motif="l2_cache_hint",
                operator="op://ascend-ops-v1/level1/mul",
                fast_us=1.0,
                slow_us=1.2,
            )
        ],
        TfidfEmbedder(),
    )
    bank.save(root)
    return str(root)


def llm_config(tmp_path, cache_mode: str, base_url: str = "http://127.0.0.1:9/v1") -> dict:
    return {
        "proposer": "llm",
        "rounds": 1,
        "stage1_steps": 2,
        "stage2_steps": 1,
        "llm": {
            "model": "fake",
            "base_url": base_url,
            "cache_dir": str(tmp_path / "cache"),
            "cache_mode": cache_mode,
        },
        "kernel_rewriting": {"embedder": "tfidf"},
        "knowledge": {"bank_dir": tiny_bank(tmp_path / "bank")},
    }


def run_policy(daemon: str, run_id: str, budget: int, operator: str = "level1/add", **config):
    env = gym.make(
        "ascend_gym:AscendOp-v0", operator=operator, budget=budget, daemon=daemon, run_id=run_id
    )
    try:
        return AscendOptimizer(**config).run(env, seed=0)
    finally:
        env.close()


def test_a_scripted_model_drives_stage1_and_stage2(daemon, tmp_path, model):
    config = llm_config(tmp_path, "record", model.base_url)
    result = run_policy(daemon, "t-ao-llm", 3, out_dir=str(tmp_path / "out"), **config)
    assert result.proposer == "llm:fake" and result.evaluations == 3
    assert result.stage_evaluations == {"stage1": 2, "stage2": 1}
    records = [json.loads(line) for line in open(tmp_path / "out" / "trajectory.jsonl")]
    calls = [r for r in records if r["kind"] == "llm_call"]
    prompts = [c["prompt"] for c in calls]
    # Both stages show the model the operator's other sources: here its tiling data header.
    header = suite.resolve("level1/add").files["op_host/add_tiling.h"]
    assert all(
        f"op_host/add_tiling.h:\n```cpp\n{header}" in c["messages"][1]["content"] for c in calls
    )
    # Every prompt of both stages carries every correctness case and the tolerances.
    for line in cases_text(suite.resolve("level1/add").spec).splitlines():
        assert all(line in c["messages"][1]["content"] for c in calls), line
    # A mutation the run already evaluated (the tournament may pick the same parent) is not resubmitted.
    assert (
        prompts[-1] == "stage2_refine@v4"
        and set(prompts[:-1]) == {"stage1_mutate@v4"}
        and len(prompts) >= 3
    )
    assert (
        "Bypass L2 for read-once inputs" in calls[-1]["messages"][1]["content"]
    )  # the retrieved experience
    evaluations = [r for r in records if r["kind"] == "evaluation"]
    assert [e["phase"] for e in evaluations] == ["stage1", "stage1", "stage2"]
    assert all(e["status"] == "OK" for e in evaluations)
    assert (
        "TILE_LENGTH = 8192" in evaluations[0]["tiling_diff"]
        and L2_HINT in evaluations[2]["kernel_diff"]
    )
    assert evaluations[2]["tiling_diff"] == ""  # Stage II keeps the tiling fixed
    assert result.llm_usage.calls == result.llm_calls == len(calls)
    assert result.prompt_chars > 0 and result.completion_chars > 0
    assert (tmp_path / "out" / "result.json").is_file() and (
        tmp_path / "out" / "best" / "op_kernel" / "add.cpp"
    ).is_file()


def _stable(records: list[dict]) -> list[dict]:
    """Trajectory records without what legitimately differs between a run and its replay."""
    out = []
    for r in records:
        r = {k: v for k, v in r.items() if k not in ("cached", "cache_hit", "run_id", "config")}
        out.append(r)
    return out


def test_replaying_the_cache_reproduces_the_run_exactly_without_the_model(daemon, tmp_path, model):
    first = run_policy(
        daemon,
        "t-ao-rec",
        3,
        out_dir=str(tmp_path / "a"),
        **llm_config(tmp_path, "record", model.base_url),
    )
    model.close()  # the model is gone: the replay must answer every call from the record
    replayed = run_policy(
        daemon,
        "t-ao-replay",
        3,
        out_dir=str(tmp_path / "b"),
        **llm_config(tmp_path, "replay", model.base_url),
    )
    assert replayed.best_us == first.best_us and replayed.best_hash == first.best_hash
    assert [s.model_dump(exclude={"cache_hit"}) for s in replayed.trajectory] == [
        s.model_dump(exclude={"cache_hit"}) for s in first.trajectory
    ]
    assert replayed.llm_usage.cache_hits == replayed.llm_usage.calls == first.llm_usage.calls >= 3
    # The full trajectories (prompts, replies, diffs, results) match record for record.
    ta = [json.loads(line) for line in open(tmp_path / "a" / "trajectory.jsonl")]
    tb = [json.loads(line) for line in open(tmp_path / "b" / "trajectory.jsonl")]
    assert _stable(ta) == _stable(tb) and any(r["kind"] == "llm_call" for r in ta)


@pytest.mark.parametrize(
    "operator",
    [
        "level1/add",
        *(pytest.param(op, marks=pytest.mark.slow) for op in ("level1/relu", "level2/swiglu")),
    ],
)
def test_offline_end_to_end_on_suite_operators(daemon, operator):
    policy = make_policy(
        "ascendoptimizer",
        rounds=1,
        stage1_steps=2,
        stage2_steps=1,
        kernel_rewriting={"embedder": "tfidf"},
    )
    env = gym.make(
        "ascend_gym:AscendOp-v0",
        operator=operator,
        budget=3,
        daemon=daemon,
        run_id=f"t-ao-off-{operator}",
    )
    try:
        result = policy.run(env, seed=1)
    finally:
        env.close()
    assert result.proposer == "offline" and result.policy == "ascendoptimizer"
    assert result.evaluations <= 3 and sum(result.stage_evaluations.values()) == result.evaluations
    assert result.best_us <= result.baseline_us
    assert result.found_better == (result.best_us < result.baseline_us)
    assert all(s.phase in ("stage1", "stage2") for s in result.trajectory)
    if (DEFAULT_BANK_DIR / "bank.jsonl").is_file():
        assert result.bank["size"] > 0


def test_ablations_keep_to_their_stage(daemon, tmp_path):
    bank = {"knowledge": {"bank_dir": tiny_bank(tmp_path / "bank")}}
    only1 = run_policy(
        daemon,
        "t-ao-s1",
        3,
        ablation="stage1-only",
        rounds=1,
        stage1_steps=2,
        stage2_steps=1,
        kernel_rewriting={"embedder": "tfidf"},
        **bank,
    )
    assert set(only1.stage_evaluations) == {"stage1"} and only1.evaluations == 3
    # matmul_bias_relu's tiling has few knobs: Stage I runs dry after 6 evaluations, and under
    # stage1-only the rest of its round stays unspent instead of going to Stage II.
    dry = run_policy(
        daemon,
        "t-ao-s1-dry",
        10,
        operator="level2/matmul_bias_relu",
        ablation="stage1-only",
        kernel_rewriting={"embedder": "tfidf"},
        **bank,
    )
    assert set(dry.stage_evaluations) == {"stage1"} and dry.evaluations < 10
    # Stage II alone: the tiny bank's L2 experience points to the catalogue's l2_bypass:inputs first.
    only2 = run_policy(
        daemon,
        "t-ao-s2",
        2,
        ablation="stage2-only",
        rounds=1,
        stage1_steps=1,
        stage2_steps=1,
        kernel_rewriting={"embedder": "tfidf"},
        **bank,
    )
    # Stage II no longer runs dry: after the retrieved experience it has the rest of the knowledge.
    assert set(only2.stage_evaluations) == {"stage2"} and only2.evaluations == 2
    assert "l2" in only2.trajectory[0].note.lower() or "L2" in only2.trajectory[0].note


@pytest.mark.slow  # builds a bank from an expert's whole history
def test_bank_build_rewinds_an_expert_and_reports_kept_of_tried(tmp_path):
    # A daemon that serves only opened runs, as a remote one does: the build opens its own.
    with LocalDaemon(workers=2, require_run_tokens=True) as d:
        bank, stats = build_bank(
            ["op://ascend-ops-v1/level2/cummax"],
            d.address,
            OfflineProposer,
            RewindConfig(max_tried_per_expert=3),
            tmp_path,
            embedder="tfidf",
            parallel=1,
            run_prefix="t-bank",
        )
        client = DaemonClient(d.address)
        charged = client.ledger("t-bank/level2/cummax").evaluations
        client.close()
    assert 0 < charged <= RewindConfig(max_tried_per_expert=3).run_budget()
    assert stats.experts == 1 and 1 <= stats.tried <= 3
    assert stats.kept == len(bank) <= stats.tried + stats.probed
    meta = json.loads((tmp_path / "meta.json").read_text())
    assert meta["stats"]["tried"] == stats.tried and meta["embedder"] == "tfidf"
    records = [json.loads(line) for line in open(tmp_path / "rewind.jsonl")]
    steps = [r for r in records if r["kind"] == "rewind_step"]
    # The cummax expert lacks the L2 hint, so that motif is probed by adding it.
    probes = [r for r in records if r["kind"] == "rewind_probe"]
    assert len(steps) == stats.tried and len(probes) == stats.probed >= 1
    assert "l2_cache_hint" in {p["motif"] for p in probes}
    assert sum(r["kept"] for r in steps + probes) == stats.kept
    for e in bank.experiences:
        assert e.slow_us >= 1.05 * e.fast_us and e.code_diff.startswith("---") and e.bottleneck


def test_optimize_command_writes_the_result(daemon, tmp_path):
    config = json.dumps({"rounds": 1, "stage1_steps": 2, "stage2_steps": 0})
    code = cli.main(
        [
            "optimize",
            "level1/add",
            "--budget",
            "2",
            "--daemon",
            daemon,
            "--out",
            str(tmp_path),
            "--config",
            config,
            "--run-id",
            "t-ao-cli",
        ]
    )
    assert code == 0
    record = json.loads((tmp_path / "result.json").read_text())
    assert (
        record["policy"] == "ascendoptimizer"
        and record["evaluations"] == 2
        and record["run_id"] == "t-ao-cli"
    )
    assert (tmp_path / "trajectory.jsonl").is_file()
    # An offline record names no model it never asked, nor the bank builder's paths.
    assert "llm" not in record["config"] and record["model"] == ""
    assert "command" not in record["bank"] and "deepseek" not in json.dumps(record)


def test_the_compilers_words_on_a_failed_candidate_reach_the_next_prompt(daemon, tmp_path):
    """Stage I's first mutation does not compile; the next mutation prompt says what the
    compiler said, as OpenEvolve's prompts carry its evaluator's artifacts."""
    calls = []

    def answer(messages: list[dict]) -> str:
        calls.append(messages[1]["content"])
        line = re.search(r"^.*TILE_LENGTH = \d+;.*$", messages[1]["content"], re.MULTILINE)[0]
        broken = line.replace("TILE_LENGTH =", "TILE_LENGTH = undeclared_name +")
        fixed = re.sub(r"= \d+;", f"= {1024 * len(calls)};", line)
        new = broken if len(calls) == 1 else fixed
        return f"Try this.\n<<<<<<< SEARCH\n{line}\n=======\n{new}\n>>>>>>> REPLACE\n"

    with ChatServer(answering(answer)) as server:
        config = llm_config(tmp_path, "off", server.base_url)
        config.update(stage2_steps=0)
        result = run_policy(daemon, "t-ao-feedback", 2, **config)
    assert result.trajectory[0].status.value == "COMPILE_ERROR"
    assert "(none so far)" in calls[0]
    assert "COMPILE_ERROR" in calls[1] and "undeclared_name" in calls[1]


def test_a_model_sees_the_included_helpers_first_within_a_bound():
    """A package whose helper headers exceed the prompt's bound: those the kernel includes come
    first, the rest are named, not shown."""
    package = suite.resolve("level1/add")
    filler = "// " + "x" * (MAX_CONTEXT_CHARS - 4) + "\n"
    helpers = {f"op_kernel/a_helper_{i}.h": filler for i in range(8)}  # 8 x 12,000 > the bound
    helpers["op_kernel/z_used.h"] = "constexpr int USED = 1;\n"
    kernel = '#include "z_used.h"\n' + package.kernel_source
    package = package.model_copy(update={"files": {**package.files, **helpers}})
    shown = other_sources(package.with_sources(kernel=kernel))
    assert len(shown) <= MAX_CONTEXT_TOTAL + 400  # the bound, and the line naming what is left out
    assert shown.index("op_kernel/z_used.h:") < shown.index("op_kernel/a_helper_0.h:")
    assert "(left out for length: op_kernel/a_helper_3.h" in shown


def test_stage2_rewrites_under_stage1s_next_tiling_when_the_best_pair_has_none_left(daemon):
    """A kernel move may pay only with another tiling: once every rewrite of the best pair has been
    tried, Stage II proposes them under the fastest other tiling Stage I timed with that kernel."""
    import random

    from agents.ascendoptimizer.config import KernelRewritingConfig, TilingEvolutionConfig
    from agents.ascendoptimizer.evaluator import Evaluator
    from agents.ascendoptimizer.search import KernelRewriting, TilingEvolution
    from agents.ascendoptimizer.trajectory import Trajectory
    from agents.knowledge import Knowledge, KnowledgeConfig

    env = gym.make(
        "ascend_gym:AscendOp-v0",
        operator="level1/add",
        budget=4,
        daemon=daemon,
        run_id="t-ao-elite",
    )
    try:
        env.reset(seed=0)
        evaluator = Evaluator(env, Trajectory())
        knowledge = Knowledge(KnowledgeConfig(), evaluator.best_package.uri)
        proposer, rng = OfflineProposer(knowledge), random.Random(0)
        stage1 = TilingEvolution(TilingEvolutionConfig(), proposer, evaluator, rng)
        bank = ExperienceBank([], TfidfEmbedder())
        stage2 = KernelRewriting(
            KernelRewritingConfig(embedder="tfidf"),
            proposer,
            evaluator,
            bank,
            evaluator.best_package.uri,
            rng,
            KnowledgeConfig(),
            stage1.tilings,
        )
        while not [t for t in stage1.tilings(evaluator.best_package) if t]:
            assert stage1.step(evaluator.best_package, evaluator.best_result, 0)
        best = evaluator.best_package
        other = stage1.tilings(best)[0]
        # Every rewrite of the best pair counts as tried: the next one must come from `other`.
        evaluator.seen |= {m.package.content_hash() for m in knowledge.of_part(best, "kernel")}
        assert stage2.step(best, evaluator.best_result, 0)
        candidate = evaluator.trajectory.records[-1]
        assert candidate["phase"] == "stage2"
        assert candidate["parent_hash"] == best.with_sources(tiling=other).content_hash()
        pair = best.with_sources(tiling=other)
        assert candidate["candidate_hash"] in {
            m.package.content_hash() for m in knowledge.of_part(pair, "kernel")
        }
    finally:
        env.close()
