"""Generate every level-1/2 operator from its spec and reference alone and tabulate the result.

    python benchmarks/generate_eval.py [--levels 1,2] [--jobs 2] [--json out.json] [--doc docs/generate.md]

Writes the table between the generate-table markers of the doc (simulated latencies).
"""

from __future__ import annotations

import argparse
import json
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ascend_core import suite
from ascend_gym.dsl.evaluate import TABLE_BEGIN, TABLE_END, GenResult, evaluate_op, render_table


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--levels", default="1,2")
    p.add_argument("--ops", default="", help="comma list of <level>/<name> instead of levels")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--json", type=Path)
    p.add_argument("--from-json", type=Path, help="tabulate earlier results instead")
    p.add_argument("--doc", type=Path)
    a = p.parse_args()
    if a.from_json:
        results = [GenResult.model_validate(r) for r in json.loads(a.from_json.read_text())]
    else:
        uris = (
            a.ops.split(",")
            if a.ops
            else suite.op_uris(levels=[int(x) for x in a.levels.split(",")])
        )
        with ThreadPoolExecutor(a.jobs) as pool:
            results = []
            for r in pool.map(evaluate_op, uris):
                print(
                    f"{r.uri:48} {r.category or '-':14} {r.status} "
                    f"{r.speedup and f'{r.speedup:.2f}x' or ''} {r.message[:160]}",
                    flush=True,
                )
                results.append(r)
    if a.json:
        a.json.write_text(json.dumps([r.model_dump() for r in results], indent=1))
    table = render_table(results)
    if not a.from_json:  # speed figures carry the load they were measured under
        load = os.getloadavg()
        table += f"\n\nLoad average at the end of the run: {load[0]:.1f} (2 cores)."
    print(table)
    if a.doc:
        text = a.doc.read_text()
        head, _, rest = text.partition(TABLE_BEGIN)
        _, _, tail = rest.partition(TABLE_END)
        a.doc.write_text(f"{head}{TABLE_BEGIN}\n{table}\n{TABLE_END}{tail}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
