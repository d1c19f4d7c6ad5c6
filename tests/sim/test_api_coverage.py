"""`ascend-gym sim coverage`: the documented API list against our headers and test kernels."""

from __future__ import annotations

import json
import re
import subprocess
import sys

from ascend_gym import sim_coverage


def test_every_form_names_an_overload_of_our_headers():
    # A FORMS entry whose overload pattern no longer matches would silently count as not emulated.
    headers = sim_coverage._code(sim_coverage.HEADERS, (".h", ".cpp"))
    documented = {a.form for a in sim_coverage.measure() if a.form}
    for form, (overload, _) in sim_coverage.FORMS.items():
        assert form in documented, form
        assert re.search(overload, headers), form


def test_emulated_and_tested_are_read_from_headers_and_kernels():
    apis = {(a.family, a.api, a.form): a for a in sim_coverage.measure()}
    # in our headers and in a kernel of ours
    assert apis[("vector", "Add", "")].emulated and apis[("vector", "Add", "")].tested
    # a documented variant we do not emulate (UB -> L1 copies)
    assert not apis[("cube", "DataCopy", "DataCopy（UBToL1连续数据搬运）")].emulated
    # commented-out or quoted names do not count: a name absent from our code is not emulated
    assert not apis[("high-level transform and other", "Conv3DBackpropFilter", "")].emulated


def test_cli_table_and_json():
    out = subprocess.run(
        [sys.executable, "-m", "ascend_gym.cli", "sim", "coverage", "--missing"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.startswith("| family | documented (A2) | emulated | tested | not on A2 |")
    total = re.search(r"\| all \| (\d+) \| (\d+) \(", out)
    assert total and 0 < int(total.group(2)) <= int(total.group(1))
    assert "not emulated, cube:" in out
    rows = json.loads(
        subprocess.run(
            [sys.executable, "-m", "ascend_gym.cli", "sim", "coverage", "--json"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
    assert {"family", "api", "form", "doc", "a2", "emulated", "tested"} <= set(rows[0])
    assert all(not r["tested"] or r["emulated"] for r in rows)
