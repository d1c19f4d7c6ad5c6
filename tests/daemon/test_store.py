"""The SQLite store on its own: charging rules, bounds, persistence."""

from __future__ import annotations

import pytest

from ascend_core import suite
from ascend_core.protocol import Cost, EvalRequest, EvalResult, Status
from npu_daemon.service.store import Store, cache_key

FINGERPRINT = {"backend": "sim", "simulator": "test"}


def _result(
    request_id: str, status: Status = Status.OK, compile_s: float = 1.0, run_s: float = 2.0
) -> EvalResult:
    return EvalResult(
        request_id=request_id,
        status=status,
        latency_us=10.0,
        cost=Cost(compile_s=compile_s, run_s=run_s),
    )


def test_same_run_resubmission_is_free_other_run_is_charged(tmp_path):
    store = Store(tmp_path / "state.db")
    key = cache_key(EvalRequest(package=suite.resolve("level1/add")), FINGERPRINT)
    assert store.lookup("r1", key) is None
    first = store.record("r1", key, _result("a"))
    assert not first.cache_hit
    again = store.lookup("r1", key)
    assert again.cache_hit and again.cost.cache_source == "run"
    store.record("r1", key, again.model_copy(update={"request_id": "b"}))
    shared = store.lookup("r2", key)
    assert not shared.cache_hit and shared.cost.cache_source == "shared"
    store.record("r2", key, shared.model_copy(update={"request_id": "c"}))
    r1, r2 = store.ledger("r1"), store.ledger("r2")
    assert (r1.evaluations, r1.cache_hits, r1.shared_cache_hits, r1.compile_s, r1.run_s) == (
        1,
        1,
        0,
        1.0,
        2.0,
    )
    assert (r2.evaluations, r2.cache_hits, r2.shared_cache_hits, r2.compile_s, r2.run_s) == (
        1,
        0,
        1,
        0.0,
        0.0,
    )
    assert r1.by_status == {"OK": 1}
    assert store.answered("b")[2].cache_hit and store.answered("c")[0] == key
    assert store.answered("c")[1] == "r2"  # the run it was answered under


def test_daemon_errors_and_busy_are_neither_cached_nor_charged(tmp_path):
    store = Store(tmp_path / "state.db")
    for status in (Status.BUSY, Status.DAEMON_ERROR):
        store.record("r", "k", _result(status.value, status))
    assert store.lookup("r", "k") is None and store.answered("BUSY") is None
    assert store.ledger("r").evaluations == 0


def test_paid_candidate_evaluated_again_is_free(tmp_path):
    """Evicted from the cache, a candidate the run already paid for costs nothing the second time."""
    store = Store(tmp_path / "state.db", max_entries=1)
    store.record("r", "k1", _result("a"))
    store.record("r", "k2", _result("b"))
    store.trim()
    assert store.lookup("r", "k1") is None and store.lookup("r", "k2") is not None
    assert store.record("r", "k1", _result("c")).cache_hit
    assert store.ledger("r").evaluations == 2 and store.ledger("r").cache_hits == 1


def test_state_survives_reopening(tmp_path):
    store = Store(tmp_path / "state.db")
    store.record("r", "k", _result("a", Status.WRONG_ANSWER))
    store.close()
    again = Store(tmp_path / "state.db")
    assert again.ledger("r").by_status == {"WRONG_ANSWER": 1}
    assert again.lookup("r", "k").status is Status.WRONG_ANSWER
    assert again.answered("a")[2].status is Status.WRONG_ANSWER
    assert again.totals() == {
        "evaluations": 1,
        "cache_hits": 0,
        "shared_cache_hits": 0,
        "cache_entries": 1,
    }


def test_a_budgeted_run_refuses_past_its_budget_and_strangers(tmp_path):
    store = Store(tmp_path / "state.db")
    token = store.open_run("b", budget=2)
    assert store.refusal("b", token, 0, require=False) == ""
    assert "token" in store.refusal("b", "", 0, require=False)
    assert "token" in store.refusal("b", token + "x", 0, require=False)
    assert "budget" in store.refusal("b", token, 2, require=False)  # two in flight
    store.record("b", "k1", _result("a"))
    store.record("b", "k2", _result("b"))
    assert "spent its budget of 2" in store.refusal("b", token, 0, require=False)
    assert store.refusal("b", token, None, require=False) == ""  # a free resubmission
    assert "unknown run token" in store.refusal("other", "guess", 0, require=False)
    assert store.refusal("other", "", 0, require=False) == ""
    assert "not opened" in store.refusal("other", "", 0, require=True)
    with pytest.raises(ValueError, match="already exists"):
        store.open_run("b", budget=10)
    with pytest.raises(ValueError, match="already exists"):
        store.open_run("other", budget=1) if store.record("other", "k", _result("c")) else None


def test_the_state_directory_is_private(tmp_path):
    Store(tmp_path / "state" / "state.db")
    assert (tmp_path / "state").stat().st_mode & 0o777 == 0o700
