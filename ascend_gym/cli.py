"""The `ascend-gym` console script: one verb per module under ascend_gym/commands/.

Each module defines `configure(parser)` and `run(args) -> int`. Exit status: 0 done, 1 a
candidate or a check failed, 2 a usage or environment error (one line on stderr; `--debug` shows
the traceback), 130 interrupted (Ctrl-C or SIGTERM; rerunning the same command resumes).
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
import tomllib
import traceback
from typing import NoReturn

from pydantic import ValidationError

import ascend_gym

COMMANDS: dict[str, str] = {
    "eval": "ascend_gym.commands.eval",
    "optimize": "ascend_gym.commands.optimize",
    "bench": "ascend_gym.commands.bench",
    "report": "ascend_gym.commands.report",
    "validate": "ascend_gym.commands.validate",
    "retime": "ascend_gym.commands.retime",
    "export": "ascend_gym.commands.export",
    "suite": "ascend_gym.commands.suite",
    "daemon": "ascend_gym.commands.daemon",
    "bank": "ascend_gym.commands.bank",
    "sim": "ascend_gym.commands.sim",
    "generate": "ascend_gym.commands.generate",
    "corpus": "ascend_gym.commands.corpus",
    "model": "ascend_gym.commands.model",
    "cann-bench": "ascend_gym.commands.cann_bench",
}
EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
INTERRUPTED = "interrupted; run the same command again to resume"


class Interrupted(KeyboardInterrupt):
    """SIGTERM, handled as Ctrl-C is: clean up, then exit 130."""


def _terminate(signum: int, frame: object) -> None:
    raise Interrupted


class _DefaultsShown(argparse.HelpFormatter):
    """An option's default after its help, unless the help names one or there is none to show."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if (
            not action.option_strings
            or action.default in (None, False, "", argparse.SUPPRESS)
            or "default" in text
        ):
            return text
        return f"{text} (default: %(default)s)"


class _Verbs(argparse._SubParsersAction):
    """Nested verbs (`suite list`, `daemon ledger`): their one-line help is also their --help's
    description, and their options show their defaults."""

    def add_parser(self, name: str, **kwargs: object) -> argparse.ArgumentParser:
        kwargs.setdefault("description", kwargs.get("help"))
        kwargs.setdefault("formatter_class", _DefaultsShown)
        return super().add_parser(name, **kwargs)


class Parser(argparse.ArgumentParser):
    """A usage error is one line: what is wrong and where the help is. Every parser, nested verbs
    (`suite list`, `daemon ledger`) included, takes `--debug`, before or after the verb."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.register("action", "parsers", _Verbs)
        self.add_argument(
            "--debug",
            action="store_true",
            default=argparse.SUPPRESS,
            help="show the traceback of an error instead of one line",
        )

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")


def parser(
    verb: str | None = None,
) -> tuple[argparse.ArgumentParser, dict[str, object]]:
    """The console script's parser and the command modules it imported.

    Given the `verb` a command line names, only that verb's module is imported (a short command's
    time is mostly its start-up): the other verbs are still there as choices, without their
    options. Without one (top-level help, no verb, a verb we do not know), every verb's is."""
    top = Parser(
        prog="ascend-gym",
        description=__doc__.split("\n\n")[0].split(": ", 1)[1],
        epilog="exit status: 0 ok, 1 a candidate or check failed, 2 usage or environment error, "
        "130 interrupted",
    )
    top.add_argument("--version", action="version", version=f"ascend-gym {ascend_gym.__version__}")
    verbs = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    modules = {}
    for name, module_name in COMMANDS.items():
        if verb in COMMANDS and name != verb:
            verbs.add_parser(name)
            continue
        module = importlib.import_module(module_name)
        modules[name] = module
        summary = " ".join((module.__doc__ or "").strip().split("\n\n")[0].split())
        module.configure(
            verbs.add_parser(
                name,
                help=summary,
                description=module.__doc__,
                formatter_class=argparse.RawDescriptionHelpFormatter,
            )
        )
    return top, modules


def _verb(argv: list[str]) -> str | None:
    """The verb a command line names: its first word that is not an option (the top-level options
    take no value)."""
    return next((word for word in argv if not word.startswith("-")), None)


def main(argv: list[str] | None = None) -> int:
    from ascend_gym.client import DaemonError
    from ascend_gym.commands.common import UsageError
    from ascend_gym.env import BaselineRejected
    from ascend_gym.policies import InfrastructureError

    argv = sys.argv[1:] if argv is None else argv
    top, modules = parser(_verb(argv))
    args = top.parse_args(argv)
    signal.signal(signal.SIGTERM, _terminate)
    try:
        status = int(modules[args.command].run(args) or 0)
        sys.stdout.flush()  # a reader that went away is found here, not at interpreter exit
        return status
    except BrokenPipeError:
        # The reader went away (`| head`): say so once, on stderr, which is still open.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return _fail(args, "output closed early (broken pipe); nothing else to do", EXIT_USAGE)
    except (
        UsageError,
        DaemonError,
        InfrastructureError,  # the model endpoint failed: no result to report
        BaselineRejected,  # the operator fails its own check
        ConnectionError,  # Ray did not start
        FileNotFoundError,
        tomllib.TOMLDecodeError,
        ValidationError,
    ) as e:
        return _fail(args, f"{args.command}: {_one_line(e)}", EXIT_USAGE)
    except KeyboardInterrupt:
        return _fail(args, INTERRUPTED, EXIT_INTERRUPTED)


def _one_line(error: BaseException) -> str:
    if isinstance(error, ValidationError):
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        return (
            f"{error.title}: {where}: {first['msg']}" if where else f"{error.title}: {first['msg']}"
        )
    text = str(error.args[0]) if isinstance(error, KeyError) and error.args else str(error)
    return " ".join(text.split()) or type(error).__name__


def _fail(args: argparse.Namespace, message: str, status: int) -> int:
    if getattr(args, "debug", False):
        traceback.print_exc()
    print(f"ascend-gym: {message}", file=sys.stderr, flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
