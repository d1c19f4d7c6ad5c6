"""What a new case-cache entry costs when the cache is full of entries: the running total against a
scan of every entry's manifest.

    python benchmarks/case_cache.py [--entries 18000] [--new 20]

A temporary cache is filled with `--entries` entries of 200 kB each (by their manifests: only the
manifest is read to count an entry), as a sweep over the whole suite leaves the 4 GiB cache, then
`--new` cases of level1/add are made on fresh input seeds. It prints one full scan's time (what
every new entry paid before the total was kept) and the time per new entry.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time

from ascend_core import suite


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=18000)
    parser.add_argument("--new", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["ASCEND_GYM_CACHE"] = tmp
        from npu_daemon.backends.sim import case_data

        root = case_data.root()
        for i in range(args.entries):
            entry = root / f"filler{i:06d}"
            entry.mkdir()
            (entry / "manifest.json").write_text(json.dumps({"files": {}, "bytes": 200_000}))
        pkg = suite.resolve("level1/add")
        case = pkg.spec.case("uneven_fp32")
        with case_data.case_data(pkg, case, 0):  # the first entry counts the cache once
            pass
        started = time.perf_counter()
        case_data._evict("", target=case_data.limit_bytes())
        scan_s = time.perf_counter() - started
        started = time.perf_counter()
        for seed in range(1, args.new + 1):
            with case_data.case_data(pkg, case, seed):
                pass
        per_entry_s = (time.perf_counter() - started) / args.new
        held = int((root / "usage").read_text())
    print(f"cache: {args.entries} entries, {held / 2**30:.2f} GiB held")
    print(f"one scan of every manifest: {scan_s:.3f} s")
    print(f"one new entry (inputs drawn, written, counted): {per_entry_s * 1000:.1f} ms")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
