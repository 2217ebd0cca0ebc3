"""Phi-4-multimodal (`Phi4MultimodalForCausalLM`): Phi-3's block with fused projections, and embedders for images and audio.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The block is Phi-3's: one `qkv_proj` sliced into queries, keys and values, read at the
interface after the rotary embedding; one `gate_up_proj`, then
`down_proj(up * activation_fn(gate))`, `activation_fn` aliased `act_fn`; the
contributions pass `resid_attn_dropout` / `resid_mlp_dropout`, identities at inference.
The one class serves every task: the model's `embed_tokens_extend` runs a SigLIP tower
and an audio conformer and writes their features into the token embeddings at the image
and audio tokens. transformers maps the type to no image-text-to-text class, so it
loads as a text model only, and no value of the tower or the audio encoder is served.
"""

from transformers.models.phi4_multimodal.modeling_phi4_multimodal import (
    Phi4MultimodalAttention,
    Phi4MultimodalDecoderLayer,
    Phi4MultimodalMLP,
)

from nnterp.components import Attention, Layer, Mlp

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
    "activation_fn": "act_fn",
}


ENVOYS = {Phi4MultimodalDecoderLayer: Layer, Phi4MultimodalAttention: Attention, Phi4MultimodalMLP: Mlp}
