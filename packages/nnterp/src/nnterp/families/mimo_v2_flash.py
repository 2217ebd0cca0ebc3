"""MiMo-V2-Flash (`MiMoV2FlashForCausalLM`): a Llama-order block with narrower values than queries and keys,
sliding-window blocks with attention sinks, and a grouped sigmoid mixture on the blocks marked sparse.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The queries and keys are `head_dim` wide and the values and head outputs
`v_head_dim` wide, so a block's `head_dim` is the values' width and `qk_head_dim`
the queries'. The values are multiplied by `attention_value_scale` before they enter
the shared attention interface. Blocks marked `sliding_attention` in `layer_types`
attend over the last `sliding_window` tokens with twice the key/value heads, and each
of their heads has a learned sink logit: the eager attention joins it to the masked
scores as one more column and drops it after the softmax, so their
`attention_probabilities` rows sum to less than one. `attention_scores` are the
masked scores, bound before any sink column joins them. A block is dense or a
mixture by its `mlp_layer_types` entry. The router (`gate`) scores its logits with a
sigmoid, adds a correction bias for the choice only, keeps the best `topk_group` of
`n_group` expert groups and then the top `top_k` experts; the weights are their
sigmoid scores, renormalized when `norm_topk_prob` is set and multiplied by
`routed_scaling_factor`. There is no shared expert.
"""

from transformers.models.mimo_v2_flash.modeling_mimo_v2_flash import (
    MiMoV2FlashAttention,
    MiMoV2FlashDecoderLayer,
    MiMoV2FlashMLP,
    MiMoV2FlashMoE,
)

from nnterp.components import Layer, Mlp, Moe, SinkAttention

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Attention(SinkAttention):
    """MiMo-V2-Flash's attention: the shared interface, values narrower than the queries, sinks on sliding blocks."""

    @property
    def SINK(self) -> bool:  # noqa: N802 - the class attribute every `Attention` reads, per block here
        """Whether this block's heads carry a sink column (the sliding-window blocks)."""
        return self._module.sinks is not None

    @property
    def head_dim(self) -> int:
        """The width of one head's values and outputs, `v_head_dim`."""
        return self._module.v_head_dim

    @property
    def qk_head_dim(self) -> int:
        """The width of one head's queries and keys, the module's `head_dim`."""
        return self._module.head_dim

    @property
    def num_heads(self) -> int:
        """This block's query heads, counted off the output projection in value widths."""
        return self._module.o_proj.in_features // self.head_dim


class Moe(Moe):
    """MiMo-V2-Flash's mixture: a grouped sigmoid router with a correction bias (`gate`), grouped experts, no
    shared expert."""

    SCORING = "sigmoid"
    ROUTER = "gate"


def head_dim(model) -> int:
    """The width of one head's values, `v_head_dim` (`config.head_dim` is the queries' and keys')."""
    return model.config.v_head_dim


def qk_head_dim(model) -> int:
    """The width of one head's queries and keys, `config.head_dim`."""
    return model.config.head_dim


ENVOYS = {
    MiMoV2FlashDecoderLayer: Layer,
    MiMoV2FlashAttention: Attention,
    MiMoV2FlashMLP: Mlp,
    MiMoV2FlashMoE: Moe,
}
