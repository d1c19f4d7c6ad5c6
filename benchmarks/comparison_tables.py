"""The paper's Table 3 and its ablation table from a comparison's bench directories.

    python benchmarks/comparison_tables.py OUT

OUT holds the benches `benchmarks/real_comparison.sh` writes: `full` (the three policies at
budget 40), and where present `bon-n5` (Best-of-N at N = 5), `stage1-only` and `stage2-only`
(AscendOptimizer's ablations). Prints Markdown: GM (mean ± std over seeds) and fast_p per level
for every policy, the evaluations each spent of those given and how many of its tasks stopped
before the budget (nothing new to propose), the ablations beside the full method, and each
bench's SoC, timing protocol, coverage and ledger check, where each policy's search found
nothing and AscendOptimizer's evaluations and best candidates by stage (the sweep report's tables
of those names), AscendOptimizer against each other policy and variant operator by operator (a
GM ratio with its bootstrap interval: whether a lead holds beyond one operator's luck), and the
ceiling of the searches: each operator's best candidate over every task of every bench, the
reach of the knowledge they share. Unfinished benches are read as they stand: a missing task
counts as 1.0, as in every report, and the coverage line says how many are missing.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ascend_gym import metrics, report
from ascend_gym.records import SweepConfig, SweepRecord

LABELS = {
    "full": "",
    "bon-n5": " (N = 5)",
    "stage1-only": "stage1-only",
    "stage2-only": "stage2-only",
}
TABLE3 = [
    "| ops | policy | GM | fast_1.0 | fast_1.2 | fast_1.4 | fast_2.0 | evaluations spent / given "
    "| stopped early |",
    "|---|---|---|---|---|---|---|---|---|",
]
ABLATIONS = [
    "| variant | L1 GM | L2 GM | L3 GM | all GM | all fast_1.0 | all fast_1.2 | evaluations spent |",
    "|---|---|---|---|---|---|---|---|",
]


def _spent(records: list[SweepRecord], policy: str, ops: set[str]) -> tuple[int, int, int]:
    """Evaluations spent and given, and tasks that stopped before their budget, over `ops`."""
    rs = [r for r in records if r.policy == policy and r.operator in ops]
    early = sum(r.ok and metrics.spent(r) < r.budget for r in rs)
    return sum(metrics.spent(r) for r in rs), sum(r.budget for r in rs), early


def table3_rows(bench: str, config: SweepConfig, records: list[SweepRecord]) -> list[tuple]:
    """(level's place, row) for each policy and level of one bench."""
    groups = dict(metrics.level_groups(config.ops, records))
    groups[metrics.OVERALL] = config.ops
    out = []
    for row in metrics.table_rows(records, config.ops, config.policies, config.seeds):
        overall = row.level == metrics.OVERALL
        spent, given, early = _spent(records, row.policy, set(groups[row.level]))
        out.append(
            (
                (overall, row.level),
                f"| {f'all {row.ops}' if overall else f'L{row.level} ({row.ops})'} "
                f"| {row.policy}{LABELS[bench]} | {row.gm:.3f} ± {row.gm_std:.3f} | "
                + " | ".join(f"{row.fast[str(p)]:.2f}" for p in metrics.FAST_P)
                + f" | {spent:,} / {given:,} | {early} |",
            )
        )
    return out


def ablation_row(bench: str, config: SweepConfig, records: list[SweepRecord]) -> str:
    """AscendOptimizer's GM per level, and its fast_p and evaluations over all ops."""
    rows = metrics.table_rows(records, config.ops, ["ascendoptimizer"], config.seeds)
    level = {r.level: r for r in rows}
    total = level[metrics.OVERALL]
    spent = sum(metrics.spent(r) for r in records if r.policy == "ascendoptimizer")
    return (
        f"| {LABELS[bench] or 'full method'} | "
        + " | ".join(f"{level[lv].gm:.3f}" if lv in level else "-" for lv in "123")
        + f" | {total.gm:.3f} | {total.fast['1.0']:.2f} | {total.fast['1.2']:.2f} | {spent:,} |"
    )


def paired_rows(benches: dict[str, tuple[SweepConfig, list[SweepRecord]]]) -> list[list[str]]:
    """AscendOptimizer's main-bench records against every other policy and variant, operator by
    operator (`metrics.paired`, cells as the sweep report's "Policy against policy")."""
    ours = [r for r in benches["full"][1] if r.policy == "ascendoptimizer"]
    rows: list[list[str]] = []
    if not ours:
        return rows
    for bench, (config, records) in benches.items():
        for policy in config.policies:
            if bench == "full" and policy == "ascendoptimizer":
                continue
            p = metrics.paired(ours, [r for r in records if r.policy == policy])
            if p is not None:
                label = LABELS[bench] if policy == "ascendoptimizer" else policy + LABELS[bench]
                rows.append([label, *report.pair_cells(p)])
    return rows


def labelled(bench: str, rows: list[list[str]]) -> list[list[str]]:
    """A report table's rows, each policy named with its bench where that is not the main one."""
    label = "" if bench == "full" else f" ({bench})"
    return [[row[0] + label, *row[1:]] for row in rows]


def coverage_line(bench: str, config: SweepConfig, records: list[SweepRecord]) -> str:
    cov = report.coverage(config, records)
    return (
        f"- {bench} ({config.soc}, {config.timing_protocol} protocol): {cov['finished']} / "
        f"{cov['tasks']} tasks, {cov['evaluations']:,} "
        f"evaluations; ledger check: {cov['budget_checked']} verified, "
        f"{cov['budget_violations']} over budget or in disagreement; {cov['failed']} failed, "
        f"{cov['infra']} infrastructure failures"
    )


def ceiling_line(benches: dict[str, tuple[SweepConfig, list[SweepRecord]]]) -> str:
    """Each operator's best speedup over every task of every bench (policies, seeds, ablations):
    where it sits near the best policy's GM, more search would not find more; more knowledge would."""
    every = [r for _, records in benches.values() for r in records]
    best = metrics.best_speedups(every)
    ops = benches["full"][0].ops
    speedups = [best.get(op, 1.0) for op in ops]
    return (
        f"- every bench's best candidate per operator ({len(ops)} operators, {len(every):,} tasks): "
        f"GM {metrics.geomean(speedups):.3f}, fast_1.0 {metrics.fast_p(speedups, 1.0):.2f}"
    )


def tables(out: Path) -> str:
    benches = {b: report.load(out / b) for b in LABELS if (out / b / "sweep.json").exists()}
    if "full" not in benches:
        raise FileNotFoundError(f"{out}/full/sweep.json: no main comparison there")
    table3 = [
        row
        for bench, loaded in benches.items()
        if bench in ("full", "bon-n5")
        for row in table3_rows(bench, *loaded)
    ]
    table3.sort(key=lambda t: t[0])  # stable: each level's policies in the benches' order
    ablations = [
        ablation_row(bench, *loaded)
        for bench, loaded in benches.items()
        if "ascendoptimizer" in loaded[0].policies
    ]
    every = [r for _, records in benches.values() for r in records]
    causes = metrics.stall_causes(every)
    stalls = [
        row
        for bench, loaded in benches.items()
        for row in labelled(bench, report.stall_table(*loaded, causes))
    ]
    stages = [
        row
        for bench, loaded in benches.items()
        for row in labelled(bench, report.stage_table(*loaded))
    ]
    coverage = [coverage_line(bench, *loaded) for bench, loaded in benches.items()]
    coverage.append(ceiling_line(benches))
    paired = paired_rows(benches)
    return "\n".join(
        [*TABLE3, *(t[1] for t in table3), ""]
        + (
            [*report.md_table(["AscendOptimizer against", *report.PAIR_HEAD[2:]], paired), ""]
            if paired
            else []
        )
        + [*ABLATIONS, *ablations, ""]
        + [*report.md_table(report.stall_head(every), stalls), ""]
        + [*report.md_table(report.STAGE_HEAD, stages), "", *coverage]
    )


if __name__ == "__main__":
    if len(sys.argv) != 2 or not Path(sys.argv[1]).is_dir():
        print("usage: python benchmarks/comparison_tables.py OUT", file=sys.stderr)
        sys.exit(2)
    print(tables(Path(sys.argv[1])))
