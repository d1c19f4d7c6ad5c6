"""Generation with a model: the prompt gives the spec, the reference and DSL examples by
category, and asks for a DSL program; errors go back to the model (AscendCraft's multi-pass
repair): the DSL checker's (with the program line), the compiler's and the simulator's.

The model is reached through a `Chat` (in practice `agents.llm.ChatClient`, pointed by the
`generate` policy at its model gateway, so its calls are recorded, replayed, counted and capped
like every other policy's).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from pydantic import BaseModel

from ascend_core.package import OperatorPackage
from ascend_gym.dsl.confined import GenerationFailed
from ascend_gym.dsl.generate import build, reference_files, spec_only
from ascend_gym.dsl.lang import DslError
from ascend_gym.dsl.spec_toml import spec_toml

EXAMPLES = Path(__file__).resolve().parent / "examples"
# suite categories -> the example closest in shape
CATEGORY_EXAMPLE = {
    "elementwise": "elementwise",
    "activation": "elementwise",
    "math": "elementwise",
    "fusion": "broadcast",
    "broadcast": "broadcast",
    "reduction": "reduction",
    "loss": "reduction",
    "normalization": "normalization",
    "foreach": "foreach",
}

SYSTEM = """You write operators in a small Python tile DSL that is compiled to AscendC for the
Ascend 910B. The vocabulary:
- k = Kernel(name); k.input(name, layout) with layout "full" (default), "cols" (shape [cols],
  shared by every row) or "rows" (shape [rows, 1]); k.output(name, "full" | "rows");
  k.attr(name) for a float attribute.
- with k.tiles() as t: a flat loop, every tensor in it has the same element count.
  with k.rows() as r: a loop over the rows of [rows, cols] tensors (the last axis is the row).
- t.load(tensor) / r.load(tensor, part=i, parts=n) give tiles of the tensor dtype; .float()
  casts up to fp32; t.store(tensor, value) casts back down.
- Values: + - * / and unary -, abs(), comparisons (> >= < <=) for where(mask, a, b),
  exp log sqrt rsqrt reciprocal tanh sigmoid relu maximum minimum power
  sin cos tan atan floor ceil round trunc.
  In rows loops: v.sum() v.mean() v.max() v.min() give one value per row (fp32 only), usable
  with tiles and numbers. Comparisons and where() only in tiles loops.
- k.schedule(tile_length=, rows_per_tile=, buffer_num=, block_dim=, l2_disable=[inputs]).
Reply with the whole program in one ```python block."""

USER = """Operator spec (op.toml):
```toml
{spec}
```
Reference (numpy, float64):
```python
{reference}
```
An example program of a similar kind ({example_name}):
```python
{example}
```
Write the DSL program for `{name}`."""

REPAIR = """That program failed: {error}
Reply with the whole corrected program in one ```python block."""

_BLOCK = re.compile(r"```(?:python|py)?[ \t]*\n(.*?)```", re.DOTALL)


class Reply(Protocol):
    content: str
    prompt_tokens: int
    completion_tokens: int


class Chat(Protocol):
    def chat(self, messages: list[dict[str, str]], seed: int | None = None) -> Reply: ...


class Attempt(BaseModel):
    program: str
    error: str = ""  # empty when the package built and passed the check


class ModelResult(BaseModel):
    attempts: list[Attempt] = []
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def ok(self) -> bool:
        return bool(self.attempts) and not self.attempts[-1].error


def example_for(category: str) -> tuple[str, str]:
    name = CATEGORY_EXAMPLE.get(category, "elementwise")
    return name, (EXAMPLES / f"{name}.py").read_text()


def prompt(pkg: OperatorPackage) -> list[dict[str, str]]:
    spec = pkg.spec
    example_name, example = example_for(spec.category)
    reference = "\n".join(reference_files(pkg).values())
    user = USER.format(
        spec=spec_toml(spec).strip(),
        reference=reference.strip(),
        example_name=example_name,
        example=example.strip(),
        name=spec.name,
    )
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]


def extract(reply: str) -> str:
    blocks = _BLOCK.findall(reply)
    return max(blocks, key=len) if blocks else ""


Check = Callable[[OperatorPackage], str]  # "" when the package passes, else the error text


class ModelGenerator:
    """Asks a model for the DSL program and repairs it with the errors, up to `repairs` times."""

    def __init__(self, chat: Chat, repairs: int = 3):
        self.chat, self.repairs = chat, repairs

    def generate(
        self, pkg: OperatorPackage, check: Check, seed: int = 0
    ) -> tuple[OperatorPackage | None, ModelResult]:
        """The first package that builds and passes `check`, or None; and every attempt."""
        source = spec_only(pkg)
        messages = prompt(source)
        result = ModelResult()
        best: OperatorPackage | None = None
        for _ in range(1 + self.repairs):
            reply = self.chat.chat(messages, seed=seed)
            result.calls += 1
            result.prompt_tokens += reply.prompt_tokens
            result.completion_tokens += reply.completion_tokens
            text = reply.content
            program = extract(text)
            if not program:
                error = "the reply has no ```python block"
            else:
                try:
                    best = build(source, program)
                    error = check(best)
                except DslError as e:
                    error = f"DSL error at {e}"
                except GenerationFailed as e:  # its child killed, out of time, or crashed
                    error = str(e)
            result.attempts.append(Attempt(program=program, error=error))
            if not error:
                return best, result
            messages += [
                {"role": "assistant", "content": text},
                {"role": "user", "content": REPAIR.format(error=error[:2000])},
            ]
        return None, result
