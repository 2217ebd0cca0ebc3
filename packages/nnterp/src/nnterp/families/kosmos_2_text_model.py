"""Kosmos-2's text decoder (`Kosmos2TextForCausalLM`, model type `kosmos_2_text_model`).

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`,
`mlp(y) = down_proj(ffn_layernorm(act_fn(up_proj(y))))`

A pre-LN block: `self_attn_layer_norm` is aliased `input_layernorm`,
`final_layer_norm` `post_attention_layernorm`, the feed-forward module `ffn` `mlp`
(`fc1` its `up_proj`, `fc2` its `down_proj`), and the decoder's final `layer_norm`
`norm`. The feed-forward path norms the activation (`ffn_layernorm`, over the
feed-forward width) before the down projection, inside the module, so `mlp_output`
is the module's output, the term the block adds, and `mlp_neurons` (what
`down_proj` sums) is the normed activation, not `mlp_activation`. The attention runs
the model's own eager function through the attention interface, then norms the
merged heads (`inner_attn_ln`) before the output projection, so `attention_premix`
is the normed merge and not the head outputs side by side. The embedding multiplies
the token embeddings by `sqrt(embed_dim)` (`scale_embedding`) and adds sinusoidal
positions counted from the pad id, so block 0's input is neither the token table's
rows nor their scaled copy.

The `Kosmos2ForConditionalGeneration` wrapper (`kosmos-2`) is served by
`nnterp.families.kosmos_2`. No auto class builds the text model alone (the default task
builds the wrapper): a text-only model is `Kosmos2TextForCausalLM` loaded from the
wrapper checkpoint with `key_mapping={r"^text_model\\.": ""}` (the module's
`_TEXT_KEY_MAPPING`).
"""

from __future__ import annotations

from transformers.models.kosmos2.modeling_kosmos2 import Kosmos2TextBlock, Kosmos2TextFFN, KosmosTextAttention

from nnterp.components import Attention, EProperty, Layer, Mlp, Neurons
from nnterp.components.attention import HeadOutputs
from nnterp.components.reasons import needs_child

RENAME = {
    # Kosmos2TextForCausalLM, the text model alone.
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.layer_norm": "norm",
    # The text block.
    "self_attn_layer_norm": "input_layernorm",
    "final_layer_norm": "post_attention_layernorm",
    "ffn": "mlp",
    "fc1": "up_proj",
    "out_proj": "o_proj",
    "fc2": "down_proj",
    "activation_fn": "act_fn",
}

#: The `key_mapping` that loads a wrapper checkpoint's text weights into `Kosmos2TextForCausalLM`.
_TEXT_KEY_MAPPING = {r"^text_model\.": ""}


class Attention(Attention):
    """Kosmos-2's text attention: the interface, then `inner_attn_ln` over the merged heads, then `o_proj`."""

    @EProperty(
        "o_proj.input",
        description="The merged heads after the attention's inner norm, as the output projection takes them",
        unavailable=needs_child("o_proj", "attention"),
    )
    def attention_premix(self, value) -> HeadOutputs:
        return value.unflatten(-1, (self.num_heads, -1))

    @attention_premix.postprocess
    def attention_premix(self, value):
        return value.flatten(-2)


class Mlp(Mlp):
    """Kosmos-2's feed-forward path: `up_proj`, GELU, `ffn_layernorm`, `down_proj`; its output is the block's term."""

    @EProperty(
        "down_proj.input",
        description="What the down projection sums, one value per neuron: the activation after ffn_layernorm",
        unavailable=needs_child("down_proj", "mlp"),
    )
    def mlp_neurons(self, value) -> Neurons:
        return value


def intermediate_size(model) -> int:
    """The feed-forward width, the text config's `ffn_dim`."""
    return model.config.get_text_config().ffn_dim


ENVOYS = {
    Kosmos2TextBlock: Layer,
    KosmosTextAttention: Attention,
    Kosmos2TextFFN: Mlp,
}
