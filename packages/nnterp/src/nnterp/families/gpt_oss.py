"""GPT-OSS (`GptOssForCausalLM`): Llama's order with attention sinks and a top-k softmax mixture.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

Each head has a learned sink logit: the eager attention joins it to the masked
scores as one more column, takes the softmax, and drops that column before mixing
the values, so the rows of `attention_probabilities` sum to less than one.
`attention_scores` are the masked scores bound before the column joins
(`attn_weights_1`, a binding that exists because every prompt passes a mask).
`config.layer_types` says which blocks attend within `sliding_window`. The mixture
(`mlp`) returns its output with the router's scores; its router (`router`, a linear
layer with a bias) keeps the top `top_k` logits and takes a softmax over them, and
the experts have biases and a clamped gated activation. There is no shared expert.
"""

from transformers.models.gpt_oss.modeling_gpt_oss import GptOssAttention, GptOssDecoderLayer, GptOssMLP

from nnterp.components import Layer, Moe, SinkAttention

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


ENVOYS = {
    GptOssDecoderLayer: Layer,
    GptOssAttention: SinkAttention,
    GptOssMLP: Moe,
}
