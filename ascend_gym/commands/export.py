"""Write a best candidate of a bench or optimize run as an operator package directory.

  ascend-gym export results/bench --op level1/add --out add_best/
  ascend-gym eval add_best/            # evaluates to the recorded latency

The package is the cann-ops style directory the suite uses (op.toml, op_host/, op_kernel/,
reference.py): `ascend-gym eval DIR` and the cann backend build it as they build any operator.
By default the best task (highest speedup) of each op is exported; with several ops each goes to
OUT/<level>_<name>/. `--policy` and `--seed` narrow the choice.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tomllib
from pathlib import Path
from typing import Any

from ascend_core.package import OperatorPackage, OperatorSpec
from ascend_gym import metrics
from ascend_gym.commands.common import UsageError, load_operator
from ascend_gym.commands.validate import OPTIMIZE_RESULT
from ascend_gym.records import RESULTS, SweepRecord, latest, load_candidate, read_records


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "results", type=Path, help="results directory of `ascend-gym bench` or `optimize --out`"
    )
    parser.add_argument("--out", type=Path, required=True, help="directory to write the package to")
    parser.add_argument(
        "--op", help="the operator (op:// URI or <level>/<name>; default: every op)"
    )
    parser.add_argument("--policy", help="only this policy's candidates (default: any)")
    parser.add_argument("--seed", type=int, help="only this seed's candidates (default: any)")


def spec_toml(spec: OperatorSpec) -> str:
    """op.toml for a spec; checked to read back as the same spec."""
    data = spec.model_dump(mode="json", exclude_defaults=True)
    text = _toml(data)
    if OperatorSpec.model_validate(tomllib.loads(text)) != spec:
        raise ValueError(f"{spec.name}: the spec does not round-trip through TOML")
    return text


def _toml(table: dict[str, Any], prefix: str = "") -> str:
    """TOML of a JSON-like table: scalars and inline arrays first, then sub-tables."""
    scalars, tables, arrays = [], [], []
    for key, value in table.items():
        if isinstance(value, dict):
            tables.append((key, value))
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            arrays.append((key, value))
        else:
            scalars.append(f"{key} = {_value(value)}")
    out = "\n".join(scalars) + ("\n" if scalars else "")
    for key, value in tables:
        name = f"{prefix}{key}"
        out += f"\n[{name}]\n" + _toml(value, f"{name}.")
    for key, items in arrays:
        for item in items:
            name = f"{prefix}{key}"
            out += f"\n[[{name}]]\n" + _toml(item, f"{name}.")
    return out


def _value(value: Any) -> str:
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return json.dumps(value)  # strings, numbers and booleans are spelt alike in TOML and JSON


def write_package(package: OperatorPackage, root: Path, replace: bool = False) -> None:
    """The package as a directory with its op.toml; `replace` clears what is there first."""
    if replace:
        shutil.rmtree(root, ignore_errors=True)
    elif root.exists() and any(root.iterdir()):
        raise UsageError(f"{root} exists and is not empty: give a new --out directory")
    root.mkdir(parents=True, exist_ok=True)
    package.write_to(root)
    (root / "op.toml").write_text(spec_toml(package.spec))


def chosen(records: list[SweepRecord], args: argparse.Namespace) -> dict[str, SweepRecord]:
    """The best record of each op among those that match the filters and kept a candidate."""
    op = load_operator(args.op).uri if args.op else None
    best: dict[str, SweepRecord] = {}
    for r in records:
        if not r.ok or not r.best_file:
            continue
        if (op and r.operator != op) or (args.policy and r.policy != args.policy):
            continue
        if args.seed is not None and r.seed != args.seed:
            continue
        if r.operator not in best or metrics.record_speedup(r) > metrics.record_speedup(
            best[r.operator]
        ):
            best[r.operator] = r
    return best


def run(args: argparse.Namespace) -> int:
    if (args.results / RESULTS).is_file():
        records = latest(read_records(args.results / RESULTS))
    elif (args.results / OPTIMIZE_RESULT).is_file():
        records = [SweepRecord.model_validate_json((args.results / OPTIMIZE_RESULT).read_text())]
    else:
        raise UsageError(f"no {RESULTS} or {OPTIMIZE_RESULT} in {args.results}")
    best = chosen(records, args)
    if not best:
        raise UsageError(
            f"no task in {args.results} matches and kept its best candidate (see --op, --policy, "
            "--seed; results of older versions keep only hashes)"
        )
    for op, record in best.items():
        package = load_candidate(args.results, record)
        if package is None:
            raise UsageError(f"{args.results / record.best_file} is missing")
        root = (
            args.out
            if len(best) == 1
            else args.out / op.removeprefix("op://").split("/", 1)[-1].replace("/", "_")
        )
        write_package(package, root)
        print(
            f"{root}: {op}, {record.policy} seed {record.seed}: {record.best_us:.2f} us "
            f"({metrics.record_speedup(record):.3f}x; "
            f"{'simulated' if record.simulated is not False else 'NPU'}, {record.soc})"
        )
    return 0
