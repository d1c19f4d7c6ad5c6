"""Serve the offline model endpoint: an OpenAI-compatible server on loopback that answers every
prompt by moving one `@tune` knob of the program in it (agents/llm/tune_endpoint.py), so a
model-driven run (`--base-url`) can be tried, recorded and replayed without a model.

  ascend-gym model --port 8765      # then: ascend-gym bench ... --base-url http://127.0.0.1:8765/v1

It serves until interrupted (Ctrl-C); it reports no token counts (it has no tokenizer).
"""

from __future__ import annotations

import argparse
import threading

from ascend_gym.commands.common import UsageError


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--port", type=int, default=8765, help="port on 127.0.0.1 (default 8765; 0: a free one)"
    )


def run(args: argparse.Namespace) -> int:
    from agents.llm.tune_endpoint import MODEL, serve

    try:
        server = serve(args.port)
    except OSError as e:
        raise UsageError(f"cannot serve on 127.0.0.1:{args.port}: {e.strerror}") from None
    print(f"serving the offline model {MODEL!r} at {server.base_url} (Ctrl-C stops it)", flush=True)
    try:
        threading.Event().wait()
    finally:
        server.close()
    return 0
