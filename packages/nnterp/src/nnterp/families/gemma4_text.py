"""Gemma 4, text only (`Gemma4ForCausalLM`): a sandwich block, a per-layer input, a scaled sum.

`h = x + post_attention_layernorm(self_attn(input_layernorm(x)));
m = h + post_feedforward_layernorm(mlp(pre_feedforward_layernorm(h)));
out = layer_scalar * (m + post_per_layer_input_norm(per_layer_projection(act_fn(per_layer_input_gate(m)) * p)))`,
the last add only where the config sets `hidden_size_per_layer_input`.

Each sublayer adds its post-norm's output, so the contributions are read on the
sibling norms, and the stream between the sublayers enters `pre_feedforward_layernorm`.
The block then adds a third term computed from its own per-layer input `p` (a slice of
the model's per-layer token embedding, projected and normed), and multiplies the whole
sum by its `layer_scalar` buffer, so the identity reads
`layer_output == layer_scalar * (layer_input + attention_output + mlp_output + per-layer term)`.

The head width differs per block: full-attention blocks take their sizes from the
config's per-layer overrides (`global_head_dim`), sliding-window ones from `head_dim`,
so each attention's `head_dim`, `num_heads` and `num_kv_heads` are read off its own
projections, and the root's `head_dim` is the sliding blocks'. Blocks past
`num_kv_shared_layers` reuse an earlier block's keys and values (no `k_proj`), which
the shared eager interface still receives. The attention norms each head's queries,
keys and values and scales its scores by one. The embedding module scales by
`sqrt(hidden_size)`, and the head's output is softcapped where the config sets
`final_logit_softcapping`, which `project_on_vocab` applies too.

The Gemma 4 wrapper (`gemma4`) is served by `nnterp.families.gemma4`.
"""

from transformers.models.gemma4.modeling_gemma4 import Gemma4TextAttention, Gemma4TextDecoderLayer, Gemma4TextMLP

from nnterp.components import SandwichAttention, SandwichLayer, SandwichMlp

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Attention(SandwichAttention):
    """Gemma 4's attention; its own head width, the shared eager interface, the contribution post-normed.

    The config refuses a global `head_dim` (it varies per block), so the sizes are the module's own.
    """

    @property
    def head_dim(self) -> int:
        """This block's head width: `global_head_dim` on a full-attention block, `head_dim` on a sliding one."""
        return self._module.head_dim

    @property
    def num_heads(self) -> int:
        """This block's query heads, read off the query projection."""
        return self._module.q_proj.out_features // self.head_dim


def head_dim(model) -> int:
    """The sliding-window blocks' head width (the first such block's); each block's own is `self_attn.head_dim`."""
    attentions = [block.self_attn for block in model.layers]
    sliding = [attn for attn in attentions if attn._module.is_sliding]
    return (sliding or attentions)[0].head_dim


ENVOYS = {
    Gemma4TextDecoderLayer: SandwichLayer,
    Gemma4TextAttention: Attention,
    Gemma4TextMLP: SandwichMlp,
}
