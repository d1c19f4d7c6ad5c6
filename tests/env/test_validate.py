"""`ascend-gym validate`: recorded env states are rebuilt, re-checked on fresh inputs and re-timed."""

from __future__ import annotations

import json

import pytest

from ascend_gym import cli, rewrites
from ascend_gym.env import AscendOpEnv
from ascend_gym.wrappers import TrajectoryRecorder


def test_validate_recorded_episode(make, daemon, tmp_path, capsys):
    path = tmp_path / "traj.jsonl"
    env = TrajectoryRecorder(make(mode="discrete", budget=2), path)
    env.reset(seed=0)
    env.step(rewrites.index("tune[0]:/2"))
    env.step(rewrites.index("tile:larger"))
    lines = path.read_text().splitlines()
    last = json.loads(lines[-1])

    tampered = dict(last, state=dict(last["state"], best_us=last["state"]["best_us"] * 0.5))
    path.write_text(
        "\n".join(
            [*lines, json.dumps(tampered), json.dumps({"policy": "random", "best_hash": "ab"})]
        )
        + "\n"
    )
    code = cli.main(["validate", str(path), "--daemon", daemon, "--seeds", "2", "--json"])
    verdicts = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 1
    assert [v["outcome"] for v in verdicts] == [
        "SKIP",
        "OK",
        "FAIL",
        "SKIP",
    ]  # step 0 carries no state
    ok, bad = verdicts[1], verdicts[2]
    assert (
        ok["simulated"] and ok["retimed_best_us"] == ok["claimed_best_us"]
    )  # the simulator is deterministic
    assert ok["retimed_baseline_us"] == ok["claimed_baseline_us"]
    assert "best re-timed" in bad["reasons"][0]


def test_a_warm_episode_is_timed_replayed_and_validated_warm(make, daemon, tmp_path, capsys):
    cold, warm = (
        make(mode="discrete", budget=1),
        make(mode="discrete", budget=1, timing_protocol="warm"),
    )
    cold.reset(seed=0)
    warm.reset(seed=0)
    warm.step(rewrites.index("tune[0]:/2"))
    # level1/add's bench case stays in the 910B4's L2 between warm launches, and its head is warm.
    assert warm.unwrapped.baseline_us < cold.unwrapped.baseline_us
    state = warm.unwrapped.state
    assert (state.timing_protocol, state.timing) == ("warm", "auto")
    again = AscendOpEnv.from_state(state.model_dump_json(), daemon=daemon)
    try:
        assert again.timing_protocol == "warm"
        assert again.validate().outcome == "OK"  # re-timed warm, as recorded
    finally:
        again.close()
    path = tmp_path / "states.jsonl"
    path.write_text(json.dumps({"state": state.model_dump(mode="json")}) + "\n")
    assert cli.main(["validate", str(path), "--daemon", daemon, "--json"]) == 0
    capsys.readouterr()


def test_an_unknown_timing_protocol_is_refused(daemon):
    with pytest.raises(ValueError, match="timing_protocol 'hot'"):
        AscendOpEnv(daemon=daemon, timing_protocol="hot")
