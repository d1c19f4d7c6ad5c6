"""List, validate and tabulate the operators of a suite."""

from __future__ import annotations

import argparse
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ascend_core import suite
from ascend_gym.commands.common import UsageError, add_json, add_soc, load_operator

DEFAULT_DOC = Path("docs/suite.md")


def configure(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="suite_command", required=True)
    ls = sub.add_parser(
        "list", help="print every operator with its level, category, dtypes and bench shape"
    )
    ls.add_argument(
        "--suite", default=suite.SUITE_NAME, help=f"the suite to list (default {suite.SUITE_NAME})"
    )
    add_json(ls, "one JSON object per operator")

    suites = sub.add_parser("suites", help="print every suite with its operator count and root")
    add_json(suites, "one JSON object per suite")

    val = sub.add_parser(
        "validate", help="check every baseline (and expert) on every case with the simulator"
    )
    _common(val)
    val.add_argument(
        "--experts", action="store_true", help="also check expert versions and that they are faster"
    )
    val.add_argument(
        "--json-out",
        type=Path,
        metavar="FILE",
        help="write the reports here (reusable by `suite table --from`)",
    )

    imp = sub.add_parser(
        "import",
        help="register the corpus operators under SRC_DIR that pass every case (on --draws input "
        "draws) as suite NAME",
    )
    imp.add_argument("src", type=Path, metavar="SRC_DIR")
    imp.add_argument(
        "--format",
        choices=["corpus", "cann-bench"],
        default="corpus",
        help="corpus: custom-op projects, qualified on the simulator; cann-bench: a cann-bench "
        "checkout's tasks (proto.yaml, golden.py, cases), as specs with torch goldens",
    )
    imp.add_argument("--name", required=True, help="suite name (for bench --suite NAME)")
    add_soc(imp)
    imp.add_argument("--jobs", type=int, default=1, help="operators evaluated in parallel")
    _qualify_draws(imp)

    mat = sub.add_parser(
        "materialise",
        help="build a defined suite (ascend-real-v1, ascend-real-v2) from your checkouts of its repositories",
    )
    mat.add_argument("name", metavar="SUITE", help=f"a defined suite: {', '.join(suite.DEFINED)}")
    mat.add_argument(
        "--src",
        type=Path,
        required=True,
        help="directory holding one checkout per repository, named <owner>+<repo>",
    )
    add_soc(mat)
    mat.add_argument("--jobs", type=int, default=1, help="operators evaluated in parallel")
    _qualify_draws(mat)
    mat.add_argument(
        "--any-commit",
        action="store_true",
        help="evaluate checkouts at other commits than the pinned ones (the suite then differs)",
    )
    mat.add_argument(
        "--resume",
        action="store_true",
        help="keep the last materialisation's outcomes (an interrupted one's too); evaluate the rest",
    )
    mat.add_argument(
        "--redo",
        default="",
        metavar="OPS",
        help="with --resume: operators (comma list) evaluated again all the same",
    )

    tab = sub.add_parser(
        "table", help="validate baselines and experts and write the table into docs/suite.md"
    )
    _common(tab)
    tab.add_argument(
        "--doc",
        type=Path,
        default=DEFAULT_DOC,
        help="markdown file whose generated table is replaced",
    )
    tab.add_argument(
        "--from",
        dest="from_json",
        type=Path,
        help="reports from `suite validate --json-out` instead of evaluating",
    )


def _qualify_draws(p: argparse.ArgumentParser) -> None:
    from ascend_gym.corpus.runner import QUALIFY_DRAWS

    p.add_argument(
        "--draws",
        type=int,
        default=QUALIFY_DRAWS,
        help=f"input draws an operator must pass every case on to enter the suite (default "
        f"{QUALIFY_DRAWS}); one can pass an answer right only where it put the extreme",
    )


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--ops",
        default="all",
        help="comma list: all, smoke, level1..3, op:// URIs or <level>/<name>",
    )
    add_soc(p)
    p.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="operators evaluated in parallel (each case is one process)",
    )
    p.add_argument(
        "--draws",
        type=int,
        default=1,
        help="input draws each must pass: the first also timed, the others checked only "
        "(default 1); more catch a spec tighter than a kernel's own error before a bench does",
    )


def run(args: argparse.Namespace) -> int:
    if args.suite_command == "list":
        return _list(args)
    if args.suite_command == "suites":
        for name, root in suite.roots().items():
            row = {"suite": name, "ops": len(suite.op_uris(name)), "root": str(root)}
            print(
                json.dumps(row) if args.json else f"{name:<24} {row['ops']:>4} ops  {row['root']}"
            )
        return 0
    if args.suite_command == "import":
        return _import(args)
    if args.suite_command == "materialise":
        return _materialise(args)
    from ascend_gym import suite_validate as validate  # needs the simulator backend

    if args.suite_command == "table" and args.from_json:
        reports = [
            validate.OpReport.model_validate(r) for r in json.loads(args.from_json.read_text())
        ]
    else:
        experts = args.suite_command == "table" or args.experts
        uris = [load_operator(name).uri for name in suite.expand(args.ops)]
        reports = _validate(uris, experts, args.soc, args.jobs, _draws(args))
    if args.suite_command == "validate" and args.json_out:
        args.json_out.parent.mkdir(parents=True, exist_ok=True)
        args.json_out.write_text(json.dumps([r.model_dump(mode="json") for r in reports], indent=1))
    if args.suite_command == "table":
        validate.write_table(args.doc, validate.render_table(reports))
        print(f"wrote the table of {len(reports)} operators to {args.doc}")
    bad = [r.uri for r in reports if not r.ok]
    n_exp = sum(r.expert is not None for r in reports)
    print(
        f"{len(reports) - len(bad)}/{len(reports)} operators pass ({n_exp} experts checked)"
        + (f"; failing: {', '.join(bad)}" if bad else "")
    )
    return 1 if bad else 0


def _draws(args: argparse.Namespace) -> int:
    if args.draws < 1:
        raise UsageError(f"--draws must be at least 1, got {args.draws}")
    return args.draws


def _validate(uris: list[str], experts: bool, soc: str, jobs: int, draws: int = 1) -> list:
    from ascend_gym import suite_validate as validate

    def one(uri: str):
        report = validate.validate_op(uri, experts=experts, soc=soc, draws=draws)
        print(validate.describe(report), flush=True)
        return report

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return list(pool.map(one, uris))


def _list(args: argparse.Namespace) -> int:
    try:
        uris = suite.op_uris(args.suite)
    except KeyError as e:
        raise UsageError(
            e.args[0] if args.suite in suite.DEFINED else f"unknown suite {args.suite!r}"
        ) from None
    if not args.json:
        print(f"{'operator':<44} {'category':<14} {'dtypes':<18} {'expert':<7} bench shape")
    for uri in uris:
        spec = suite.resolve(uri).spec
        bench = spec.bench_case
        row = {
            "operator": uri,
            "level": spec.level,
            "category": spec.category,
            "dtypes": sorted({d for a in spec.inputs for d in a.dtypes}),
            "expert": suite.has_expert(uri),
            # the first input's shape; an operator without inputs (arange, eye) its output's
            "bench_shape": spec.arg_shape(bench, (spec.inputs or spec.outputs)[0].name),
            "bench_dtype": bench.dtype,
        }
        if args.json:
            print(json.dumps(row))
            continue
        shape = "x".join(map(str, row["bench_shape"]))
        print(
            f"{uri:<44} {spec.category:<14} {','.join(row['dtypes']):<18} "
            f"{'yes' if row['expert'] else '':<7} {shape} {bench.dtype}"
        )
    return 0


def _import(args: argparse.Namespace) -> int:
    import sys

    from ascend_gym.corpus import importer
    from ascend_gym.corpus.runner import none_tried

    if not args.src.is_dir():
        print(f"ascend-gym suite import: {args.src} is not a directory", file=sys.stderr)
        return 2
    if args.name == suite.SUITE_NAME or "/" in args.name:
        print(f"ascend-gym suite import: cannot import as {args.name!r}", file=sys.stderr)
        return 2
    if args.format == "cann-bench":
        from ascend_gym.commands.cann_bench import import_suite

        return import_suite(args.src, args.name)

    def progress(o) -> None:
        print(f"{o.status:<14} {o.path}", flush=True)

    outcomes = importer.import_suite(
        args.src, args.name, args.jobs, args.soc, progress, _draws(args)
    )
    if not outcomes:
        raise UsageError(f"no custom-op directory (op_host/ and op_kernel/) under {args.src}")
    try:
        n = len(suite.op_uris(args.name))
    except KeyError:  # nothing was written: the suite does not exist
        n = 0
    tried = sum(o.tried for o in outcomes)
    untried = len(outcomes) - tried
    if n == 0:
        why = none_tried(outcomes) or (
            f"none of {tried} operators passes every case on {args.draws} input draws"
        )
        print(f"suite {args.name}: {why}; nothing was registered", file=sys.stderr)
        return 1
    print(
        f"suite {args.name}: {n} of {tried} operators pass every case on {args.draws} "
        f"input draws, written to {suite.data_dir() / args.name}; run them with "
        f"`ascend-gym bench --suite {args.name}`"
        + (f" ({untried} not tried: no spec, or for other SoCs)" if untried else "")
    )
    return 0


def _materialise(args: argparse.Namespace) -> int:
    from collections import Counter

    from ascend_gym.corpus import defined

    if args.name not in suite.DEFINED:
        raise UsageError(f"no defined suite {args.name!r}; defined: {', '.join(suite.DEFINED)}")
    if not args.src.is_dir():
        raise UsageError(f"{args.src} is not a directory")

    def progress(q) -> None:
        detail = f"  {q.message.splitlines()[0][:160]}" if q.message and not q.qualified else ""
        if q.body_share is not None:
            detail = f"  {q.latency_us:.2f} us, head {q.head_us:.2f} us{detail}"
        print(f"{q.status:<16} level{q.level} {q.name:<32} {q.origin}{detail}", flush=True)

    redo = [n for n in args.redo.split(",") if n]
    if redo and not args.resume:
        raise UsageError("--redo needs --resume")
    if args.resume:
        try:
            defined.qualifications(args.name)
        except KeyError as e:  # nothing to resume
            raise UsageError(e.args[0]) from None
    outcomes = defined.materialise(
        args.name,
        args.src,
        args.jobs,
        args.soc,
        args.any_commit,
        progress,
        _draws(args),
        args.resume,
        redo,
    )
    qualified = [q for q in outcomes if q.qualified]
    levels = Counter(q.level for q in qualified)
    statuses = ", ".join(f"{s} {k}" for s, k in Counter(q.status for q in outcomes).most_common())
    print(
        f"suite {args.name}: {len(qualified)} of {len(outcomes)} operators qualify (every case "
        f"passes on {args.draws} input draws): level1 {levels[1]}, level2 {levels[2]}, "
        f"level3 {levels[3]} ({statuses}); written to {suite.data_dir() / args.name}"
    )
    headed = [q.name for q in qualified if not q.body_dominates]
    if headed:
        print(
            f"{len(headed)} qualified operators' bench cases are mostly launch head (kernel body "
            f"at most {defined.BODY_SHARE:.0%} of the simulated time): {', '.join(headed)}"
        )
    return 0
