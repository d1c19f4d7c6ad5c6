"""Write a sweep's report (Markdown, HTML, PNG figures) into its results directory."""

from __future__ import annotations

import argparse
from pathlib import Path

from ascend_gym import report


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "results_dir", type=Path, help="a directory written by `ascend-gym bench` (results.jsonl)"
    )


def run(args: argparse.Namespace) -> int:
    path = report.write_report(args.results_dir)
    print(f"wrote {path}, {path.with_suffix('.html')} and the figures beside them")
    return 0
