"""Print a materialised defined suite's summary by origin (simulated, from its qualification).

    ascend-gym suite materialise ascend-real-v2 --src /work/corpus_src
    python benchmarks/real_suite_summary.py [ascend-real-v2]

Reads `qualification.json` of the suite's last materialisation (while one runs, the operators
done so far) and the definition's provenance and naive marks. Prints a Markdown table: per origin
group (its provenance, or `naive` for baselines slow by design) and in all, the operators, how
many qualify, their median bench latency, the kernel body's share of the summed latency and how
many bench cases the body dominates; then the qualified operators whose launch head takes half
their bench time or more, and the operators that did not qualify, by status. The latencies are
the simulator's (the default engine, `sim-guest`, which `suite materialise` runs), under the
default timing protocol.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict

from ascend_core import suite
from ascend_core.protocol import DEFAULT_BACKEND, DEFAULT_TIMING_PROTOCOL
from ascend_gym import report
from ascend_gym.corpus import defined


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suite", nargs="?", default=suite.REAL_SUITE_V2, help="a defined suite")
    args = parser.parse_args()
    try:
        groups = report.origins(args.suite)
        outcomes = defined.qualifications(args.suite)
    except KeyError as e:
        print(f"real_suite_summary: {e.args[0]}", file=sys.stderr)
        return 2
    total = len(defined.load_definition(args.suite).ops)
    print(
        f"{args.suite}: {len(outcomes)} of {total} operators evaluated; simulated latencies "
        f"({DEFAULT_BACKEND} engine, {DEFAULT_TIMING_PROTOCOL}), head = the model's launch head\n"
    )
    print("\n".join(report.md_table(report.SUMMARY_HEAD, report.summary_rows(outcomes, groups))))
    headed = [q for q in outcomes if q.qualified and q.body_share is not None]
    headed = [q for q in headed if not q.body_dominates]
    if headed:
        print(f"\nBench cases mostly launch head ({len(headed)}):")
        for q in headed:
            print(
                f"- {q.name} ({groups.get(q.name, '-')}): {q.latency_us:.2f} us, head {q.head_us}"
            )
    failed: dict[str, list[str]] = defaultdict(list)
    for q in outcomes:
        if not q.qualified:
            failed[q.status].append(
                f"{q.name}: {q.message.splitlines()[0][:140] if q.message else ''}"
            )
    for status, lines in sorted(failed.items()):
        print(f"\nNot qualified, {status} ({len(lines)}):")
        print("\n".join(f"- {line}" for line in lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
