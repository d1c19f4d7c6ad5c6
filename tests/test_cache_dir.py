"""The cache's location: the variable when set, else root's is one its sandbox users can traverse
(a root daemon whose cache sits under /root refuses to start)."""

import os
from pathlib import Path

import pytest

from ascend_core.cache import ROOT_DEFAULT, cache_dir


def test_the_variable_wins(monkeypatch, tmp_path):
    monkeypatch.setenv("ASCEND_GYM_CACHE", str(tmp_path))
    assert cache_dir() == tmp_path


@pytest.mark.skipif(os.geteuid() != 0, reason="root's default")
def test_roots_default_is_outside_its_home(monkeypatch):
    monkeypatch.delenv("ASCEND_GYM_CACHE", raising=False)
    assert cache_dir() == ROOT_DEFAULT
    assert Path.home() not in ROOT_DEFAULT.parents


@pytest.mark.skipif(os.geteuid() == 0, reason="a user's default")
def test_a_users_default_is_in_its_home(monkeypatch):
    monkeypatch.delenv("ASCEND_GYM_CACHE", raising=False)
    assert cache_dir() == Path.home() / ".cache" / "ascend_gym"
