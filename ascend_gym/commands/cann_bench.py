"""`ascend-gym cann-bench`: Huawei's cann-bench on the simulator (docs/cann_bench.md).

`import` reads a cann-bench checkout's tasks into a suite (also `suite import --format
cann-bench`); `run` imports a set, generates a kernel for each task (or takes a submission's),
evaluates every case on the simulator and prints cann-bench's score, HAP, per case and per level
beside our speedup and fast_p; `score` evaluates one submission against an imported task.
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from ascend_core import suite
from ascend_core.protocol import DEFAULT_SOC
from ascend_gym.commands.common import UsageError

# The SoC preset of each cann-bench hardware name our simulator has.
HW_SOC = {f"910b{k}": f"Ascend910B{k}" for k in range(1, 5)}


def configure(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="cann_bench_command", required=True)
    imp = sub.add_parser("import", help="import a cann-bench checkout's tasks as suite NAME")
    imp.add_argument("src", type=Path, metavar="DIR", help="a cann-bench checkout or a set in it")
    imp.add_argument("--name", required=True, help="suite name")

    run = sub.add_parser(
        "run",
        help="import a set, generate and evaluate every task, print the per-level table",
    )
    run.add_argument(
        "src", type=Path, metavar="DIR", help="a cann-bench set (a task directory tree)"
    )
    run.add_argument("--name", help="suite name (default cb-<directory name>)")
    _scoring(run)
    run.add_argument("--model", help="generate with this model (else the offline templates)")
    run.add_argument("--base-url", help="OpenAI-compatible endpoint of --model")
    run.add_argument("--api-key-env", help="environment variable holding the API key")
    run.add_argument(
        "--submission",
        type=Path,
        help="evaluate this submission's operators (csrc/ops/<op>/) instead of generating",
    )
    run.add_argument("--out", type=Path, help="write the report (JSON) and packages here")

    score = sub.add_parser("score", help="evaluate one operator package against an imported task")
    score.add_argument("package", type=Path, help="an operator package or a submission's op dir")
    score.add_argument("--suite", required=True, help="the imported cann-bench suite")
    score.add_argument("--op", help="the task's operator (default: the directory's name)")
    _scoring(score)


def _scoring(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--hw",
        default="910b2",
        help="whose metadata/<hw>.json baselines and T_HW to score against",
    )
    p.add_argument("--soc", help="the simulated SoC (default: the --hw part's, else Ascend910B4)")
    p.add_argument("--jobs", type=int, default=1, help="operators evaluated in parallel")


def import_suite(src: Path, name: str) -> int:
    from ascend_gym.cannbench.importer import import_tasks

    if not src.is_dir():
        raise UsageError(f"{src} is not a directory")
    manifest = import_tasks(src, name, lambda status, what: print(f"{status:<9} {what}"))
    if not manifest.tasks and not manifest.failed:
        raise UsageError(f"no cann-bench task (proto.yaml, golden.py, cases) under {src}")
    hws = ", ".join(sorted(manifest.metadata)) or "none"
    print(
        f"suite {name}: {len(manifest.tasks)} of {len(manifest.tasks) + len(manifest.failed)} "
        f"tasks imported to {suite.data_dir() / name} (metadata: {hws})"
    )
    return 0 if manifest.tasks else 1


def run(args: argparse.Namespace) -> int:
    if args.cann_bench_command == "import":
        return import_suite(args.src, args.name)
    args.soc = args.soc or HW_SOC.get(args.hw.lower(), DEFAULT_SOC)
    if args.cann_bench_command == "score":
        return _score(args)
    return _run(args)


def _model(args: argparse.Namespace):
    """`--model`: the generate verb's model loop, as a function of the task's source."""
    if not args.model:
        if args.base_url or args.api_key_env:
            raise UsageError("--base-url/--api-key-env without --model: no model would be asked")
        return None
    from agents.llm import ChatClient, LLMConfig
    from ascend_gym.commands.generate import DEFAULT_BASE_URL, DEFAULT_KEY_ENV, _evaluate
    from ascend_gym.dsl.model import ModelGenerator

    config = LLMConfig(
        base_url=args.base_url or DEFAULT_BASE_URL,
        model=args.model,
        api_key_env=args.api_key_env or DEFAULT_KEY_ENV,
    )
    generator = ModelGenerator(ChatClient(config), 3)

    def generate(source):
        made, log = generator.generate(source, lambda p: _evaluate(p, args.soc))
        return made, f"by {args.model} in {log.calls} passes"

    return generate


def _run(args: argparse.Namespace) -> int:
    import json
    from concurrent.futures import ThreadPoolExecutor

    from ascend_gym.cannbench import run as bench
    from ascend_gym.cannbench import submission
    from ascend_gym.cannbench.importer import import_tasks
    from ascend_gym.cannbench.tasks import identifier
    from ascend_gym.corpus.importer import write_operator

    if not args.src.is_dir():
        raise UsageError(f"{args.src} is not a directory")
    if args.submission is not None and not args.submission.is_dir():
        raise UsageError(f"--submission {args.submission} is not a directory")
    model = _model(args)
    name = args.name or f"cb-{identifier(args.src.resolve().name)}"
    manifest = import_tasks(args.src, name, lambda status, what: print(f"{status:<9} {what}"))
    if not manifest.tasks:
        raise UsageError(f"no importable cann-bench task under {args.src}")
    floors = manifest.metadata.get(args.hw.lower(), {})
    ops = submission.operator_dirs(args.submission) if args.submission else {}

    def one(task):
        pkg = suite.resolve(f"op://{name}/level{task.level}/{task.name}")
        if args.submission is None:
            made, how = bench.generate(pkg, args.soc, model)
        elif (op_dir := ops.get(Path(task.path).name) or ops.get(task.name)) is None:
            made, how = None, "not in the submission"
        else:
            try:
                made, how = submission.package(op_dir, pkg), f"submission {op_dir}"
            except submission.NotASubmission as e:
                made, how = None, str(e)
        scored = bench.score(made, task, floors.get(task.name, {}), args.soc, how)
        _print_operator(scored)
        return made, scored

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(one, manifest.tasks))
    scores = [s for _, s in results]
    print()
    print(bench.table(scores, manifest, args.hw, args.soc))
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        report = {
            "suite": name,
            "source": manifest.source,
            "hw": args.hw,
            "soc": args.soc,
            "simulated": True,
            "levels": [r.model_dump() for r in bench.level_rows(scores)],
            "operators": [
                s.model_dump() | {"score": s.score, "mean_hap": s.mean_hap} for s in scores
            ],
            "failed_imports": manifest.failed,
        }
        (args.out / "report.json").write_text(json.dumps(report, indent=1))
        for made, s in results:
            if made is not None:
                write_operator(made, args.out / "packages" / f"level{s.level}" / s.op, s.message)
        print(f"report and candidates (op.toml with each) in {args.out}")
    _baselines(name, results)
    return 0


def _baselines(name: str, results: list) -> None:
    """The candidates correct on every case, registered as suite `<name>-baselines`: what the
    env and the policies start from (`bench --suite`)."""
    from ascend_gym.corpus.importer import write_operator

    root = suite.data_dir() / f"{name}-baselines"
    shutil.rmtree(root, ignore_errors=True)
    correct = [(made, s) for made, s in results if s.correct]
    for made, s in correct:
        write_operator(made, root / f"level{s.level}" / s.op, f"cann-bench candidate: {s.message}")
    if correct:
        print(
            f"suite {name}-baselines: the {len(correct)} candidates correct on every case; "
            f"optimise them with `ascend-gym bench --suite {name}-baselines --policies ...`"
        )


def _print_operator(s) -> None:
    if s.correct or s.built:
        state = "correct" if s.correct else "built"
    else:
        state = "no build" if s.generated else "no candidate"
    score = "n/a" if s.score is None else f"{s.score:.1f}"
    passed = sum(c.passed for c in s.cases)
    print(
        f"level{s.level}/{s.op}: {state}, {passed}/{s.n_cases} cases, score {score}"
        + (f" ({s.message})" if s.message else ""),
        flush=True,
    )


def _score(args: argparse.Namespace) -> int:
    from ascend_core.package import load_package
    from ascend_gym.cannbench import run as bench
    from ascend_gym.cannbench import submission
    from ascend_gym.cannbench.importer import load_manifest

    try:
        manifest = load_manifest(args.suite)
    except KeyError as e:
        raise UsageError(e.args[0]) from None
    op = args.op or args.package.resolve().name
    task = manifest.task(op)
    if task is None:
        raise UsageError(f"{args.suite} has no task {op} (--op names it)")
    pkg = suite.resolve(f"op://{args.suite}/level{task.level}/{task.name}")
    try:
        if (args.package / "op.toml").is_file():
            made = bench.candidate(pkg, load_package(args.package))
        else:
            made = submission.package(args.package, pkg)
    except (OSError, ValueError) as e:
        raise UsageError(str(e)) from None
    floors = manifest.metadata.get(args.hw.lower(), {}).get(task.name, {})
    scored = bench.score(made, task, floors, args.soc)
    print(f"simulated on {args.soc}; baselines and T_HW from cann-bench metadata/{args.hw}.json")
    print(
        "| case | case_id | status | T_cand us (simulated) | T_base us | T_HW us | HAP | speedup |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for c in scored.cases:
        cells = [c.latency_us, c.baseline_us, c.t_hw_us, c.hap, c.speedup]
        text = ["n/a" if v is None else f"{v:.3f}" for v in cells]
        flag = " (below T_HW)" if c.below_floor else ""
        print(f"| {c.case} | {c.case_id} | {c.status}{flag} | " + " | ".join(text) + " |")
    _print_operator(scored)
    return 0 if scored.correct else 1
