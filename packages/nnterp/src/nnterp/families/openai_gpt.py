"""GPT-1 (`OpenAIGPTLMHeadModel`, model type `openai-gpt`): a post-LN block and no final norm.

`h = post_attention_layernorm(x + self_attn(x)); out = ln_2(h + mlp(h))`

Each LayerNorm follows a residual add (`ln_1`, aliased `post_attention_layernorm`,
and `ln_2`, which keeps its native name), so the identity takes the post-LN form:
`layer_mid == layer_input + attention_output` and
`layer_output == ln_2(mlp_norm_output + mlp_output)`, both bit for bit, with
`attention_output` and `mlp_output` the tensors entering each add. No norm feeds
the attention (`attention_norm_output` is unavailable), and the model has no final
norm: the head reads the last block's output, so `final_norm_output` is
unavailable and `project_on_vocab` is `lm_head` alone. The attention does its own
arithmetic in `_attn`: the keys arrive transposed, `[batch, heads, head_dim, seq]`,
the scores are divided by the head width's square root only where the model is
built with `scale=True` (the causal LM is), and the causal mask writes -1e4 into
the scores, not minus infinity. The MLP's activation is a function, not a module,
read at its call. Blocks and attentions return lists; the model keeps no cache, so
each generation step runs the whole sequence again.
"""

from transformers.models.openai.modeling_openai import MLP as OpenAIGPTMLP
from transformers.models.openai.modeling_openai import Attention as OpenAIGPTAttention
from transformers.models.openai.modeling_openai import Block as OpenAIGPTBlock

from nnterp.components import (
    HEADS_FIRST,
    KEYS_TRANSPOSED,
    MERGED_HEADS,
    NO_FINAL_NORM,
    EProperty,
    Mlp,
    Neurons,
    OwnAttention,
    PostLNLayer,
    always,
    lm_head_only,
    own_value,
    unavailable,
)

RENAME = {
    "transformer.tokens_embed": "embed_tokens",
    "transformer.h": "layers",
    "attn": "self_attn",
    "ln_1": "post_attention_layernorm",
    "attn.c_proj": "attn.o_proj",
    "mlp.c_proj": "mlp.down_proj",
}

_INNER = "source.self__attn_0"

final_norm_output = unavailable(NO_FINAL_NORM)
project_on_vocab = lm_head_only


class Layer(PostLNLayer):
    """GPT-1's post-LN block; it returns `[hidden_states]`, a list."""

    returns_tuple = True


class Attention(OwnAttention):
    """GPT-1's attention, read inside its own `_attn`."""

    attention_queries = own_value("attention_queries", f"{_INNER}.inputs", select=0)
    attention_keys = own_value("attention_keys", f"{_INNER}.inputs", KEYS_TRANSPOSED, select=1)
    attention_values = own_value("attention_values", f"{_INNER}.inputs", select=2)
    attention_scores = own_value(
        "attention_scores",
        f"{_INNER}.source.nn_functional_softmax_0.input",
        description="The attention scores entering the softmax, the causal mask written as -1e4",
    )
    attention_probabilities = own_value("attention_probabilities", "attn_dropout.output")
    attention_head_outputs = own_value("attention_head_outputs", f"{_INNER}.output", HEADS_FIRST, select=0)
    attention_premix = own_value("attention_premix", "o_proj.input", MERGED_HEADS)


class Mlp(Mlp):
    """GPT-1's plain MLP; the activation is a function called in its forward, `c_proj` the down projection."""

    @EProperty("source.self_act_0.output", description="The activation function's output", unavailable=always)
    def mlp_activation(self, value) -> Neurons:
        return value


def intermediate_size(model) -> int:
    """The MLP width: four times the hidden size, which the config does not hold."""
    return 4 * model.hidden_size


ENVOYS = {OpenAIGPTBlock: Layer, OpenAIGPTAttention: Attention, OpenAIGPTMLP: Mlp}
