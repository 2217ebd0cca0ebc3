"""Phi (`PhiForCausalLM`, Phi-1 to Phi-2): a parallel block with one norm.

`out = x + resid_dropout(self_attn(input_layernorm(x))) + resid_dropout(mlp(input_layernorm(x)))`

One LayerNorm feeds both sublayers, so `mlp_norm_output` is the attention's normed
input and `layer_mid` is unavailable. The block sums `attn + mlp + x`, so the
contribution identity holds to float32 rounding. Both contributions pass the same
`resid_dropout` module, once each, and are read at those two calls in the block's
forward. The attention is the shared eager interface, with a partial rotary
embedding and, where `qk_layernorm` is set, LayerNorms on the queries and keys
before it; its output projection is `dense`. The MLP is `fc1`, `activation_fn`,
`fc2`.
"""

from transformers.models.phi.modeling_phi import PhiAttention, PhiDecoderLayer, PhiMLP

from nnterp.components import Attention, Mlp, ParallelLayer, block_contribution

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.final_layernorm": "norm",
    "self_attn.dense": "self_attn.o_proj",
    "fc2": "down_proj",
    "activation_fn": "act_fn",
}


class Layer(ParallelLayer):
    """Phi's parallel block; its forward is instrumented, because the contributions are read at its dropout calls."""

    sourced = True


class Attention(Attention):
    """Phi's attention; the shared eager interface, the contribution at the block's first `resid_dropout` call."""

    attention_output = block_contribution("../source.self_resid_dropout_0.output", "attention")


class Mlp(Mlp):
    """Phi's plain MLP; the contribution at the block's second `resid_dropout` call."""

    mlp_output = block_contribution("../source.self_resid_dropout_1.output", "mlp")


ENVOYS = {PhiDecoderLayer: Layer, PhiAttention: Attention, PhiMLP: Mlp}
