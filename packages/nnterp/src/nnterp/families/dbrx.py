"""DBRX (`DbrxForCausalLM`): a pre-norm block whose attention and both norms sit one module down, and a mixture.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The block holds `norm_attn_norm`, a module that runs the first LayerNorm (`norm_1`),
the attention (`attn`) and the attention add, then returns the stream and the second
LayerNorm's (`norm_2`) output of it; the block then calls the mixture (`ffn`) on the
normed stream and adds it. The standard names alias the three modules inside
`norm_attn_norm` from the block, so `layer_mid` is `norm_2`'s input. The attention
projects queries, keys and values with one fused `Wqkv`, clamps them to
`±clip_qkv`, and calls the shared attention interface. The mixture's router
(`router`, a bare linear layer under `router.layer`) scores its logits with a
softmax over every expert and keeps the top `moe_top_k`, divided by their
`moe_normalize_expert_weights`-norm; there is no shared expert. The experts loop
over the chosen experts themselves, so no tensor holds the per-slot outputs.
"""

from transformers.models.dbrx.modeling_dbrx import DbrxAttention, DbrxBlock, DbrxFFN

from nnterp.components import OWN_EXPERT_LOOP, Attention, Layer, Moe, unavailable

RENAME = {
    "transformer.wte": "embed_tokens",
    "transformer.blocks": "layers",
    "transformer.norm_f": "norm",
    "norm_attn_norm.attn": "self_attn",
    "norm_attn_norm.norm_1": "input_layernorm",
    "norm_attn_norm.norm_2": "post_attention_layernorm",
    "ffn": "mlp",
    "out_proj": "o_proj",
}


class Moe(Moe):
    """DBRX's mixture: a softmax router over every expert (`router`), renormalized over the chosen ones, own-loop experts."""

    SCORING = "softmax"
    LOGITS = None

    @property
    def intermediate_size(self) -> int:
        """One routed expert's width (`ffn_hidden_size`)."""
        return self.experts._module.ffn_hidden_size

    expert_outputs = unavailable(OWN_EXPERT_LOOP)


ENVOYS = {
    DbrxBlock: Layer,
    DbrxAttention: Attention,
    DbrxFFN: Moe,
}
