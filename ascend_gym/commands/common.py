"""What every verb shares: the user-error type, argument types and checked operator loading.

A `UsageError` (or a `DaemonError`: no daemon to talk to) is the user's to fix; `cli.main` prints
it as one line on stderr and exits 2. Loading an operator turns every way a package can be wrong
(no such suite or op, malformed op.toml, a spec the model refuses, files it cannot choose) into
one such line naming the file and, where TOML says, the line and column.
"""

from __future__ import annotations

import argparse
import os
import re
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pydantic import BaseModel, ValidationError

from ascend_core import suite
from ascend_core.package import OperatorPackage, OutsidePackage, load_package
from ascend_core.protocol import DEFAULT_SOC, DEFAULT_TIMING_PROTOCOL, TIMING_PROTOCOLS
from ascend_core.soc import socs
from ascend_gym.bench import check_daemons
from ascend_gym.client import DaemonClient, LocalDaemon


class UsageError(Exception):
    """A mistake in what the user asked for: reported in one line, exit status 2."""


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def add_soc(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--soc",
        default=DEFAULT_SOC,
        choices=socs(),
        help=f"SoC preset to time on (default {DEFAULT_SOC})",
    )


def add_timing(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--timing",
        choices=("auto", "full", "sampled"),
        default="auto",
        help="how the bench case is timed: every block simulated and its outputs checked (full), "
        "or a sample of its blocks, unchecked (sampled); auto (default): full, but sampled past "
        "256 MiB of outputs when the operator is not element-wise",
    )
    parser.add_argument(
        "--timing-protocol",
        choices=TIMING_PROTOCOLS,
        default=DEFAULT_TIMING_PROTOCOL,
        help="what a latency is, <data>-<launch>: L2 flushed before the launch or resident (the "
        "launch before's data), a first launch's head or a repeated one's; default "
        f"{DEFAULT_TIMING_PROTOCOL}, as benchmarks time a kernel; cold = flushed-first, warm = "
        "resident-repeated (docs/performance_model.md, Timing protocol; simulator only)",
    )


def add_json(parser: argparse.ArgumentParser, what: str = "the table") -> None:
    parser.add_argument("--json", action="store_true", help=f"print {what} as JSON instead of text")


def load_operator(address: str, spec_file: str | Path | None = None) -> OperatorPackage:
    """An operator from an address or directory, checked far enough that the daemon can build it."""
    try:
        if spec_file is not None:
            package = load_package(address, spec_file=spec_file)
            if package.spec.reference_kind == "torch":  # a cann-bench submission, as it is
                from ascend_gym.cannbench import submission

                task = load_package(Path(spec_file).parent, spec_file=spec_file)
                try:
                    package = submission.package(Path(address), task)
                except submission.NotASubmission as e:
                    raise UsageError(str(e)) from None
        else:
            package = suite.resolve(address)
    except KeyError as e:
        raise UsageError(
            f"{e.args[0]} (an op://suite/level/name URI, a <level>/<name> of "
            f"{suite.SUITE_NAME} such as level1/add, or a package directory with op.toml; "
            "`ascend-gym suite list` lists the suite)"
        ) from None
    except (FileNotFoundError, OutsidePackage) as e:
        raise UsageError(str(e)) from None
    except tomllib.TOMLDecodeError as e:
        raise UsageError(f"{_spec_path(address, spec_file)}: malformed TOML: {e}") from None
    except ValidationError as e:
        raise UsageError(_spec_problem(_spec_path(address, spec_file), e)) from None
    try:  # the file choices are lazy: make them now, not in the daemon
        for path in (package.host_path, package.tiling_header_path, package.kernel_path):
            if path not in package.files:
                raise UsageError(
                    f"{package.uri}: the spec names {path}, which is not in the package"
                )
    except ValueError as e:
        raise UsageError(
            f"{package.uri}: {e} (name it in op.toml: host_file, tiling_header, kernel_file)"
        ) from None
    return package


def check_policy_config(policy: str, config: dict, where: str) -> None:
    """Build the policy once so its config model refuses a misspelt or ill-typed key now, in one
    line, rather than in every task of a sweep (or never: an ignored key is a wrong experiment)."""
    from ascend_gym.policies import make_policy, target

    try:
        target(policy)
    except KeyError as e:
        raise UsageError(f"{where}: {e.args[0]}") from None
    try:
        make_policy(policy, **config)
    except (ImportError, AttributeError) as e:  # a module:Class of the researcher's own
        raise UsageError(
            f"{where}: policy {policy}: cannot load it: {e} (on PYTHONPATH?)"
        ) from None
    except TypeError as e:  # its own constructor refused the config
        raise UsageError(f"{where}: policy {policy}: {e}") from None
    except ValidationError as e:
        first = e.errors()[0]
        key = ".".join(str(p) for p in first["loc"]) or "(config)"
        message = first["msg"].removeprefix("Value error, ")
        if first["type"] == "extra_forbidden":
            message = "no such setting (misspelt?)"
        raise UsageError(f"{where}: {policy} config key {key}: {message}") from None


DEFAULT_MODEL = "deepseek-chat"


def add_model(
    parser: argparse.ArgumentParser,
    role: str = "the model proposes instead of the offline proposer",
) -> None:
    """The model flags `optimize`, `bench` and `bank build` share: one flag away from a
    model-driven run."""
    parser.add_argument("--base-url", help=f"OpenAI-compatible endpoint: {role}")
    parser.add_argument("--model", help=f"model name at --base-url (default {DEFAULT_MODEL})")
    parser.add_argument(
        "--api-key-env",
        help="environment variable holding the API key (default OPENAI_API_KEY); the key itself "
        "is never recorded",
    )
    parser.add_argument(
        "--llm-cache",
        help="record/replay directory for model calls: a rerun replays them call for call",
    )
    parser.add_argument(
        "--llm-cache-mode",
        choices=["auto", "record", "replay"],
        help="auto (default): replay what is recorded, ask the model otherwise; replay: never "
        "ask the model (a miss fails the task)",
    )
    parser.add_argument(
        "--llm-retry-s",
        type=float,
        metavar="SECONDS",
        help="how long one model call is retried after a rate limit (429), a server error or no "
        "answer, following Retry-After, else waiting 1, 2, 4 ... s (default 120; 0: no retry)",
    )


def model_settings(args: argparse.Namespace) -> dict | None:
    """The `llm` settings the model flags ask for; None without --base-url."""
    given = {
        "--model": args.model,
        "--api-key-env": args.api_key_env,
        "--llm-cache": args.llm_cache,
        "--llm-cache-mode": args.llm_cache_mode,
        "--llm-retry-s": args.llm_retry_s,
    }
    if not args.base_url:
        stray = [flag for flag, value in given.items() if value]
        if stray:
            raise UsageError(f"{', '.join(stray)} without --base-url: no model would be asked")
        return None
    if args.llm_cache_mode and not args.llm_cache:
        raise UsageError(
            f"--llm-cache-mode {args.llm_cache_mode} without --llm-cache: nothing to record or replay"
        )
    if args.llm_retry_s is not None and args.llm_retry_s < 0:
        raise UsageError(f"--llm-retry-s {args.llm_retry_s:g}: give 0 or more seconds")
    if (
        args.api_key_env
        and args.llm_cache_mode != "replay"
        and not os.environ.get(args.api_key_env)
    ):
        # Sent as it is, the model would see "Bearer none" and answer 401 in every task.
        raise UsageError(
            f"--api-key-env {args.api_key_env}: the variable is not set or empty "
            f"(export {args.api_key_env}=<your key>)"
        )
    llm = {"base_url": args.base_url, "model": args.model or DEFAULT_MODEL}
    if args.api_key_env:
        llm["api_key_env"] = args.api_key_env
    if args.llm_retry_s is not None:
        llm["retry_s"] = args.llm_retry_s
    if args.llm_cache:
        llm["cache_dir"] = str(Path(args.llm_cache).resolve())
    if args.llm_cache_mode:
        llm["cache_mode"] = args.llm_cache_mode
    return llm


def with_model(policy: str, config: dict, llm: dict | None) -> dict:
    """`config` with the model as proposer, for a policy that can use one."""
    if llm is None or not takes_model(policy):
        return config
    return {**config, "proposer": "llm", "llm": {**config.get("llm", {}), **llm}}


def takes_model(policy: str) -> bool:
    from ascend_gym.policies import make_policy

    config = getattr(make_policy(policy), "config", None)  # a policy of one's own may have none
    return isinstance(config, BaseModel) and "llm" in type(config).model_fields


def check_cases(package: OperatorPackage, names: list[str] | None) -> None:
    known = [c.name for c in package.spec.cases]
    unknown = [n for n in names or [] if n not in known]
    if unknown:
        raise UsageError(
            f"{package.uri} has no case {', '.join(unknown)}; its cases: {', '.join(known)}"
        )


def _spec_path(address: str, spec_file: str | Path | None) -> Path:
    if spec_file is not None:
        return Path(spec_file)
    if Path(address).is_dir():
        return Path(address) / "op.toml"
    if address.startswith("op://"):
        uri = address
    else:
        uri = f"op://{suite.SUITE_NAME}/{address}"
    name, _, rest = uri.removeprefix("op://").partition("/")
    return suite.roots().get(name, suite.SUITE_ROOT) / rest / "op.toml"


def _spec_problem(path: Path, error: ValidationError) -> str:
    """The first thing pydantic refused, with the line of its key when the file shows it."""
    first = error.errors()[0]
    loc = ".".join(str(p) for p in first["loc"])
    message = first["msg"].removeprefix("Value error, ")
    where = str(path)
    keys = [p for p in first["loc"] if isinstance(p, str)]
    if keys and path.is_file():
        pattern = re.compile(rf"^\s*{re.escape(keys[-1])}\s*=")
        for n, line in enumerate(path.read_text().splitlines(), start=1):
            if len(first["loc"]) == 1 and line.startswith("["):
                break  # a top-level key is above the first table
            if pattern.match(line):
                where += f":{n}:{len(line) - len(line.lstrip()) + 1}"
                break
    field = f" {loc}:" if loc else ""
    return f"{where}: invalid op spec:{field} {message}"


def endpoints(text: str) -> list[str]:
    """A comma list of daemon endpoints, each a ZeroMQ address such as tcp://host:5555."""
    found = [e.strip() for e in text.split(",") if e.strip()]
    bad = [e for e in found if "://" not in e]
    if bad:
        raise argparse.ArgumentTypeError(
            f"{bad[0]!r} is not a daemon endpoint: give e.g. tcp://{bad[0].split('/')[-1]}"
        )
    if not found:
        raise argparse.ArgumentTypeError("no endpoint given")
    return found


def endpoint(text: str) -> str:
    if "," in text:
        raise argparse.ArgumentTypeError("one endpoint here (bench takes several: --daemons)")
    return endpoints(text)[0]


def add_daemon(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--daemon",
        type=endpoint,
        metavar="ENDPOINT",
        help="daemon endpoint, e.g. tcp://host:5555 (default: an embedded local simulator daemon)",
    )


@contextmanager
def daemon_client(address: str | None) -> Iterator[DaemonClient]:
    """A client of the given daemon, which must answer now, or of an embedded one started here."""
    local = None
    if address:
        check_daemons([address])
    else:
        local = LocalDaemon(require_run_tokens=True)
    client = DaemonClient(address or local.address)
    try:
        yield client
    finally:
        client.close()
        if local is not None:
            local.close()
