"""Kolibri 1 (`Kolibri1ForCausalLM`): a sandwich block around query/key-normed attention and a sigmoid mixture.

`h = x + post_self_attn_layernorm(self_attn(input_layernorm(x)));
out = h + post_mlp_layernorm(mlp(post_attention_layernorm(h)))`.

Llama's names keep their roles (`post_attention_layernorm` feeds the mixture), and
each sublayer's output passes its own norm before the add, so `attention_output` and
`mlp_output` are the outputs of `post_self_attn_layernorm` and `post_mlp_layernorm`.
The attention norms each head's queries and keys (`q_norm`, `k_norm`); on a model
with a window, the blocks `config.layer_types` marks `sliding_attention` attend
within `sliding_window` and apply the rotary embedding, and the full-attention
blocks apply none. The router (`gate`) adds a correction bias to its float32 logits
for the choice of the top `top_k` only, and weighs the chosen experts by the sigmoid
of their logits, renormalized when `norm_topk_prob` is set; the mixture's values are
read before its output norm. The shared experts run on the mixture's input after the
routed experts, and the module returns the sum.
"""

from transformers.models.kolibri1.modeling_kolibri1 import (
    Kolibri1Attention,
    Kolibri1DecoderLayer,
    Kolibri1SparseMoeBlock,
)

from nnterp.components import Attention, Layer, Moe, normed_contribution

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Attention(Attention):
    """Kolibri 1's attention; query/key norms, the rotary embedding on sliding blocks only, the contribution post-normed."""

    attention_output = normed_contribution("post_self_attn_layernorm", "attention")


class Moe(Moe):
    """Kolibri 1's mixture: a sigmoid router with a correction bias (`gate`), grouped experts, shared experts."""

    SCORING = "sigmoid"
    ROUTER = "gate"
    SHARED = "shared_experts.output"

    mlp_output = normed_contribution("post_mlp_layernorm", "mlp")


def intermediate_size(model) -> int:
    """Every block is a mixture, and the config has no dense width: one routed expert's, `moe_intermediate_size`."""
    return model.config.get_text_config().moe_intermediate_size


ENVOYS = {
    Kolibri1DecoderLayer: Layer,
    Kolibri1Attention: Attention,
    Kolibri1SparseMoeBlock: Moe,
}
