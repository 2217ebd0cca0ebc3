"""NeoMME (`NeoMMEForMaskedLM`, model type `neomme`): a bidirectional encoder whose attention reads the initial states.

`h = x + r * self_attn(input_layernorm(a * x + b * x0)); out = h + r * mlp(post_attention_layernorm(h))`

An encoder (`ENCODER`): it loads under `NeoMMEForMaskedLM` by default, or bare
(`NeoMMEModel`, `task="feature-extraction"`) for probing, and the same names serve
both (the trunk sits under `model` in the first and is the root in the second).
Padding is masked. A prompt is text: the patch stem that places image patches at
image tokens runs only on `pixel_values`, and the family serves nothing of it.

The embedding module (`embed_tokens`) is factorized: a token table `embedding_rank`
wide, then a projection onto the stream (`embed_tokens.embedding_projection`), so
`token_embeddings`, its output, is stream-wide. The trunk norms it without a scale
(`embedding_norm`): that normed tensor is both block 0's input and the initial
states `x0` every block reads again. Each block mixes its input with them by its
own two weights (`lambdas`, `a` and `b` above) and norms the mix for the attention,
so `attention_norm_output` is the normed mix; the stream itself is the unmixed `x`.
The norms carry no weights (RMS norms without a scale).

The block multiplies each sublayer's output by `residual_multiplier` (`r`) before
adding it, so `attention_output` and `mlp_output` are those products, the terms the
adds take bit for bit (`nnterp.components.ScaledAttention`, `ScaledMlp`). Blocks
attend globally or within a band per `layer_types`. The attention norms each head's
queries and keys, rotates part of each head (per layer kind), and on the first and
last global blocks adds a per-token value embedding to the values, so
`attention_values` includes it. After the shared eager interface it removes from
each head's output its component along the head's own value (the exclusive
self-attention) and multiplies by a sigmoid gate of the attention's input
(`output_projection.gate_proj`) before the output projection
(`output_projection.o_proj`, aliased `o_proj`): `attention_head_outputs` is each
head's mix of the values, `attention_premix` the gated product `o_proj` reads.

The final norm (`final_norm`, aliased `norm`, unscaled) precedes the head, which
multiplies the stream by the weight of `unembedding_projection` (the transpose of a
projection, without calling the module) down to `embedding_rank`, then projects
onto the vocabulary (`lm_head`, whose output is the logits). `project_on_vocab`
runs the final norm, that product and `lm_head`, as the model does.
"""

from typing import Any

from transformers.models.neomme.modeling_neomme import NeoMMEAttention, NeoMMEEncoderLayer, NeoMMEMLP

from nnterp.components import Layer, ScaledAttention, ScaledMlp
from nnterp.components.attention import module_config

ENCODER = True

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.final_norm": "norm",
    "final_norm": "norm",
    "self_attn.output_projection.o_proj": "self_attn.o_proj",
}


def project_on_vocab(model: Any, hidden: Any) -> Any:
    """The logit lens: the final norm, the product with `unembedding_projection`'s weight, then `lm_head`."""
    head = model.lm_head
    weight = model._module.unembedding_projection.weight
    if not model.interleaver.interleaving:
        hidden = hidden.to(weight.device)
    return head(model.norm(hidden) @ weight)


class BandedAttention(ScaledAttention):
    """A NeoMME attention: its output scaled by the block's multiplier, its band (on a sliding block) both ways."""

    @property
    def attention_window(self) -> int | None:
        """How many keys each query of this block sees, itself included, or `None` where it sees every key.

        The window is per block (`config.per_layer_config[i].sliding_window`, the
        sliding blocks alternating a short and a long one) and reaches both ways: a query
        at `q` weighs the keys `q - w` to `q + w`, so it sees `2 * w + 1` keys.
        """
        index = self._module.layer_idx
        window = module_config(self).per_layer_config[index].sliding_window
        return None if window is None else 2 * window + 1


ENVOYS = {NeoMMEEncoderLayer: Layer, NeoMMEAttention: BandedAttention, NeoMMEMLP: ScaledMlp}
