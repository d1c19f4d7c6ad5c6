"""Run an npu_daemon (compile, check and time candidates for clients), read its ledger, make keys.

ascend-gym daemon --backend sim --bind tcp://127.0.0.1:5555 [--keys DIR] ...
ascend-gym daemon ledger RUN_ID [--db PATH] [--json]
ascend-gym daemon keygen DIR
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def configure(parser: argparse.ArgumentParser) -> None:
    from npu_daemon.main import configure as daemon_configure

    daemon_configure(parser)
    actions = parser.add_subparsers(dest="action", required=False, metavar="{ledger,keygen}")
    ledger = actions.add_parser(
        "ledger", help="print a run's budget ledger from the daemon's state file"
    )
    ledger.add_argument(
        "run_id", help="the run's ledger key (a sweep's run ids are in attempts.jsonl)"
    )
    ledger.add_argument(
        "--db",
        type=Path,
        default=None,
        help="state.db of the daemon (default: its default --state-dir)",
    )
    ledger.add_argument("--json", action="store_true", help="print the ledger row as JSON")
    keygen = actions.add_parser("keygen", help="write CURVE server and client key pairs into DIR")
    keygen.add_argument("dir", type=Path, help="directory to write the key pairs into")


def run(args: argparse.Namespace) -> int:
    if args.action == "ledger":
        return _ledger(args)
    if args.action == "keygen":
        from npu_daemon.service.keys import keygen

        for path in keygen(args.dir):
            print(path)
        print(
            f"daemon: ascend-gym daemon --keys {args.dir} ...; clients: ASCEND_GYM_DAEMON_KEYS={args.dir} "
            f"(needs client.key_secret and server.key)"
        )
        return 0
    from npu_daemon.main import run as daemon_run

    return daemon_run(args)


def _ledger(args: argparse.Namespace) -> int:
    from npu_daemon.service.server import default_state_dir
    from npu_daemon.service.store import Store

    db = args.db or default_state_dir() / "state.db"
    if not db.exists():
        print(f"ascend-gym: daemon: no daemon state at {db}", file=sys.stderr)
        return 2
    store = Store(db)
    try:
        row = store.ledger(args.run_id)
        known = store.knows_run(args.run_id)
    finally:
        store.close()
    if not known:
        print(f"no run {args.run_id!r} in {db} (a sweep's run ids are in its attempts.jsonl)",
              file=sys.stderr)  # fmt: skip
        return 2
    if args.json:
        print(row.model_dump_json(indent=2, exclude={"kind", "request_id"}))
        return 0
    print(f"run {row.run_id}  ({db})")
    print(
        f"  evaluations charged   {row.evaluations}  (of which served from another run's cache: {row.shared_cache_hits})"
    )
    print(f"  free cache hits       {row.cache_hits}")
    print(f"  build / run seconds   {row.compile_s:.2f} / {row.run_s:.2f}")
    for status, count in sorted(row.by_status.items()):
        print(f"  {status:<20}  {count}")
    return 0
