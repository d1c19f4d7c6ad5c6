"""`ascend-gym validate`: recorded env states are rebuilt, re-checked on fresh inputs and re-timed."""

from __future__ import annotations

import json

from ascend_gym import cli, rewrites
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
