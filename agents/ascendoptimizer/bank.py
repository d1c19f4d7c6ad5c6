"""The experience bank: distilled <Title, Description, Bottleneck, Code Diff> tuples as JSON lines,
with the Bottleneck embeddings beside them (the retrieval key).

On disk a bank is a directory: `bank.jsonl` (one Experience a line), `embeddings.npy` (one row
per line, by the embedder named in `meta.json`) and `meta.json` (embedder, build numbers,
config). A bank loaded with a different embedder than it was built with re-embeds the
Bottleneck texts, so a bank built with dense embeddings still works where only TF-IDF is installed
(dense re-embeddings come from the embedder's disk cache after the first).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel

from agents.ascendoptimizer.embed import TFIDF_NAME, Embedder, EmbedderKind, make_embedder

DEFAULT_BANK_DIR = Path(__file__).resolve().parents[1] / "data" / "bank"


class Experience(BaseModel):
    title: str
    description: str
    bottleneck: str
    code_diff: str  # unified diff from the slow version to the fast one
    part: Literal["tiling", "kernel"] = "kernel"
    motif: str  # motif name (agents.ascendoptimizer.motifs) or the inverse agent's own name for it
    variant: str = ""  # which inverse produced the slow version, e.g. "vector_to_scalar:Add"
    operator: str  # the expert's operator
    fast_us: float
    slow_us: float
    proposer: str = "offline"  # who removed the motif and distilled the tuple

    @property
    def slowdown(self) -> float:
        return self.slow_us / self.fast_us


class BuildStats(BaseModel):
    experts: int = 0
    tried: int = 0  # de-optimised candidates evaluated
    kept: int = 0  # pairs whose latency rose by at least the threshold
    failed: int = 0  # candidates that did not compile or check
    probed: int = 0  # motifs the expert lacked, added by their forward rewrite
    threshold_pct: float = 5.0
    per_operator: dict[str, dict[str, int]] = {}


class ExperienceBank:
    def __init__(
        self,
        experiences: list[Experience],
        embedder: Embedder,
        embeddings: np.ndarray | None = None,
        meta: dict[str, Any] | None = None,
    ):
        self.experiences = experiences
        self.embedder = embedder
        self.meta = meta or {}
        self.embeddings = (
            embeddings
            if embeddings is not None
            else embedder.index([e.bottleneck for e in experiences])
        )

    def __len__(self) -> int:
        return len(self.experiences)

    def save(
        self, root: str | Path, stats: BuildStats | None = None, extra: dict[str, Any] | None = None
    ) -> None:
        root = Path(root)
        root.mkdir(parents=True, exist_ok=True)
        with open(root / "bank.jsonl", "w") as f:
            for e in self.experiences:
                f.write(e.model_dump_json() + "\n")
        np.save(root / "embeddings.npy", self.embeddings)
        self.meta = {
            "embedder": self.embedder.name,
            "size": len(self),
            **(extra or {}),
            **({"stats": stats.model_dump()} if stats else {}),
        }
        (root / "meta.json").write_text(json.dumps(self.meta, indent=2, sort_keys=True) + "\n")

    @classmethod
    def load(cls, root: str | Path, embedder: EmbedderKind = "auto") -> ExperienceBank:
        root = Path(root)
        lines = (root / "bank.jsonl").read_text().splitlines()
        experiences = [Experience.model_validate_json(line) for line in lines if line.strip()]
        meta = (
            json.loads((root / "meta.json").read_text()) if (root / "meta.json").is_file() else {}
        )
        emb = make_embedder(embedder)
        stored = root / "embeddings.npy"
        if emb.name == TFIDF_NAME or meta.get("embedder") != emb.name or not stored.is_file():
            return cls(
                experiences, emb, meta=meta
            )  # TF-IDF fits its vocabulary on the corpus: always re-index
        return cls(experiences, emb, np.load(stored), meta=meta)

    def retrieve(
        self,
        query: str,
        k: int,
        part: str | None = "kernel",
        exclude_operator: str | None = None,
        distinct_motifs: bool = False,
    ) -> list[tuple[Experience, float]]:
        """The k experiences whose Bottleneck is closest to `query` (cosine), best first. With
        `distinct_motifs`, one per motif (an expert's own restructuring counts per operator), so
        the k slots are not spent on one lesson learned on k operators."""
        if not self.experiences or k <= 0:
            return []
        scores = self.embeddings @ self.embedder.query(query)
        order = np.argsort(-scores, kind="stable")
        out, motifs = [], set()
        for i in order:
            e = self.experiences[i]
            motif = (e.motif, e.operator) if e.motif == "expert_structure" else e.motif
            if (
                (part is None or e.part == part)
                and e.operator != exclude_operator
                and not (distinct_motifs and motif in motifs)
            ):
                motifs.add(motif)
                out.append((e, float(scores[i])))
                if len(out) == k:
                    break
        return out
