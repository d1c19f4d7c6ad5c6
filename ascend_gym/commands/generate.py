"""Generate an operator package from its spec and reference through the tile DSL (AscendCraft)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ascend_core import suite
from ascend_core.package import OperatorPackage, load_package
from ascend_gym.commands.common import UsageError, add_soc

DEFAULT_BASE_URL = "http://127.0.0.1:8000/v1"
DEFAULT_KEY_ENV = "OPENAI_API_KEY"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "operator",
        help="an op.toml (its reference beside it), a package directory, op:// URI or "
        "<level>/<name>; only the spec and the reference are used",
    )
    parser.add_argument(
        "--out", type=Path, help="package directory to write (default generated/<name>)"
    )
    parser.add_argument("--dsl", type=Path, help="lower this DSL program instead of generating one")
    parser.add_argument("--check", action="store_true", help="evaluate it on the simulator")
    add_soc(parser)
    parser.add_argument("--model", help="ask this model for the program (else the templates)")
    parser.add_argument(
        "--base-url",
        help=f"OpenAI-compatible endpoint of --model (default {DEFAULT_BASE_URL})",
    )
    parser.add_argument(
        "--api-key-env",
        help=f"environment variable holding the API key (default {DEFAULT_KEY_ENV})",
    )
    parser.add_argument("--repairs", type=int, default=3, help="model passes after the first")


def _source(address: str) -> OperatorPackage:
    path = Path(address)
    if path.is_file() and path.suffix == ".toml":
        pkg = load_package(path.parent, spec_file=path)
    else:
        pkg = suite.resolve(address)
    if pkg.spec.reference_kind == "torch":  # a cann-bench task: the cases the DSL can serve
        from ascend_gym.cannbench.run import generation_source

        return generation_source(pkg)
    return pkg


def _evaluate(pkg: OperatorPackage, soc: str) -> str:
    from ascend_gym.suite_validate import evaluate

    out = evaluate(pkg, soc)
    if out.ok:
        return ""
    failed = f" (failed cases: {', '.join(out.failed_cases)})" if out.failed_cases else ""
    return f"{out.status}: {out.message}{failed}"


def run(args: argparse.Namespace) -> int:
    from agents.llm import ChatClient, LLMConfig, LLMError
    from ascend_gym.dsl.confined import GenerationFailed
    from ascend_gym.dsl.generate import build, generate_offline, spec_only
    from ascend_gym.dsl.lang import DslError
    from ascend_gym.dsl.model import ModelGenerator
    from ascend_gym.dsl.trace import Unsupported

    stray = [
        f for f, v in (("--base-url", args.base_url), ("--api-key-env", args.api_key_env)) if v
    ]
    if stray and not args.model:
        raise UsageError(f"{', '.join(stray)} without --model: no model would be asked")
    try:
        source = spec_only(_source(args.operator))
    except (OSError, KeyError, ValueError) as e:
        message = e.args[0] if isinstance(e, KeyError) and e.args else e
        print(f"ascend-gym generate: {message}", file=sys.stderr)
        return 2
    how = ""
    try:
        if args.dsl:
            pkg, how = build(source, args.dsl.read_text()), f"from {args.dsl}"
        elif args.model:
            config = LLMConfig(
                base_url=args.base_url or DEFAULT_BASE_URL,
                model=args.model,
                api_key_env=args.api_key_env or DEFAULT_KEY_ENV,
            )
            result, log = ModelGenerator(ChatClient(config), args.repairs).generate(
                source, lambda p: _evaluate(p, args.soc)
            )
            for i, attempt in enumerate(log.attempts):
                print(f"pass {i + 1}: {attempt.error or 'OK'}"[:300])
            if result is None:
                print(
                    f"ascend-gym generate: no passing program after {log.calls} passes",
                    file=sys.stderr,
                )
                return 1
            pkg, how = result, f"by {args.model} in {log.calls} passes"
        else:
            pkg, draft = generate_offline(source)
            how = f"by the offline {draft.category} template"
    except SyntaxError as e:  # the operator's reference.py (or the DSL program) does not parse
        where = Path(args.operator, e.filename or "reference.py")
        print(f"ascend-gym generate: {where}:{e.lineno}: {e.msg}", file=sys.stderr)
        return 2
    except (Unsupported, DslError, OSError, LLMError, GenerationFailed) as e:
        print(f"ascend-gym generate: {e}", file=sys.stderr)
        return 2
    out = args.out or Path("generated") / source.spec.name
    pkg.write_to(out)
    print(
        f"{out}: {source.spec.name} generated {how}; DSL program in {out}/dsl/{source.spec.name}.py"
    )
    if args.check:
        error = _evaluate(pkg, args.soc)
        print(error or "OK on every case (simulator)")
        return 1 if error else 0
    return 0
