"""Best-of-N: N independent proposals from the baseline operator, the fastest correct one kept.

Every proposal starts from the baseline package (never from an earlier sample), so the samples are
exchangeable and the best-so-far curve is reported averaged over all orderings of the samples
(`expected_speedup`) rather than along the one order in which they happened to be drawn.

Proposals come from the offline proposer by default: a random composition of one to `max_moves`
moves of the offline knowledge every policy shares (`agents.knowledge`: tiling moves, kernel
rewrites, expert-diff transplants). With `proposer="llm"` they come from a model
sampled at `temperature` through any OpenAI-compatible endpoint (`base_url`, `model`, the key read
from the environment variable named by `api_key_env`); its calls and tokens are logged in the
result, apart from the evaluation budget.
"""

from __future__ import annotations

import os
import random
import re
from typing import Any, Protocol

from pydantic import BaseModel, Field

from agents.knowledge import Knowledge, KnowledgeConfig
from ascend_gym import metrics
from ascend_gym.package import OperatorPackage
from ascend_gym.policies import PolicyResult, StepRecord


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


class LLMConfig(BaseModel):
    base_url: str = "http://127.0.0.1:8000/v1"
    model: str = "deepseek-chat"
    api_key_env: str = "OPENAI_API_KEY"
    temperature: float = Field(1.0, ge=0.0, le=2.0)
    max_tokens: int = Field(8192, gt=0)
    timeout_s: float = Field(300.0, gt=0)


_SYSTEM = (
    "You optimise Huawei AscendC operators for the Ascend 910B. An operator is a host tiling program "
    "(C++, chooses block dim, tile sizes and tiling data) and a device kernel (C++ on the AI Core). "
    "Keep the numerics within tolerance; make it faster."
)
_USER = """Operator `{name}` ({category}, level {level}): {description}

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
_BLOCK = re.compile(r"```(?:cpp|c\+\+)?[ \t]+(tiling|kernel)[ \t]*\n(.*?)```", re.DOTALL)


class LLMProposer:
    """Samples a model at a set temperature; every sample is a fresh rewrite of the baseline."""

    name = "llm"

    def __init__(self, config: LLMConfig, seed: int, http_client: Any = None):
        import openai  # only the model path needs the client

        self.config, self.seed = config, seed
        self.client = openai.OpenAI(
            base_url=config.base_url,
            api_key=os.environ.get(config.api_key_env, "none"),
            timeout=config.timeout_s,
            max_retries=2,
            http_client=http_client,
        )
        self.calls = self.prompt_tokens = self.completion_tokens = 0

    def propose(
        self, package: OperatorPackage, rng: random.Random
    ) -> tuple[OperatorPackage, str] | None:
        spec = package.spec
        user = _USER.format(
            name=spec.name,
            category=spec.category,
            level=spec.level,
            description=spec.description,
            host_path=package.host_path,
            tiling=package.tiling_source,
            kernel_path=package.kernel_path,
            kernel=package.kernel_source,
        )
        reply = self.client.chat.completions.create(
            model=self.config.model,
            temperature=self.config.temperature,
            max_tokens=self.config.max_tokens,
            seed=rng.randrange(2**31),
            messages=[{"role": "system", "content": _SYSTEM}, {"role": "user", "content": user}],
        )
        self.calls += 1
        if reply.usage is not None:
            self.prompt_tokens += reply.usage.prompt_tokens
            self.completion_tokens += reply.usage.completion_tokens
        parts = {
            m.group(1): m.group(2) for m in _BLOCK.finditer(reply.choices[0].message.content or "")
        }
        if not parts:
            return None
        return package.with_sources(
            tiling=parts.get("tiling", ""), kernel=parts.get("kernel", "")
        ), f"llm sample (T={self.config.temperature}): {', '.join(sorted(parts))}"


class BestOfNConfig(BaseModel):
    proposer: str = Field("offline", pattern="^(offline|llm)$")
    max_moves: int = Field(3, ge=1)  # offline: moves composed into one proposal
    attempts_per_evaluation: int = Field(
        20, ge=1
    )  # duplicates are free cache hits: bound the draws
    llm: LLMConfig = LLMConfig()
    knowledge: KnowledgeConfig = KnowledgeConfig()


class BestOfNResult(PolicyResult):
    expected_speedup: list[
        float
    ] = []  # best-so-far speedup after k = 0..N samples, averaged over orderings
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0


class BestOfN:
    name = "bon"

    def __init__(self, http_client: Any = None, **config: Any):
        self.config = BestOfNConfig(**config)
        self.http_client = http_client  # tests inject a mock transport here

    def _proposer(self, seed: int, operator: str) -> Proposer:
        if self.config.proposer == "offline":
            return OfflineProposer(
                Knowledge(self.config.knowledge, operator), self.config.max_moves
            )
        return LLMProposer(self.config.llm, seed, self.http_client)

    def run(self, env: Any, seed: int) -> BestOfNResult:
        rng = random.Random(seed)
        env.reset(seed=seed)
        core = env.unwrapped
        baseline: OperatorPackage = core.package
        proposer = self._proposer(seed, baseline.uri)
        baseline_hash = baseline.content_hash()
        trajectory: list[StepRecord] = []
        speedups: list[float] = []
        truncated = False
        for _ in range(self.config.attempts_per_evaluation * core.budget):
            if truncated:
                break
            proposal = proposer.propose(baseline, rng)
            if proposal is None or proposal[0].content_hash() == baseline_hash:
                continue  # nothing new to evaluate: the baseline's speedup is known to be 1.0
            candidate, note = proposal
            # Both parts are sent in full: the env's current package moves to the last correct
            # candidate, and a Best-of-N sample must be relative to the baseline.
            _, _, _, truncated, info = env.step(
                {"tiling": candidate.tiling_source, "kernel": candidate.kernel_source}
            )
            result = info["result"]
            trajectory.append(
                StepRecord(
                    evaluation=core.spent,
                    status=result.status,
                    latency_us=result.latency_us,
                    best_us=core.best_us,
                    cache_hit=result.cache_hit,
                    note=note,
                )
            )
            if not result.cache_hit:
                speedups.append(
                    metrics.speedup(core.baseline_us, result.latency_us) if result.ok else 1.0
                )
        return BestOfNResult(
            policy=self.name,
            operator=core.package.uri,
            seed=seed,
            budget=core.budget,
            baseline_us=core.baseline_us,
            best_us=core.best_us,
            best_hash=core.best_package.content_hash(),
            evaluations=core.spent,
            proposer=proposer.name,
            trajectory=trajectory,
            expected_speedup=metrics.expected_best_of_k(speedups),
            llm_calls=getattr(proposer, "calls", 0),
            prompt_tokens=getattr(proposer, "prompt_tokens", 0),
            completion_tokens=getattr(proposer, "completion_tokens", 0),
        )
