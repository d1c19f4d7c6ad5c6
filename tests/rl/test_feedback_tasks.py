"""The feedback text and the task sets (no daemon: results built as the daemon answers them)."""

from __future__ import annotations

import pytest

from ascend_core import suite
from ascend_core.protocol import CaseCheck, EvalResult, Profile, Status
from ascend_gym.aclient import Outcome
from ascend_gym.rl.feedback import render
from ascend_gym.rl.parse import _FENCE, parse_completion
from ascend_gym.rl.reward import PRESETS, score
from ascend_gym.rl.tasks import load_taskset, split_of


def scored(result: EvalResult, baseline_us: float = 100.0):
    return score(Outcome(index=0, request_id="r", result=result), baseline_us, PRESETS["speedup"])


def test_feedback_of_a_correct_kernel():
    result = EvalResult(
        request_id="r",
        status=Status.OK,
        latency_us=80.0,
        cases=[CaseCheck(name="bench_fp16", passed=True, max_abs_error=0.0, max_rel_error=0.0)],
        profile=Profile(aiv_mte2_ratio=0.9, aiv_vec_ratio=0.3),
    )
    text = render(scored(result), result, best_us=60.0)
    assert "Status: OK" in text and "case bench_fp16: passed" in text
    assert "simulated Ascend 910B latency: 80.00 us; 1.250x the baseline (100.00 us)" in text
    assert "0.750x your best so far (60.00 us)" in text
    assert "Bottleneck: MTE2" in text and "Simulated" in text


def test_feedback_of_a_failure_is_bounded():
    log = "\n".join(f"op_kernel/add.cpp:{i}:1: error: bad {i}" for i in range(500))
    result = EvalResult(request_id="r", status=Status.COMPILE_ERROR, log_tail=log)
    text = render(scored(result), result, max_chars=600, max_error_lines=5)
    assert len(text) <= 600
    assert "error: bad 0" in text and "error: bad 4" in text and "error: bad 5" not in text


def test_feedback_of_a_wrong_answer_gives_each_case_error():
    result = EvalResult(
        request_id="r",
        status=Status.WRONG_ANSWER,
        cases=[
            CaseCheck(name="tail_fp16", passed=False, max_abs_error=3.5, max_rel_error=0.25),
            CaseCheck(name="aligned_fp16", passed=True, max_abs_error=0.0, max_rel_error=0.0),
        ],
    )
    text = render(scored(result), result)
    assert "case tail_fp16: FAILED; max abs error 3.5, max rel error 0.25" in text


def test_the_task_set_splits_by_address_and_prompts_parse_back():
    tasks = load_taskset("ascend-ops-v1")
    assert len(tasks) == len(suite.op_uris("ascend-ops-v1"))
    held = [t for t in tasks if t.split == "heldout"]
    assert 0 < len(held) < len(tasks) / 2
    assert [t.operator for t in load_taskset("ascend-ops-v1", split="heldout")] == [
        t.operator for t in held
    ]
    assert all(t.split == split_of(t.operator, 0.2) for t in tasks)
    # The baseline sources shown in a prompt, sent back as they are, are the baseline itself.
    task = next(t for t in tasks if t.name == "add")
    base = suite.resolve(task.operator)
    shown = task.prompt.split("Baseline sources:")[1].split("Reply with")[0]
    assert parse_completion(shown, base).content_hash() == base.content_hash()
    assert len(_FENCE.findall(shown)) == len([p for p in base.files if p.startswith("op_")])


def test_an_unmaterialised_suite_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("ASCEND_GYM_DATA", str(tmp_path))  # not this machine's materialised copy
    with pytest.raises(ValueError, match="suite materialise"):
        load_taskset("ascend-real-v1")


def test_feedback_never_shows_what_ran_on_the_inputs():
    said = "5 of 3000 elements (0.17%) outside atol=0.001 rtol=0.001"
    result = EvalResult(
        request_id="r",
        status=Status.WRONG_ANSWER,
        message=f"case tail_fp16, output z: {said}; first at flat index 7: got 1.5, expected 0.123456789",
        log_tail="x[0] = 0.987654321 printed by the kernel",
        cases=[CaseCheck(name="tail_fp16", passed=False, message="expected 0.123456789")],
    )
    text = render(scored(result), result)
    assert said in text
    assert "0.123456789" not in text and "0.987654321" not in text and "1.5" not in text


def test_a_registered_suite_is_a_task_set(tmp_path):
    import shutil

    shutil.copytree(suite.SUITE_ROOT / "level1" / "relu", tmp_path / "level1" / "relu")
    suite.register_suite("rl-test-suite", tmp_path)
    tasks = load_taskset("rl-test-suite", heldout_fraction=0.0)
    assert [(t.operator, t.split) for t in tasks] == [("op://rl-test-suite/level1/relu", "train")]
    assert "op_kernel/relu.cpp" in tasks[0].prompt


def test_the_openenv_server_refuses_an_unknown_task_set_in_one_line():
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "ascend_gym.rl.adapters.openenv", "--taskset", "nosuch"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    said = done.stderr.strip()
    assert said.startswith("error: no task set 'nosuch': the suites are ") and "\n" not in said
    assert "ascend-ops-v1" in said
