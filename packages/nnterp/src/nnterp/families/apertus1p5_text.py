"""Apertus 1.5, text (`Apertus1p5TextForCausalLM`): Apertus's block and Apertus's envoy classes.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The block's pre-norms are `attention_layernorm` and `feedforward_layernorm`, aliased
`input_layernorm` and `post_attention_layernorm`. `q_norm` and `k_norm` norm each head's query and
key before the rotary embedding. The MLP is `down_proj(act_fn(up_proj(x)))` with the trainable xIELU
activation and no gate, so `mlp_neurons` is `mlp_activation` itself. The head may be cut to
`output_vocab_size`, the text-only prefix of the vocabulary.

The Apertus 1.5 wrapper (`apertus1p5`) is served by `nnterp.families.apertus1p5`.
"""

from transformers.models.apertus1p5.modeling_apertus1p5 import (
    Apertus1p5TextAttention,
    Apertus1p5TextDecoderLayer,
    Apertus1p5TextMLP,
)

from nnterp.families import apertus
from nnterp.families.apertus import Attention, Layer, Mlp

__all__ = ["ENVOYS", "RENAME", "Attention", "Layer", "Mlp"]

RENAME = dict(apertus.RENAME)

ENVOYS = {Apertus1p5TextDecoderLayer: Layer, Apertus1p5TextAttention: Attention, Apertus1p5TextMLP: Mlp}
