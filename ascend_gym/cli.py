"""The `ascend-gym` console script: one verb per module under ascend_gym/commands/ (or wherever
the owning package keeps it). Each module defines `configure(parser)` and `run(args) -> int`."""

from __future__ import annotations

import argparse
import importlib
import sys

COMMANDS: dict[str, str] = {
    "eval": "ascend_gym.commands.eval_cmd",
    "daemon": "ascend_gym.commands.daemon_cmd",
    "bench": "ascend_gym.commands.bench_cmd",
    "suite": "ascend_gym.commands.suite_cmd",
    "validate": "ascend_gym.commands.validate_cmd",
    "report": "ascend_gym.commands.report_cmd",
    "optimize": "ascend_gym.commands.optimize_cmd",
    "bank": "ascend_gym.commands.bank_cmd",
    "sim": "ascend_gym.commands.sim_cmd",
    "corpus": "ascend_gym.commands.corpus_cmd",
    "generate": "ascend_gym.commands.generate_cmd",
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ascend-gym", description=__doc__.splitlines()[0])
    verbs = parser.add_subparsers(dest="command", required=True)
    modules = {}
    for verb, module_name in COMMANDS.items():
        module = importlib.import_module(module_name)
        modules[verb] = module
        module.configure(
            verbs.add_parser(verb, help=(module.__doc__ or "").strip().splitlines()[0])
        )
    args = parser.parse_args(argv)
    return int(modules[args.command].run(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
