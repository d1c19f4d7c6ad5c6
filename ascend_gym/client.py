"""Client side of the daemon protocol, and the embedded local daemon.

`DaemonClient` talks to one npu_daemon over a DEALER socket, Lazy Pirate style: while it waits
for a result it probes the daemon with health requests, and when the daemon falls silent it
opens a fresh socket and resends the same request (same request_id: the daemon evaluates and
charges it once, and answers a retry of a finished request from its log). `DaemonPool` spreads
requests over several daemons, least-loaded first, and resubmits a request whose daemon died to
another one; it keeps a receipt of which daemon charged each evaluation of a run, so a run that
moved off a dead daemon is still accounted in full (`ledger`). `connect(address)` gives a
client for one address and a pool for a comma-separated list. `LocalDaemon` starts a daemon in a subprocess on a free loopback port (what
`daemon=None` means for the env and the bench) and stops it on close.

CURVE: pass `keys=DIR` (or set ASCEND_GYM_DAEMON_KEYS=DIR), a directory holding the client's
`client.key_secret` and the daemon's `server.key` (`ascend-gym daemon keygen DIR` makes them).
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import zmq
import zmq.auth

from ascend_core.protocol import (
    DEFAULT_BACKEND,
    ErrorReply,
    EvalRequest,
    EvalResult,
    HealthReply,
    HealthRequest,
    LedgerReply,
    LedgerRequest,
    OpenRunReply,
    OpenRunRequest,
    StatsReply,
    StatsRequest,
    Status,
)

KEYS_ENV = "ASCEND_GYM_DAEMON_KEYS"
# Printed on stderr before a checkout's first daemon start, so a slow first command says why; the
# only line besides a command's own (a user mistake is still one line after it).
FIRST_USE_NOTICE = (
    "ascend-gym: building the AscendC simulator for this checkout (first use, "
    "2 to 5 minutes; later starts take seconds) ..."
)


class DaemonError(RuntimeError):
    """The daemon did not answer, or answered something that is not a result."""


class DaemonClient:
    """One daemon endpoint. Not thread-safe: one client per thread."""

    def __init__(
        self,
        address: str,
        timeout_s: float = 600.0,
        retries: int = 3,
        heartbeat_s: float = 2.0,
        keys: str | Path | None = None,
    ):
        self.address, self.timeout_s, self.retries, self.heartbeat_s = (
            address,
            timeout_s,
            retries,
            heartbeat_s,
        )
        keys = keys or os.environ.get(KEYS_ENV)
        self._curve = _client_keys(Path(keys)) if keys else None
        self._ctx = zmq.Context.instance()
        self._sock: zmq.Socket | None = None
        self.tokens: dict[str, str] = {}  # run id -> token of the runs this client opened

    def _socket(self) -> zmq.Socket:
        if self._sock is None:
            self._sock = self._ctx.socket(zmq.DEALER)
            self._sock.setsockopt(zmq.LINGER, 0)
            if self._curve is not None:
                (
                    self._sock.curve_publickey,
                    self._sock.curve_secretkey,
                    self._sock.curve_serverkey,
                ) = self._curve
            self._sock.connect(self.address)
        return self._sock

    def _call(
        self,
        message: EvalRequest | StatsRequest | HealthRequest | LedgerRequest | OpenRunRequest,
        timeout_s: float,
        retries: int | None = None,
    ) -> dict:
        """Send, wait, and on silence resend on a fresh socket (Lazy Pirate); the same request id throughout."""
        payload = message.model_dump_json().encode()
        started = time.monotonic()
        deadline = started + timeout_s
        tries = 0
        for _ in range(1 + (self.retries if retries is None else retries)):
            tries += 1
            sock = self._socket()
            try:  # never block: with no connection to the daemon (refused handshake) a send would wait forever
                sock.send_multipart([b"", payload], zmq.NOBLOCK)
            except zmq.Again:
                time.sleep(max(0.0, min(self.heartbeat_s, deadline - time.monotonic())))
                reply = None
            else:
                reply = self._await(sock, message.request_id, deadline)
            if reply is not None:
                return reply
            self.close()  # a late reply must not be read as the answer to the next request
            if time.monotonic() >= deadline:
                break
        raise DaemonError(
            f"no answer from {self.address} after {time.monotonic() - started:.0f} s "
            f"({tries} {'try' if tries == 1 else 'tries'}; the daemon stopped answering or is not "
            "there)"
        )

    def _await(self, sock: zmq.Socket, request_id: str, deadline: float) -> dict | None:
        """The reply to request_id, or None to resend: the daemon fell silent, or answers health probes
        without knowing the request (it restarted, or the request was lost), or time is up."""
        heard = time.monotonic()
        probe = HealthRequest(about=request_id)
        while True:
            now = time.monotonic()
            if now >= deadline or now - heard > 3 * self.heartbeat_s:
                return None
            if not sock.poll(int(min(self.heartbeat_s, deadline - now) * 1000) + 1):
                try:  # still there, still on it?
                    sock.send_multipart([b"", probe.model_dump_json().encode()], zmq.NOBLOCK)
                except zmq.Again:
                    pass
                continue
            reply = json.loads(sock.recv_multipart()[-1])
            if reply.get("kind") == "error" and reply.get("request_id") in (
                "",
                request_id,
            ):  # "": unparseable to it
                raise DaemonError(ErrorReply.model_validate(reply).message)
            if reply.get("request_id") == request_id:
                return reply
            if reply.get("request_id") == probe.request_id:
                if reply.get("known") is False:
                    return None
                heard = time.monotonic()

    def run_tokens(self, run_id: str) -> dict[str, str]:
        """Address -> the run's token, when this client opened the run."""
        return {self.address: self.tokens[run_id]} if run_id in self.tokens else {}

    def use_tokens(self, run_id: str, tokens: dict[str, str]) -> None:
        """Attach tokens another process received (OpenEvolve's evaluator workers)."""
        if self.address in tokens:
            self.tokens[run_id] = tokens[self.address]

    def open_run(self, run_id: str, budget: int, timeout_s: float = 5.0) -> OpenRunReply:
        """Open a budgeted run: the daemon then serves its evaluations only with the token (which
        this client attaches from now on) and refuses every one past `budget` charged ones."""
        reply = OpenRunReply.model_validate(
            self._call(OpenRunRequest(run_id=run_id, budget=budget), timeout_s, retries=0)
        )
        self.tokens[run_id] = reply.token
        return reply

    def evaluate(self, request: EvalRequest) -> EvalResult:
        if not request.token and request.run_id in self.tokens:
            request = request.model_copy(update={"token": self.tokens[request.run_id]})
        timeout = (
            self.timeout_s
            + request.timeouts.build_s
            + request.timeouts.run_s * max(1, len(request.package.spec.cases))
        )
        return EvalResult.model_validate(self._call(request, timeout))

    def stats(self, timeout_s: float = 5.0) -> StatsReply:
        return StatsReply.model_validate(self._call(StatsRequest(), timeout_s, retries=0))

    def health(self, timeout_s: float = 2.0) -> HealthReply:
        return HealthReply.model_validate(self._call(HealthRequest(), timeout_s, retries=0))

    def ledger(self, run_id: str, timeout_s: float = 5.0) -> LedgerReply:
        return LedgerReply.model_validate(
            self._call(LedgerRequest(run_id=run_id), timeout_s, retries=0)
        )

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close(0)
            self._sock = None


class DaemonPool:
    """Several daemon endpoints behind the DaemonClient interface: least-loaded routing, failover.

    Before each evaluation the endpoints' health is read (at most once per `refresh_s`). A run's
    first request goes to the live daemon with the fewest requests per worker, and the run stays
    on that daemon (its per-run cache and ledger row see every evaluation) until it dies or
    answers BUSY: then the same request is resubmitted to the next least-loaded daemon, which
    becomes the run's new home. A dead endpoint is skipped for `down_s` and then probed again.

    Failover cannot double-charge a run: the same request (same request_id) goes to one daemon
    at a time, and a daemon that died mid-request never answered it, so the run is charged where
    the answer came from. The pool keeps a receipt per run and daemon of the charged answers it
    got; `ledger` sums the rows of the daemons that answer and, for one that does not (it died),
    the receipts of what it charged before, so the ledger check covers runs that moved. A run's
    resubmission of a candidate that a now-dead daemon charged is answered by the pool from its
    copy of that answer, free, as the dead daemon's per-run cache would have."""

    def __init__(
        self,
        addresses: list[str],
        timeout_s: float = 600.0,
        heartbeat_s: float = 2.0,
        refresh_s: float = 1.0,
        down_s: float = 10.0,
        keys: str | Path | None = None,
    ):
        if not addresses:
            raise ValueError("a daemon pool needs at least one address")
        self.addresses, self.refresh_s, self.down_s = list(addresses), refresh_s, down_s
        # One Lazy Pirate retry on the same daemon, then failover.
        self.clients = {
            a: DaemonClient(a, timeout_s, retries=1, heartbeat_s=heartbeat_s, keys=keys)
            for a in addresses
        }
        self._load: dict[str, tuple[float, float]] = {}  # address -> (load, when measured)
        self._down: dict[str, float] = {}  # address -> when it was found dead
        self.receipts: dict[str, dict[str, int]] = {}  # run_id -> address -> charged answers
        self.last_address = ""  # the daemon that gave the latest answer
        self._home: dict[str, str] = {}  # run_id -> the daemon the run's requests go to
        self._charged: dict[tuple[str, str], tuple[str, EvalResult]] = {}  # (run, key) -> answer

    @property
    def address(self) -> str:
        return ",".join(self.addresses)

    def _refresh(self, address: str) -> None:
        try:
            h = self.clients[address].health(timeout_s=max(0.5, self.refresh_s))
        except DaemonError:
            self._mark_down(address)
            return
        if not h.ok:
            self._mark_down(address)
            return
        self._load[address] = ((h.queued + h.running) / max(1, h.workers_alive), time.monotonic())

    def _mark_down(self, address: str) -> None:
        self._down[address] = time.monotonic()
        self._load.pop(address, None)

    def _candidates(self) -> list[str]:
        """Live endpoints, least loaded first (health re-read when older than refresh_s)."""
        now = time.monotonic()
        for a in self.addresses:
            if (
                now - self._down.get(a, -1e9) >= self.down_s
                and now - self._load.get(a, (0.0, -1e9))[1] > self.refresh_s
            ):
                self._refresh(a)
        return sorted(
            (a for a in self.addresses if a in self._load), key=lambda a: self._load[a][0]
        )

    def evaluate(self, request: EvalRequest) -> EvalResult:
        key = (request.run_id, _candidate_key(request))
        known = self._charged.get(key)
        if known is not None and known[0] not in self._load:  # charged on a daemon now down
            return known[1].model_copy(update={"request_id": request.request_id, "cache_hit": True})
        deadline = time.monotonic() + self.clients[self.addresses[0]].timeout_s
        while time.monotonic() < deadline:
            busy: EvalResult | None = None
            live = self._candidates()
            home = self._home.get(request.run_id)
            for address in ([home] if home in live else []) + [a for a in live if a != home]:
                try:
                    result = self.clients[address].evaluate(request)
                except DaemonError:  # died or fell silent: the same request goes to the next daemon
                    self._mark_down(address)
                    continue
                if result.status is not Status.BUSY:
                    self.last_address = self._home[request.run_id] = address
                    if result.charged:
                        self.note_charge(request.run_id, address)
                        self._charged[key] = (address, result)
                    return result
                busy = result
                self._load[address] = (float("inf"), time.monotonic())
            if busy is not None:
                return busy  # every live daemon is full: the caller decides whether to wait
            time.sleep(0.5)  # every endpoint is down for now: wait for one to come back
        raise DaemonError(f"no daemon of {self.address} answered request {request.request_id}")

    def prefer(self, run_id: str, address: str) -> None:
        """Make `address` the run's home (a run continued by another process: OpenEvolve's
        evaluator workers open a pool per evaluation and keep the run where it was)."""
        if address in self.clients:
            self._home[run_id] = address

    def note_charge(self, run_id: str, address: str) -> None:
        """A receipt: `address` charged one evaluation to the run (also for answers that another
        process's pool received, such as OpenEvolve's evaluator workers)."""
        run = self.receipts.setdefault(run_id, {})
        run[address] = run.get(address, 0) + 1

    def served_by(self, run_id: str) -> dict[str, int]:
        """Charged answers per daemon for a run: more than one key means the run moved."""
        return dict(self.receipts.get(run_id, {}))

    def stats(self, timeout_s: float = 5.0) -> StatsReply:
        for a in self._candidates() or self.addresses:
            try:
                return self.clients[a].stats(timeout_s)
            except DaemonError:
                self._mark_down(a)
        raise DaemonError(f"no daemon of {self.address} answered")

    def open_run(self, run_id: str, budget: int, timeout_s: float = 5.0) -> list[OpenRunReply]:
        """Open the run on every daemon that answers (each issues its own token and holds the
        budget alone); a dead one is skipped, as evaluations skip it."""
        replies = []
        for address, client in self.clients.items():
            try:
                replies.append(client.open_run(run_id, budget, timeout_s))
            except DaemonError:
                self._mark_down(address)
        if not replies:
            raise DaemonError(f"no daemon of {self.address} opened run {run_id}")
        return replies

    def run_tokens(self, run_id: str) -> dict[str, str]:
        """Address -> the token each daemon issued for the run (to hand to another process)."""
        return {a: c.tokens[run_id] for a, c in self.clients.items() if run_id in c.tokens}

    def use_tokens(self, run_id: str, tokens: dict[str, str]) -> None:
        for address, token in tokens.items():
            if address in self.clients:
                self.clients[address].tokens[run_id] = token

    def ledger(self, run_id: str, timeout_s: float = 5.0) -> LedgerReply:
        """The run's account summed over every endpoint: its ledger row where the daemon answers,
        the pool's receipts of what it charged where it does not (a daemon that died)."""
        rows = []
        for a in self.addresses:
            try:
                rows.append(self.clients[a].ledger(run_id, timeout_s))
            except DaemonError:
                charged = self.receipts.get(run_id, {}).get(a, 0)
                if charged:
                    rows.append(LedgerReply(run_id=run_id, evaluations=charged))
        if not rows:
            raise DaemonError(f"no daemon of {self.address} answered")
        by_status: dict[str, int] = {}
        for r in rows:
            for status, n in r.by_status.items():
                by_status[status] = by_status.get(status, 0) + n
        return LedgerReply(
            run_id=run_id,
            evaluations=sum(r.evaluations for r in rows),
            cache_hits=sum(r.cache_hits for r in rows),
            shared_cache_hits=sum(r.shared_cache_hits for r in rows),
            compile_s=sum(r.compile_s for r in rows),
            run_s=sum(r.run_s for r in rows),
            by_status=by_status,
        )

    def close(self) -> None:
        for c in self.clients.values():
            c.close()


def _candidate_key(request: EvalRequest) -> str:
    """What makes two requests of a run the same evaluation for the daemon's per-run cache."""
    return f"{request.package.content_hash()}/{request.soc}/{request.seed}"


def connect(address: str, **options: object) -> DaemonClient | DaemonPool:
    """A client for `tcp://host:port`, a pool for a comma-separated list of addresses."""
    addresses = [a for a in address.split(",") if a]
    if len(addresses) == 1:
        return DaemonClient(addresses[0], **options)
    return DaemonPool(addresses, **options)


class LocalDaemon:
    """An npu_daemon subprocess on a free loopback port; `address` is its endpoint.

    Its cache, ledger and request log live in `state_dir`; by default in a temporary directory
    removed on close, so an embedded daemon's ledger holds only the runs of its own session (run
    ids such as a sweep's may repeat across sessions)."""

    def __init__(
        self,
        backend: str = DEFAULT_BACKEND,
        workers: int | None = None,
        startup_timeout_s: float = 1800.0,  # a first start builds the simulator runtime
        state_dir: str | Path | None = None,
        bind: str = "tcp://127.0.0.1:*",
        extra_args: list[str] | None = None,
        require_run_tokens: bool = False,
    ):
        self._own_state = (
            None if state_dir else tempfile.TemporaryDirectory(prefix="ascend_gym-daemon-")
        )
        state_dir = state_dir or self._own_state.name
        cmd = [
            sys.executable,
            "-m",
            "npu_daemon",
            "--backend",
            backend,
            "--bind",
            bind,
            "--state-dir",
            str(state_dir),
        ]
        if workers:
            cmd += ["--workers", str(workers)]
        if not require_run_tokens:  # it also serves runs never opened (tests, experiments)
            cmd.append("--allow-unopened-runs")
        cmd += extra_args or []
        if backend in ("sim", "sim-guest"):  # the simulator runtime, either engine
            from npu_daemon.backends.common import build

            runtime = build.cache_root() / f"runtime-{build.runtime_sources_digest()}"
            if not (runtime / "ready").exists():  # say why a checkout's first command is slow
                print(FIRST_USE_NOTICE, file=sys.stderr, flush=True)
        # Its log goes to a file of its own: a refusal to start is read back from there.
        self._log = tempfile.TemporaryFile("w+")
        self.process = subprocess.Popen(
            cmd, stdout=subprocess.PIPE, stderr=self._log, text=True, env=os.environ.copy()
        )
        line = _readline(self.process, startup_timeout_s)
        if not line.startswith("READY "):
            if not line:  # its stdout closed: it is exiting, and its status is coming
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self.process.wait(timeout=30)
            exited = self.process.poll()
            said = self._said()  # read before close() closes the log
            self.close()
            why = (
                f"exited with status {exited} before it was ready"
                if exited is not None
                else f"did not start within {startup_timeout_s:g} s"
            )
            last = said[-1] if said else "(it builds the simulator runtime on first use)"
            raise DaemonError(f"the local daemon {why}: {line!r}: {last}")
        self.address = line.split()[1]
        atexit.register(self.close)

    def _said(self) -> list[str]:
        """The non-blank lines of the daemon's log so far."""
        self._log.seek(0)
        return [x for x in self._log.read().splitlines() if x.strip()]

    def exited(self) -> str:
        """Why the daemon is gone, with the last lines of its log ("" while it runs): a long run
        stops on it instead of charging every task after it to the infrastructure."""
        status = self.process.poll()
        if status is None:
            return ""
        said = self._said()[-3:]
        return f"exited with status {status}" + (": " + " | ".join(said) if said else "")

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self._own_state is not None:
            self._own_state.cleanup()
        self._log.close()

    def __enter__(self) -> LocalDaemon:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _client_keys(directory: Path) -> tuple[bytes, bytes, bytes]:
    """(client public, client secret, server public) from a keygen directory."""
    public, secret = zmq.auth.load_certificate(str(directory / "client.key_secret"))
    server_public, _ = zmq.auth.load_certificate(str(directory / "server.key"))
    if not secret:
        raise ValueError(f"{directory / 'client.key_secret'} holds no secret key")
    return public, secret, server_public


def _readline(proc: subprocess.Popen, timeout_s: float) -> str:
    """The daemon's first stdout line (it builds the simulator runtime first, which takes a while)."""
    import selectors

    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    if not sel.select(timeout_s):
        return "<timeout>"
    return proc.stdout.readline().strip()
