"""A researcher's own policy, named module:Class, runs through bench (its Ray workers import it)
and optimize like a registered one: docs/examples/grid_sweep.py, on PYTHONPATH."""

import json
import os
from pathlib import Path

from tests.test_cli_errors import assert_usage_error, cli

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"
OWN = "grid_sweep:GridSweep"


def _env() -> dict[str, str]:
    paths = [str(EXAMPLES), *filter(None, [os.environ.get("PYTHONPATH")])]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}


def test_bench_and_optimize_run_a_policy_named_module_class(tmp_path, daemon):
    out = tmp_path / "sweep"
    done = cli(
        "bench", "--ops", "level1/add", "--policies", f"{OWN},random", "--budget", "3",
        "--daemons", daemon, "--out", str(out), env=_env(),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert OWN in done.stdout  # a row of the table
    records = {r["policy"]: r for r in map(json.loads, (out / "results.jsonl").open())}
    own = records[OWN]  # keyed by the name it was given, though the class calls itself grid_sweep
    assert own["ok"] and own["budget_ok"] and 1 <= own["evaluations"] <= 3
    values = [int(step["note"].split(" = ")[1]) for step in own["trajectory"]]
    assert values == sorted(values) and len(set(values)) == len(values)  # the grid, in order
    done = cli(
        "optimize", "level1/add", "--policy", OWN, "--budget", "2", "--daemon", daemon,
        "--config", json.dumps({"first": 1}), env=_env(),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "2/2 evaluations" in done.stdout and "speedup" in done.stdout


def test_a_policy_that_does_not_load_or_refuses_its_config_is_a_usage_error():
    assert_usage_error(
        cli("bench", "--policies", "nosuch_module:Policy", "--ops", "level1/add"),
        "nosuch_module:Policy",
        "cannot load it",
    )
    assert_usage_error(cli("bench", "--policies", "not a name"), "unknown policy not a name")
    done = cli("optimize", "level1/add", "--policy", OWN, "--config", '{"frist": 1}', env=_env())
    assert_usage_error(done, "GridSweep has no setting frist")
