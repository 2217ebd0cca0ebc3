"""NanoChat (`NanoChatForCausalLM`): Llama's names, one weightless norm that runs before and after the blocks.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`

Every norm is an RMSNorm without a weight. The model's `norm` runs twice: first on
the token embeddings, so `layers[0].layer_input` is the normed embedding while
`token_embeddings` is the embedding module's output, then on the last block's
output for the head. `norm` names that one module, and `model.norm.output` in a
trace is its first call (its second is `model.norm.output` under nnsight's
`tracer.iter[1]`); `final_norm_output` is the second call, read at that call in the
inner model's forward, so it is what the head reads. `project_on_vocab`
applies the same norm, the head and the model's `final_logit_softcapping`. The
attention norms its queries and keys per head after the rotary embedding, then
calls the shared eager interface. The MLP is `fc1`, a squared ReLU (`relu2`),
`fc2`.
"""

from transformers.models.nanochat.modeling_nanochat import (
    NanoChatAttention,
    NanoChatDecoderLayer,
    NanoChatMLP,
    NanoChatModel,
)

from nnterp.components import Attention, EProperty, Layer, Mlp, Standard

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
    "fc2": "down_proj",
    "activation_fn": "act_fn",
}

#: The second call of the shared norm, after the blocks: what the head reads.
final_norm_output = EProperty("model.source.self_norm_1.output")


class Body(Standard):
    """NanoChat's inner model, whose forward is instrumented at load: `final_norm_output` is read inside it.

    A read of a block value parks the worker inside this forward, so its operations
    must exist before the first run rather than be built on the first read.
    """

    sourced = True


ENVOYS = {NanoChatModel: Body, NanoChatDecoderLayer: Layer, NanoChatAttention: Attention, NanoChatMLP: Mlp}
