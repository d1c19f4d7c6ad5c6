"""List the operators of a suite."""

from __future__ import annotations

import argparse

from ascend_gym import suite


def configure(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="suite_command", required=True)
    ls = sub.add_parser("list", help="print every operator with its level, category, dtypes and bench shape")
    ls.add_argument("--suite", default=suite.SUITE_NAME)


def run(args: argparse.Namespace) -> int:
    if args.suite_command == "list":
        print(f"{'operator':<40} {'category':<14} {'dtypes':<18} bench shape")
        for uri in suite.op_uris(args.suite):
            spec = suite.resolve(uri).spec
            bench = spec.bench_case
            dtypes = ",".join(sorted({d for a in spec.inputs for d in a.dtypes}))
            shape = "x".join(map(str, spec.arg_shape(bench, spec.inputs[0].name)))
            print(f"{uri:<40} {spec.category:<14} {dtypes:<18} {shape} {bench.dtype}")
    return 0
