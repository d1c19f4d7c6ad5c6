"""The daemon's persistent state in one SQLite file: result cache, budget ledger, request log.

- Cache: content hash of (sources, spec, cases, stages, soc, seed, backend fingerprint) -> result,
  bounded to `max_entries` (least recently used evicted). A byte-identical resubmission in the
  same run is free (DESIGN 3.3); a result computed for another run is served too (no work is
  repeated) but charged to the new run as an evaluation, so every run's budget counts the same
  candidates whatever other runs did.
- Ledger: per run_id and status, charged evaluations, free cache hits, shared hits, seconds.
- Requests: request_id -> (run, result), so a retried request is answered, never evaluated or
  charged twice, also after a restart; and never answered under another run.
- Runs: a run opened with a budget (`open_run`) holds the hash of its token; its evaluations are
  served only with that token and only while its charged evaluations are under the budget. At
  most `max_open_runs` are held: a new one first drops those that spent their budget and those
  idle for RUN_IDLE_S (their ledger rows stay, so none can be reopened), else it is refused
  (`RunsFull`: BUSY), so opening runs never grows the state without bound.

Only the server's main thread touches the store, and each charge is one transaction written
before the reply is sent: a daemon killed at any point has charged a request at most once.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import sqlite3
import time
from pathlib import Path

from ascend_core.protocol import EvalRequest, EvalResult, LedgerReply, Status
from npu_daemon import references

SCHEMA = """
CREATE TABLE IF NOT EXISTS cache (key TEXT PRIMARY KEY, result TEXT NOT NULL, used REAL NOT NULL);
CREATE INDEX IF NOT EXISTS cache_used ON cache (used);
CREATE TABLE IF NOT EXISTS charged (run_id TEXT NOT NULL, key TEXT NOT NULL, PRIMARY KEY (run_id, key));
CREATE TABLE IF NOT EXISTS ledger (
    run_id TEXT NOT NULL, status TEXT NOT NULL,
    evaluations INTEGER NOT NULL DEFAULT 0, cache_hits INTEGER NOT NULL DEFAULT 0,
    shared_cache_hits INTEGER NOT NULL DEFAULT 0,
    compile_s REAL NOT NULL DEFAULT 0, run_s REAL NOT NULL DEFAULT 0,
    PRIMARY KEY (run_id, status));
CREATE TABLE IF NOT EXISTS requests (request_id TEXT PRIMARY KEY, key TEXT NOT NULL, result TEXT NOT NULL, done REAL NOT NULL);
CREATE INDEX IF NOT EXISTS requests_done ON requests (done);
CREATE TABLE IF NOT EXISTS runs (run_id TEXT PRIMARY KEY, token TEXT NOT NULL, budget INTEGER NOT NULL, opened REAL NOT NULL);
"""
RUN_IDLE_S = (
    3600.0  # a run nothing was asked of for this long may be dropped when the table is full
)
# A full table the drop did not free is answered BUSY without a scan this long, or until a charge
# (which may spend a run's budget): an open_run per message must not cost a scan of every run.
RESCAN_S = 10.0


class RunsFull(Exception):
    """`max_open_runs` runs are open, none spent or idle: the daemon answers BUSY."""


def cache_key(request: EvalRequest, fingerprint: dict[str, str]) -> str:
    """Everything that can change the result: sources, spec, the suite operator that judges it
    (references.suite_twin), cases, stages, soc, seed, simulator."""
    twin = references.suite_twin(request.package)
    facts = {
        "package": request.package.content_hash(),
        "suite_operator": twin.uri if twin is not None else "",
        "cases": request.cases,
        "stages": [s.value for s in request.stages],
        "soc": request.soc,
        "seed": request.seed,
        **({"timing": "sampled"} if request.bench_timing() == "sampled" else {}),
        # Every protocol but "cold" keys its own results ("cold" keys as before there were others).
        **(
            {"timing_protocol": request.timing_protocol}
            if request.timing_protocol != "cold"
            else {}
        ),
        "timeouts": request.timeouts.model_dump(),  # a timeout changes what the result can be
        "fingerprint": fingerprint,
    }
    return hashlib.sha256(json.dumps(facts, sort_keys=True).encode()).hexdigest()


class Store:
    def __init__(
        self,
        path: Path,
        max_entries: int = 100_000,
        max_requests: int = 200_000,
        max_open_runs: int = 100_000,
    ):
        # The daemon's alone: candidates (other uids) must not read cached results or tokens.
        path.parent.mkdir(parents=True, exist_ok=True)
        path.parent.chmod(0o700)
        self.path, self.max_entries, self.max_requests = path, max_entries, max_requests
        self.max_open_runs = max_open_runs
        self._full_until = 0.0  # monotonic: until then the runs table is full (no rescan)
        # isolation_level=None: transactions are explicit (BEGIN IMMEDIATE), one per charge.
        self._db = sqlite3.connect(
            path, isolation_level=None, timeout=30.0, check_same_thread=False
        )
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(
            "PRAGMA synchronous=NORMAL"
        )  # durable across a daemon crash (not a power cut)
        self._db.executescript(SCHEMA)
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(requests)")}
        if "run_id" not in columns:  # a state file from before runs were recorded per request
            self._db.execute("ALTER TABLE requests ADD COLUMN run_id TEXT NOT NULL DEFAULT ''")
        if "used" not in {row[1] for row in self._db.execute("PRAGMA table_info(runs)")}:
            self._db.execute("ALTER TABLE runs ADD COLUMN used REAL NOT NULL DEFAULT 0")

    def close(self) -> None:
        self._db.close()

    # ---- lookups ---------------------------------------------------------------------------
    def answered(self, request_id: str) -> tuple[str, str, EvalResult] | None:
        """(cache key, run id, result) of a request already answered."""
        row = self._db.execute(
            "SELECT key, run_id, result FROM requests WHERE request_id = ?", (request_id,)
        ).fetchone()
        return (row[0], row[1], EvalResult.model_validate_json(row[2])) if row else None

    # ---- budgeted runs ---------------------------------------------------------------------
    def open_run(self, run_id: str, budget: int) -> str:
        """A new run's token (only its hash is kept); a run id already in use cannot be opened."""
        token = secrets.token_urlsafe(32)
        with self._transaction():
            used = self._db.execute(
                "SELECT 1 FROM runs WHERE run_id = ? UNION SELECT 1 FROM ledger WHERE run_id = ?",
                (run_id, run_id),
            ).fetchone()
            if used:
                raise ValueError(f"run {run_id!r} already exists")
            if self._count("runs") >= self.max_open_runs and time.monotonic() >= self._full_until:
                self._drop_finished_runs()
            if self._count("runs") >= self.max_open_runs:
                self._full_until = max(self._full_until, time.monotonic() + RESCAN_S)
                raise RunsFull(
                    f"{self.max_open_runs} runs are open (none spent or idle {RUN_IDLE_S:g} s)"
                )
            now = time.time()
            self._db.execute(
                "INSERT INTO runs (run_id, token, budget, opened, used) VALUES (?, ?, ?, ?, ?)",
                (run_id, _hash(token), budget, now, now),
            )
        return token

    def _drop_finished_runs(self) -> None:
        """Runs that spent their budget (nothing more can be charged to them) or that nothing was
        asked of for RUN_IDLE_S: their ledger rows stay, so their ids cannot be opened again."""
        self._db.execute(
            "DELETE FROM runs WHERE used < ? OR budget <= (SELECT COALESCE(SUM(evaluations), 0) "
            "FROM ledger WHERE ledger.run_id = runs.run_id)",
            (time.time() - RUN_IDLE_S,),
        )

    def knows_run(self, run_id: str) -> bool:
        """Whether the run was opened or charged or asked anything here."""
        return any(
            self._db.execute(
                f"SELECT 1 FROM {table} WHERE run_id = ? LIMIT 1", (run_id,)
            ).fetchone()
            for table in ("runs", "ledger", "requests")
        )

    def refusal(self, run_id: str, token: str, pending: int | None, require: bool) -> str:
        """Why an evaluation for `run_id` must be refused ('' if it may run): a wrong or missing
        token, a spent budget (counting the run's `pending` evaluations in flight; None: a free
        resubmission, which spends nothing), or, when the daemon requires tokens, a run that was
        never opened."""
        row = self._db.execute(
            "SELECT token, budget FROM runs WHERE run_id = ?", (run_id,)
        ).fetchone()
        if row is None:
            if token:
                return f"unknown run token for run {run_id!r}"
            return (
                f"run {run_id!r} was not opened (this daemon requires run tokens)"
                if require
                else ""
            )
        if not secrets.compare_digest(row[0], _hash(token)):
            return f"wrong or missing token for run {run_id!r}"
        if pending is None:
            return ""
        charged = self._db.execute(
            "SELECT COALESCE(SUM(evaluations), 0) FROM ledger WHERE run_id = ?", (run_id,)
        ).fetchone()[0]
        if charged + pending >= row[1]:
            return f"run {run_id!r} has spent its budget of {row[1]} evaluations"
        return ""

    def lookup(self, run_id: str, key: str) -> EvalResult | None:
        """A cached result, marked as a free hit (same run) or a shared one (another run's)."""
        row = self._db.execute("SELECT result FROM cache WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        result = EvalResult.model_validate_json(row[0])
        same_run = self._db.execute(
            "SELECT 1 FROM charged WHERE run_id = ? AND key = ?", (run_id, key)
        ).fetchone()
        source = "run" if same_run else "shared"
        return result.model_copy(
            update={
                "cache_hit": same_run is not None,
                "cost": result.cost.model_copy(update={"cache_source": source, "worker_s": 0.0}),
            }
        )

    # ---- the one write per answered request ------------------------------------------------
    def record(self, run_id: str, key: str, result: EvalResult) -> EvalResult:
        """Cache, charge and log one answer in one transaction; returns it as charged.

        A fresh evaluation of a candidate this run already paid for (its cache entry was evicted)
        is free like any resubmission: `cache_hit` is set on it."""
        now = time.time()
        with self._transaction():
            if result.daemon_fault:  # neither cached nor charged
                return result
            source = result.cost.cache_source
            paid = self._db.execute(
                "SELECT 1 FROM charged WHERE run_id = ? AND key = ?", (run_id, key)
            ).fetchone()
            if paid and not result.cache_hit:
                result = result.model_copy(update={"cache_hit": True})
            if result.cache_hit:
                self._add(run_id, result.status, cache_hits=1)
            else:
                spent = (
                    (0.0, 0.0) if source == "shared" else (result.cost.compile_s, result.cost.run_s)
                )
                self._add(
                    run_id,
                    result.status,
                    evaluations=1,
                    shared_cache_hits=int(source == "shared"),
                    compile_s=spent[0],
                    run_s=spent[1],
                )
                self._db.execute("INSERT OR IGNORE INTO charged VALUES (?, ?)", (run_id, key))
                self._full_until = 0.0  # the run may have spent its budget: worth a scan again
            if source == "none":
                self._db.execute(
                    "INSERT OR REPLACE INTO cache VALUES (?, ?, ?)",
                    (
                        key,
                        result.model_copy(
                            update={"request_id": "", "cache_hit": False}
                        ).model_dump_json(),
                        now,
                    ),
                )
            else:
                self._db.execute("UPDATE cache SET used = ? WHERE key = ?", (now, key))
            self._db.execute(
                "INSERT OR REPLACE INTO requests (request_id, key, result, done, run_id) "
                "VALUES (?, ?, ?, ?, ?)",
                (result.request_id, key, result.model_dump_json(), now, run_id),
            )
            self._db.execute("UPDATE runs SET used = ? WHERE run_id = ?", (now, run_id))
        return result

    def trim(self) -> None:
        """Bound the cache and the request log (oldest first); cheap enough to call per request."""
        with self._transaction():
            for table, column, limit in (
                ("cache", "used", self.max_entries),
                ("requests", "done", self.max_requests),
            ):
                excess = self._count(table) - limit
                if excess > 0:
                    self._db.execute(
                        f"DELETE FROM {table} WHERE rowid IN (SELECT rowid FROM {table} ORDER BY {column} LIMIT ?)",
                        (excess,),
                    )

    def _add(
        self,
        run_id: str,
        status: Status,
        evaluations: int = 0,
        cache_hits: int = 0,
        shared_cache_hits: int = 0,
        compile_s: float = 0.0,
        run_s: float = 0.0,
    ) -> None:
        self._db.execute(
            "INSERT INTO ledger VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (run_id, status) DO UPDATE SET "
            "evaluations = evaluations + excluded.evaluations, cache_hits = cache_hits + excluded.cache_hits, "
            "shared_cache_hits = shared_cache_hits + excluded.shared_cache_hits, "
            "compile_s = compile_s + excluded.compile_s, run_s = run_s + excluded.run_s",
            (run_id, status.value, evaluations, cache_hits, shared_cache_hits, compile_s, run_s),
        )

    def _count(self, table: str) -> int:
        return self._db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]

    def _transaction(self):
        return _Transaction(self._db)

    # ---- reports ---------------------------------------------------------------------------
    def ledger(self, run_id: str) -> LedgerReply:
        rows = self._db.execute(
            "SELECT status, evaluations, cache_hits, shared_cache_hits, compile_s, run_s FROM ledger "
            "WHERE run_id = ?",
            (run_id,),
        ).fetchall()
        return LedgerReply(
            run_id=run_id,
            evaluations=sum(r[1] for r in rows),
            cache_hits=sum(r[2] for r in rows),
            shared_cache_hits=sum(r[3] for r in rows),
            compile_s=sum(r[4] for r in rows),
            run_s=sum(r[5] for r in rows),
            by_status={r[0]: r[1] for r in rows if r[1]},
        )

    def totals(self) -> dict[str, int]:
        row = self._db.execute(
            "SELECT COALESCE(SUM(evaluations), 0), COALESCE(SUM(cache_hits), 0), "
            "COALESCE(SUM(shared_cache_hits), 0) FROM ledger"
        ).fetchone()
        return {
            "evaluations": row[0],
            "cache_hits": row[1],
            "shared_cache_hits": row[2],
            "cache_entries": self._count("cache"),
        }


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT (ROLLBACK on error): several daemons may share one state file."""

    def __init__(self, db: sqlite3.Connection):
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type, *_: object) -> None:
        try:
            if not exc_type:
                self._db.execute("COMMIT")
        finally:  # an error, or a COMMIT that failed (a full disk): nothing of it stays
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
