"""A model-driven run from the command line: a dead endpoint, a replay miss or a model repeating
itself is an infrastructure failure (exit 2, never a 1.000x); policy configs refuse unknown keys;
an API key is never written anywhere; bench is one flag away from a model.

Each case runs the real console entry point in a subprocess against a real loopback endpoint."""

from __future__ import annotations

import json
import os

import pytest

from agents.llm import ChatServer
from agents.llm.server import answering
from ascend_core import suite
from ascend_core.protocol import DEFAULT_SOC
from ascend_gym import bench
from tests.test_cli_errors import assert_usage_error, cli

DEAD = "http://127.0.0.1:9/v1"  # the discard port: nothing listens, the connection is refused
# The gateway's retries of a dead endpoint, kept short: what these tests check is how a dead
# model is classified, not how long it is retried (tests/agents/test_model_faults.py, test_llm_client.py).
RETRY = ("--llm-retry-s", "1")


def one_new_tiling(messages: list[dict]) -> str:
    """A model that always proposes the same (new, correct) tiling program."""
    tiling = suite.resolve("level1/add").tiling_source
    return f"```cpp tiling\n{tiling}\n// proposed\n```"


@pytest.mark.parametrize(
    "policy", ["bon", "ascendoptimizer", pytest.param("openevolve", marks=pytest.mark.slow)]
)
def test_a_dead_endpoint_is_an_infrastructure_failure_not_a_result(policy, daemon):
    done = cli(
        "optimize", "level1/add", "--policy", policy, "--budget", "2", "--base-url", DEAD, *RETRY,
        "--daemon", daemon,
    )  # fmt: skip
    line = assert_usage_error(done, "model endpoint", DEAD, "0 of 2 evaluations")
    assert "speedup" not in done.stdout, line


def test_a_replay_miss_is_an_infrastructure_failure(tmp_path, daemon):
    args = ("optimize", "level1/add", "--policy", "bon", "--budget", "2", "--base-url", DEAD)
    args += ("--daemon", daemon)
    done = cli(*args, "--llm-cache", str(tmp_path), "--llm-cache-mode", "replay")
    assert_usage_error(done, "replay miss")


def test_a_bench_task_whose_model_repeats_itself_is_a_result_and_keeps_its_account(daemon):
    """Nothing new from the model ends the task as a search that ran dry (issue 54, point 4):
    a result, scored, with its account and the setting that bounded it."""
    with ChatServer(answering(lambda messages: "I would rather not.")) as model:
        config = {"proposer": "llm", "llm": {"base_url": model.base_url, "model": "m2"}}
        record, _ = bench.run_one(
            "bon", "op://ascend-ops-v1/level1/add", 0, 2, daemon, DEFAULT_SOC, "t-rep/a1", config
        )
    assert record.ok and record.failure == "" and record.budget_ok
    assert "max_calls_per_evaluation = 8" in record.stopped
    assert record.llm_calls == 8 and record.model == "m2" and record.prompt_chars > 0


def test_a_bench_task_whose_model_is_dead_is_infra(daemon):
    config = {"proposer": "llm", "llm": {"base_url": DEAD, "retry_s": 1}}
    record, best = bench.run_one(
        "bon", "op://ascend-ops-v1/level1/add", 0, 2, daemon, DEFAULT_SOC, "t-model/a1", config
    )
    assert not record.ok and record.failure == "infra" and best is None
    assert "ModelUnavailable" in record.error and "0 of 2" in record.error
    assert record.baseline_us == record.best_us > 0  # what the task had found is kept


@pytest.mark.parametrize(
    ("policy", "config", "words"),
    [
        ("ascendoptimizer", {"ablaton": "stage1-only"}, ["ablaton", "no such setting"]),
        ("bon", {"max_movs": 3}, ["max_movs", "no such setting"]),
        ("ascendoptimizer", {"llm": {"temprature": 0.1}}, ["llm.temprature"]),
        ("random", {"steps": 3}, ["steps"]),
        ("bon", {"llm": {"api_key": "sk-x"}}, ["api_key", "api_key_env"]),
        ("bon", {"llm": {"cache_mode": "replay"}}, ["cache_mode 'replay'", "cache_dir"]),
    ],
)
def test_a_misspelt_policy_config_key_is_refused(tmp_path, policy, config, words):
    assert_usage_error(
        cli("optimize", "level1/add", "--policy", policy, "--config", json.dumps(config)), *words
    )
    path = tmp_path / "policies.json"
    path.write_text(json.dumps({policy: config}))
    assert_usage_error(cli("bench", "--policy-config", str(path), "--policies", policy), *words)


def test_a_policy_config_for_an_unknown_policy_is_refused(tmp_path):
    path = tmp_path / "policies.json"
    path.write_text(json.dumps({"best_of_n": {}}))
    assert_usage_error(cli("bench", "--policy-config", str(path)), "unknown policy best_of_n")


@pytest.mark.parametrize(
    "args",
    [
        ("optimize", "level1/add", "--model", "x"),
        ("optimize", "level1/add", "--llm-cache", "c"),
        ("bench", "--api-key-env", "K"),
        ("bank", "build", "--out", "b", "--model", "x"),
        ("bank", "build", "--out", "b", "--llm-cache", "c"),
    ],
)
def test_model_flags_without_base_url_are_refused(args):
    assert_usage_error(cli(*args), "without --base-url")


def test_generate_with_an_endpoint_and_no_model_is_refused():
    # It would have generated from the templates, not asked the endpoint it was given.
    done = cli("generate", "level1/add", "--base-url", DEAD)
    assert_usage_error(done, "--base-url without --model")


def test_bank_build_with_a_dead_endpoint_is_an_infrastructure_failure(tmp_path, daemon):
    done = cli(
        "bank", "build", "--ops", "level1/add", "--base-url", DEAD, "--out", str(tmp_path / "b"),
        "--max-tried", "1", "--workers", "1", "--embedder", "tfidf", *RETRY, "--daemon", daemon,
    )  # fmt: skip
    assert_usage_error(done, "model endpoint", DEAD, "short")


@pytest.mark.parametrize("verb", [("optimize", "level1/add"), ("bench",)])
def test_a_cache_mode_without_a_cache_is_refused(verb):
    # Replay without a record would ask the live model, the thing replay promises never to do.
    done = cli(*verb, "--base-url", DEAD, "--llm-cache-mode", "replay")
    assert_usage_error(done, "--llm-cache-mode", "without --llm-cache")


def test_base_url_for_policies_without_a_model_is_refused():
    assert_usage_error(cli("bench", "--policies", "random", "--base-url", DEAD), "asks a model")
    assert_usage_error(
        cli("optimize", "level1/add", "--policy", "random", "--base-url", DEAD), "asks no model"
    )


def test_bench_with_a_model_records_calls_and_never_the_key(tmp_path):
    secret = "sk-trust-" + os.urandom(8).hex()
    out = tmp_path / "sweep"
    with ChatServer(answering(one_new_tiling)) as model:
        done = cli(
            "bench", "--ops", "level1/add", "--policies", "bon,random", "--budget", "1",
            "--base-url", model.base_url, "--model", "m1", "--api-key-env", "TRUST_KEY",
            "--llm-cache", str(tmp_path / "calls"), "--out", str(out), "--report",
            env={**os.environ, "TRUST_KEY": secret},
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    # The progress line says what its two counts are (the daemons' count holds the baselines).
    assert "evaluations spent by finished tasks; the daemons ran" in done.stdout
    assert "(running tasks, the uncharged baselines and rechecks included)" in done.stdout
    records = {r.policy: r for r in bench.read_records(out / "results.jsonl")}
    assert records["bon"].proposer == "llm" and records["bon"].llm_calls == 1
    assert records["bon"].config["llm"]["model"] == "m1"
    assert records["random"].llm_calls == 0 and "llm" not in records["random"].config
    for path in tmp_path.rglob("*"):
        if path.is_file():
            assert secret not in path.read_text(errors="replace"), path
