"""Llama 4's text model (`Llama4ForCausalLM`): Llama's order with interleaved mixture blocks whose experts run on
score-premultiplied tokens, and blocks without rotary embeddings.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The feed-forward module is native `feed_forward`, aliased `mlp`: a dense gated MLP
on most blocks, and on the blocks in `moe_layers` a mixture that returns its output
with the router's logits. `no_rope_layers` marks the blocks that rotate their queries
and keys; those blocks L2-normalize them after the rotation (`use_qk_norm`) and
attend within chunks of `attention_chunk_size` tokens, while the other blocks scale
their queries by a logarithm of the position (`attn_temperature_tuning`). The router
(`router`, a linear layer) keeps each token's top `top_k` logits and takes their
sigmoid; the mixture multiplies the token by that score before each expert, runs
every expert on every token with batched matrix products, and adds their sum in
place into the shared expert's output, so `expert_outputs` are `expert(weight * x)`
(see `nnterp.components.premultiplied_moe`). The MLPs name their activation
`activation_fn`.

Llama 4's text model is also the text model of `Llama4ForConditionalGeneration`: there
the text model sits under `language_model.model` and its head at `language_model.lm_head`.
The ViT (`vision`, at `vision_model`) embeds each patch with an unfolded linear layer
(`patch_embed`), appends a CLS token after the patches, norms the stream before its
blocks, and runs pre-norm blocks whose attention rotates the queries and keys by each
patch's 2-D position; its final norm (`vision.norm`, native `layernorm_post`) ends
`tower_output`, the CLS row still last. The tower then drops the CLS row and runs its own
adapter (`vision_adapter`), a pixel shuffle of each 2x2 patch group followed by a two-layer
MLP, so the tower's output is the adapter's and not the final norm's. The projector
(`projector`, at `multi_modal_projector`) is one linear layer to the text width, and the
wrapper scatters its output into the token embeddings in its own top-level forward
(`ROOT_SCATTER`).
"""

from transformers.models.llama4.modeling_llama4 import (
    Llama4TextAttention,
    Llama4TextDecoderLayer,
    Llama4TextMLP,
    Llama4TextMoe,
    Llama4VisionAttention,
    Llama4VisionEncoderLayer,
    Llama4VisionMLP,
    Llama4VisionModel,
)

from nnterp.components import (
    Attention,
    EProperty,
    Layer,
    Mlp,
    Neurons,
    Patches,
    Vision,
    VisionAttention,
    VisionLayer,
    VisionMlp,
    needs_child,
)
from nnterp.components.premultiplied_moe import PremultipliedMoe
from nnterp.components.vision import no_tower_run

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
    "feed_forward": "mlp",
    # Llama 4's wrapper: the text model under `language_model`, the ViT and the projector.
    "language_model.model.embed_tokens": "embed_tokens",
    "language_model.model.layers": "layers",
    "language_model.model.norm": "norm",
    "language_model.lm_head": "lm_head",
    "vision_model": "vision",
    "multi_modal_projector": "projector",
    # The ViT's inner names, keyed relative to the tower; its blocks sit at `model.layers`, keyed above, and
    # already carry the standard block names.
    "patch_embedding": "patch_embed",
    "layernorm_post": "norm",
    "fc2": "down_proj",
}

#: Llama 4's wrapper writes the image features into the embeddings in its own forward.
ROOT_SCATTER = True


class Mlp(Mlp):
    """Llama 4's dense gated MLP, on the dense blocks and as the shared expert; its activation is `activation_fn`."""

    @EProperty(
        "activation_fn.output",
        description="The activation function's output",
        unavailable=needs_child("activation_fn", "mlp"),
    )
    def mlp_activation(self, value) -> Neurons:
        return value


class Vision(Vision):
    """Llama 4's ViT: a fixed-size image, its patches and then a CLS token in each row.

    The tower's own output is its adapter's, after the CLS row is dropped and the patches
    are pixel-shuffled and projected, so `tower_output` is read at the final norm instead.
    """

    @EProperty(
        "norm.output",
        description="The last block's stream after the tower's final norm, before any pooling or projection",
        unavailable=no_tower_run,
    )
    def tower_output(self, value) -> Patches:
        return value

    @tower_output.postprocess
    def tower_output(self, value):
        return value


class VisionMlp(VisionMlp):
    """The ViT's ungated MLP (`fc1`, a GELU, `fc2`); its activation is `activation_fn`."""

    @EProperty(
        "activation_fn.output",
        description="The activation function's output",
        unavailable=needs_child("activation_fn", "mlp"),
    )
    def mlp_activation(self, value) -> Neurons:
        return value


ENVOYS = {
    Llama4TextDecoderLayer: Layer,
    Llama4TextAttention: Attention,
    Llama4TextMLP: Mlp,
    Llama4TextMoe: PremultipliedMoe,
    Llama4VisionModel: Vision,
    Llama4VisionEncoderLayer: VisionLayer,
    Llama4VisionAttention: VisionAttention,
    Llama4VisionMLP: VisionMlp,
}
