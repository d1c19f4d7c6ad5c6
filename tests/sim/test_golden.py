"""The simulator's results against the checked-in golden file: every result field of every suite
operator and sim test package (benchmarks/sim_results.py). A change that moves a latency or a
status regenerates the golden file and explains the move operator by operator in its commit."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "benchmarks" / "sim_results.golden.json"


@pytest.mark.slow
def test_sim_results_match_the_golden_file(tmp_path):
    out = tmp_path / "sim_results.json"
    subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "sim_results.py"), str(out)],
        check=True,
        capture_output=True,
    )
    now, golden = json.loads(out.read_text()), json.loads(GOLDEN.read_text())
    assert sorted(now) == sorted(golden), "the packages differ from the golden file's"
    moved = {
        name: sorted(
            k
            for k in golden[name].keys() | now[name].keys()
            if golden[name].get(k) != now[name].get(k)
        )
        for name in golden
        if now[name] != golden[name]
    }
    assert not moved, f"results differ from {GOLDEN.name} (package: fields): {moved}"
