"""Best-of-N: N independent proposals from the baseline operator, the fastest correct one kept.

Every proposal starts from the baseline package (never from an earlier sample), so the samples are
exchangeable and the best-so-far curve is reported averaged over all orderings of the samples
(`expected_speedup`) rather than along the one order in which they happened to be drawn.

Proposals come from the offline proposer by default: a random composition of one to `max_moves`
moves of the offline knowledge every policy shares (`agents.knowledge`: tiling moves, kernel
rewrites, expert-diff transplants). With `proposer="llm"` they come from a model
sampled through any OpenAI-compatible endpoint with the model settings every policy shares
(`agents.llm.LLMConfig`: one temperature, the call cap), behind the run's model gateway (record and
replay, calls and tokens in the result, apart from the evaluation budget).
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from pydantic import Field

from agents.ascendoptimizer.diagnose import profile_summary
from agents.knowledge import Knowledge, KnowledgeConfig
from agents.llm import ChatClient, LLMConfig, LLMError, ModelGateway, extract_parts
from agents.llm.sources import cases_text, other_sources
from ascend_core.package import OperatorPackage
from ascend_core.protocol import DEFAULT_SOC, EvalResult
from ascend_gym import metrics
from ascend_gym.env import EpisodeView, code_action_of
from ascend_gym.policies import PolicyConfig, PolicyResult, StepRecord, episode


class Proposer(Protocol):
    name: str

    def propose(
        self, package: OperatorPackage, rng: random.Random
    ) -> tuple[OperatorPackage, str] | None:
        """A candidate and a note saying how it was made; None when no candidate could be made."""


class OfflineProposer:
    """A random composition of moves of the shared offline knowledge (`agents.knowledge`)."""

    name = "offline"

    def __init__(self, knowledge: Knowledge, max_moves: int):
        self.knowledge, self.max_moves = knowledge, max_moves

    def propose(
        self, package: OperatorPackage, rng: random.Random
    ) -> tuple[OperatorPackage, str] | None:
        return self.knowledge.random_composition(package, rng, self.max_moves)


_SYSTEM = (
    "You optimise Huawei AscendC operators for the Ascend 910B. An operator is a host tiling program "
    "(C++, chooses block dim, tile sizes and tiling data) and a device kernel (C++ on the AI Core). "
    "Keep the numerics within tolerance; make it faster."
)
_USER = """Operator `{name}` ({category}, level {level}): {description}
Bench case (timed): {bench_case}. The baseline on the simulator: {latency_us:.2f} us; profile: {profile}.
Correctness: a candidate must pass every case below, each within its dtype's tolerance.
{cases}

The operator's other sources (the tiling data header and helpers; read-only):
{context}

Host tiling program ({host_path}):
```cpp
{tiling}
```

Device kernel ({kernel_path}):
```cpp
{kernel}
```

Reply with the complete new host tiling program in a block opened by ```cpp tiling and the complete
new kernel in a block opened by ```cpp kernel. Omit a block to keep that part unchanged."""


class LLMProposer:
    """Samples the model through the run's gateway; every sample is a fresh rewrite of the baseline,
    shown with all its sources and the simulator's profile of the baseline."""

    name = "llm"

    def __init__(self, client: ChatClient, baseline: EvalResult):
        self.client = client
        self.baseline = baseline

    def propose(
        self, package: OperatorPackage, rng: random.Random
    ) -> tuple[OperatorPackage, str] | None:
        spec = package.spec
        case = spec.bench_case
        user = _USER.format(
            name=spec.name,
            category=spec.category,
            level=spec.level,
            description=spec.description,
            bench_case=f"{case.name}: {case.dtype}, "
            + ", ".join(f"{k}={v}" for k, v in case.shapes.items()),
            latency_us=self.baseline.latency_us,
            profile=profile_summary(self.baseline.profile),
            cases=cases_text(spec),
            context=other_sources(package),
            host_path=package.host_path,
            tiling=package.tiling_source,
            kernel_path=package.kernel_path,
            kernel=package.kernel_source,
        )
        messages = [{"role": "system", "content": _SYSTEM}, {"role": "user", "content": user}]
        try:
            reply = self.client.chat(messages, seed=rng.randrange(2**31))
        except LLMError:
            return None  # refused (the call cap) or failed: no proposal, no evaluation
        sources = {"tiling": package.tiling_source, "kernel": package.kernel_source}
        parts = extract_parts(reply.content, sources)
        if not parts:
            return None
        return package.with_sources(**parts), (
            f"llm sample (T={self.client.config.temperature}): {', '.join(sorted(parts))}"
        )


class BestOfNConfig(PolicyConfig):
    proposer: str = Field("offline", pattern="^(offline|llm)$")
    max_moves: int = Field(3, ge=1)  # offline: moves composed into one proposal
    attempts_per_evaluation: int = Field(
        20, ge=1
    )  # duplicates are free cache hits: bound the draws
    llm: LLMConfig = LLMConfig()  # the model settings every policy shares
    knowledge: KnowledgeConfig = KnowledgeConfig()


class BestOfNResult(PolicyResult):
    # Best-so-far speedup after k = 0..N samples, averaged over orderings.
    expected_speedup: list[float] = []


class BestOfN:
    name = "bon"

    def __init__(self, **config: Any):
        self.config = BestOfNConfig(**config)

    def _proposer(
        self,
        operator: str,
        gateway: ModelGateway | None = None,
        baseline: EvalResult | None = None,
        soc: str = DEFAULT_SOC,
    ) -> Proposer:
        if self.config.proposer == "offline":
            return OfflineProposer(
                Knowledge(self.config.knowledge, operator, soc), self.config.max_moves
            )
        assert gateway is not None, "a model-driven run talks to the model through its gateway"
        return LLMProposer(
            ChatClient(self.config.llm.model_copy(update={"base_url": gateway.base_url})), baseline
        )

    def run(self, env: Any, seed: int) -> BestOfNResult:
        rng = random.Random(seed)
        env.reset(seed=seed)
        view = episode(env)
        baseline: OperatorPackage = view.package
        gateway = (
            ModelGateway(self.config.llm, charged=lambda: view.spent)
            if self.config.proposer == "llm"
            else None
        )
        try:
            result = self._run(env, view, seed, baseline, gateway, rng)
        finally:
            if gateway is not None:
                gateway.close()
        if gateway is not None:
            gateway.check(view.spent, view.budget)
        return result

    def _run(
        self,
        env: Any,
        view: EpisodeView,
        seed: int,
        baseline: OperatorPackage,
        gateway: ModelGateway | None,
        rng: random.Random,
    ) -> BestOfNResult:
        proposer = self._proposer(baseline.uri, gateway, view.current, view.soc)
        baseline_hash = baseline.content_hash()
        trajectory: list[StepRecord] = []
        speedups: list[float] = []
        truncated = False
        for _ in range(self.config.attempts_per_evaluation * view.budget):
            if truncated or (gateway is not None and gateway.exhausted):
                break
            proposal = proposer.propose(baseline, rng)
            if proposal is None or proposal[0].content_hash() == baseline_hash:
                continue  # nothing new to evaluate: the baseline's speedup is known to be 1.0
            candidate, note = proposal
            # The candidate is sent whole: the env's current package moves to the last correct
            # candidate, and a Best-of-N sample must be relative to the baseline.
            _, _, _, truncated, info = env.step(code_action_of(candidate))
            result = info["result"]
            trajectory.append(StepRecord.of(info, note))
            if not result.cache_hit:
                speedups.append(
                    metrics.speedup(view.baseline_us, result.latency_us) if result.ok else 1.0
                )
        return BestOfNResult.of_episode(
            self.name,
            view,
            seed,
            proposer=proposer.name,
            trajectory=trajectory,
            expected_speedup=metrics.expected_best_of_k(speedups),
            **(gateway.account() if gateway else {}),
        )
