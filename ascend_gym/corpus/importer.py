"""`ascend-gym suite import`: the corpus operators that pass every case, registered as a suite.

Each passing implementation becomes an operator package (its sources, our spec adapted to it as
op.toml, our references as reference.py) under the user's data directory, where the suite
registry finds it: `ascend-gym bench --suite NAME` then runs the policies on real operators.
"""

from __future__ import annotations

import json
import math
import re
import shutil
from pathlib import Path
from typing import Any

from ascend_core import suite
from ascend_core.package import OperatorPackage
from ascend_gym.corpus import build_package, find_ops, spec_for
from ascend_gym.corpus.runner import QUALIFY_DRAWS, OpOutcome, evaluate

LEVEL = "level1"  # imported suites are flat: one level


def toml_value(v: Any) -> str:
    """One TOML value (inline tables for dicts), enough for an OperatorSpec dump."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return (
            ("-inf" if v < 0 else "inf") if math.isinf(v) else "nan" if math.isnan(v) else repr(v)
        )
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_key(k)} = {toml_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"cannot write {type(v).__name__} as TOML")


def _key(k: str) -> str:
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else json.dumps(k)


def import_suite(
    src: Path,
    name: str,
    jobs: int = 1,
    soc: str = "Ascend910B4",
    progress=None,
    draws: int = QUALIFY_DRAWS,
) -> list[OpOutcome]:
    """Evaluate the corpus under `src` and write the operators passing every case on `draws`
    input draws as suite `name`."""
    from concurrent.futures import ThreadPoolExecutor

    sources = find_ops(src)

    def one(source):
        outcome = evaluate(source, soc, draws=draws)
        if progress:
            progress(outcome)
        return source, outcome

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        results = list(pool.map(one, sources))
    root = suite.data_dir() / name
    shutil.rmtree(root, ignore_errors=True)
    taken: set[str] = set()
    for source, outcome in results:
        if not outcome.passed:
            continue
        package = build_package(source, spec_for(source))
        op_name, k = source.op, 2
        while op_name in taken:  # several implementations of one operator
            op_name, k = f"{source.op}_{k}", k + 1
        taken.add(op_name)
        write_operator(package, root / LEVEL / op_name, f"imported from {source.rel}")
    return [o for _, o in results]


def write_operator(package: OperatorPackage, target: Path, origin: str) -> None:
    """A corpus package as a suite operator: its files and its adapted spec as op.toml, headed
    by a comment saying where it came from."""
    package.write_to(target)
    spec = package.spec.model_dump(mode="json")
    (target / "op.toml").write_text(
        f"# {origin}\n" + "".join(f"{_key(k)} = {toml_value(v)}\n" for k, v in spec.items())
    )
