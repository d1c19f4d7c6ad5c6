"""The offline proposer knowledge, one base shared by every policy.

Without a model, a policy can only propose what it knows how to write. All policies know the same:

- tiling moves: the catalogue's tiling rewrites (`@tune` neighbours, block dim = cores, tile
  larger/smaller) and a jump of one `@tune` number to a random value of its grid; a real tiling
  program without markers is first given the template of its real knobs (`agents.templates`:
  core count, UB budget, literal block dim and tile sizes; where it has none, its integer
  constants), and its moves are that template's neighbours and jumps, so a policy tunes real
  operators without a model;
- kernel rewrites: the catalogue's kernel rewrites and the motifs' own (`motifs.MOTIF_REWRITES`);
- expert-diff transplants: each experience of the bank (a slow -> fast diff learned by the rewind
  on an expert) applied hunk by hunk to the package; an operator never receives its own expert's
  diffs unless `own_operator` is switched on (the paper's own-operator overlap).

Policies differ only in how they choose and combine: AscendOptimizer's Stage I over the tiling
moves and Stage II over kernel moves ranked by retrieval, Best-of-N by independent random
compositions, OpenEvolve through its own evolution (the offline endpoint answers with the same
compositions).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from agents import templates
from agents.ascendoptimizer.bank import DEFAULT_BANK_DIR, Experience
from agents.ascendoptimizer.motifs import REWRITES, motif_of, transplant
from ascend_core import tune
from ascend_core.package import OperatorPackage
from ascend_core.protocol import DEFAULT_SOC
from ascend_gym.policies import PolicyConfig

Kind = Literal["rewrite", "transplant"]
Part = Literal["tiling", "kernel"]


class KnowledgeConfig(PolicyConfig):
    bank_dir: str = ""  # experiences to transplant; empty = the bank shipped in agents/data/bank
    transplants: bool = True
    own_operator: bool = False  # the paper's own-operator overlap; off for the headline results


@dataclass(frozen=True)
class Move:
    """One applicable move: its name, kind, the part it edits, the motif it restores, and the
    package it yields."""

    name: str
    kind: Kind
    part: Part
    motif: str
    package: OperatorPackage


def load_experiences(bank_dir: str | Path = "") -> list[Experience]:
    path = Path(bank_dir or DEFAULT_BANK_DIR) / "bank.jsonl"
    if not path.is_file():
        return []
    return [Experience.model_validate_json(line) for line in path.read_text().splitlines() if line]


class Knowledge:
    """The moves that apply to a package, for the operator `operator` (whose own expert's
    experiences are withheld unless `own_operator`). Moves of a package are computed once."""

    def __init__(
        self, config: KnowledgeConfig | None = None, operator: str = "", soc: str = DEFAULT_SOC
    ):
        self.config = config or KnowledgeConfig()
        self.operator, self.soc = operator, soc  # the SoC sets "all cores" and the like
        experiences = load_experiences(self.config.bank_dir) if self.config.transplants else []
        self.experiences = [
            e for e in experiences if self.config.own_operator or e.operator != operator
        ]
        self._moves: dict[str, list[Move]] = {}

    def moves(self, package: OperatorPackage) -> list[Move]:
        """Every named move that applies and changes the package, without duplicate results."""
        key = package.content_hash()
        if key not in self._moves:
            found, seen = [], {key}
            templated = self.template(package)
            if templated is not None:
                for t in tune.find_tunables(templated.tiling_source):
                    for op, value in t.neighbours().items():
                        tiling = tune.set_value(templated.tiling_source, t.name, value)
                        name = f"template {t.name}:{op}"
                        found.append(
                            Move(
                                name,
                                "rewrite",
                                "tiling",
                                "tiling_knob",
                                package.with_sources(tiling=tiling),
                            )
                        )
            for rewrite in REWRITES.values():
                new = rewrite.apply(package, self.soc)
                if new is not None:
                    motif = motif_of(rewrite.name)
                    found.append(Move(rewrite.name, "rewrite", rewrite.part, motif, new))
            for i, e in enumerate(self.experiences):
                moved = transplant(package, e.code_diff, e.part)
                if moved is not None:
                    name = f"transplant[{i}] {e.motif} from {e.operator} ({moved[1]})"
                    found.append(Move(name, "transplant", e.part, e.motif, moved[0]))
            unique = []
            for m in found:
                if m.package.content_hash() not in seen:
                    seen.add(m.package.content_hash())
                    unique.append(m)
            self._moves[key] = unique
        return self._moves[key]

    def of_part(self, package: OperatorPackage, part: Part) -> list[Move]:
        return [m for m in self.moves(package) if m.part == part]

    @staticmethod
    def template(package: OperatorPackage) -> OperatorPackage | None:
        """The package with its unmarked tiling program made a template (`agents.templates`:
        the real knobs, else the integer constants), or None."""
        made = templates.template(package.tiling_source)
        return None if made is None else package.with_sources(tiling=made.tiling)

    def jump(self, package: OperatorPackage, rng: random.Random) -> Move | None:
        """One `@tune` number to a random value of its grid (a jump anywhere, unlike a neighbour);
        on an unmarked real tiling program, in the template of its knobs."""
        package = self.template(package) or package
        if not tune.find_tunables(package.tiling_source):
            return None
        tiling, note = tune.random_mutation(package.tiling_source, rng)
        return Move(
            f"jump {note}", "rewrite", "tiling", "jump", package.with_sources(tiling=tiling)
        )

    def random_move(self, package: OperatorPackage, rng: random.Random) -> Move | None:
        """A jump, a tiling rewrite, a kernel rewrite or a transplant: first the sort, with even
        odds among those available (so the many transplants do not crowd out the few catalogue
        rewrites), then a move of that sort."""
        sorts: dict[str, list[Move]] = {}
        for m in self.moves(package):
            sorts.setdefault("transplant" if m.kind == "transplant" else m.part, []).append(m)
        tunable = tune.find_tunables(package.tiling_source) or self.template(package)
        choices = sorted(sorts) + (["jump"] if tunable else [])
        if not choices:
            return None
        sort = rng.choice(choices)
        return self.jump(package, rng) if sort == "jump" else rng.choice(sorts[sort])

    def random_composition(
        self, package: OperatorPackage, rng: random.Random, max_moves: int
    ) -> tuple[OperatorPackage, str]:
        """One to `max_moves` random moves applied in sequence; the note says which."""
        notes = []
        for _ in range(rng.randint(1, max_moves)):
            move = self.random_move(package, rng)
            if move is None:
                break
            package = move.package
            notes.append(move.name)
        return package, "; ".join(notes)
