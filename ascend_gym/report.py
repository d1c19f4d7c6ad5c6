"""Report of a sweep: `ascend-gym report RESULTS_DIR` writes report.md, report.html, tasks.csv and PNGs.

- What ran: a title from the sweep's settings, its command, results kind (simulated or NPU),
  wall time and evaluations per minute, the ledger check, versions.
- Budget accounting per policy: evaluations spent of the budget given, and the model account
  (model, calls, tokens as the endpoint reports them, characters as the gateway measures them),
  so a comparison of policies that spent unequal budgets reads as such.
- Table-3-style table: GM speedup and fast_1.0 / 1.2 / 1.4 / 2.0 per level (when the sweep has
  more than one) and overall, per policy (mean over seeds, ± the spread over seeds; docs/design.md 3.4:
  all ops in the denominator, failures and missing = 1.0).
- Per-operator table: the baseline latency and, per policy, the best latency and speedup (mean
  over seeds; a spread over seeds wider than SPREAD_FLAG is flagged).
- Speedup CDF (Fig. 2 style), best-so-far speedup against evaluations (mean over seeds, min-max
  band), and per-op trajectories (Fig. 4 style: every candidate of seed 0 and the best so far of
  every seed, with the stages of multi-stage policies shaded as the caption lists them). Every
  figure's title says whether its latencies are simulated.
- tasks.csv: every (policy, op, seed) task, so every seed's numbers are available.

Simulated and NPU results are never mixed in one report: a results file holding both is refused.
"""

from __future__ import annotations

import csv
import html
import re
import statistics
from pathlib import Path
from typing import Any

from ascend_gym import metrics
from ascend_gym.policies import StepRecord
from ascend_gym.records import (
    ATTEMPTS,
    RESULTS,
    SWEEP,
    Attempt,
    SweepConfig,
    SweepRecord,
    by_key,
    latest,
    read_jsonl,
    read_records,
)

FIGURES = {"cdf": "speedup_cdf.png", "curve": "best_so_far.png", "trajectories": "trajectories.png"}
TASKS_CSV = "tasks.csv"
# Neutral shading (grey, hatched) so no stage can be read as a policy's line colour.
PHASE_STYLES: dict[str, dict[str, Any]] = {
    "stage1": {"facecolor": "#e4e4e4", "label": "grey"},
    "stage2": {"facecolor": "none", "hatch": "///", "edgecolor": "#c8c8c8", "label": "hatched"},
}
PHASE_NAMES = {"stage1": "Stage I", "stage2": "Stage II"}
SPREAD_FLAG = 0.05  # (max - min) / mean of an op's speedup over seeds beyond which it is flagged
FLOOR = 0.5  # trajectory dots below this speedup (and failures) sit on the axis floor


def load(results_dir: Path) -> tuple[SweepConfig, list[SweepRecord]]:
    path = results_dir / RESULTS
    if not path.is_file():
        raise FileNotFoundError(
            f"no {RESULTS} in {results_dir}: give the --out directory of `ascend-gym bench`"
        )
    records = latest(read_records(path))
    if not records:
        raise FileNotFoundError(f"no results in {path} yet: has a task of the sweep finished?")
    sweep = results_dir / SWEEP
    if sweep.exists():
        config = SweepConfig.model_validate_json(sweep.read_text())
    else:  # a bare results file: its own ops, policies and seeds define the set
        config = SweepConfig(
            ops=sorted({r.operator for r in records}),
            policies=sorted({r.policy for r in records}),
            budget=max(r.budget for r in records),
            seeds=max(r.seed for r in records) + 1,
            soc=records[0].soc,
        )
    keys = set(config.tasks())
    return config, [r for r in records if r.key in keys]


def labels(records: list[SweepRecord]) -> dict[str, str]:
    simulated = {r.simulated for r in records if r.ok}
    if simulated == {True, False}:
        raise ValueError(
            "simulated and NPU results are in one results file; report them separately"
        )
    versions: dict[str, str] = {}
    for r in records:
        versions.update(r.versions)
    return {
        "kind": "simulated" if simulated != {False} else "measured on NPU",
        "backend": ", ".join(sorted({r.backend for r in records if r.backend})) or "unknown",
        "soc": ", ".join(sorted({r.soc for r in records if r.soc})),
        "protocol": ", ".join(sorted({r.timing_protocol for r in records if r.ok})) or "cold",
        "proposer": ", ".join(sorted({f"{r.policy}={r.proposer}" for r in records if r.proposer})),
        "versions": ", ".join(f"{k} {v}" for k, v in sorted(versions.items())),
    }


def title(config: SweepConfig, info: dict[str, str]) -> str:
    ops = f"{len(config.ops)} operator" + ("s" if len(config.ops) != 1 else "")
    return (
        f"{' vs '.join(config.policies)} on {ops}, budget {config.budget}, "
        f"{config.seeds} seed{'s' if config.seeds != 1 else ''} ({info['kind']}, {info['soc']})"
    )


# ---- facts ---------------------------------------------------------------------------------------


def coverage(config: SweepConfig, records: list[SweepRecord]) -> dict[str, int]:
    return {
        "tasks": len(config.tasks()),
        "finished": len(records),
        "failed": sum(not r.ok and not r.infra_failed for r in records),
        "infra": sum(r.infra_failed for r in records),
        "budget_checked": sum(r.budget_ok is True for r in records),
        "budget_violations": sum(r.budget_ok is False for r in records),
        "evaluations": sum(r.evaluations for r in records),
    }


def timing(results_dir: Path, records: list[SweepRecord]) -> dict[str, float]:
    """Running time (while some task ran), the wall time from the first task's start to the last
    task's end, and evaluations per minute of running time: a sweep resumed in several sessions
    does not count the pauses between them."""
    starts = {
        a.run_id: a.time for a in map(Attempt.model_validate, read_jsonl(results_dir / ATTEMPTS))
    }
    spans = sorted(
        (starts[r.run_id], starts[r.run_id] + r.wall_s) for r in records if r.run_id in starts
    )
    if not spans:
        return {}
    running, reach = 0.0, spans[0][0]  # the union of the spans, from the earliest start
    for start, end in spans:
        running += max(0.0, end - max(start, reach))
        reach = max(reach, end)
    evaluations = sum(r.evaluations for r in records)
    return {
        "running_s": running,
        "wall_s": reach - spans[0][0],
        "task_s": sum(r.wall_s for r in records),
        "per_minute": evaluations / (running / 60) if running > 0 else 0.0,
    }


def _duration(seconds: float) -> str:
    minutes, s = divmod(round(seconds), 60)
    h, m = divmod(minutes, 60)
    return f"{h} h {m:02d} min" if h else f"{m} min {s:02d} s"


# ---- tables --------------------------------------------------------------------------------------


def table(config: SweepConfig, records: list[SweepRecord]) -> tuple[list[str], list[list[str]]]:
    """GM and fast_p per policy: per level when there are several, then over all ops."""
    rows = metrics.table_rows(records, config.ops, config.policies, config.seeds)
    levels = [lvl for lvl, _ in metrics.level_groups(config.ops, records)]
    levels = (levels if len(levels) > 1 else []) + [metrics.OVERALL]
    head = ["ops", "policy", "GM"] + [f"fast_{p}" for p in metrics.FAST_P]
    body = []
    for lvl in levels:
        for policy in config.policies:
            row = next(r for r in rows if r.policy == policy and r.level == lvl)
            name = f"all {row.ops}" if lvl == metrics.OVERALL else f"L{lvl} ({row.ops})"
            gm = f"{row.gm:.3f}" + (f" ± {row.gm_std:.3f}" if config.seeds > 1 else "")
            body.append([name, policy, gm] + [f"{row.fast[str(p)]:.2f}" for p in metrics.FAST_P])
    return head, body


def op_table(
    config: SweepConfig, records: list[SweepRecord]
) -> tuple[list[str], list[list[str]], int]:
    """Per op: the baseline latency and, per policy, the best latency and speedup (mean over
    seeds, with their range). Returns the header, the rows and how many cells were flagged for
    their spread over seeds."""
    index = by_key(records)
    head = ["operator", "baseline us", *config.policies]
    body, flagged = [], 0
    for op in config.ops:
        baselines = [r.baseline_us for r in records if r.operator == op and r.baseline_us]
        line = [_op_name(op, config.ops), f"{baselines[0]:.2f}" if baselines else "-"]
        for p in config.policies:
            runs = [index.get((p, op, s)) for s in range(config.seeds)]
            done = [r for r in runs if r is not None and r.ok and r.best_us]
            if not done:
                line.append(_missing(runs))
                continue
            speedups = [metrics.record_speedup(r) for r in done]
            mean = statistics.fmean(speedups)
            cell = f"{mean:.3f}x"
            if max(speedups) - min(speedups) >= 0.005:
                cell += f" ({min(speedups):.2f}-{max(speedups):.2f})"
            if len(speedups) > 1 and (max(speedups) - min(speedups)) / mean > SPREAD_FLAG:
                cell, flagged = cell + " *", flagged + 1
            cell += f", {statistics.fmean(r.best_us for r in done):.1f} us"
            if len(done) < len(runs):
                cell += f" [{len(runs) - len(done)} of {len(runs)} failed]"
            if idle := sum(metrics.spent(r) == 0 for r in done):  # 1.0x without a search
                cell += f" [{idle} of {len(runs)} spent no evaluation]"
            if wrong := sum(r.wrong for r in done):  # 1.0x: its faster best was wrong
                cell += f" [{wrong} of {len(runs)} wrong on fresh inputs]"
            line.append(cell)
        body.append(line)
    return head, body, flagged


def _op_name(op: str, ops: list[str]) -> str:
    """An op's name without the suite prefix all ops of the sweep share."""
    suites = {o.removeprefix("op://").split("/")[0] for o in ops if o.startswith("op://")}
    short = op.removeprefix("op://")
    return short.split("/", 1)[1] if len(suites) == 1 and op.startswith("op://") else short


def _missing(runs: list[SweepRecord | None]) -> str:
    if all(r is None for r in runs):
        return "not run"
    if any(r is not None and r.infra_failed for r in runs):
        return "infrastructure failure"
    return "failed"


ACCOUNT_HEAD = ["policy", "proposer", "model", "tasks", "tasks spending none",
                "evaluations spent / given", "model calls", "tokens in / out",
                "chars in / out"]  # fmt: skip


def account_table(
    config: SweepConfig, records: list[SweepRecord], attempts: list[SweepRecord] | None = None
) -> list[list[str]]:
    return [
        [
            a.policy,
            a.proposer,
            a.model,
            str(a.tasks),
            str(a.idle),
            f"{a.evaluations} / {a.budget}",
            str(a.llm_calls),
            f"{a.prompt_tokens} / {a.completion_tokens}",
            f"{a.prompt_chars} / {a.completion_chars}",
        ]  # fmt: skip
        for a in metrics.accounts(records, config.policies, attempts)
    ]


ACCOUNT_NOTE = (
    "Evaluations are charged by the daemon ledger (the baseline's timing is not charged to any "
    "policy; a failed task counts what it spent). A task spending none found nothing to propose: "
    "its 1.000x is no search, and the per-operator table marks it. Model calls, tokens and "
    "characters count every attempt, a failed one that a rerun replaced included. Tokens in (prompt) and out (completion) are as "
    "the model endpoint reports them (0: it reported none, as the offline endpoints do); "
    "characters in and out are counted by the model gateway for every endpoint alike."
)


def stall_head(records: list[SweepRecord]) -> list[str]:
    return ["policy", "tasks", *metrics.stall_causes(records), "failing candidates"]


STALL_NOTE = (
    "A finished task that found nothing faster than its baseline, by why: it spent no evaluation "
    "(nothing to propose), every candidate it evaluated failed, every passing candidate timed "
    "exactly as the baseline (what the policy changed does not move the latency: a knob the "
    "operator ignores), or some moved it and none was faster (the operator sits at a local "
    "optimum of what the policy can change); in a sweep whose faster picks were rechecked, also "
    "the faster best that failed on fresh inputs. Failing candidates: those evaluated (cache "
    "hits left out) that did not pass, with their most frequent statuses."
)


def stall_table(
    config: SweepConfig, records: list[SweepRecord], causes: tuple[str, ...] | None = None
) -> list[list[str]]:
    """One row per policy; `causes` the columns (by default what the records tell apart)."""
    causes = causes or metrics.stall_causes(records)
    rows = []
    for s in metrics.stalls(records, config.policies):
        failing = sum(s.failed.values())
        top = ", ".join(f"{status} {n:,}" for status, n in list(s.failed.items())[:3])
        rows.append(
            [s.policy, str(s.tasks), *(str(s.causes[c]) for c in causes)]
            + [f"{failing:,} of {s.candidates:,}" + (f" ({top})" if top else "")]
        )
    return rows


STAGE_HEAD = ["policy", "tasks", *(f"{PHASE_NAMES[s]} evaluations" for s in metrics.STAGES)] + [
    f"best from {PHASE_NAMES[s]}" for s in metrics.STAGES
]
STAGE_NOTE = (
    "A staged policy's candidates evaluated in each stage (cache hits left out), and its finished "
    "tasks whose best candidate, faster than the baseline, that stage found first."
)


def stage_table(config: SweepConfig, records: list[SweepRecord]) -> list[list[str]]:
    return [
        [s.policy, str(s.tasks)]
        + [f"{s.evaluations[stage]:,}" for stage in metrics.STAGES]
        + [str(s.best_from[stage]) for stage in metrics.STAGES]
        for s in metrics.stages(records, config.policies)
    ]


PAIR_HEAD = ["policy", "against", "operators", "GM ratio", "95 % interval", "ahead", "tied",
             "behind"]  # fmt: skip
PAIR_NOTE = (
    "Each pair of policies operator by operator: each operator's speedup the geometric mean over "
    "its seeds, the ratio of the two GMs with a bootstrap interval over operators, and the "
    "operators where the first is ahead, finds the same best, or is behind. A lead whose interval "
    "holds 1 may be one operator's luck."
)


def pair_cells(p: metrics.Paired) -> list[str]:
    """A paired comparison's cells after the policies' names: operators, GM ratio, interval,
    ahead, tied, behind."""
    return [str(p.ops), f"{p.ratio:.3f}", f"[{p.low:.3f}, {p.high:.3f}]"] + [
        str(n) for n in (p.ahead, p.tied, p.behind)
    ]


HEAD_BODY_HEAD = ["policy", "operators", "heads known", "GM end to end", "GM kernel body",
                  "fast_1.0", "fast_1.0 above noise"]  # fmt: skip
HEAD_BODY_NOTE = (
    "What an improvement is made of. The simulator reports the launch head it put in each latency; "
    "with it taken out of the baseline's and the best's, the kernel body's speedup: both GMs over "
    "the operators whose heads are known. fast_1.0 above noise counts an operator only when its "
    f"best is faster by more than {metrics.NOISE_FLOOR_REL:.0%} and {metrics.NOISE_FLOOR_US} us, "
    "the run-to-run noise of a device measurement."
)


def head_body_table(config: SweepConfig, records: list[SweepRecord]) -> list[list[str]]:
    """Per policy, end-to-end and kernel-body GMs and fast_1.0 with and without the noise floor;
    empty when no record knows its heads (sweeps from before they were recorded)."""
    rows = metrics.head_body(records, config.policies)
    if not any(r.known for r in rows):
        return []
    return [
        [
            r.policy,
            str(r.ops),
            str(r.known),
            f"{r.gm:.3f}",
            f"{r.gm_body:.3f}",
            f"{r.fast:.2f}",
            f"{r.fast_floored:.2f}",
        ]  # fmt: skip
        for r in rows
    ]


# ---- provenance (a defined suite's `provenance` and `naive` marks) --------------------------------

NAIVE = "naive"  # the group of baselines slow by design, reported apart from their provenance
ORIGIN_HEAD = ["policy", "origin", *HEAD_BODY_HEAD[1:]]
ORIGIN_NOTE = (
    "Results by where the operators come from (the suite definition's `provenance`: production, "
    "community, sample, competition); baselines slow by design (`naive`: a single-core sample on "
    "a many-core part, every core doing all the work) are a group of their own. Columns as in "
    "Head and body."
)
SUMMARY_HEAD = ["origin", "operators", "qualified", "median bench latency us",
                "body share of summed time", "median body share", "body dominates"]  # fmt: skip


def origins(suite_name: str) -> dict[str, str]:
    """Each operator of a defined suite -> its group: its provenance, or `naive` (empty when the
    definition says no provenance)."""
    from ascend_gym.corpus.defined import load_definition

    return {
        op.name: NAIVE if op.naive else op.provenance
        for op in load_definition(suite_name).ops
        if op.provenance
    }


def sweep_origins(records: list[SweepRecord]) -> dict[str, str]:
    """`origins` of the defined suite every operator of the sweep comes from, else empty."""
    from ascend_core import suite

    names = {r.operator.removeprefix("op://").split("/", 1)[0] for r in records}
    if len(names) == 1 and (name := names.pop()) in suite.DEFINED:
        return origins(name)
    return {}


def origin_table(
    config: SweepConfig, records: list[SweepRecord], groups: dict[str, str]
) -> list[list[str]]:
    """head_body_table's cells per policy and origin group (`origins`), operators matched by the
    last component of their address; groups without records left out."""
    rows = []
    for group in sorted(set(groups.values())):
        mine = [r for r in records if groups.get(r.operator.rsplit("/", 1)[-1]) == group]
        for h in metrics.head_body(mine, config.policies):
            cells = [str(h.ops), str(h.known), f"{h.gm:.3f}", f"{h.gm_body:.3f}"]
            rows.append([h.policy, group, *cells, f"{h.fast:.2f}", f"{h.fast_floored:.2f}"])
    return rows


def summary_rows(qualifications: list, groups: dict[str, str]) -> list[list[str]]:
    """A materialised suite by origin group (`origins`) and in all: operators, how many qualify,
    and of those the median simulated bench latency, the kernel body's share of the summed
    latency and its median share, and how many have a body above half their time. `qualifications`: the materialiser's
    (`corpus.defined.Qualification`)."""
    rows = []
    for group in [*sorted(set(groups.values())), "all"]:
        mine = [q for q in qualifications if group in ("all", groups.get(q.name))]
        timed = [q for q in mine if q.qualified and q.body_share is not None]
        latencies = [q.latency_us for q in timed]
        body = sum(q.latency_us - q.head_us for q in timed)
        cells = [
            f"{statistics.median(latencies):.2f}" if timed else "-",
            f"{body / sum(latencies):.1%}" if timed else "-",
            f"{statistics.median(q.body_share for q in timed):.1%}" if timed else "-",
            f"{sum(q.body_dominates for q in timed)} of {len(timed)}",
        ]
        rows.append([group, str(len(mine)), str(sum(q.qualified for q in mine)), *cells])
    return rows


def pair_table(config: SweepConfig, records: list[SweepRecord]) -> list[list[str]]:
    """Every pair of the sweep's policies, in their order (empty for one policy)."""
    rows = []
    for i, first in enumerate(config.policies):
        for second in config.policies[i + 1 :]:
            p = metrics.paired(
                [r for r in records if r.policy == first],
                [r for r in records if r.policy == second],
            )
            if p is not None:
                rows.append([first, second, *pair_cells(p)])
    return rows


def write_tasks_csv(config: SweepConfig, records: list[SweepRecord], path: Path) -> None:
    fields = ["policy", "operator", "seed", "status", "baseline_us", "best_us", "speedup",
              "evaluations", "budget", "proposer", "model", "llm_calls", "prompt_tokens",
              "completion_tokens", "prompt_chars", "completion_chars", "wall_s", "budget_ok",
              "best_file", "error", "baseline_head_us", "best_head_us", "body_speedup",
              "above_noise"]  # fmt: skip
    index = by_key(records)
    with path.open("w", newline="") as f:
        out = csv.writer(f)
        out.writerow(fields)
        for p, op, s in config.tasks():
            r = index.get((p, op, s))
            if r is None:
                out.writerow([p, op, s, "missing"] + [""] * (len(fields) - 4))
                continue
            status = "ok" if r.ok else ("infra" if r.infra_failed else "failed")
            out.writerow([
                p, op, s, status, r.baseline_us, r.best_us,
                f"{metrics.record_speedup(r):.6f}", metrics.spent(r), r.budget, r.proposer,
                r.model, r.llm_calls, r.prompt_tokens, r.completion_tokens, r.prompt_chars,
                r.completion_chars, f"{r.wall_s:.1f}", r.budget_ok, r.best_file, r.error[:200],
                r.baseline_head_us, r.best_head_us, _maybe(metrics.body_speedup(r)),
                metrics.floored_speedup(r) > 1.0,
            ])  # fmt: skip


def _maybe(value: float | None) -> str:
    return "" if value is None else f"{value:.6f}"


# ---- figures -------------------------------------------------------------------------------------


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt

    return plt


def plot_cdf(config: SweepConfig, records: list[SweepRecord], path: Path, kind: str) -> None:
    plt = _pyplot()
    index = by_key(records)
    speedups = {
        p: [
            [metrics.record_speedup(index.get((p, op, s))) for op in config.ops]
            for s in range(config.seeds)
        ]
        for p in config.policies
    }
    values = [v for seeds in speedups.values() for seed in seeds for v in seed]
    lo, hi = min(values + [1.0]), max(values + [1.0])
    pad = max(0.02, (hi - lo) * 0.08)
    lo, hi = max(0.0, lo - pad), hi + pad
    grid = [lo + i * (hi - lo) / 400 for i in range(401)]
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for p in config.policies:
        ys = [sum(metrics.fast_p(seed, t) for seed in speedups[p]) / config.seeds for t in grid]
        ax.step(grid, ys, where="post", label=p)
    for t in metrics.FAST_P:
        if lo <= t <= hi:
            ax.axvline(t, color="grey", lw=0.6, ls=":")
    ax.set_xlim(lo, hi)
    ax.set_ylim(0, 1.03)
    ax.set_xlabel("speedup threshold p (dotted: the table's p)")
    ax.set_ylabel("fast_p: fraction of ops faster than p")
    ax.legend()
    ax.set_title(f"Speedup distribution over ops (mean over seeds; {kind})", fontsize=11)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def plot_curves(config: SweepConfig, records: list[SweepRecord], path: Path, kind: str) -> None:
    plt = _pyplot()
    groups = metrics.level_groups(config.ops, records)
    if len(groups) > 1:
        groups.append((metrics.OVERALL, list(config.ops)))
    cols = len(groups) if len(groups) <= 2 else 2
    rows_n = (len(groups) + cols - 1) // cols
    fig, axes = plt.subplots(
        rows_n, cols, figsize=(max(7.0, 5.0 * cols), 3.8 * rows_n), squeeze=False
    )
    for ax, (level, ops) in zip(axes.flat, groups):
        for policy in config.policies:
            mean, lo, hi = metrics.curve_band(
                metrics.seed_curves(records, ops, policy, config.seeds, config.budget)
            )
            xs = list(range(len(mean)))
            (line,) = ax.plot(xs, mean, label=policy, drawstyle="steps-post")
            ax.fill_between(xs, lo, hi, color=line.get_color(), alpha=0.2, lw=0, step="post")
        ax.set_title(
            f"all {len(ops)} ops"
            if level == metrics.OVERALL
            else f"level {level} ({len(ops)} ops)",
            fontsize=10,
        )
        ax.set_xlabel("evaluations spent")
        ax.set_ylabel("best-so-far speedup (GM over ops)")
        ax.set_xlim(0, config.budget)
    axes[0][0].legend()
    fig.suptitle(
        f"Best-so-far speedup vs evaluations (mean over {config.seeds} seed(s), band: min-max; "
        f"{kind})",
        fontsize=11,
    )
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def trajectory_ops(config: SweepConfig, records: list[SweepRecord], count: int = 6) -> list[str]:
    """The ops whose best policy found the most: where the trajectories have something to show."""
    best = {
        op: max((metrics.record_speedup(r) for r in records if r.operator == op), default=1.0)
        for op in config.ops
    }
    return sorted(config.ops, key=lambda op: -best[op])[:count]


def plot_trajectories(
    config: SweepConfig, records: list[SweepRecord], path: Path, kind: str
) -> tuple[list[str], list[str]]:
    """Per-op trajectories; returns the phases shaded and whose stages they are (the caption)."""
    plt = _pyplot()
    ops = trajectory_ops(config, records)
    cols = min(2, len(ops))
    rows_n = (len(ops) + cols - 1) // cols
    fig, axes = plt.subplots(rows_n, cols, figsize=(5.2 * cols, 3.6 * rows_n), squeeze=False)
    index = by_key(records)
    shaded: set[str] = set()
    staged: list[str] = []  # the policies whose stages shade a panel
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for ax, op in zip(axes.flat, ops):
        top, ax_phases = 1.0, set()
        for i, policy in enumerate(config.policies):
            colour = colours[i % len(colours)]
            for seed in range(config.seeds):
                r = index.get((policy, op, seed))
                if r is None or not r.ok or not r.baseline_us:
                    continue
                steps = [s for s in r.trajectory if not s.cache_hit]
                xs = [s.evaluation for s in steps]
                bests = [r.baseline_us / s.best_us for s in steps]
                top = max([top] + bests)
                ax.plot(
                    [0] + xs, [1.0] + bests, color=colour, drawstyle="steps-post",
                    lw=1.6 if seed == 0 else 0.8, alpha=1.0 if seed == 0 else 0.45,
                    label=policy if seed == 0 else None,
                )  # fmt: skip
                if seed != 0:
                    continue
                dots = [
                    metrics.speedup(r.baseline_us, s.latency_us) if s.status.value == "OK" else 0.0
                    for s in steps
                ]
                top = max([top] + dots)
                ax.scatter(
                    [x for x, d in zip(xs, dots) if d >= FLOOR],
                    [d for d in dots if d >= FLOOR],
                    s=10, color=colour, alpha=0.6,
                )  # fmt: skip
                low = [x for x, d in zip(xs, dots) if d < FLOOR]
                ax.scatter(low, [FLOOR] * len(low), s=14, marker="v", color=colour, alpha=0.6)
                if not ax_phases:  # one policy's stages per panel
                    ax_phases = _shade_phases(ax, steps)
                    shaded |= ax_phases
                    if ax_phases and policy not in staged:
                        staged.append(policy)
        ax.set_ylim(FLOOR - 0.03, top * 1.06)
        ax.set_xlim(0, config.budget)
        ax.set_title(op.removeprefix("op://"), fontsize=10)
        ax.set_xlabel("evaluations")
        ax.set_ylabel("speedup")
    for ax in list(axes.flat)[len(ops) :]:
        ax.axis("off")
    if ops:
        axes[0][0].legend(fontsize=8)
    fig.suptitle(f"Per-op trajectories ({kind})", fontsize=11)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return [p for p in PHASE_STYLES if p in shaded], staged


def _shade_phases(ax: Any, steps: list[StepRecord]) -> set[str]:
    """Shade the evaluation spans of consecutive steps in one phase; returns the phases seen."""
    spans: list[tuple[str, int, int]] = []
    previous = 0
    for s in steps:
        phase = metrics.phase_of(s)
        if phase and spans and spans[-1][0] == phase:
            spans[-1] = (phase, spans[-1][1], s.evaluation)
        elif phase:
            spans.append((phase, previous, s.evaluation))
        previous = s.evaluation
    for phase, start, end in spans:
        style = {k: v for k, v in PHASE_STYLES[phase].items() if k != "label"}
        ax.axvspan(start, end, lw=0, zorder=0, **style)
    return {phase for phase, _, _ in spans}


def trajectory_caption(config: SweepConfig, phases: list[str], staged: list[str] = ()) -> str:
    text = (
        "Every candidate of seed 0 (dots; triangles on the floor: failed or slower than "
        f"{FLOOR}x) and the best so far (lines: seed 0 bold"
        + (", other seeds thin" if config.seeds > 1 else "")
        + ")."
    )
    if phases:
        text += (
            f" Shaded by the stage of {' and '.join(staged) or 'the staged policy'} (seed 0) that "
            "proposed each of its candidates, behind every policy's points (the others have no "
            "stages): "
            + ", ".join(f"{PHASE_NAMES[p]} {PHASE_STYLES[p]['label']}" for p in phases)
            + (" (no evaluation reached Stage II)" if phases == ["stage1"] else "")
            + "."
        )
    return text


# ---- the report ----------------------------------------------------------------------------------


def write_report(results_dir: Path) -> Path:
    """Write report.md, report.html, tasks.csv and the figures into `results_dir`; returns report.md."""
    config, records = load(results_dir)
    info, cov, times = labels(records), coverage(config, records), timing(results_dir, records)
    kind = info["kind"]
    plot_cdf(config, records, results_dir / FIGURES["cdf"], kind)
    plot_curves(config, records, results_dir / FIGURES["curve"], kind)
    phases, shading = plot_trajectories(
        config, records, results_dir / FIGURES["trajectories"], kind
    )
    write_tasks_csv(config, records, results_dir / TASKS_CSV)
    head, body = table(config, records)
    op_head, op_body, flagged = op_table(config, records)
    tasks = set(config.tasks())  # every attempt's model calls, a replaced failure's included
    attempts = [r for r in read_records(results_dir / RESULTS) if r.key in tasks]
    accounts = account_table(config, records, attempts)
    stalled = stall_table(config, records)
    staged = stage_table(config, records)
    pairs = pair_table(config, records)
    split = head_body_table(config, records)
    by_origin = origin_table(config, records, sweep_origins(records))
    name = title(config, info)
    failures = f"{cov['failed']} failed"
    if cov["infra"]:
        failures += f", {cov['infra']} failed for infrastructure (rerun the command to retry them)"
    facts = [
        f"Results: **{info['kind']}** (backend {info['backend']}, soc {info['soc']}, "
        f"timing protocol {info['protocol']})",
        f"Budget: {config.budget} evaluations per (policy, op, seed), counted by the daemon ledger; "
        f"seeds: {config.seeds}; ops: {len(config.ops)}; policies: {', '.join(config.policies)}",
        f"Proposers: {info['proposer'] or 'n/a'}",
        f"Tasks finished: {cov['finished']} / {cov['tasks']} ({failures}; missing and failed "
        f"count as 1.0); evaluations spent: {cov['evaluations']}",
    ]
    if times:
        facts.append(
            f"Running time: {_duration(times['running_s'])} while some task ran "
            f"({times['per_minute']:.1f} evaluations per minute; {_duration(times['task_s'])} of "
            f"task time; {_duration(times['wall_s'])} from the first task's start to the last "
            "one's end, pauses included)"
        )
    facts += [
        f"Ledger check: {cov['budget_checked']} task(s) verified against the daemon ledger, "
        f"{cov['budget_violations']} over budget or in disagreement",
        f"Versions: {info['versions']}",
    ]
    if config.command:
        facts.append(f"Command: `{config.command}`")
    facts.append(f"Sweep id {config.sweep_id}; every task and seed: `{TASKS_CSV}`")
    spread_note = (
        f"Each cell: the speedup over the baseline (mean over seeds, with the range over seeds when "
        "they differ) and the best latency (mean over seeds); `*` marks a spread over seeds wider "
        f"than {SPREAD_FLAG:.0%} of the mean ({flagged} cell(s)): that policy's result on the op "
        "depends on its seed."
        if config.seeds > 1
        else "Each cell: the speedup over the baseline and the best latency. One seed: "
        "run-to-run spread is not measured (use --seeds 3)."
    )
    captions = {
        "cdf": f"Fraction of ops whose speedup exceeds each threshold (mean over seeds; {kind}).",
        "curve": "Geometric mean over ops of the best speedup found after each evaluation, every "
        f"policy along the order in which its candidates were evaluated ({kind}).",
        "trajectories": trajectory_caption(config, phases, shading),
    }
    sections = [
        ("cdf", "Speedup distribution"),
        ("curve", "Best-so-far speedup vs evaluations"),
        ("trajectories", "Per-op trajectories"),
    ]
    gm_heading = (
        "GM speedup and fast_p"
        + (" per level" if len(body) > len(config.policies) else "")
        + (" (mean over seeds ± std)" if config.seeds > 1 else "")
    )
    md = [
        f"# {name}",
        "",
        *[f"- {f}" for f in facts],
        "",
        f"## {gm_heading}",
        "",
        *md_table(head, body),
        "",
        *(
            ["## Policy against policy", "", PAIR_NOTE, "", *md_table(PAIR_HEAD, pairs), ""]
            if pairs
            else []
        ),
        *(
            ["## Head and body", "", HEAD_BODY_NOTE, "", *md_table(HEAD_BODY_HEAD, split), ""]
            if split
            else []
        ),
        *(
            ["## By origin", "", ORIGIN_NOTE, "", *md_table(ORIGIN_HEAD, by_origin), ""]
            if by_origin
            else []
        ),
        "## Budget accounting per policy",
        "",
        ACCOUNT_NOTE,
        "",
        *md_table(ACCOUNT_HEAD, accounts),
        "",
        "## Where the search found nothing",
        "",
        STALL_NOTE,
        "",
        *md_table(stall_head(records), stalled),
        "",
        *(["## By stage", "", STAGE_NOTE, "", *md_table(STAGE_HEAD, staged), ""] if staged else []),
        "## Per operator",
        "",
        spread_note,
        "",
        *md_table(op_head, op_body),
        "",
    ]
    for key, heading in sections:
        md += [f"## {heading}", "", f"![{heading}]({FIGURES[key]})", "", captions[key], ""]
    (results_dir / "report.md").write_text("\n".join(md))
    page = [
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(name)}</title>",
        f"<style>{_CSS}</style></head><body>",
        f"<h1>{html.escape(name)}</h1><ul>",
        *[f"<li>{_inline(f)}</li>" for f in facts],
        f"</ul><h2>{html.escape(gm_heading)}</h2>",
        _html_table(head, body),
        *(
            [
                "<h2>Policy against policy</h2>",
                f"<p>{_inline(PAIR_NOTE)}</p>",
                _html_table(PAIR_HEAD, pairs),
            ]
            if pairs
            else []
        ),
        *(
            [
                "<h2>Head and body</h2>",
                f"<p>{_inline(HEAD_BODY_NOTE)}</p>",
                _html_table(HEAD_BODY_HEAD, split),
            ]
            if split
            else []
        ),
        "<h2>Budget accounting per policy</h2>",
        f"<p>{_inline(ACCOUNT_NOTE)}</p>",
        _html_table(ACCOUNT_HEAD, accounts),
        "<h2>Where the search found nothing</h2>",
        f"<p>{_inline(STALL_NOTE)}</p>",
        _html_table(stall_head(records), stalled),
        *(
            ["<h2>By stage</h2>", f"<p>{_inline(STAGE_NOTE)}</p>", _html_table(STAGE_HEAD, staged)]
            if staged
            else []
        ),
        "<h2>Per operator</h2>",
        f"<p>{_inline(spread_note)}</p>",
        _html_table(op_head, op_body),
    ]
    for key, heading in sections:
        page.append(
            f"<h2>{heading}</h2><figure><img src='{FIGURES[key]}' alt='{heading}'>"
            f"<figcaption>{_inline(captions[key])}</figcaption></figure>"
        )
    page.append("</body></html>")
    (results_dir / "report.html").write_text("\n".join(page))
    return results_dir / "report.md"


_CSS = (
    # Tables fit a 1400 px window: headings and the name column wrap, figures stay whole.
    "body{font-family:system-ui,sans-serif;max-width:1360px;margin:1.5em auto;padding:0 1em;"
    "color:#222;line-height:1.4}h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em}"
    "table{border-collapse:collapse;font-size:0.85em;margin:0.5em 0}"
    "td,th{border:1px solid #ccc;padding:3px 6px;text-align:right;white-space:nowrap}"
    "th{white-space:normal;vertical-align:bottom}"
    "td:first-child{white-space:normal;overflow-wrap:anywhere;max-width:22em}"
    "td:first-child,th:first-child{text-align:left}th{background:#f3f3f3}"
    "code{background:#f3f3f3;padding:0 3px}img{max-width:100%}"
    "figcaption{color:#555;font-size:0.9em}.scroll{overflow-x:auto}"
)


def md_table(head: list[str], body: list[list[str]]) -> list[str]:
    return [
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
        *["| " + " | ".join(row) + " |" for row in body],
    ]


def _html_table(head: list[str], body: list[list[str]]) -> str:
    cells = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    rows = "".join(
        "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in body
    )
    return f"<div class='scroll'><table><tr>{cells}</tr>{rows}</table></div>"


def _inline(text: str) -> str:
    """The Markdown of a fact as HTML: **bold** and `code`."""
    out = html.escape(text)
    out = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", out)
    return re.sub(r"`(.+?)`", r"<code>\1</code>", out)
