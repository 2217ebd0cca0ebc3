"""Youtu (`YoutuForCausalLM`): Llama's block around a latent (multi-head latent) attention.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The attention projects the queries through a low-rank `q_a_proj` / `q_a_layernorm` /
`q_b_proj` path and the keys and values through one shared latent
(`kv_a_proj_with_mqa`, `kv_a_layernorm`, `kv_b_proj`), which it expands to one key and
one value per query head before the shared interface. So the keys and values have
`num_heads` heads, the query/key width `qk_head_dim` is `qk_nope_head_dim +
qk_rope_head_dim` (the rotary part last), and the value and head-output width
`head_dim` is `v_head_dim`. The values are one half of a `split` of the expanded
latent, which torch refuses to edit in place, so they are served as a copy that is
swapped back into the call.
"""

from transformers.models.youtu.modeling_youtu import YoutuAttention, YoutuDecoderLayer, YoutuMLP

from nnterp.components import INTERFACE, Attention, EProperty, Layer, Mlp, Values, interface_reason

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(Layer):
    """Youtu's decoder block; Llama's order and a bare tensor out, so the base holds."""


class Attention(Attention):
    """Youtu's latent attention; the shared eager interface on the expanded keys and values."""

    @property
    def head_dim(self) -> int:
        """The width of one head's values and outputs, `v_head_dim`."""
        return self._module.v_head_dim

    @property
    def qk_head_dim(self) -> int:
        """The width of one head's queries and keys: the unrotated part plus the rotated part."""
        return self._module.qk_head_dim

    @property
    def num_heads(self) -> int:
        """This block's query heads, `num_heads` on the module (`config.head_dim` is the rotary width)."""
        return self._module.num_heads

    @EProperty(
        f"source.{INTERFACE}.inputs",
        select=3,
        description="The values entering attention",
        unavailable=interface_reason,
    )
    def attention_values(self, value) -> Values:
        # The values are one half of a `split`, a view torch refuses to edit in place;
        # a copy is served and swapped back in, so in-place edits land.
        return value.clone()

    @attention_values.transform
    def attention_values(self, view, raw):
        return view


class Mlp(Mlp):
    """Youtu's gated MLP; the base holds."""


def head_dim(model) -> int:
    """One head's value width, `config.v_head_dim` (`config.head_dim` is the rotary width)."""
    return model.config.v_head_dim


def qk_head_dim(model) -> int:
    """One head's query/key width, `qk_nope_head_dim + qk_rope_head_dim`."""
    return model.config.qk_nope_head_dim + model.config.qk_rope_head_dim


ENVOYS = {YoutuDecoderLayer: Layer, YoutuAttention: Attention, YoutuMLP: Mlp}
