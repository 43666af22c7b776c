"""The running example's KV cache (main article, section 2): per token, at 8K, 32K and the full context.

Ids are those the article has always used (kv.llama70b.…, model.llama70b.…):
the example gives them their values. The contexts 8K and 32K are fixed; a
context the model cannot read has no total (the list leaves it out), and the
last item is the model's full context length (context.131072 for Llama 3.1 70B).
"""

from __future__ import annotations

from ..arch import precision as P
from ..data import scenarios as S
from .declare import W, L, declarer
from .formula import F
from .terms import KIND_LAYERS, PER_LAYER, WINDOW, bytes_term, layer_formula, whole

DECLARATIONS: list = []
figure = declarer(DECLARATIONS, "decode")
constant = declarer(DECLARATIONS, "both")     # both pages (a fixed value, or the model's numbers)

MODEL = ["model"]
LAYERS = ("layers", "model.llama70b.layers")
FIXED_CONTEXTS = S.CONTEXTS[:2]          # 8K and 32K; the third item is the model's own full context
FULL = "131072"                          # the id of the full context's figures (Llama 3.1 70B's 128K)

for _ctx in FIXED_CONTEXTS:
    constant(f"context.{_ctx}", "tokens", W("context length in tokens (1K = 1,024)"), [], sig=None, decimals=0)(
        lambda c, n=_ctx: n)


@figure(f"context.{FULL}", "tokens", W("config.json: the model's full context length (max_position_embeddings)"), MODEL,
        sig=None, decimals=0)
def full_context(c): return c.m.max_context


@constant("model.llama70b.layers", "count", W("config.json: layers"), MODEL, sig=None, decimals=0)
def layers(c): return len(c.m.arch.layers)


def _heads(c):
    return c.groups[0].spec if c.design in ("gqa", "mha") else None


@constant("model.llama70b.kv_heads", "count", W("config.json: KV heads"), MODEL, sig=None, decimals=0)
def kv_heads(c): return _heads(c) and _heads(c).kv_heads


@constant("model.llama70b.head_dim", "count", W("config.json: head dimension"), MODEL, sig=None, decimals=0)
def head_dim(c): return _heads(c) and _heads(c).head_dim


@constant("model.llama70b.query_heads", "count", W("config.json: query heads"), MODEL, sig=None, decimals=0)
def query_heads(c): return _heads(c) and _heads(c).query_heads


def _latent(c):
    return c.groups[0].spec if c.design in ("latent", "sparse") else None


@figure("ex.kv.latent", "count", W("config.json: values in the compressed latent per token and layer"), MODEL, sig=None, decimals=0)
def latent(c): return _latent(c) and _latent(c).kv_lora_rank


@figure("ex.kv.rope", "count", W("config.json: values of the positional (RoPE) key per token and layer"), MODEL, sig=None, decimals=0)
def rope(c): return _latent(c) and _latent(c).qk_rope_head_dim


@figure("ex.kv.topk", "count", W("config.json: tokens a decode step reads in full per layer (index_topk)"), MODEL, sig=None, decimals=0)
def topk(c): return c.design == "sparse" and c.groups[0].spec.index_topk or None


@figure("ex.kv.grow_layers", "count", W("layers whose cache grows with every token of the context"), MODEL, sig=None, decimals=0,
        expression=lambda c: F(" + ".join(f"{{n{g.index}}}" for g in c.growing),
                               **{f"n{g.index}": (KIND_LAYERS[g.kind], g.layers) for g in c.growing}))
def grow_layers(c): return sum(g.layers for g in c.growing) if c.design == "mixed" else None


@figure("ex.kv.bytes_per_value", "bytes", W("bits per value of the KV cache ÷ 8"), [], definition=True, sig=None, decimals=0, unit="B",
        expression=lambda c: F("{bits} ÷ {eight}", bits=(L("bits per value"), P.get(c.kv).bits), eight=(L("bits per byte"), 8)))
def kv_bytes_per_value(c):
    b = P.get(c.kv).bytes
    return b if whole(b) else None


@figure("ex.kv.bits_per_value", "bits", W("bits per value of the KV cache, shared scales included"), [], definition=True, sig=3)
def kv_bits_per_value(c):
    return None if whole(P.get(c.kv).bytes) else P.get(c.kv).bits


def _per_layer_formula(c):
    return layer_formula(c.groups[0].spec, c.kv)


@figure("ex.kv.per_layer", "bytes", W("KV bytes one token adds to one layer"), MODEL, sig=None, decimals=0, unit="B",
        expression=_per_layer_formula)
def per_layer(c): return _latent(c) and _latent(c).kv_bytes_per_token(c.kv)


def _per_token_formula(c) -> F:
    if c.design in ("gqa", "mha"):
        b = ("ex.kv.bytes_per_value" if whole(P.get(c.kv).bytes) else None)
        return F("{layers} × {kv} × {heads} × {dim} × {bytes}", layers=LAYERS, kv=(L("K and V"), 2),
                 heads=(L("KV heads"), "model.llama70b.kv_heads"), dim=(L("values per head"), "model.llama70b.head_dim"),
                 bytes=bytes_term(c.kv, b))
    if c.design in ("latent", "sparse"):
        return F("{layers} × {per}", layers=LAYERS, per=(PER_LAYER, "ex.kv.per_layer"))
    return F(" + ".join(f"{{n{g.index}}} × {{b{g.index}}}" for g in c.growing),
             **{f"n{g.index}": (KIND_LAYERS[g.kind], g.layers) for g in c.growing},
             **{f"b{g.index}": (PER_LAYER, g.spec.kv_bytes_per_token(c.kv)) for g in c.growing})


@figure("kv.llama70b.bytes_per_token", "bytes", W("KV bytes one more token adds: over the layers that keep every token"), MODEL,
        sig=None, decimals=0, unit="B", expression=_per_token_formula)
def kv_per_token(c): return c.kv_per_token


@figure("kv.llama70b.bytes_per_token_short", "bytes", W("the same, in kilobytes"), MODEL,
        expression=F("{x}", x=("", "kv.llama70b.bytes_per_token")))
def kv_per_token_short(c): return c.kv_per_token


def _windowed(c) -> tuple:
    return tuple(g for g in c.groups if g.spec.kv_bytes_per_token(c.kv) and g.spec.max_cached_tokens)


def _total_formula(ctx_figure: str):
    def build(c) -> F:
        expr, terms = "{per} × {ctx}", dict(per=(L("per token"), "kv.llama70b.bytes_per_token"), ctx=("tokens", ctx_figure))
        for g in _windowed(c):
            i = g.index
            expr += f" + {{n{i}}} × {{b{i}}} × min({{ctx}}, {{w{i}}})"
            terms.update({f"n{i}": (KIND_LAYERS[g.kind], g.layers), f"b{i}": (PER_LAYER, g.spec.kv_bytes_per_token(c.kv)),
                          f"w{i}": (WINDOW[g.kind], g.spec.max_cached_tokens)})
        return F(expr, **terms)
    return build


def _context(c, ctx: str) -> int | None:
    """Tokens of the list item `ctx` for this model: 8K and 32K where shorter than its full context; the full context."""
    if ctx == FULL:
        return c.m.max_context
    n = int(ctx)
    return n if n < c.m.max_context else None


for _ctx in [str(n) for n in FIXED_CONTEXTS] + [FULL]:
    @figure(f"kv.llama70b.total.{_ctx}", "bytes", W("KV cache of one request at this context"), MODEL,
            expression=_total_formula(f"context.{_ctx}"))
    def kv_total(c, ctx=_ctx):
        n = _context(c, ctx)
        return None if n is None else c.kv_total(n)

    @figure(f"kv.llama70b.total_gib.{_ctx}", "bytes", W("the same total in binary gibibytes (2^30 bytes)"), MODEL, unit="GiB",
            expression=_total_formula(f"context.{_ctx}"))
    def kv_total_gib(c, ctx=_ctx):
        n = _context(c, ctx)
        return None if n is None else c.kv_total(n)


@figure("ex.kv.share_memory", "percent", W("KV cache of one request at the full context ÷ the memory of one device"),
        ["model", "device"], decimals=0,
        expression=F("{kv} ÷ {mem}", kv=(L("at the full context"), f"kv.llama70b.total.{FULL}"),
                     mem=(L("memory of one device"), "device.h100.memory")))
def share_memory(c): return c.kv_total(c.m.max_context) / c.d.serving.bytes


@constant("device.h100.memory", "bytes", W("datasheet: capacity of the memory the device serves from"), ["device"], sig=None, decimals=0)
def device_memory(c): return c.d.serving.bytes
