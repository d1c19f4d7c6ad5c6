"""AscendOp-v0: optimise one AscendC operator by rewriting its kernel and tiling programs."""

from __future__ import annotations

import copy
import hashlib
import math
import numbers
import unicodedata
import uuid
import warnings
from dataclasses import replace
from importlib.metadata import version
from typing import Any, Literal

import gymnasium as gym
import numpy as np
from gymnasium import spaces

import ascend_gym
from ascend_core import suite, tune
from ascend_core.package import OperatorPackage
from ascend_core.protocol import (
    DEFAULT_BACKEND,
    DEFAULT_SOC,
    DEFAULT_TIMING_PROTOCOL,
    PROTOCOL_VERSION,
    TIMING_PROTOCOLS,
    EvalRequest,
    EvalResult,
    Status,
    TimingProtocol,
)
from ascend_core.soc import socs
from ascend_gym import rewrites
from ascend_gym.client import DaemonClient, DaemonPool, LocalDaemon, connect
from ascend_gym.state import EnvState, StepEntry, catalogue_digest
from ascend_gym.validation import Claim, Verdict, check

MAX_SOURCE_CHARS = 131072
# The baseline run's budget: the env's baseline evaluation, and OpenEvolve's evaluator submitting the
# initial program once more (a cache hit of the same request).
BASELINE_RUN_BUDGET = 2
# What real sources contain: printable ASCII, tab and newline. Anything else (a UTF-8 comment, a
# CR of a CRLF file) is transliterated in the observation only; the package keeps the original.
SOURCE_CHARSET = "".join(chr(c) for c in range(32, 127)) + "\t\n"
_CHARSET = frozenset(SOURCE_CHARSET)

STATUSES = list(Status)
TUNE_SLOTS = 4  # the @tune slots the catalogue's tune[s] rewrites address
PIPE_RATIOS = ("aiv_vec_ratio", "aiv_scalar_ratio", "aiv_mte2_ratio", "aiv_mte3_ratio")
K = len(rewrites.CATALOGUE)
# Feature layout; `FEATURE_NAMES[i]` names column i of the features Box.
FEATURE_NAMES = (
    "latency/baseline",
    "best/baseline",
    *PIPE_RATIOS,
    "ub_used/ub_size",
    "block_dim/aiv_cores",
    "budget_left/budget",
    *(f"status={s.value}" for s in STATUSES),
    *(f"applies={r.name}" for r in rewrites.CATALOGUE),
    # Which operator this is and where its knobs stand, so one action id (tune[s]:x2 means another
    # knob on another operator) reads in context: the operator's level, a stable id of its URI,
    # and per @tune slot whether it exists and its value's place in its range.
    "level/3",
    "operator_id",
    *(f"tune[{s}]={what}" for s in range(TUNE_SLOTS) for what in ("present", "position")),
)
N_FEATURES = len(FEATURE_NAMES)
# Columns 0-7 are ratios without a natural upper bound; they are clipped at RATIO_CAP (a candidate
# 1000x slower than the baseline is as bad as it gets) so the Box stays finite.
RATIO_CAP = 1000.0
_FEATURE_HIGH = np.array([RATIO_CAP] * 8 + [1.0] * (N_FEATURES - 8), dtype=np.float32)
REWARDS = ("best_delta", "prev_delta", "final")
_VOLATILE = {"request_id", "cache_hit", "cost"}


class BaselineRejected(RuntimeError):
    """The operator as given fails its own check: an episode needs a passing baseline."""


class StepResult(EvalResult):
    """The EvalResult of a step. Equality ignores bookkeeping (request id, cache hit, wall-clock
    cost), so two evaluations of one candidate compare equal, as determinism checks expect."""

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, EvalResult):
            return NotImplemented
        return self.model_dump(exclude=_VOLATILE) == other.model_dump(exclude=_VOLATILE)

    __hash__ = None  # type: ignore[assignment]


def ascii_view(source: str) -> str:
    """A source as the observation shows it: within SOURCE_CHARSET and MAX_SOURCE_CHARS."""
    text = source.replace("\r\n", "\n")
    if not _CHARSET.issuperset(text):
        text = "".join(ch if ch in _CHARSET else _transliterate(ch) for ch in text)
    return text[:MAX_SOURCE_CHARS]


# Typography that NFKD leaves non-ASCII but comments in kernel sources often use.
_TYPOGRAPHY = {
    "\u00d7": "x",
    "\u2014": "-",
    "\u2013": "-",
    "\u2018": "'",
    "\u2019": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u2026": "...",
    "\u00b5": "u",
    "\u03bc": "u",
    "\u2264": "<=",
    "\u2265": ">=",
    "\u2192": "->",
    "\u00a0": " ",
}


def _transliterate(ch: str) -> str:
    if ch in _TYPOGRAPHY:
        return _TYPOGRAPHY[ch]
    ascii_ = "".join(c for c in unicodedata.normalize("NFKD", ch) if c in _CHARSET)
    return ascii_ or ("\n" if ch == "\r" else "?")


def operator_id(uri: str) -> float:
    """A stable number in [0, 1) naming an operator (the same in every process and run)."""
    return int(hashlib.sha256(uri.encode()).hexdigest()[:8], 16) / 2**32


def tune_position(t: tune.Tunable) -> float:
    """Where a @tune value stands in its range, 0 at lo and 1 at hi (log scale for pow2)."""
    if t.hi <= t.lo:
        return 0.0
    if t.mode == "pow2":
        lo, hi, v = math.log2(max(t.lo, 1)), math.log2(max(t.hi, 1)), math.log2(max(t.value, 1))
    else:
        lo, hi, v = t.lo, t.hi, t.value
    return min(max((v - lo) / (hi - lo), 0.0), 1.0) if hi > lo else 0.0


def identity(package: OperatorPackage) -> np.ndarray:
    """The identity columns of the features Box: level, operator id, the @tune slots."""
    f = np.zeros(2 + 2 * TUNE_SLOTS, dtype=np.float32)
    f[0] = package.spec.level / 3
    f[1] = operator_id(package.uri)
    for s, t in enumerate(tune.find_tunables(package.tiling_source)[:TUNE_SLOTS]):
        f[2 + 2 * s : 4 + 2 * s] = (1.0, tune_position(t))
    return f


def features(
    current: EvalResult,
    last: EvalResult,
    baseline_us: float,
    best_us: float,
    budget_left: float,
    mask: np.ndarray,
    package: OperatorPackage,
) -> np.ndarray:
    """The features Box (FEATURE_NAMES): the current operator's latency and profile, the best so
    far, the budget left, the last evaluation's status, which rewrites apply, and the operator's
    identity and @tune values."""
    f = np.zeros(N_FEATURES, dtype=np.float32)
    f[0] = current.latency_us / baseline_us
    f[1] = best_us / baseline_us
    if current.profile is not None:
        p = current.profile
        f[2:6] = [getattr(p, key) for key in PIPE_RATIOS]
        f[6] = p.ub_bytes / max(p.ub_capacity_bytes, 1)
        f[7] = p.block_dim / max(p.aiv_cores, 1)
    f[8] = min(max(budget_left, 0.0), 1.0)
    f[9 + STATUSES.index(last.status)] = 1.0
    f[9 + len(STATUSES) : 9 + len(STATUSES) + K] = mask
    f[9 + len(STATUSES) + K :] = identity(package)
    return np.minimum(f, _FEATURE_HIGH)


CODE_KEYS = ("tiling", "kernel", "tiling_header", "sources", "done")


def discrete_action(action: Any) -> int:
    """A discrete action as an int; a float, bool, string or array of several values is refused
    rather than truncated."""
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action.item()
    if isinstance(action, bool) or not isinstance(action, numbers.Integral):
        raise TypeError(
            f"a discrete action is an integer in [0, {K}] (ascend_gym.rewrites.CATALOGUE ids, "
            f"{K} = done), got {type(action).__name__} {action!r}"
        )
    return int(action)


def code_action(action: Any) -> dict[str, Any]:
    """A code action checked: `tiling`, `kernel` and optional `tiling_header` (str), optional
    `sources` (the package's other kernel-side sources by path, str each), and an optional `done`
    (0 or 1)."""
    if not isinstance(action, dict):
        raise TypeError(
            f"a code action is a dict with keys {', '.join(CODE_KEYS)}, got {type(action).__name__}"
        )
    unknown = sorted(set(action) - set(CODE_KEYS))
    if unknown:
        raise ValueError(
            f"unknown code action key(s) {', '.join(map(repr, unknown))}; keys: "
            f"{', '.join(CODE_KEYS)} (empty tiling or kernel keeps that part)"
        )
    for key in ("tiling", "kernel", "tiling_header"):
        if action.get(key) is not None and not isinstance(action[key], str):
            raise TypeError(f"code action {key!r} must be a str, got {type(action[key]).__name__}")
    sources = action.get("sources") or {}
    if not isinstance(sources, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in sources.items()
    ):
        raise TypeError("code action 'sources' must map source paths to their text (str to str)")
    done = action.get("done", 0)
    if isinstance(done, np.ndarray) and done.shape == ():
        done = done.item()
    if isinstance(done, float) or done not in (0, 1):
        raise ValueError(f"code action 'done' must be 0 or 1, got {done!r}")
    return action


def code_action_of(package: OperatorPackage) -> dict[str, Any]:
    """The code action that submits `package` whole: its tiling program, its kernel and the
    kernel's other sources (op_kernel headers, where real operators keep their classes), so an
    edit anywhere on the kernel side reaches the daemon and nothing of the env's current package
    is left in the candidate."""
    return {
        "tiling": package.tiling_source,
        "kernel": package.kernel_source,
        "sources": {
            path: package.files[path]
            for path in rewrites.kernel_side(package)
            if path != package.kernel_path
        },
    }


def head_us(result: EvalResult) -> float | None:
    """The launch head the model put in a result's latency (the simulator's profile `head_us`)."""
    head = (result.profile.model_extra or {}).get("head_us") if result.profile else None
    return float(head) if head is not None else None


class EpisodeView:
    """What a policy reads of the env's episode, live and read-only. `ascend_gym.policies.episode`
    (`env.get_wrapper_attr("episode")`) reaches it through any wrappers, so no policy needs
    `env.unwrapped`."""

    def __init__(self, env: AscendOpEnv):
        self._env = env

    @property
    def package(self) -> OperatorPackage | None:
        """The current operator: the baseline after reset, then the last correct candidate; None
        before reset()."""
        return self._env.package

    @property
    def best_package(self) -> OperatorPackage:
        return self._env.best_package

    @property
    def current(self) -> EvalResult:
        """The evaluation of `package`."""
        return self._env.current

    @property
    def last(self) -> EvalResult | None:
        """The last evaluation of the episode (a failure included); None before reset()."""
        return self._env.last

    @property
    def soc(self) -> str:
        return self._env.soc

    @property
    def budget(self) -> int:
        return self._env.budget

    @property
    def spent(self) -> int:
        """Evaluations charged so far this episode."""
        return self._env.spent

    @property
    def baseline_us(self) -> float:
        return self._env.baseline_us

    @property
    def best_us(self) -> float:
        return self._env.best_us

    @property
    def baseline_head_us(self) -> float | None:
        """The modelled launch head within `baseline_us` (None: the backend does not say)."""
        return self._env.baseline_head_us

    @property
    def best_head_us(self) -> float | None:
        """The modelled launch head within `best_us` (None: unknown)."""
        return self._env.best_head_us

    @property
    def run_id(self) -> str:
        """The daemon run of this episode, which the env opened at reset with the budget."""
        return self._env.run_id

    @property
    def baseline_run_id(self) -> str:
        """The run the baseline was evaluated under at reset (free to the episode's budget)."""
        return self._env.baseline_run_id

    @property
    def eval_seed(self) -> int:
        return self._env.eval_seed

    @property
    def timing(self) -> str:
        """`EvalRequest.timing` of every evaluation of the episode."""
        return self._env.timing

    @property
    def timing_protocol(self) -> str:
        """`EvalRequest.timing_protocol` of every evaluation of the episode: "cold" or "warm"."""
        return self._env.timing_protocol

    @property
    def client(self) -> DaemonClient | DaemonPool:
        """The env's daemon connection, for a policy that evaluates through the daemon itself
        (under `run_id`, with the run's tokens)."""
        return self._env.client


class AscendOpEnv(gym.Env):
    """
    ## Description
    The state is an AscendC operator (host tiling program + device kernel program, docs/design.md 3.1) and
    the evaluation of its current version. Each step proposes a candidate operator, which an
    npu_daemon compiles, checks against the numpy reference on every shape case and times on the
    bench case. By default an embedded daemon runs the AscendC CPU simulator: its latencies are
    **simulated** (`info["result"].simulated`). Two modes share everything but the spaces:
    `"code"` for LLM agents that write source, `"discrete"` for RL agents that pick a rewrite from
    `ascend_gym.rewrites.CATALOGUE`.

    ## Action Space
    - code: `Dict(tiling: Text, kernel: Text, done: Discrete(2))`. `tiling` and `kernel` are the
      new host tiling program and kernel program; an empty string keeps that part, so an action
      is a kernel rewrite, a tiling mutation or both. `done=1` ends the episode after evaluating
      the candidate (a step with both parts empty and `done=1` just ends it). `done` may be left
      out. Sources may hold any Unicode text.
    - discrete: `Discrete(K + 1)`, K = 44: id i < K applies `CATALOGUE[i]` (`tune[s]:x2|/2|+step|-step`
      for @tune slots 0-3, `block_dim:cores`, `tile:larger|smaller`, `double_buffer:on|off`,
      `remove_pipe_all_barrier`, `datacopypad_to_datacopy`, `l2_bypass:inputs`, `hoist_mask`, then
      the cube levers: base M/N/K, step K, cube cores, Matmul template, AIC:AIV ratio, then
      `pipe_all_to_precise`, `double_buffer:literal`, `scalar_gm_reads_to_ub`,
      `row_copies_to_burst`, `scalar_loops_to_vector` and `split_tile_loops` for real kernels'
      idioms);
      id K is "done". A rewrite that does not apply is a no-op with `noop_penalty`;
      `info["action_mask"]` says which ids apply.

    ## Observation Space
    features: `Box(0, high, (75,), float32)`, columns named by `FEATURE_NAMES`:

    | columns | feature                                                 | bounds     |
    |---------|---------------------------------------------------------|------------|
    | 0       | current latency / baseline latency                      | [0, 1000]  |
    | 1       | best latency / baseline latency                         | [0, 1000]  |
    | 2-5     | vector, scalar, MTE2, MTE3 pipe ratios (current)        | [0, 1000]  |
    | 6       | UB bytes used / UB size (current)                       | [0, 1000]  |
    | 7       | block dim / vector cores (current)                      | [0, 1000]  |
    | 8       | evaluation budget left / budget                         | [0, 1]     |
    | 9-19    | one-hot status of the last evaluation (protocol.Status) | {0, 1}     |
    | 20-64   | which catalogue rewrites apply to the current operator  | {0, 1}     |
    | 65      | the operator's level / 3                                | [0, 1]     |
    | 66      | the operator's id: a stable hash of its URI             | [0, 1)     |
    | 67-74   | per @tune slot 0-3: present, value's place in its range | [0, 1]     |

    Columns 65-74 say which operator this is and where its knobs stand, so `tune[s]:x2` (another
    knob on another operator) reads in context; `info["operator"]` and `info["tunables"]` (name ->
    current value) say the same in words.

    - discrete: the features Box itself.
    - code: `Dict(tiling: Text, kernel: Text, features: Box)`. The texts are the current operator's
      sources, at most `MAX_SOURCE_CHARS` (131072) characters of printable ASCII, tab and newline:
      CRLF becomes LF and other characters are transliterated (NFKD) or shown as `?`; the package
      itself keeps the original text.

    ## Rewards
    `reward="best_delta"` (default): max(0, log(best latency so far / candidate latency)), so an
    episode's rewards add up to log(best speedup). `"prev_delta"`: log(current latency / candidate
    latency), adding up to log(baseline / final latency). `"final"`: 0 per step and
    log(baseline / best) when the episode ends (budget or done). A candidate that fails (compile
    error, wrong answer, race, timeout, ...) earns `failure_penalty` (-1) and leaves the state
    unchanged; a non-applicable rewrite earns `noop_penalty` (-0.05); a daemon fault (status
    DAEMON_ERROR or BUSY) earns 0 and costs nothing.

    ## Starting State
    The operator's baseline package (from `operator`, or `reset(options={"operator": uri})`,
    which also switches the env to that operator) and its evaluation, which must pass.
    `info` carries `result` (the full EvalResult), `budget_left`, `action_mask` (K + 1 bools),
    `baseline_us`, `best_us`, `current_us`, `speedup`, `candidate_hash`, `rewrite`, `noop`, `run_id`.

    ## Episode End
    - Termination: the done action.
    - Truncation: the evaluation budget is spent. The env counts what the daemon charges the
      episode's run: resubmitting a candidate already evaluated in the episode is free, and so is
      the baseline (a step that submits it is answered from the baseline's own run).
    - Truncation: `max_episode_steps` (400, a TimeLimit wrapper added by `gym.make`), because
      no-ops and resubmissions cost no budget.

    ## Arguments
    >>> import gymnasium as gym
    >>> import ascend_gym
    >>> env = gym.make("AscendOp-v0", operator="level1/add", mode="discrete", budget=4, daemon=DAEMON)
    >>> obs, info = env.reset(seed=0)
    >>> obs.shape, env.action_space
    ((75,), Discrete(46))
    >>> obs, reward, terminated, truncated, info = env.step(ascend_gym.rewrites.index("tile:larger"))
    >>> info["result"].status.value, info["result"].simulated, info["budget_left"]
    ('OK', True, 3)
    >>> env.close()

    operator: `level1/add`, `op://ascend-ops-v1/level1/add` or a package directory.
    mode: `"code"` or `"discrete"`. budget: evaluations per episode (docs/design.md 3.3).
    soc: SoC preset (default `DEFAULT_SOC`, Ascend910B4). daemon: None (an embedded daemon with
    `backend`), a `tcp://host:port` address, or several (a list or a comma-separated string): a
    pool that sends each evaluation to the least-loaded live daemon and moves on when one dies.
    reward: `best_delta`, `prev_delta` or `final`. failure_penalty, noop_penalty: see Rewards.
    eval_seed: the public seed of the daemon's random test inputs (it draws them with its own
    secret), fixed so evaluations are cached across episodes (`reset(seed=...)` seeds
    `np_random`, which the operator-sampling wrappers use). timing: how the bench case is timed
    (`EvalRequest.timing`: `"full"`, `"sampled"`, or `"auto"`: sampled past 256 MiB of outputs
    unless the operator is element-wise). timing_protocol: what a latency is, `"<data>-<launch>"`
    (`ascend_core.protocol.TimingProtocol`): L2 flushed or resident, the launch first or repeated;
    the default `"flushed-repeated"` is how benchmarks time a kernel (docs/performance_model.md,
    Timing protocol).
    backend: the embedded daemon's backend. run_id: the daemon's ledger key (default: unique).
    Each episode is a daemon run that `reset()` opens with `budget` (the first under `run_id`,
    later ones under `run_id/e<n>`; `env.run_id` names the current one): the daemon, not the env,
    refuses the evaluation past the budget, whoever submits it.
    render_mode: None or `"ansi"`: `env.render()` returns the operator, the budget, the last
    result and the current tiling and kernel sources as text.

    A malformed action raises instead of being coerced: a discrete action must be an integer
    (a float or bool is a TypeError), a code action a dict of `tiling`/`kernel` strings and an
    optional `done` of 0 or 1 (an unknown key is a ValueError).

    `env.validate()` re-evaluates the best candidate and the baseline under a new run on fresh
    inputs and returns a `Verdict` (outcome "OK" when both pass and take the recorded latencies),
    as CompilerGym's `env.validate()` checks a state. `ascend_gym.make("level1/add", ...)` is
    `gym.make("ascend_gym:AscendOp-v0", operator="level1/add", ...)`.

    `env.state` is the episode as JSON (`ascend_gym.state.EnvState`); `env.fork()` copies the
    episode without evaluating; `AscendOpEnv.from_state(state)` rebuilds one; envs pickle.

    ## Version History
    - v0: code and discrete modes, three rewards, state/fork/replay. `AscendOpCann-v0` is the same
      env on the cann backend, registered as nondeterministic.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        operator: str = "level1/add",
        mode: Literal["code", "discrete"] = "code",
        budget: int = 40,
        soc: str = DEFAULT_SOC,
        daemon: str | list[str] | None = None,
        reward: str = "best_delta",
        failure_penalty: float = -1.0,
        noop_penalty: float = -0.05,
        eval_seed: int = 0,
        backend: Literal["sim", "sim-guest", "cann"] = DEFAULT_BACKEND,
        run_id: str | None = None,
        render_mode: str | None = None,
        timing: Literal["auto", "full", "sampled"] = "auto",
        timing_protocol: TimingProtocol = DEFAULT_TIMING_PROTOCOL,
    ):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r}; render modes: ansi")
        self.render_mode = render_mode
        if mode not in ("code", "discrete"):
            raise ValueError(f"unknown mode {mode!r}; modes: code, discrete")
        if reward not in REWARDS:
            raise ValueError(f"unknown reward {reward!r}; rewards: {', '.join(REWARDS)}")
        if budget < 1:
            raise ValueError("budget must be at least 1")
        if soc not in socs():
            raise ValueError(f"unknown soc {soc!r}; SoC presets: {', '.join(socs())}")
        if timing not in ("auto", "full", "sampled"):
            raise ValueError(f"unknown timing {timing!r}; timings: auto, full, sampled")
        if timing_protocol not in TIMING_PROTOCOLS:
            raise ValueError(
                f"unknown timing_protocol {timing_protocol!r}; protocols: {', '.join(TIMING_PROTOCOLS)}"
            )
        try:  # here, not at the first reset: gym.make names the mistake
            suite.resolve(operator)
        except KeyError as e:
            raise ValueError(
                f"unknown operator {operator!r}: {e.args[0]} (an op:// URI, a <level>/<name> such "
                "as level1/add, or a package directory with op.toml; `ascend-gym suite list`)"
            ) from None
        self.operator, self.mode, self.budget, self.soc = operator, mode, budget, soc
        self.reward_kind, self.failure_penalty, self.noop_penalty = (
            reward,
            failure_penalty,
            noop_penalty,
        )
        self.eval_seed, self.backend, self.timing = eval_seed, backend, timing
        self.timing_protocol = timing_protocol
        # Each episode is a daemon run with the episode's budget, opened by `reset()`: the first
        # under `run_id`, later ones under `run_id/e<n>`.
        self._run_root = self.run_id = run_id or f"env-{uuid.uuid4().hex[:12]}"
        self._episodes = 0
        # One worker: an env evaluates one candidate at a time, so a vector env of N embedded
        # envs starts N one-worker daemons, not N daemons of one worker per core each.
        self._local = (
            LocalDaemon(backend=backend, workers=1, require_run_tokens=True)
            if daemon is None
            else None
        )
        if self._local is not None:
            self.address = self._local.address
        else:
            self.address = daemon if isinstance(daemon, str) else ",".join(daemon)
        self.client = connect(self.address)

        box = spaces.Box(low=0.0, high=_FEATURE_HIGH, shape=(N_FEATURES,), dtype=np.float32)
        if mode == "discrete":
            self.action_space = spaces.Discrete(K + 1)
            self.observation_space = box
        else:
            text = spaces.Text(max_length=MAX_SOURCE_CHARS, min_length=0, charset=SOURCE_CHARSET)
            self.action_space = spaces.Dict(
                {"tiling": text, "kernel": text, "done": spaces.Discrete(2)}
            )
            self.observation_space = spaces.Dict({"tiling": text, "kernel": text, "features": box})
        self.package: OperatorPackage | None = None
        self.last: StepResult | None = None  # set by reset()
        self.last_candidate: OperatorPackage | None = (
            None  # what the last step submitted (for recorders)
        )
        self.last_parent: OperatorPackage | None = None

    # ---- Gymnasium API ---------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        if options and options.get("operator"):
            self.operator = options["operator"]
        baseline = suite.resolve(self.operator)
        self._open_episode_run()
        result = self._evaluate(baseline, run_id=self.baseline_run_id)
        if not result.ok:
            first = (result.message.strip().splitlines() or [""])[0][:300]
            raise BaselineRejected(
                f"the baseline of {baseline.uri} does not pass, so there is nothing to optimise "
                f"against: {result.status.value}: {first}"
            )
        self._note_backend(result)
        self.baseline_package = self.package = self.best_package = baseline
        self.baseline_us = self.best_us = self.prev_us = result.latency_us
        self.baseline_head_us = self.best_head_us = head_us(result)
        self.current = self.last = result
        self.spent, self.terminated = 0, False
        self.log: list[StepEntry] = []
        self.last_candidate = self.last_parent = None
        self._mask = rewrites.applicable_mask(baseline, self.soc)
        return self._obs(), self._info(None, False)

    def step(self, action: Any):
        if self.package is None:
            raise gym.error.ResetNeeded("call reset() before step()")
        if self.terminated or self.spent >= self.budget:
            raise gym.error.ResetNeeded("the episode has ended; call reset()")
        self.last_parent, self.last_candidate = self.package, None
        if self.mode == "discrete":
            return self._step_discrete(discrete_action(action))
        return self._step_code(code_action(action))

    def render(self) -> str | None:
        """`render_mode="ansi"`: the operator, the last result, the budget and the current sources."""
        if self.render_mode != "ansi":
            return None
        if self.package is None:
            return f"{self.operator}: not reset yet\n"
        last = self.last
        result = f"{last.status.value}" + (
            f" {last.latency_us:.2f} us" if last.latency_us is not None else ""
        )
        if last.message and not last.ok:
            result += f": {last.message.splitlines()[0][:200]}"
        kind = "simulated" if self.current.simulated else "measured"
        lines = [
            f"{self.baseline_package.uri} ({kind}, {self.soc}), run {self.run_id}",
            f"budget {self.budget - self.spent}/{self.budget} left; steps {len(self.log)}",
            f"baseline {self.baseline_us:.2f} us, current {self.current.latency_us:.2f} us, "
            f"best {self.best_us:.2f} us ({self.baseline_us / self.best_us:.3f}x)",
            f"last result: {result}",
            f"---- tiling: {self.package.host_path}",
            self.package.tiling_source.rstrip("\n"),
            f"---- kernel: {self.package.kernel_path}",
            self.package.kernel_source.rstrip("\n"),
        ]
        return "\n".join(lines) + "\n"

    def validate(self, seeds: int = 2, tolerance: float = 0.0) -> Verdict:
        """Re-evaluate the episode's best candidate under a new run (nothing from the cache) on
        `seeds` fresh input seeds, and its baseline: the verdict says whether both pass and take
        the latencies the episode recorded (within `tolerance`, relative; the simulator is
        deterministic, so 0 by default)."""
        if self.package is None:
            raise gym.error.ResetNeeded("call reset() before validate()")
        claim = Claim(
            operator=self.baseline_package.uri,
            package=self.best_package,
            best_us=self.best_us,
            baseline_us=self.baseline_us,
            soc=self.soc,
            timing=self.timing,
            timing_protocol=self.timing_protocol,
            simulated=self.current.simulated,
        )
        rng = np.random.default_rng()
        return check(claim, self.client, [int(s) for s in rng.integers(1, 2**31, seeds)], tolerance)

    def close(self) -> None:
        self.client.close()
        if self._local is not None:
            self._local.close()
            self._local = None

    # ---- modes -------------------------------------------------------------------------------
    def _step_discrete(self, action: int):
        if not 0 <= action <= rewrites.DONE:
            raise ValueError(f"action {action} outside Discrete({K + 1})")
        if action == rewrites.DONE:
            return self._finish(StepEntry(action=action, rewrite="done", done=True), 0.0, None)
        rewrite = rewrites.CATALOGUE[action]
        candidate = rewrite.apply(self.package, self.soc) if self._mask[action] else None
        entry = StepEntry(action=action, rewrite=rewrite.name)
        if candidate is None:
            entry.noop = True
            return self._finish(entry, self.noop_penalty, None)
        return self._submit(candidate, entry)

    def _step_code(self, action: dict[str, Any]):
        tiling, kernel = action.get("tiling") or "", action.get("kernel") or ""
        header = action.get("tiling_header") or ""  # optional: generated packages bring theirs
        sources = dict(action.get("sources") or {})  # optional: the kernel's own headers
        entry = StepEntry(
            tiling=tiling,
            kernel=kernel,
            tiling_header=header,
            sources=sources,
            done=action.get("done", 0) == 1,
        )
        if entry.done and not tiling and not kernel and not sources:
            return self._finish(entry, 0.0, None)
        candidate = entry.candidate(self.package)
        return self._submit(candidate, entry)

    # ---- one evaluated candidate ---------------------------------------------------------------
    def _submit(self, candidate: OperatorPackage, entry: StepEntry):
        self.last_candidate = candidate
        digest = candidate.content_hash()
        baseline = digest == self.baseline_package.content_hash()
        result = self._evaluate(candidate, run_id=self.baseline_run_id if baseline else self.run_id)
        entry.candidate_hash, entry.status, entry.latency_us = (
            digest,
            result.status,
            result.latency_us,
        )
        self.last = result
        if result.daemon_fault:  # not the candidate's fault: free and unrewarded
            return self._finish(entry, 0.0, result)
        if result.charged and not baseline:  # the daemon's word; the baseline's run is not ours
            self.spent += 1
            entry.charged = True
        if not result.ok:
            return self._finish(entry, self.failure_penalty, result)
        reward = self._reward(result.latency_us)
        self.package, self.current, self.prev_us = candidate, result, result.latency_us
        if result.latency_us < self.best_us:
            self.best_us, self.best_package = result.latency_us, candidate
            self.best_head_us = head_us(result)
        self._mask = rewrites.applicable_mask(candidate, self.soc)
        return self._finish(entry, reward, result)

    def _finish(self, entry: StepEntry, reward: float, result: EvalResult | None):
        self.terminated = entry.done
        truncated = not self.terminated and self.spent >= self.budget
        if (self.terminated or truncated) and self.reward_kind == "final":
            reward += math.log(self.baseline_us / self.best_us)
        entry.reward = float(reward)
        self.log.append(entry)
        info = self._info(result, entry.noop, entry)
        return self._obs(), entry.reward, self.terminated, truncated, info

    def _reward(self, latency_us: float) -> float:
        if self.reward_kind == "best_delta":
            return max(0.0, math.log(self.best_us / latency_us))
        if self.reward_kind == "prev_delta":
            return math.log(self.prev_us / latency_us)
        return 0.0

    # ---- helpers -----------------------------------------------------------------------------
    def _open_episode_run(self) -> None:
        """Open this episode's run on the daemon with the episode's budget: the daemon then
        refuses evaluation budget + 1 whoever submits it (the env's own count is not the cap)."""
        self._join_run(self._episodes + 1, {})
        self.client.open_run(self.run_id, self.budget)
        self.client.open_run(self.baseline_run_id, BASELINE_RUN_BUDGET)

    @property
    def baseline_run_id(self) -> str:
        """The run the episode's baseline is evaluated under, at reset and whenever a step submits it
        again: the run paid for it at reset, so the baseline never costs the episode budget."""
        return f"{self.run_id}/baseline"

    def _evaluate(self, package: OperatorPackage, run_id: str) -> StepResult:
        result = self.client.evaluate(
            EvalRequest(
                run_id=run_id,
                package=package,
                soc=self.soc,
                seed=self.eval_seed,
                timing=self.timing,
                timing_protocol=self.timing_protocol,
            )
        )
        return StepResult.model_validate(result.model_dump())

    def _note_backend(self, result: EvalResult) -> None:
        """A sim-registered env talking to an NPU daemon is not deterministic: say so in its spec."""
        if result.backend == "cann" and self.spec is not None and not self.spec.nondeterministic:
            warnings.warn(
                "AscendOp-v0 is connected to a cann daemon; use AscendOpCann-v0 (nondeterministic)",
                stacklevel=3,
            )
            self.spec = replace(self.spec, nondeterministic=True)

    @property
    def episode(self) -> EpisodeView:
        """What a policy reads of the episode (`ascend_gym.policies.episode(env)`)."""
        return EpisodeView(self)

    @property
    def action_mask(self) -> np.ndarray:
        """Which discrete actions apply now (K + 1 bools; done always applies)."""
        return np.append(self._mask, True)

    def observation(self) -> Any:
        """The observation of the episode's current state (what the last reset or step gave)."""
        return self._obs()

    def _obs(self) -> Any:
        f = features(
            self.current,
            self.last,
            self.baseline_us,
            self.best_us,
            1.0 - self.spent / self.budget,
            self._mask,
            self.package,
        )
        if self.mode == "discrete":
            return f
        return {
            "tiling": ascii_view(self.package.tiling_source),
            "kernel": ascii_view(self.package.kernel_source),
            "features": f,
        }

    def _info(
        self, result: EvalResult | None, noop: bool, entry: StepEntry | None = None
    ) -> dict[str, Any]:
        return {
            "result": result if result is not None else self.last,
            "budget_left": self.budget - self.spent,
            "evaluations": self.spent,  # charged so far this episode
            "action_mask": self.action_mask,
            "baseline_us": self.baseline_us,
            "best_us": self.best_us,
            "current_us": self.current.latency_us,
            "speedup": self.baseline_us / self.best_us,
            "candidate_hash": entry.candidate_hash if entry else None,
            "rewrite": entry.rewrite if entry else None,
            "noop": noop,
            "run_id": self.run_id,  # this episode's daemon run, whose ledger charges its steps
            "operator": self.baseline_package.uri,
            "tunables": {t.name: t.value for t in tune.find_tunables(self.package.tiling_source)},
        }

    # ---- state, fork, pickling -----------------------------------------------------------------
    @property
    def state(self) -> EnvState:
        """The episode as JSON-able state (`env.state.model_dump_json()`)."""
        if self.package is None:
            raise gym.error.ResetNeeded("the env has no state before reset()")
        return EnvState(
            versions={
                "ascend_gym": ascend_gym.__version__,
                "gymnasium": version("gymnasium"),
                "protocol": str(PROTOCOL_VERSION),
                "catalogue": catalogue_digest(),
                **self.current.fingerprint,
            },
            operator=self.baseline_package.uri,
            mode=self.mode,
            soc=self.soc,
            budget=self.budget,
            reward=self.reward_kind,
            failure_penalty=self.failure_penalty,
            noop_penalty=self.noop_penalty,
            eval_seed=self.eval_seed,
            timing=self.timing,
            timing_protocol=self.timing_protocol,
            run_id=self.run_id,
            backend=self.current.backend,
            simulated=self.current.simulated,
            baseline_hash=self.baseline_package.content_hash(),
            baseline_us=self.baseline_us,
            current_hash=self.package.content_hash(),
            best_hash=self.best_package.content_hash(),
            best_us=self.best_us,
            prev_us=self.prev_us,
            spent=self.spent,
            terminated=self.terminated,
            steps=[e.model_copy() for e in self.log],
            current_result=self.current,
            last_result=self.last,
        )

    def _config(self) -> dict[str, Any]:
        return {
            "operator": self.operator,
            "mode": self.mode,
            "budget": self.budget,
            "soc": self.soc,
            "reward": self.reward_kind,
            "failure_penalty": self.failure_penalty,
            "noop_penalty": self.noop_penalty,
            "eval_seed": self.eval_seed,
            "backend": self.backend,
            "timing": self.timing,
            "timing_protocol": self.timing_protocol,
        }

    @classmethod
    def from_state(
        cls,
        state: EnvState | dict | str,
        daemon: str | list[str] | None = None,
        fresh_run: bool = False,
        **overrides: Any,
    ) -> AscendOpEnv:
        """An env in the recorded episode (rebuilt offline, nothing evaluated). `fresh_run=True`
        gives it a new run_id, so replaying it re-evaluates instead of hitting the cache."""
        if isinstance(state, str):
            state = EnvState.model_validate_json(state)
        elif isinstance(state, dict):
            state = EnvState.model_validate(state)
        config = {
            "operator": state.operator,
            "mode": state.mode,
            "budget": state.budget,
            "soc": state.soc,
            "reward": state.reward,
            "failure_penalty": state.failure_penalty,
            "noop_penalty": state.noop_penalty,
            "eval_seed": state.eval_seed,
            "backend": state.backend,
            "timing": state.timing,
            "timing_protocol": state.timing_protocol,
            **overrides,
        }
        env = cls(daemon=daemon, run_id=None if fresh_run else state.run_id, **config)
        env.restore(state)
        return env

    def restore(self, state: EnvState) -> None:
        """Put this env in the recorded episode without evaluating anything."""
        baseline, current, best = state.rebuild()
        self.operator = state.operator
        self.baseline_package, self.package, self.best_package = baseline, current, best
        self.baseline_us, self.best_us, self.prev_us = (
            state.baseline_us,
            state.best_us,
            state.prev_us,
        )
        self.baseline_head_us = self.best_head_us = None  # not in the recorded state
        self.current = StepResult.model_validate(state.current_result.model_dump())
        self.last = StepResult.model_validate(state.last_result.model_dump())
        self.spent, self.terminated = state.spent, state.terminated
        self.log = [e.model_copy() for e in state.steps]
        self._mask = rewrites.applicable_mask(current, self.soc)
        self.last_candidate = self.last_parent = None

    def fork(self, mode: Literal["code", "discrete"] | None = None) -> AscendOpEnv:
        """An independent copy of this episode, on the same daemon and run (shared cache and
        ledger), in this env's mode or `mode` (a bench's code-mode episode searched by an RL
        policy in the discrete one). It does not own the daemon: close forks before the env
        that started it."""
        config = {**self._config(), **({"mode": mode} if mode else {})}
        env = type(self)(daemon=self.address, run_id=self._run_root, **config)
        env._join_run(self._episodes, self.client.run_tokens(self.run_id))
        if self.package is not None:
            env.restore(self.state)
        env._np_random = copy.deepcopy(self._np_random)
        return env

    def _join_run(self, episodes: int, tokens: dict[str, str]) -> None:
        """Step in another env's current episode run (a fork or an unpickled copy)."""
        self._episodes = episodes
        self.run_id = self._run_root if episodes <= 1 else f"{self._run_root}/e{episodes}"
        self.client.use_tokens(self.run_id, tokens)

    def __getstate__(self) -> dict[str, Any]:
        # Sockets and the daemon subprocess do not pickle: ship the config, the daemon address
        # and the episode; the copy reconnects (Ray pickles envs into its workers).
        return {
            "config": self._config(),
            "address": self.address,
            "run_id": self._run_root,
            "episodes": self._episodes,
            "tokens": self.client.run_tokens(self.run_id),  # the copy steps in the same run
            "state": self.state.model_dump(mode="json") if self.package is not None else None,
            "np_random": self._np_random,
            "spec": self.spec,
        }

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.__init__(daemon=data["address"], run_id=data["run_id"], **data["config"])
        self._join_run(data["episodes"], data["tokens"])
        if data["state"] is not None:
            self.restore(EnvState.model_validate(data["state"]))
        self._np_random, self.spec = data["np_random"], data["spec"]
