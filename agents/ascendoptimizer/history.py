"""Experience from real operator histories: before/after hunks of public repositories' commits.

The rewind learns motifs by removing them from our experts; real repositories show the same
motifs being put in by their authors. `mine` reads a repository's history (`git log -p` over
its op_kernel sources) and keeps the hunks that restore a motif the knowledge base names:

- `double_buffering`: a `BUFFER_NUM = 1` (or a literal queue depth 1) becomes 2;
- `no_pipe_all_barrier`: `PipeBarrier<PIPE_ALL>()` lines go, with or without the precise waits
  (`PipeBarrier<PIPE_V>`, `SetFlag`/`WaitFlag`) that take their place.

Each becomes an Experience with the motif's text, the real hunk as its code diff, and the commit
as its origin (`operator` = `<owner>/<repo>:<path>`, `variant` = `history <sha>: <subject>`). The
commit's own latencies are unknown (no NPU here), so `fast_us` and `slow_us` are left at 0; the
retrieval key (the Bottleneck) is the motif's symptom, as for the rewind's experiences.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from agents.ascendoptimizer.bank import Experience
from agents.ascendoptimizer.motifs import BY_NAME

MAX_HUNK_LINES = 40  # longer hunks are restructurings, not one motif
_PICKAXE = r"PIPE_ALL|BUFFER_NUM\s*=\s*1|VEC(IN|OUT)\s*,\s*1\s*>"
_COMMIT = re.compile(r"^@@@COMMIT (\w+) (.*)$")
_FILE = re.compile(r"^\+\+\+ b/(.+)$")
_HUNK = re.compile(r"^@@ .* @@")
_DEPTH_1 = re.compile(r"BUFFER_NUM\s*=\s*1\b|VEC(?:IN|OUT)\s*,\s*1\s*>")
_DEPTH_2 = re.compile(r"BUFFER_NUM\s*=\s*2\b|VEC(?:IN|OUT)\s*,\s*2\s*>")
_PIPE_ALL = re.compile(r"PipeBarrier\s*<\s*PIPE_ALL\s*>|pipe_barrier\s*\(\s*PIPE_ALL")


def motif_of_hunk(removed: list[str], added: list[str]) -> str | None:
    """The motif a hunk restores, judged from its removed and added lines; None if none."""
    old, new = "\n".join(removed), "\n".join(added)
    if _DEPTH_1.search(old) and _DEPTH_2.search(new) and not _DEPTH_1.search(new):
        return "double_buffering"
    if len(_PIPE_ALL.findall(old)) > len(_PIPE_ALL.findall(new)):
        return "no_pipe_all_barrier"
    return None


def _hunks(log: str):
    """(sha, subject, path, hunk text) of every hunk in `git log -p` output."""
    sha = subject = path = ""
    hunk: list[str] = []
    for line in log.splitlines():
        commit, file, start = _COMMIT.match(line), _FILE.match(line), _HUNK.match(line)
        if (commit or file or start or line.startswith("diff --git")) and hunk:
            yield sha, subject, path, hunk
            hunk = []
        if commit:
            sha, subject = commit.groups()
        elif file:
            path = file.group(1)
        elif start:
            hunk = [line]
        elif hunk:
            hunk.append(line)
    if hunk:
        yield sha, subject, path, hunk


def mine(repo_dir: Path, repo: str, limit: int = 0) -> list[Experience]:
    """The motif-restoring hunks of `repo_dir`'s history (newest first; at most `limit`, 0 = all),
    one per (path, motif): the newest commit that put the motif into that file."""
    log = subprocess.run(
        ["git", "-C", str(repo_dir), "log", "-p", "--no-merges", "-U2", "--format=@@@COMMIT %H %s"]
        + ["-G", _PICKAXE, "--", "*op_kernel/*"],
        capture_output=True,
        text=True,
        errors="replace",
        check=True,
    ).stdout
    found: list[Experience] = []
    seen: set[tuple[str, str]] = set()
    for sha, subject, path, hunk in _hunks(log):
        if len(hunk) > MAX_HUNK_LINES + 1:
            continue
        removed = [h[1:] for h in hunk[1:] if h.startswith("-")]
        added = [h[1:] for h in hunk[1:] if h.startswith("+")]
        motif = motif_of_hunk(removed, added)
        if motif is None or (path, motif) in seen:
            continue
        seen.add((path, motif))
        m = BY_NAME[motif]
        name = Path(path).name
        found.append(
            Experience(
                title=m.title,
                description=f"{m.description} Put in by the authors of {repo} ({name}).",
                bottleneck=m.symptom,
                code_diff=f"--- a/{path}\n+++ b/{path}\n" + "\n".join(hunk) + "\n",
                part="kernel",
                motif=motif,
                variant=f"history {sha[:12]}: {subject[:120]}",
                operator=f"{repo}:{path}",
                fast_us=0.0,
                slow_us=0.0,
                proposer="history",
            )
        )
        if limit and len(found) >= limit:
            break
    return found


def add_to_bank(bank_dir: Path, out: Path, mirrors: Path, repos: list[str]) -> int:
    """Mine each repository (`mirrors/<owner>+<repo>/repo`, a git mirror with history) and write
    the bank at `bank_dir` with what is new added to `out`, re-embedding the Bottlenecks; returns
    how many were added. The hunks are the repositories' code: the bank with them stays with the
    user (like a materialised suite), the shipped bank never holds them."""
    from agents.ascendoptimizer.bank import BuildStats, ExperienceBank
    from agents.ascendoptimizer.embed import make_embedder

    bank = ExperienceBank.load(bank_dir)
    known = {(e.operator, e.motif) for e in bank.experiences}
    new = [
        e
        for repo in repos
        for e in mine(mirrors / repo.replace("/", "+") / "repo", repo)
        if (e.operator, e.motif) not in known
    ]
    merged = ExperienceBank(bank.experiences + new, make_embedder("auto"))
    extra = {k: v for k, v in bank.meta.items() if k not in ("embedder", "size", "stats")}
    extra["history"] = {
        "repos": repos,
        "experiences": sum(e.proposer == "history" for e in merged.experiences),
    }
    stats = BuildStats.model_validate(bank.meta["stats"]) if "stats" in bank.meta else None
    merged.save(out, stats, extra)  # the rewind's build numbers stay as they were
    return len(new)


if __name__ == "__main__":
    import argparse

    from agents.ascendoptimizer.bank import DEFAULT_BANK_DIR

    parser = argparse.ArgumentParser(
        prog="python -m agents.ascendoptimizer.history",
        description="add motif-restoring hunks of real repositories' histories to a bank",
    )
    parser.add_argument("mirrors", type=Path, help="directory of <owner>+<repo>/repo git mirrors")
    parser.add_argument("repos", nargs="+", metavar="OWNER/REPO")
    parser.add_argument("--out", type=Path, required=True, help="the bank to write")
    parser.add_argument("--bank", type=Path, default=DEFAULT_BANK_DIR, help="the bank to extend")
    args = parser.parse_args()
    added = add_to_bank(args.bank, args.out, args.mirrors, args.repos)
    print(f"{args.out}: {args.bank.name} + {added} experiences from real histories")
