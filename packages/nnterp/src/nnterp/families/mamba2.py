"""Mamba-2 (`Mamba2ForCausalLM`): every block a norm and a Mamba-2 (SSD) mixer, no attention, no MLP.

The mixer is `linear_attn`, a `StateSpace`: `out = x + linear_attn(input_layernorm(x))`.
Its output passes a gated RMS norm (`norm(y, z)`) before `out_proj`, so
`attention_head_outputs` is `y` before the gate. The prompt's chunk scan holds the
state only at chunk boundaries: `nnterp.chunk_per_token(model)` makes every token one.
"""

from transformers.models.mamba2.modeling_mamba2 import Mamba2Block, Mamba2Mixer

from nnterp.components import HybridLayer, StateSpace

RENAME = {
    "backbone.embeddings": "embed_tokens",
    "backbone.layers": "layers",
    "backbone.norm_f": "norm",
    "mixer": "linear_attn",
    "norm": "input_layernorm",
}


ENVOYS = {Mamba2Block: HybridLayer, Mamba2Mixer: StateSpace}
