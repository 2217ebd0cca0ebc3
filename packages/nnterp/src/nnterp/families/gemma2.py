"""Gemma 2 (`Gemma2ForCausalLM`): Llama's names around a sandwich block.

The block is `x + post_attention_layernorm(attn(input_layernorm(x)))`, then the same
around the MLP with `pre_feedforward_layernorm` and `post_feedforward_layernorm`.
Each sublayer adds its post-norm's output, so the contributions are read on the
sibling norms, and the stream between the sublayers enters the MLP's pre-norm.
The model softcaps the head's output (`final_logit_softcapping`), which
`project_on_vocab` applies too.
"""

from transformers.models.gemma2.modeling_gemma2 import Gemma2Attention, Gemma2DecoderLayer, Gemma2MLP

from nnterp.components import Attention, EProperty, Layer, Mlp, Residual

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(Layer):
    """Gemma 2's sandwich block: the MLP's pre-norm is `pre_feedforward_layernorm`."""

    @EProperty("pre_feedforward_layernorm.input", description="The residual stream after the attention add")
    def layer_mid(self, value) -> Residual:
        return value

    @EProperty("pre_feedforward_layernorm.output", description="The normed stream entering the MLP")
    def mlp_norm_output(self, value) -> Residual:
        return value


class Attention(Attention):
    """Gemma 2's attention; the shared eager interface (with its score softcap), the contribution post-normed."""

    @EProperty(
        "../post_attention_layernorm.output",
        description="What the attention adds to the residual stream: the post-attention norm's output",
    )
    def attention_output(self, value) -> Residual:
        return value


class Mlp(Mlp):
    """Gemma 2's gated MLP; the contribution post-normed."""

    @EProperty(
        "../post_feedforward_layernorm.output",
        description="What the MLP adds to the residual stream: the post-feedforward norm's output",
    )
    def mlp_output(self, value) -> Residual:
        return value


ENVOYS = {Gemma2DecoderLayer: Layer, Gemma2Attention: Attention, Gemma2MLP: Mlp}
