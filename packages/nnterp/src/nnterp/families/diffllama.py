"""DiffLlama (`DiffLlamaForCausalLM`): Llama's block around a differential attention.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`

The attention calls the shared eager interface twice with the same queries, keys
and mask, once on each half of the value heads (each half repeated to the full key
and value head count), so both calls compute the same softmax per query head. It
then joins the two calls' outputs, pairs head `j` of the first half of the query
heads with head `j + num_heads / 2`, subtracts the second weighted by the learned
`lambda_full` (`differential_lambda`), norms each pair with a weightless RMSNorm
and scales by `1 - lambda_init`. So the differential pattern of pair `j` is
`attention_probabilities[:, j] - differential_lambda * attention_probabilities[:, j + num_heads // 2]`.

The queries, keys, scores and pattern are read at the first interface call; the
second call recomputes the same scores and pattern from the same queries and keys,
so an in-place edit of the queries or keys reaches both calls, while an assigned
tensor, and any write to the scores or the pattern, reaches the first call only,
which mixes the first half of the values. `attention_values` are the values as
projected (after the cache), read where they are split in two, so an edit reaches
both halves. No tensor holds one output per query head: each pair's output is a
difference of two calls, normed, so `attention_head_outputs` is unavailable;
`attention_premix` is the normed pairs as the output projection takes them, cut
into `num_heads` slices of `head_dim`.
"""

from transformers.models.diffllama.modeling_diffllama import DiffLlamaAttention, DiffLlamaDecoderLayer, DiffLlamaMLP

from nnterp.components import Attention, Layer, Mlp, interface_reason, own_value, unavailable

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}

_DIFFERENTIAL = (
    "differential attention: each head pair's output is the difference of two interface calls, normed, "
    "so no tensor holds one output per query head; read attention_premix"
)


class Attention(Attention):
    """DiffLlama's differential attention; the interior at the first of its two interface calls."""

    @property
    def differential_lambda(self) -> float:
        """`lambda_full`, the weight of the second softmax in each head pair's difference."""
        module = self._module
        first = (module.lambda_q1 * module.lambda_k1).sum().exp()
        second = (module.lambda_q2 * module.lambda_k2).sum().exp()
        return float(first - second + module.lambda_init)

    attention_values = own_value(
        "attention_values",
        "source.torch_chunk_0.inputs",
        select=0,
        unavailable=interface_reason,
        description="The values entering attention, before they are split between the two interface calls",
    )
    attention_head_outputs = unavailable(_DIFFERENTIAL)


ENVOYS = {DiffLlamaDecoderLayer: Layer, DiffLlamaAttention: Attention, DiffLlamaMLP: Mlp}
