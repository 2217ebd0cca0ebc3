"""GPT-Neo (`GPTNeoForCausalLM`): GPT-2's block around an unscaled attention, global or local per block.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`

`self_attn` is a wrapper whose child `attention` does the arithmetic in its own
forward, never calling the shared interface: the queries, keys and values enter
`_attn` (the keys and values as long as the cache), the scores leave the
`torch.where` that applies the block's causal or local mask (the padding mask,
added next, would push the masked entries to minus infinity, where a product with
zero is not a number),
the pattern leaves `attn_dropout`, and `_merge_heads` puts the heads side by side for
`out_proj` (aliased `o_proj` on `self_attn`). The scores are not divided by the head
width. `config.attention_types` is a run-length list of block kinds expanded into
`attention_layers`: a "local" block masks every key more than `window_size`
positions back, a "global" one only the future. The block returns
`(hidden_states, attn_weights)`.
"""

from transformers.models.gpt_neo.modeling_gpt_neo import GPTNeoAttention, GPTNeoBlock, GPTNeoFlashAttention2, GPTNeoMLP

from nnterp.components import HEADS_FIRST, MERGED_HEADS, Layer, Mlp, OwnAttention, own_value
from nnterp.families import gpt2

# GPT-2's spellings; the output projection sits one module deeper.
RENAME = {**gpt2.RENAME, "attn.attention.out_proj": "attn.o_proj"}

_FLASH = "this model runs flash_attention_2, whose GPT-Neo forward computes the pattern inside the kernel"

_INNER = "attention.source.self__attn_0"


class Layer(Layer):
    """GPT-Neo's block; it returns `(hidden_states, attn_weights)`."""

    returns_tuple = True


class Attention(OwnAttention):
    """GPT-Neo's attention wrapper, read inside its `attention` child's own forward."""

    def off_interface(self) -> str | None:
        return _FLASH if isinstance(self._module.attention, GPTNeoFlashAttention2) else None

    @property
    def attention_type(self) -> str:
        """This block's kind: "global" (causal) or "local" (causal within `window_size`)."""
        return self._module.attention_type

    attention_queries = own_value("attention_queries", f"{_INNER}.inputs", select=0)
    attention_keys = own_value("attention_keys", f"{_INNER}.inputs", select=1)
    attention_values = own_value("attention_values", f"{_INNER}.inputs", select=2)
    attention_scores = own_value(
        "attention_scores",
        f"{_INNER}.source.torch_where_0.output",
        description="The attention scores under the block's causal or local mask, before the padding mask is added",
    )
    attention_probabilities = own_value("attention_probabilities", "attention.attn_dropout.output")
    attention_head_outputs = own_value("attention_head_outputs", f"{_INNER}.output", HEADS_FIRST, select=0)
    attention_premix = own_value("attention_premix", "o_proj.input", MERGED_HEADS)


def intermediate_size(model) -> int:
    """The MLP width is `intermediate_size`, `None` meaning four times the hidden size."""
    return model.config.intermediate_size or 4 * model.hidden_size


ENVOYS = {GPTNeoBlock: Layer, GPTNeoAttention: Attention, GPTNeoMLP: Mlp}
