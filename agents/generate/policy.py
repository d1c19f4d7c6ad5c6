"""The `generate` policy: write the operator anew from its spec and reference (AscendCraft), then
spend the rest of the budget on schedules of the generated program.

Step 1 is a DSL program: the offline template library's, or a model's with multi-pass repair
(DSL errors cost nothing; compiler and simulator errors are evaluations through the env).
Offline, where the template computes fp16 tensors in fp32 for safety, step 2 tries the same
program in the tensors' dtype and keeps it if it passes and is faster. Every later step keeps
the program and changes one schedule knob of the best schedule so far, the
Halide way: the algorithm stays, how it is tiled, buffered and split moves. Each candidate is a
complete lowered package (kernel, host tiling and its tiling header) submitted as one env step.
"""

from __future__ import annotations

import random
from typing import Any

from pydantic import Field

from agents.llm import ChatClient, LLMConfig, LLMError, ModelGateway
from ascend_core.package import OperatorPackage
from ascend_gym.dsl.generate import build, offline_draft, program_schedule, spec_only
from ascend_gym.dsl.lang import DslError
from ascend_gym.dsl.model import ModelGenerator
from ascend_gym.dsl.trace import Unsupported
from ascend_gym.policies import PolicyConfig, PolicyResult, StepRecord, episode

# the schedule grid the search walks (one knob per step)
GRID: dict[str, list[Any]] = {
    "tile_length": [2048, 4096, 8192, 12288, 16384],
    "rows_per_tile": [8, 16, 32, 64, 128, 256],
    "buffer_num": [1, 2, 3],
    "block_dim": [8, 12, 16, 20, 24, 32, 40, 48],
}


class GenerateConfig(PolicyConfig):
    proposer: str = Field("offline", pattern="^(offline|llm)$")
    llm: LLMConfig = LLMConfig()  # the settings every policy shares (one temperature, one cap)
    repairs: int = Field(3, ge=0, le=10)  # model passes after the first program
    attempts_per_evaluation: int = Field(20, ge=1)  # cache hits are free: bound the draws


class GenerateResult(PolicyResult):
    category: str = ""
    program: str = ""  # the DSL program of the best candidate
    schedule: dict[str, Any] = {}
    generated: bool = False  # a generated package passed
    repairs: list[str] = []  # the errors sent back to the model, in order


class Generate:
    name = "generate"

    def __init__(self, **config: Any):
        self.config = GenerateConfig(**config)

    def run(self, env: Any, seed: int) -> GenerateResult:
        rng = random.Random(seed)
        env.reset(seed=seed)
        view = episode(env)
        source = spec_only(view.package)
        trajectory: list[StepRecord] = []
        out = GenerateResult.of_episode(
            self.name, view, seed, evaluations=0, proposer=self.config.proposer
        )
        truncated = False

        def submit(pkg: OperatorPackage, note: str) -> tuple[str, float | None]:
            """One env step with the whole lowered package: (error or "", latency)."""
            nonlocal truncated
            _, _, _, truncated, info = env.step(
                {
                    "tiling": pkg.tiling_source,
                    "kernel": pkg.kernel_source,
                    "tiling_header": pkg.files[pkg.tiling_header_path],
                }
            )
            r = info["result"]
            phase = "generate" if note.startswith("program") else "schedule"
            trajectory.append(StepRecord.of(info, note, phase))
            return ("", r.latency_us) if r.ok else (f"{r.status.value}: {r.message}", None)

        program, latency = "", None
        if self.config.proposer == "offline":
            try:
                draft = offline_draft(source)
                program, out.category = draft.source, draft.category
                pkg = build(source, program)
                error, latency = submit(pkg, f"program ({draft.category} template)")
                out.repairs += [error] if error else []
                # the same algorithm in the tensors' dtype: fewer casts, if the tolerance holds
                native = offline_draft(source, native=True).source
                if native != program and view.spent < view.budget and not truncated:
                    pkg = build(source, native)
                    error, lat = submit(pkg, "program (in the tensors' dtype)")
                    if lat is not None and (latency is None or lat < latency):
                        program, latency = native, lat
            except (Unsupported, DslError) as e:
                out.repairs.append(str(e))
        else:
            # Through the gateway, as every policy: recorded, replayable, counted and capped.
            gateway = ModelGateway(self.config.llm, charged=lambda: view.spent)
            chat = ChatClient(self.config.llm.model_copy(update={"base_url": gateway.base_url}))
            passes = iter(range(1, 1000))
            latencies: list[float | None] = []

            def check(p: OperatorPackage) -> str:
                error, lat = submit(p, f"program (model pass {next(passes)})")
                latencies.append(lat)
                return error

            try:
                pkg, mr = ModelGenerator(chat, self.config.repairs).generate(source, check, seed)
                out.repairs = [a.error for a in mr.attempts if a.error]
                if pkg is not None:
                    program, latency = mr.attempts[-1].program, latencies[-1]
            except LLMError as e:  # the endpoint failed, or the call cap refused the call
                gateway.check(view.spent, view.budget)  # no model: infrastructure, not a result
                out.repairs.append(f"model: {e}")
            finally:
                gateway.close()
            for name, value in gateway.account().items():
                setattr(out, name, value)
        out.generated = latency is not None
        best_sched = None
        if latency is not None:
            # The program may be a model's: it runs in generation's confined child, never here.
            best_sched, best_us = program_schedule(source, program), latency
            for _ in range(self.config.attempts_per_evaluation * view.budget):
                if truncated or view.spent >= view.budget:
                    break
                knob = rng.choice(sorted(GRID))
                value = rng.choice([v for v in GRID[knob] if v != getattr(best_sched, knob)])
                sched = best_sched.model_copy(update={knob: value})
                error, lat = submit(build(source, program, sched), f"schedule {knob}={value}")
                if not error and lat is not None and lat < best_us:
                    best_us, best_sched = lat, sched
        out.program = program
        out.schedule = best_sched.model_dump() if best_sched is not None else {}
        out.best_us = view.best_us
        out.best_hash = view.best_package.content_hash()
        out.evaluations = view.spent
        out.trajectory = trajectory
        return out
