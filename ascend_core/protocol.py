"""Wire messages between clients and npu_daemon (docs/design.md 3.2), defined once for both sides.

Every message is a pydantic model serialised as JSON in the last frame of a ZeroMQ multipart
message. A failure is an `EvalResult` with a status, never an exception across the wire.
"""

from __future__ import annotations

import enum
import uuid
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ascend_core.package import OperatorPackage

# The SoC preset (ascend_core/soc/presets.toml) a request names when it names none.
DEFAULT_SOC = "Ascend910B4"

PROTOCOL_VERSION = 1

# Outputs past this size cannot go to files (a command's file is bounded to 256 MiB, docs/daemon.md,
# Sandbox): a checked run streams them to the daemon, which compares them a piece at a time. A
# bench case this large is timed "sampled" unless the request says otherwise or its reference can
# be computed a piece at a time too (OperatorSpec.elementwise): then it is run whole and checked.
SAMPLED_PAST_BYTES = 256 * 1024 * 1024

# What a latency is (docs/performance_model.md, Timing protocol): the two temperatures of a device
# measurement, chosen independently and written "<data>-<launch>". Data: L2 "flushed" before the
# launch, or "resident" (what the launch before of the same kernel left). Launch: a "first" launch's
# head, or a "repeated" one's (after warm-up launches). "flushed-repeated" is how benchmarks time a
# kernel (warm-up launches, L2 flushed before each timed one) and the default; "cold" and "warm",
# the two protocols before the axes, stay as names of "flushed-first" and "resident-repeated".
TimingProtocol = Literal[
    "flushed-repeated", "flushed-first", "resident-repeated", "resident-first", "cold", "warm"
]
DEFAULT_TIMING_PROTOCOL: TimingProtocol = "flushed-repeated"
TIMING_PROTOCOLS: tuple[str, ...] = TimingProtocol.__args__
_ALIASES = {"cold": "flushed-first", "warm": "resident-repeated"}


def timing_axes(protocol: str) -> tuple[bool, bool]:
    """(L2 resident, launch repeated) of a protocol name."""
    data, launch = _ALIASES.get(protocol, protocol).split("-")
    return data == "resident", launch == "repeated"


# The backend every caller gets unless it names another: the daemon's --backend, the embedded
# daemons, the corpus runner, suite materialise and cann-bench runs (docs/trust_boundary.md).
DEFAULT_BACKEND = "sim-guest"


class Status(str, enum.Enum):
    OK = "OK"
    COMPILE_ERROR = "COMPILE_ERROR"
    TILING_ERROR = "TILING_ERROR"
    RUNTIME_ERROR = "RUNTIME_ERROR"
    WRONG_ANSWER = "WRONG_ANSWER"
    RACE_DETECTED = "RACE_DETECTED"
    BUILD_TIMEOUT = "BUILD_TIMEOUT"
    RUN_TIMEOUT = "RUN_TIMEOUT"
    REJECTED = "REJECTED"
    BUSY = "BUSY"
    DAEMON_ERROR = "DAEMON_ERROR"


# Statuses that say nothing about the candidate (the daemon's fault, or no room): never cached,
# charged or rewarded, and the client may resubmit. The one definition every side uses.
UNCHARGED = frozenset({Status.BUSY, Status.DAEMON_ERROR})


class Stage(str, enum.Enum):
    COMPILE = "compile"
    CHECK = "check"
    TIME = "time"


MAX_TIMEOUT_S = 600.0


class Timeouts(BaseModel):
    build_s: float = Field(60.0, gt=0, le=MAX_TIMEOUT_S)
    run_s: float = Field(60.0, gt=0, le=MAX_TIMEOUT_S)  # each case's


class EvalRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["eval"] = "eval"
    request_id: str = Field(default_factory=lambda: uuid.uuid4().hex)
    run_id: str = "default"
    token: str = ""  # the run's token (`OpenRunRequest`): required once the run is opened
    package: OperatorPackage
    stages: list[Stage] = [Stage.COMPILE, Stage.CHECK, Stage.TIME]
    cases: list[str] | None = None  # correctness cases by name; None = all
    soc: str = DEFAULT_SOC
    seed: int = 0  # public: the daemon draws the case inputs from it keyed by its secret
    timeouts: Timeouts = Timeouts()
    # How the bench case is timed (docs/daemon.md, Large cases): "full" simulates every block and
    # checks the outputs; "sampled" simulates a sample of its blocks (docs/simulator.md, Large
    # shapes; the sim backend's alone); "auto" (what the clients send by default) is "sampled"
    # past SAMPLED_PAST_BYTES unless the operator is element-wise.
    timing: Literal["auto", "full", "sampled"] = Field("full", exclude_if=lambda v: v == "full")
    # What a latency is (TimingProtocol above). The sim backend's alone.
    timing_protocol: TimingProtocol = Field(
        DEFAULT_TIMING_PROTOCOL, exclude_if=lambda v: v == DEFAULT_TIMING_PROTOCOL
    )

    def bench_timing(self) -> Literal["full", "sampled"]:
        """The timing "auto" resolves to: sampled when the bench case's outputs exceed
        SAMPLED_PAST_BYTES and its reference cannot be streamed (a whole reference that large
        need not fit in memory), else full."""
        if self.timing != "auto":
            return self.timing
        spec = self.package.spec
        case = spec.bench_case
        large = spec.output_bytes(case) > SAMPLED_PAST_BYTES
        return "sampled" if large and not spec.elementwise(case) else "full"


class CaseCheck(BaseModel):
    """Correctness of one shape case."""

    name: str
    passed: bool
    max_abs_error: float | None = None
    max_rel_error: float | None = None
    outlier_fraction: float | None = None
    message: str = ""


class Profile(BaseModel):
    """msprof vocabulary (docs/ascendc.md, hardware 4); times are per-block means in microseconds."""

    model_config = ConfigDict(extra="allow")

    block_dim: int = 0
    aiv_cores: int = 0  # vector cores of the SoC
    ub_capacity_bytes: int = 0  # UB a kernel may use per core
    aiv_time_us: float = 0.0
    aiv_vec_time_us: float = 0.0
    aiv_vec_ratio: float = 0.0
    aiv_scalar_time_us: float = 0.0
    aiv_scalar_ratio: float = 0.0
    aiv_mte2_time_us: float = 0.0
    aiv_mte2_ratio: float = 0.0
    aiv_mte3_time_us: float = 0.0
    aiv_mte3_ratio: float = 0.0
    ub_bytes: int = 0
    gm_read_bytes: int = 0
    gm_write_bytes: int = 0
    # Sampled timing (EvalRequest.timing): how many blocks ran; the others' traces were derived.
    timing: Literal["full", "sampled"] = Field("full", exclude_if=lambda v: v == "full")
    blocks_simulated: int | None = Field(None, exclude_if=lambda v: v is None)
    # A sampled request whose sampled run could not vouch for the launch (its blocks exchange data,
    # or store outside their traced copies): why, and the bench case ran whole instead.
    sampled_unchecked: str = Field("", exclude_if=lambda v: v == "")
    # The request's timing protocol (EvalRequest.timing_protocol); absent when "cold", the only
    # protocol before there were two.
    timing_protocol: TimingProtocol = Field("cold", exclude_if=lambda v: v == "cold")


class Cost(BaseModel):
    """Wall-clock seconds the daemon spent on the evaluation, and where the result came from."""

    compile_s: float = 0.0
    run_s: float = 0.0
    worker_s: float = 0.0  # the whole evaluation inside the worker (compile, run, check)
    # "run": a byte-identical resubmission in the same run (free, `cache_hit` is set);
    # "shared": evaluated for another run and served from the cache, charged to this run.
    cache_source: Literal["none", "run", "shared"] = "none"


class EvalResult(BaseModel):
    kind: Literal["result"] = "result"
    request_id: str
    candidate_hash: str = ""
    status: Status
    message: str = ""
    log_tail: str = ""
    latency_us: float | None = None
    bench_case: str | None = None
    cases: list[CaseCheck] = []
    profile: Profile | None = None
    backend: Literal["sim", "sim-guest", "cann"] = DEFAULT_BACKEND  # engine, or device
    simulated: bool = True
    soc: str = ""
    fingerprint: dict[str, str] = {}
    cost: Cost = Cost()
    cache_hit: bool = False
    # The daemon's case secret the inputs were drawn with (its public id; the secret itself is
    # reported when the daemon stops, and `--case-secret` draws the same inputs again).
    case_secret_id: str = Field("", exclude_if=lambda v: v == "")

    @property
    def ok(self) -> bool:
        return self.status is Status.OK

    @property
    def daemon_fault(self) -> bool:
        """Says nothing about the candidate (UNCHARGED): free, unrewarded, worth a resubmission."""
        return self.status in UNCHARGED

    @property
    def charged(self) -> bool:
        """Whether the daemon charged this answer to the run: a daemon fault or a full daemon is
        free, and so is a resubmission within the run (a cache hit). The one rule every side uses."""
        return not self.daemon_fault and not self.cache_hit


class StatsRequest(BaseModel):
    kind: Literal["stats"] = "stats"
    request_id: str = Field(default_factory=lambda: uuid.uuid4().hex)


class StatsReply(BaseModel):
    kind: Literal["stats_reply"] = "stats_reply"
    request_id: str
    backend: str  # sim, sim-guest (the simulator's two engines) or cann
    workers: int
    queued: int
    evaluations: int
    cache_hits: int
    versions: dict[str, str]
    running: int = 0
    workers_alive: int = 0
    max_queue: int = 0
    cache_entries: int = 0
    shared_cache_hits: int = 0
    sandbox_user: str = ""  # who candidates run as ("uid 64000+slot", or the daemon's own user)
    uptime_s: float = 0.0
    queued_bytes: int = 0  # memory the waiting requests hold
    in_flight_bytes: int = 0  # bytes on their way in, not yet read (incomplete frames included)
    connections_cut: int = 0  # for holding more than the request-memory bound left them
    simulated: bool = False  # latencies from the performance model, not a device


class HealthRequest(BaseModel):
    """Cheap liveness probe, answered by the daemon's main loop even while every worker is busy."""

    kind: Literal["health"] = "health"
    request_id: str = Field(default_factory=lambda: uuid.uuid4().hex)
    about: str = ""  # a request id the client waits for: is it in flight, or answered?


class HealthReply(BaseModel):
    kind: Literal["health_reply"] = "health_reply"
    request_id: str
    ok: bool  # serving: workers alive and not shutting down
    workers: int
    workers_alive: int
    queued: int
    running: int
    max_queue: int
    known: bool | None = (
        None  # the daemon holds `about` (running, queued or answered); None: not asked
    )


class LedgerRequest(BaseModel):
    kind: Literal["ledger"] = "ledger"
    request_id: str = Field(default_factory=lambda: uuid.uuid4().hex)
    run_id: str


class OpenRunRequest(BaseModel):
    """Open a budgeted run: from then on the daemon serves its evaluations only with the token it
    returns, and refuses every one past `budget` charged evaluations. A run opens once."""

    kind: Literal["open_run"] = "open_run"
    request_id: str = Field(default_factory=lambda: uuid.uuid4().hex)
    run_id: str = Field(min_length=1, max_length=256)
    budget: int = Field(gt=0)


class OpenRunReply(BaseModel):
    kind: Literal["run_opened"] = "run_opened"
    request_id: str = ""
    run_id: str
    budget: int
    token: str


class Ledger(BaseModel):
    """One run's budget account (docs/design.md 3.3): charged evaluations, free resubmissions, seconds."""

    evaluations: int = 0  # charged: evaluated, or served from another run's result
    cache_hits: int = 0  # free: byte-identical resubmissions in this run
    shared_cache_hits: int = 0  # charged evaluations that were served from the cache
    compile_s: float = 0.0
    run_s: float = 0.0
    by_status: dict[str, int] = {}  # charged evaluations by status


class LedgerReply(Ledger):
    """A run's ledger, as the daemon answers a LedgerRequest."""

    kind: Literal["ledger_reply"] = "ledger_reply"
    request_id: str = ""
    run_id: str

    def account(self) -> Ledger:
        return Ledger.model_validate(self.model_dump(include=set(Ledger.model_fields)))


class ErrorReply(BaseModel):
    """Answer to a message that is not a valid request (it has no request to attach a result to)."""

    kind: Literal["error"] = "error"
    request_id: str = ""
    status: Status = Status.REJECTED
    message: str
