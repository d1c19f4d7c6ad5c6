"""Task sets as prompt datasets: one task per operator, with a fixed train / held-out split.

A task set is a suite (`ascend-ops-v1`, `ascend-real-v1` once materialised, a suite made by
`ascend-gym suite import`, or any registered one). A task's prompt gives the operator's spec,
its numpy reference, its baseline sources and the answer format `parse.parse_completion`
reads. The split is a function of the operator's address alone (sha256, `heldout_fraction`), so
it does not move when operators are added to a suite.
"""

from __future__ import annotations

import hashlib
from typing import Literal

from pydantic import BaseModel

from ascend_core import suite
from ascend_core.package import OperatorPackage
from ascend_gym.rl.parse import EDITABLE

Split = Literal["train", "heldout"]

ANSWER_FORMAT = """Reply with the files you change, each in a fenced block whose info string names
its path, for example:

```cpp {kernel}
...the whole new file...
```

Files you do not send stay as they are. You may change: {editable}."""


class Task(BaseModel):
    operator: str  # op:// address: the reward service evaluates against this operator
    name: str
    level: int
    category: str
    split: Split
    prompt: str


def split_of(address: str, heldout_fraction: float) -> Split:
    draw = int.from_bytes(hashlib.sha256(address.encode()).digest()[:8], "big") / 2**64
    return "heldout" if draw < heldout_fraction else "train"


def prompt_for(package: OperatorPackage) -> str:
    """The task's text: spec, reference, baseline sources, answer format."""
    spec = package.spec
    editable = sorted(p for p in package.files if p.startswith(EDITABLE))
    sources = "\n\n".join(f"```cpp {p}\n{package.files[p]}```" for p in editable)
    reference = next((t for p, t in package.files.items() if p.endswith("reference.py")), "")
    return "\n\n".join(
        [
            f"Optimise the AscendC operator `{spec.name}` ({spec.category}, level {spec.level}) "
            f"for the Ascend 910B: {spec.description or spec.name}. It must stay correct on every "
            "shape case; the reward grows with its speed over this baseline.",
            f"Shape cases: {', '.join(f'{c.name} {c.dtype} {c.shapes}' for c in spec.cases)} "
            f"(timed: {spec.bench_case.name}).",
            f"Numpy reference:\n```python\n{reference}```" if reference else "",
            f"Baseline sources:\n\n{sources}",
            ANSWER_FORMAT.format(kernel=package.kernel_path, editable=", ".join(editable)),
        ]
    ).replace("\n\n\n\n", "\n\n")


def load_taskset(
    name: str, heldout_fraction: float = 0.2, split: Split | None = None
) -> list[Task]:
    """Every operator of the suite `name` as a task (those of `split` only, when given)."""
    try:
        addresses = suite.op_uris(name)
    except KeyError as e:
        why = e.args[0] if e.args[0] != name else f"the suites are {', '.join(suite.roots())}"
        raise ValueError(f"no task set {name!r}: {why}") from None
    tasks = []
    for address in addresses:
        package = suite.resolve(address)
        task = Task(
            operator=address,
            name=package.spec.name,
            level=package.spec.level,
            category=package.spec.category,
            split=split_of(address, heldout_fraction),
            prompt=prompt_for(package),
        )
        if split is None or task.split == split:
            tasks.append(task)
    return tasks


def as_dataset(tasks: list[Task]):
    """A `datasets.Dataset` with the columns trainers read: prompt, operator (and the rest)."""
    import datasets

    return datasets.Dataset.from_list([t.model_dump() for t in tasks])
