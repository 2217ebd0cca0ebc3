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

The Llama 4 wrapper (`llama4`) is served by `nnterp.families.llama4`.
"""

from transformers.models.llama4.modeling_llama4 import (
    Llama4TextAttention,
    Llama4TextDecoderLayer,
    Llama4TextMLP,
    Llama4TextMoe,
)

from nnterp.components import Attention, EProperty, Layer, Mlp, Neurons, needs_child
from nnterp.components.premultiplied_moe import PremultipliedMoe

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
    "feed_forward": "mlp",
}


class Mlp(Mlp):
    """Llama 4's dense gated MLP, on the dense blocks and as the shared expert; its activation is `activation_fn`."""

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
}
