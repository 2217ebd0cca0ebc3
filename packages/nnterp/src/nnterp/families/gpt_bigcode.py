"""GPTBigCode (`GPTBigCodeForCausalLM`, SantaCoder, StarCoder): GPT-2's block with multi-query attention.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`

The modules keep GPT-2's spellings (`transformer.h`, `ln_1`/`ln_2`, `c_proj` on both
sublayers, told apart as `o_proj` and `down_proj`). With `multi_query` every query
head reads one key head and one value head: `c_attn` projects the queries and a
single key and value, so `num_kv_heads` is 1 and the keys and values are served
unrepeated, one head wide. Without it the heads are plain multi-head. The attention
calls the shared interface; the block returns the bare tensor. The queries are a view
out of one `split` of `c_attn`'s output, which torch refuses to edit in place: assign
them instead.
"""

from transformers.models.gpt_bigcode.modeling_gpt_bigcode import GPTBigCodeAttention, GPTBigCodeBlock, GPTBigCodeMLP

from nnterp.components import Attention, Layer, Mlp
from nnterp.families import gpt2

RENAME = gpt2.RENAME
intermediate_size = gpt2.intermediate_size


class Attention(Attention):
    """GPTBigCode's attention on the shared interface; `kv_heads` is 1 under `multi_query`."""

    @property
    def num_kv_heads(self) -> int:
        return self._module.kv_heads


ENVOYS = {GPTBigCodeBlock: Layer, GPTBigCodeAttention: Attention, GPTBigCodeMLP: Mlp}
