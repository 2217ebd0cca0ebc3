"""Chameleon (`ChameleonForConditionalGeneration`): Llama's block with a per-head LayerNorm on the queries and keys.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`, and with
`swin_norm` the post-norm block `h = x + input_layernorm(self_attn(x)); out = h +
post_attention_layernorm(mlp(h))` (`ChameleonSwinDecoderLayer`): there the norms keep
their native names but follow the sublayers, so each contribution is its norm's output,
no norm feeds either sublayer (`attention_norm_output` and `mlp_norm_output` are
unavailable), and the MLP reads `layer_mid`. Both blocks return a tuple.

`q_norm` and `k_norm` are LayerNorms over each head's features with a weight and bias
per head, applied before the rotary embedding, so `attention_queries` and
`attention_keys` are normed and rotated, as the interface receives them.

Chameleon fuses early: its VQ-VAE (`model.vqmodel`) turns each image into a grid of
codebook indices, which `vocabulary_map` maps to ordinary vocabulary ids, and the
wrapper scatters `embed_tokens` of those ids into the image token positions in
`ChameleonModel`. No tower of blocks and no projector sit on that path, so the family
names no `vision` and the image is read as text: `layers[0].layer_input` at the image
positions is the codes' embeddings.

The head bars the image codes from text: the wrapper sets the logits of every code's
token to the dtype's lowest value, so `logits` hold it there and `project_on_vocab`
does the same after the final norm and `lm_head`.
"""

import torch
from transformers.models.chameleon.modeling_chameleon import (
    ChameleonAttention,
    ChameleonDecoderLayer,
    ChameleonMLP,
    ChameleonSwinDecoderLayer,
)

from nnterp.components import Attention, EProperty, Layer, LogitLens, Mlp, PostNormLayer, Residual, always
from nnterp.components.standard import first_tensor, rewrap

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


def _mask_image_codes(model, logits):
    """The image codes' logits set to the lowest value, as the model's head masks them."""
    codes = torch.tensor(model._module.model.vocabulary_mapping.image_tokens, device=logits.device)
    return logits.index_fill(-1, codes, torch.finfo(logits.dtype).min)


project_on_vocab = LogitLens(after=_mask_image_codes)


def _post_norm(envoy) -> bool:
    """Whether the sublayer `envoy` sits in a post-norm (`swin_norm`) block."""
    return isinstance(envoy.parent._module, ChameleonSwinDecoderLayer)


def _attention_added(envoy) -> str:
    return "../input_layernorm.output" if _post_norm(envoy) else "output"


def _mlp_added(envoy) -> str:
    return "../post_attention_layernorm.output" if _post_norm(envoy) else "output"


class Layer(Layer):
    """Chameleon's pre-norm block; Llama's order, its output a one-tensor tuple."""

    returns_tuple = True


class SwinLayer(PostNormLayer):
    """Chameleon's post-norm block (`swin_norm`): no norm feeds a sublayer, its output a one-tensor tuple."""

    returns_tuple = True


class Attention(Attention):
    """Chameleon's attention; the shared eager interface after the per-head query/key norms.

    Its contribution is its own output in the pre-norm block and `input_layernorm`'s
    output in the post-norm block, which norms the attention's output before the add.
    """

    @EProperty(
        _attention_added,
        description="What the attention adds to the residual stream: in the post-norm block, input_layernorm's output",
        unavailable=always,
    )
    def attention_output(self, value) -> Residual:
        return first_tensor(value)

    @attention_output.postprocess
    def attention_output(self, value):
        return value if _post_norm(self) else rewrap(self, value)


class Mlp(Mlp):
    """Chameleon's gated MLP; `down_proj` sums `act_fn(gate_proj(x)) * up_proj(x)`.

    Its contribution is its own output in the pre-norm block and
    `post_attention_layernorm`'s output in the post-norm block.
    """

    @EProperty(
        _mlp_added,
        description="What the MLP adds to the residual stream: in the post-norm block, post_attention_layernorm's output",
        unavailable=always,
    )
    def mlp_output(self, value) -> Residual:
        return first_tensor(value)

    @mlp_output.postprocess
    def mlp_output(self, value):
        return value if _post_norm(self) else rewrap(self, value)


ENVOYS = {
    ChameleonDecoderLayer: Layer,
    ChameleonSwinDecoderLayer: SwinLayer,
    ChameleonAttention: Attention,
    ChameleonMLP: Mlp,
}
