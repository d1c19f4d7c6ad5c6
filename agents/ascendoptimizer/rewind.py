"""Stage II, offline: the optimisation rewind that builds the experience bank.

From each expert kernel (or a real operator's published one, which has no expert beside it)
the inverse agent removes one motif at a time; every step is compiled,
checked and timed. A step whose latency rises by at least `threshold_pct` over the version it
came from is kept as a (slow, fast) pair, distilled into <Title, Description, Bottleneck, Code
Diff>, and becomes the starting point of the next step, so each expert yields a trajectory of
ever slower kernels. Failed or insignificant steps are discarded and the walk goes on from the
same version with another motif.

The rewind learns every motif the knowledge base can write, not only those the experts happen to
show: before the walk, each motif's forward rewrite that applies to the expert, and to the suite
baseline the expert improves on, is probed, and a probe at least `threshold_pct` faster is kept
as the pair (version, version + motif).
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from pydantic import Field

from agents.ascendoptimizer.bank import BuildStats, Experience, ExperienceBank
from agents.ascendoptimizer.embed import EmbedderKind, make_embedder
from agents.ascendoptimizer.motifs import BY_NAME, MOTIFS, Origin
from agents.ascendoptimizer.proposer import Proposer
from agents.ascendoptimizer.trajectory import Trajectory
from ascend_core import suite
from ascend_core.cpp import unified_diff
from ascend_core.package import OperatorPackage
from ascend_core.protocol import DEFAULT_SOC, EvalRequest, EvalResult
from ascend_gym.client import DaemonClient
from ascend_gym.policies import PolicyConfig

Evaluate = Callable[[OperatorPackage], EvalResult]


class RewindConfig(PolicyConfig):
    threshold_pct: float = Field(5.0, ge=0)  # keep a pair when latency rises by at least this much
    max_kept_per_expert: int = Field(6, ge=1)  # length of one expert's rewind trajectory
    max_tried_per_expert: int = Field(14, ge=1)  # evaluations one expert may spend

    def run_budget(self) -> int:
        """The most evaluations one expert's rewind makes: the expert and the baseline, the motif
        probes at both, and the deoptimising steps."""
        return 2 + 2 * len(MOTIFS) + self.max_tried_per_expert


def rewind_expert(
    uri: str,
    origin: Origin,
    evaluate: Evaluate,
    proposer: Proposer,
    config: RewindConfig,
    rng: random.Random,
    trajectory: Trajectory,
) -> tuple[list[Experience], dict[str, int]]:
    counts = {"tried": 0, "kept": 0, "failed": 0, "probed": 0}
    expert = origin.expert
    current, current_result = expert, evaluate(expert)
    trajectory.write(
        "rewind_start",
        operator=uri,
        status=current_result.status.value,
        latency_us=current_result.latency_us,
    )
    if not current_result.ok:
        return [], counts
    probes = probe_motifs(
        uri, expert, current_result, evaluate, proposer, config, trajectory, counts
    )
    # The suite baseline is where a policy starts: motifs are probed there too.
    if origin.baseline is not None and origin.baseline.files != expert.files:
        base_result = evaluate(origin.baseline)
        if base_result.ok:
            probes += probe_motifs(
                uri, origin.baseline, base_result, evaluate, proposer, config, trajectory, counts
            )
    kept: list[Experience] = []
    tried = {expert.content_hash()}
    removed: set[str] = set()
    while (
        counts["tried"] < config.max_tried_per_expert
        and counts["kept"] < config.max_kept_per_expert
    ):
        proposal = proposer.deoptimise(current, origin, tried, removed, rng)
        trajectory.drain(proposer, operator=uri)
        if proposal is None:
            break
        tried.add(proposal.package.content_hash())
        result = evaluate(proposal.package)
        counts["tried"] += 1
        rise = result.latency_us / current_result.latency_us - 1 if result.ok else None
        keep = rise is not None and rise * 100 >= config.threshold_pct
        motif = BY_NAME.get(proposal.motif)
        part = motif.part if motif else "kernel"
        path = current.kernel_path if part == "kernel" else current.host_path
        slow_src = (
            proposal.package.kernel_source if part == "kernel" else proposal.package.tiling_source
        )
        fast_src = current.kernel_source if part == "kernel" else current.tiling_source
        diff = unified_diff(slow_src, fast_src, path)
        trajectory.write(
            "rewind_step",
            operator=uri,
            note=proposal.note,
            motif=proposal.motif,
            status=result.status.value,
            latency_us=result.latency_us,
            parent_us=current_result.latency_us,
            rise_pct=None if rise is None else round(rise * 100, 3),
            kept=keep,
            diff=diff,
            message=result.message[:400],
        )
        if not result.ok:
            counts["failed"] += 1
            continue
        if not keep:
            continue
        d = proposer.distill(
            current, proposal.package, current_result, result, proposal.motif, diff
        )
        trajectory.drain(proposer, operator=uri)
        kept.append(
            Experience(
                title=d.title,
                description=d.description,
                bottleneck=d.bottleneck,
                code_diff=diff,
                part=part,
                motif=proposal.motif,
                variant=proposal.note,
                operator=uri,
                fast_us=current_result.latency_us,
                slow_us=result.latency_us,
                proposer=proposer.name,
            )
        )
        counts["kept"] += 1
        removed.add(proposal.motif)
        current, current_result = proposal.package, result
    counts["kept"] += len(probes)
    return probes + kept, counts


def probe_motifs(
    uri: str,
    expert: OperatorPackage,
    expert_result: EvalResult,
    evaluate: Evaluate,
    proposer: Proposer,
    config: RewindConfig,
    trajectory: Trajectory,
    counts: dict[str, int],
) -> list[Experience]:
    """Each motif the expert does not show yet, added by its forward rewrite: kept when faster."""
    kept = []
    for motif in MOTIFS:
        fast = motif.forward(expert) if motif.forward else None
        if fast is None:
            continue
        result = evaluate(fast)
        counts["probed"] += 1
        gain = expert_result.latency_us / result.latency_us - 1 if result.ok else None
        keep = gain is not None and gain * 100 >= config.threshold_pct
        path = expert.kernel_path if motif.part == "kernel" else expert.host_path
        part_of = (
            (lambda p: p.kernel_source) if motif.part == "kernel" else (lambda p: p.tiling_source)
        )
        diff = unified_diff(part_of(expert), part_of(fast), path)
        trajectory.write(
            "rewind_probe",
            operator=uri,
            motif=motif.name,
            status=result.status.value,
            latency_us=result.latency_us,
            parent_us=expert_result.latency_us,
            gain_pct=None if gain is None else round(gain * 100, 3),
            kept=keep,
            diff=diff,
            message=result.message[:400],
        )
        if not keep:
            continue
        d = proposer.distill(fast, expert, result, expert_result, motif.name, diff)
        trajectory.drain(proposer, operator=uri)
        kept.append(
            Experience(
                title=d.title,
                description=d.description,
                bottleneck=d.bottleneck,
                code_diff=diff,
                part=motif.part,
                motif=motif.name,
                variant=f"probe: added {motif.name}",
                operator=uri,
                fast_us=result.latency_us,
                slow_us=expert_result.latency_us,
                proposer=proposer.name,
            )
        )
    return kept


def build_bank(
    uris: list[str],
    daemon: str,
    proposer_factory: Callable[[], Proposer],
    config: RewindConfig,
    out_dir: str | Path,
    embedder: EmbedderKind = "auto",
    seed: int = 0,
    soc: str = DEFAULT_SOC,
    parallel: int = 2,
    run_prefix: str = "",
) -> tuple[ExperienceBank, BuildStats]:
    """Rewind every expert of `uris` (in `parallel` threads, each with its own daemon client and
    proposer) and save the bank to `out_dir`. Each operator's evaluations go to a run of its own,
    opened with its budget (so a daemon that requires run tokens serves them), `<run_prefix>/<op>`
    (by default a prefix new to this build); the trajectory is `out_dir/rewind.jsonl`."""
    run_prefix = run_prefix or f"bank-build-{uuid.uuid4().hex[:12]}"
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    trajectory = Trajectory(out_dir / "rewind.jsonl")

    def one(uri: str) -> tuple[str, list[Experience], dict[str, int]]:
        # An operator without an expert version (a real one: the published code is what its
        # authors optimised) is rewound from its own code.
        expert, published = suite.load_expert(uri), suite.resolve(uri)
        origin = Origin(published, None) if expert is None else Origin(expert, published)
        client = DaemonClient(daemon)
        short = uri.removeprefix(f"op://{suite.SUITE_NAME}/").removeprefix("op://")
        try:
            client.open_run(f"{run_prefix}/{short}", config.run_budget())

            def evaluate(package: OperatorPackage) -> EvalResult:
                return client.evaluate(
                    EvalRequest(run_id=f"{run_prefix}/{short}", package=package, soc=soc, seed=0)
                )

            # One rng per operator, so the bank does not depend on thread scheduling.
            rng = random.Random(f"{seed}/{uri}")
            kept, counts = rewind_expert(
                uri,
                origin,
                evaluate,
                proposer_factory(),
                config,
                rng,
                trajectory,
            )
        finally:
            client.close()
        return uri, kept, counts

    with ThreadPoolExecutor(max_workers=max(1, parallel)) as pool:
        results = list(pool.map(one, uris))
    trajectory.close()
    stats = BuildStats(threshold_pct=config.threshold_pct)
    experiences: list[Experience] = []
    for uri, kept, counts in results:  # in `uris` order whatever the threads did
        experiences += kept
        stats.experts += 1
        stats.tried += counts["tried"]
        stats.kept += counts["kept"]
        stats.failed += counts["failed"]
        stats.probed += counts["probed"]
        stats.per_operator[uri] = counts
    bank = ExperienceBank(experiences, make_embedder(embedder))
    bank.save(
        out_dir,
        stats,
        extra={
            "seed": seed,
            "soc": soc,
            "rewind": config.model_dump(),
            "proposer": proposer_factory().name,
        },
    )
    return bank, stats
