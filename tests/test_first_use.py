"""What a new user meets first (issue 54, point 14): the first command of a checkout says it is
building the simulator; `gym.make` names an unknown operator at once."""

from __future__ import annotations

import gymnasium as gym
import pytest

from ascend_gym.client import FIRST_USE_NOTICE, DaemonError, LocalDaemon


def test_the_first_start_of_a_checkout_says_it_builds_the_simulator(tmp_path, monkeypatch, capfd):
    monkeypatch.setenv("ASCEND_GYM_CACHE", str(tmp_path))  # nothing built there
    with pytest.raises(DaemonError):  # the build itself is not waited for here
        LocalDaemon(workers=1, startup_timeout_s=1.0)
    assert FIRST_USE_NOTICE in capfd.readouterr().err


def test_a_built_simulator_starts_without_that_line(daemon, capfd):
    LocalDaemon(workers=1).close()
    assert "building" not in capfd.readouterr().err


def test_gym_make_with_an_unknown_operator_fails_at_make():
    with pytest.raises(ValueError, match="unknown operator 'level1/nope'.*suite list"):
        gym.make("ascend_gym:AscendOp-v0", operator="level1/nope")
