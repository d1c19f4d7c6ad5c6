"""Run an npu_daemon (compile, check and time candidates for clients)."""

from __future__ import annotations

import argparse


def configure(parser: argparse.ArgumentParser) -> None:
    from npu_daemon.main import configure as daemon_configure

    daemon_configure(parser)


def run(args: argparse.Namespace) -> int:
    from npu_daemon.main import run as daemon_run

    return daemon_run(args)
