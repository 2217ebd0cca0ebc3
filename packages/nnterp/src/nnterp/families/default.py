"""The best-effort family for a `model_type` no family module covers.

Its `RENAME` is the union of the spellings the shipped families use, and its
`ENVOYS` key on the standard names those spellings alias. It serves `layer_output`,
the root values, the sizes and the attention interior wherever the attention calls
the shared interface. It refuses what a name cannot tell: what a sublayer adds to the
stream, where the stream between the sublayers is, and what follows the head.
`check(model)` runs after the build and raises `UnsupportedFamily` when the guess
finds no embedding, blocks, final norm or head, or when the blocks do not pass a
`[batch, seq, hidden_size]` stream.
"""

from __future__ import annotations

from typing import Any

import torch

from nnterp.components import DEFAULT_CONTRIBUTION, DEFAULT_NORM, Attention, Layer, Mlp, unavailable
from nnterp.components.interface import interface_gap
from nnterp.families import UnsupportedFamily

RENAME = {
    # containers
    "model.layers": "layers",
    "model.decoder.layers": "layers",
    "model.language_model.layers": "layers",
    "transformer.h": "layers",
    "transformer.layers": "layers",
    "transformer.blocks": "layers",
    "gpt_neox.layers": "layers",
    "backbone.layers": "layers",
    # embedding
    "model.embed_tokens": "embed_tokens",
    "model.decoder.embed_tokens": "embed_tokens",
    "model.language_model.embed_tokens": "embed_tokens",
    "transformer.wte": "embed_tokens",
    "transformer.word_embeddings": "embed_tokens",
    "transformer.embed_tokens": "embed_tokens",
    "gpt_neox.embed_in": "embed_tokens",
    "backbone.embeddings": "embed_tokens",
    # final norm
    "model.norm": "norm",
    "model.decoder.final_layer_norm": "norm",
    "model.language_model.norm": "norm",
    "transformer.ln_f": "norm",
    "transformer.norm_f": "norm",
    "transformer.norm": "norm",
    "gpt_neox.final_layer_norm": "norm",
    "backbone.norm_f": "norm",
    "model.final_layernorm": "norm",
    # head
    "embed_out": "lm_head",
    # a block's modules
    "attn": "self_attn",
    "attention": "self_attn",
    "self_attention": "self_attn",
    "ln_1": "input_layernorm",
    "ln_2": "post_attention_layernorm",
    "feed_forward": "mlp",
    "c_proj": "o_proj",
    "dense": "o_proj",
    "out_proj": "o_proj",
    "act": "act_fn",
}


class Layer(Layer):
    """A block the default family found by name; the boundaries between its sublayers are not known."""

    layer_mid = unavailable(DEFAULT_NORM)
    mlp_norm_output = unavailable(DEFAULT_NORM)


class Attention(Attention):
    """An attention the default family found by name; its contribution is not known.

    The interior is served only where the module's forward calls the shared
    interface, which the default family reads off the forward's source.
    """

    attention_output = unavailable(DEFAULT_CONTRIBUTION)

    def off_interface(self) -> str | None:
        gap = interface_gap(type(self._module))
        if gap is not None:
            return f"{gap}; a family module can read the interior at its own operations"
        return super().off_interface()


class Mlp(Mlp):
    """An MLP the default family found by name; its contribution is not known."""

    mlp_output = unavailable(DEFAULT_CONTRIBUTION)


ENVOYS = {"layers.*": Layer, "self_attn": Attention, "mlp": Mlp}

_REQUIRED = ("embed_tokens", "layers", "norm", "lm_head")


def _suggest(model: Any, missing: list[str]) -> dict[str, str]:
    """A `rename=` guess for the missing root modules, read off the module tree by type and shape."""
    config = model.config.get_text_config() if hasattr(model.config, "get_text_config") else model.config
    vocab = getattr(config, "vocab_size", None)
    layers = getattr(config, "num_hidden_layers", None)
    guess: dict[str, str] = {}
    modules = list(model._module.named_modules())
    containers = [name for name, module in modules if isinstance(module, torch.nn.ModuleList) and len(module) == layers]
    for name, module in modules:
        if not name:
            continue
        if "embed_tokens" in missing and "embed_tokens" not in guess.values():
            if isinstance(module, torch.nn.Embedding) and module.num_embeddings == vocab:
                guess[name] = "embed_tokens"
                continue
        if "lm_head" in missing and "lm_head" not in guess.values():
            if isinstance(module, torch.nn.Linear) and module.out_features == vocab:
                guess[name] = "lm_head"
                continue
    if "layers" in missing and containers:
        guess[containers[0]] = "layers"
    if "norm" in missing:
        inside = tuple(f"{name}." for name in containers)
        norms = [
            name
            for name, module in modules
            if name and "norm" in type(module).__name__.lower() and not name.startswith(inside)
        ]
        if norms:
            guess[norms[-1]] = "norm"
    return guess


def check(model: Any) -> None:
    """Raise `UnsupportedFamily` when the default family's guess cannot standardize `model`."""
    missing = [name for name in _REQUIRED if name not in model.__dict__]
    kind = type(model._module).__name__
    if missing:
        guess = _suggest(model, missing)
        hint = f"going by the module tree, perhaps rename={guess!r}, or " if guess else ""
        raise UnsupportedFamily(
            f"the default family cannot standardize {kind}: found no {', '.join(missing)} under any name it knows. "
            "Name the native modules with rename={'<native path>': '<standard name>'} at load; "
            f"{hint}add a family module named after the model_type (site/docs/developing/adding-a-family.md)."
        )
    if not any(isinstance(block, Layer) for block in model.layers):
        raise UnsupportedFamily(
            f"the default family cannot standardize {kind}: no block of model.layers became a Layer. "
            "Add a family module named after the model_type (site/docs/developing/adding-a-family.md)."
        )
    hidden = getattr(model.config.get_text_config(), "hidden_size", None)
    shape = _scan_block(model, 0)
    if shape is not None and (len(shape) != 3 or (hidden is not None and shape[-1] != hidden)):
        raise UnsupportedFamily(
            f"the default family cannot standardize {kind}: block 0 passes a stream of shape "
            f"{tuple(shape)}, not [batch, seq, hidden_size]. Add a family module named after the model_type "
            "(site/docs/developing/adding-a-family.md)."
        )


def _scan_block(model: Any, index: int) -> list[int] | None:
    """The shape of block `index`'s output tensor on a shape-only run, or `None` when the scan cannot run."""
    import nnsight

    from nnterp.components import first_tensor

    try:
        with model.scan("a b"):
            shape = nnsight.save([int(size) for size in first_tensor(model.layers[index].output).shape])
    except Exception:  # a scan that cannot run says nothing about the stream's shape
        return None
    return list(shape)
