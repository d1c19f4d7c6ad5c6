"""Report of a sweep: `ascend-gym report RESULTS_DIR` writes report.md, report.html and PNGs.

- Table-3-style table: GM speedup and fast_1.0 / 1.2 / 1.4 / 2.0 per level and overall, per
  policy (mean over seeds; DESIGN 3.4: all ops in the denominator, failures and missing = 1.0).
- Speedup CDF (Fig. 2 style): fast_p as a function of the threshold p, per policy.
- Best-so-far speedup (GM over ops) against evaluations spent, mean over seeds with a min-max band.
- Per-op trajectories (Fig. 4 style): every evaluation's speedup and the best so far, with the
  Stage I / Stage II phases of multi-stage policies shaded.

Simulated and NPU results are never mixed in one report: a results file holding both is refused.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

from ascend_gym import metrics
from ascend_gym.bench import SweepConfig, latest, read_jsonl

FIGURES = {"cdf": "speedup_cdf.png", "curve": "best_so_far.png", "trajectories": "trajectories.png"}
PHASE_COLOURS = {"stage1": "#dbe9f6", "stage2": "#fde3c8"}
_PHASE_NOTE = re.compile(r"stage\s*(ii|2|i|1)\b", re.IGNORECASE)


def load(results_dir: Path) -> tuple[SweepConfig, list[dict[str, Any]]]:
    records = latest(read_jsonl(results_dir / "results.jsonl"))
    if not records:
        raise FileNotFoundError(f"no results in {results_dir / 'results.jsonl'}")
    sweep = results_dir / "sweep.json"
    if sweep.exists():
        config = SweepConfig.model_validate_json(sweep.read_text())
    else:  # a bare results file: its own ops, policies and seeds define the set
        config = SweepConfig(
            ops=sorted({r["operator"] for r in records}),
            policies=sorted({r["policy"] for r in records}),
            budget=max(int(r["budget"]) for r in records),
            seeds=max(int(r["seed"]) for r in records) + 1,
            soc=records[0].get("soc", ""),
        )
    keys = set(config.tasks())
    return config, [r for r in records if (r["policy"], r["operator"], r["seed"]) in keys]


def labels(records: list[dict[str, Any]]) -> dict[str, str]:
    simulated = {r.get("simulated") for r in records if r.get("ok")}
    if simulated == {True, False}:
        raise ValueError(
            "simulated and NPU results are in one results file; report them separately"
        )
    return {
        "kind": "simulated" if simulated != {False} else "measured on NPU",
        "backend": ", ".join(sorted({r["backend"] for r in records if r.get("backend")}))
        or "unknown",
        "soc": ", ".join(sorted({r["soc"] for r in records if r.get("soc")})),
        "proposer": ", ".join(
            sorted({f"{r['policy']}={r['proposer']}" for r in records if r.get("proposer")})
        ),
        "versions": ", ".join(f"{k} {v}" for k, v in sorted(_versions(records).items())),
    }


def _versions(records: list[dict[str, Any]]) -> dict[str, str]:
    out: dict[str, str] = {}
    for r in records:
        out.update(r.get("versions", {}))
    return out


def phase_of(step: dict[str, Any]) -> str:
    """ "stage1" / "stage2" from a step's phase field, or from its note; "" when it has none."""
    text = step.get("phase") or step.get("note") or ""
    m = _PHASE_NOTE.search(text)
    if not m:
        return ""
    return "stage2" if m.group(1).lower() in ("ii", "2") else "stage1"


# ---- figures -------------------------------------------------------------------------------------


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt

    return plt


def plot_cdf(config: SweepConfig, records: list[dict[str, Any]], path: Path) -> None:
    plt = _pyplot()
    by_key = {(r["policy"], r["operator"], r["seed"]): r for r in records}
    fig, ax = plt.subplots(figsize=(6, 4))
    top = 1.0
    speedups = {}
    for policy in config.policies:
        speedups[policy] = [
            [metrics.record_speedup(by_key.get((policy, op, s))) for op in config.ops]
            for s in range(config.seeds)
        ]
        top = max([top] + [v for seed in speedups[policy] for v in seed])
    grid = [0.5 + i * (max(top, 2.2) * 1.05 - 0.5) / 400 for i in range(401)]
    for policy in config.policies:
        ys = [
            sum(metrics.fast_p(seed, p) for seed in speedups[policy]) / config.seeds for p in grid
        ]
        ax.step(grid, ys, where="post", label=policy)
    for p in metrics.FAST_P:
        ax.axvline(p, color="grey", lw=0.5, ls=":")
    ax.set_xlabel("speedup threshold p")
    ax.set_ylabel("fast_p (fraction of all ops with speedup > p)")
    ax.set_ylim(0, 1.02)
    ax.legend()
    ax.set_title("Speedup distribution over ops (mean over seeds)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def plot_curves(config: SweepConfig, records: list[dict[str, Any]], path: Path) -> None:
    plt = _pyplot()
    groups = _level_groups(config, records)
    fig, axes = plt.subplots(
        1, len(groups), figsize=(max(6.5, 4.2 * len(groups)), 3.8), squeeze=False
    )
    for ax, (level, ops) in zip(axes[0], groups):
        for policy in config.policies:
            mean, lo, hi = metrics.curve_band(
                metrics.seed_curves(records, ops, policy, config.seeds, config.budget)
            )
            xs = list(range(len(mean)))
            (line,) = ax.plot(xs, mean, label=policy)
            ax.fill_between(xs, lo, hi, color=line.get_color(), alpha=0.2, lw=0)
        ax.set_title("all ops" if level == metrics.OVERALL else f"level {level}")
        ax.set_xlabel("evaluations spent")
        ax.set_ylabel("best-so-far speedup (GM over ops)")
    axes[0][0].legend()
    fig.suptitle(
        f"Best-so-far speedup vs evaluations (mean over {config.seeds} seed(s), band: min-max)",
        fontsize=10,
    )
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def trajectory_ops(config: SweepConfig, records: list[dict[str, Any]], count: int = 6) -> list[str]:
    """The ops whose best policy found the most: where the trajectories have something to show."""
    best = {
        op: max((metrics.record_speedup(r) for r in records if r["operator"] == op), default=1.0)
        for op in config.ops
    }
    return sorted(config.ops, key=lambda op: -best[op])[:count]


def plot_trajectories(config: SweepConfig, records: list[dict[str, Any]], path: Path) -> None:
    plt = _pyplot()
    ops = trajectory_ops(config, records)
    cols = min(3, len(ops))
    rows_n = (len(ops) + cols - 1) // cols
    fig, axes = plt.subplots(
        rows_n, cols, figsize=(max(6.5, 4.6 * cols), 3.6 * rows_n), squeeze=False
    )
    by_key = {(r["policy"], r["operator"], r["seed"]): r for r in records}
    for ax, op in zip(axes.flat, ops):
        shaded = False
        for policy in config.policies:
            r = by_key.get((policy, op, 0))
            if not r or not r.get("ok"):
                continue
            steps = [s for s in r.get("trajectory", []) if not s.get("cache_hit")]
            xs = [s["evaluation"] for s in steps]
            (line,) = ax.plot(
                [0] + xs,
                [1.0] + [r["baseline_us"] / s["best_us"] for s in steps],
                label=policy,
                drawstyle="steps-post",
            )
            ax.scatter(
                xs,
                [
                    metrics.speedup(r["baseline_us"], s["latency_us"])
                    if s["status"] == "OK"
                    else 0.0
                    for s in steps
                ],
                s=8,
                color=line.get_color(),
                alpha=0.5,
            )
            if not shaded:
                shaded = _shade_phases(ax, steps)
        ax.set_title(op.removeprefix("op://"), fontsize=9)
        ax.set_xlabel("evaluations")
        ax.set_ylabel("speedup (dots: each candidate; 0 = failed)")
    for ax in list(axes.flat)[len(ops) :]:
        ax.axis("off")
    if ops:
        axes[0][0].legend(fontsize=8)
    fig.suptitle("Per-op trajectories, seed 0 (shaded: Stage I blue, Stage II orange)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def _shade_phases(ax: Any, steps: list[dict[str, Any]]) -> bool:
    """Shade the evaluation spans of consecutive steps in one phase; True if any step had one."""
    spans: list[tuple[str, int, int]] = []
    previous = 0
    for s in steps:
        phase = phase_of(s)
        if phase and spans and spans[-1][0] == phase:
            spans[-1] = (phase, spans[-1][1], s["evaluation"])
        elif phase:
            spans.append((phase, previous, s["evaluation"]))
        previous = s["evaluation"]
    for phase, start, end in spans:
        ax.axvspan(start, end, color=PHASE_COLOURS[phase], lw=0, zorder=0)
    return bool(spans)


def _level_groups(
    config: SweepConfig, records: list[dict[str, Any]]
) -> list[tuple[str, list[str]]]:
    levels: dict[str, list[str]] = {}
    known = {r["operator"]: r.get("level") for r in records}
    for op in config.ops:
        levels.setdefault(
            str(metrics.level_of({"operator": op, "level": known.get(op)})), []
        ).append(op)
    groups = sorted(levels.items())
    return groups + [(metrics.OVERALL, list(config.ops))] if len(groups) > 1 else groups


# ---- text --------------------------------------------------------------------------------------


def table(config: SweepConfig, records: list[dict[str, Any]]) -> tuple[list[str], list[list[str]]]:
    rows = metrics.table_rows(records, config.ops, config.policies, config.seeds)
    levels = [lvl for lvl, _ in _level_groups(config, records)]
    if metrics.OVERALL not in levels:
        levels.append(metrics.OVERALL)
    head = ["policy"]
    for lvl in levels:
        name = "all" if lvl == metrics.OVERALL else f"L{lvl}"
        head += [f"{name} GM"] + [f"{name} fast_{p}" for p in metrics.FAST_P]
    body = []
    for policy in config.policies:
        line = [policy]
        for lvl in levels:
            row = next(r for r in rows if r.policy == policy and r.level == lvl)
            gm = f"{row.gm:.3f}" + (f" ± {row.gm_std:.3f}" if config.seeds > 1 else "")
            line += [gm] + [f"{row.fast[str(p)]:.2f}" for p in metrics.FAST_P]
        body.append(line)
    return head, body


def coverage(config: SweepConfig, records: list[dict[str, Any]]) -> dict[str, int]:
    return {
        "tasks": len(config.tasks()),
        "finished": len(records),
        "failed": sum(not r.get("ok") for r in records),
        "budget_checked": sum(r.get("budget_ok") is True for r in records),
        "budget_violations": sum(r.get("budget_ok") is False for r in records),
        "evaluations": sum(int(r.get("evaluations", 0)) for r in records),
    }


def write_report(results_dir: Path) -> Path:
    """Write report.md, report.html and the figures into `results_dir`; returns report.md."""
    config, records = load(results_dir)
    info, cov = labels(records), coverage(config, records)
    plot_cdf(config, records, results_dir / FIGURES["cdf"])
    plot_curves(config, records, results_dir / FIGURES["curve"])
    plot_trajectories(config, records, results_dir / FIGURES["trajectories"])
    head, body = table(config, records)
    facts = [
        f"Results: **{info['kind']}** (backend {info['backend']}, soc {info['soc']})",
        f"Budget: {config.budget} evaluations per (policy, op, seed), counted by the daemon ledger; seeds: {config.seeds}; "
        f"ops: {len(config.ops)}; policies: {', '.join(config.policies)}",
        f"Proposers: {info['proposer'] or 'n/a'}",
        f"Tasks finished: {cov['finished']} / {cov['tasks']} ({cov['failed']} failed; missing and failed count as 1.0); "
        f"evaluations spent: {cov['evaluations']}",
        f"Ledger check: {cov['budget_checked']} task(s) verified against the daemon ledger, "
        f"{cov['budget_violations']} over budget or in disagreement",
        f"Versions: {info['versions']}",
    ]
    if config.command:
        facts.append(f"Command: `{config.command}`")
    title = f"Sweep {config.sweep_id}: {info['kind']} results"
    md = [
        f"# {title}",
        "",
        *[f"- {f}" for f in facts],
        "",
        "## GM speedup and fast_p per level (mean over seeds; GM ± std over seeds)",
        "",
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
        *["| " + " | ".join(row) + " |" for row in body],
        "",
        "## Speedup distribution",
        "",
        f"![speedup CDF]({FIGURES['cdf']})",
        "",
        "## Best-so-far speedup vs evaluations",
        "",
        f"![best so far]({FIGURES['curve']})",
        "",
        "## Per-op trajectories",
        "",
        f"![trajectories]({FIGURES['trajectories']})",
        "",
    ]
    (results_dir / "report.md").write_text("\n".join(md))
    cells = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    rows_html = "".join(
        "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in body
    )
    page = (
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
        "<style>body{font-family:sans-serif;max-width:1400px;margin:auto}table{border-collapse:collapse}"
        "td,th{border:1px solid #ccc;padding:3px 6px;text-align:right}img{max-width:100%}</style></head><body>"
        f"<h1>{html.escape(title)}</h1><ul>"
        + "".join(f"<li>{html.escape(f).replace('**', '')}</li>" for f in facts)
        + "</ul><h2>GM speedup and fast_p per level</h2>"
        f"<table><tr>{cells}</tr>{rows_html}</table>"
        + "".join(
            f"<h2>{name}</h2><img src='{FIGURES[key]}' alt='{name}'>"
            for key, name in (
                ("cdf", "Speedup distribution"),
                ("curve", "Best-so-far speedup vs evaluations"),
                ("trajectories", "Per-op trajectories"),
            )
        )
        + "</body></html>"
    )
    (results_dir / "report.html").write_text(page)
    return results_dir / "report.md"
