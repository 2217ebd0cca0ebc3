"""BioGPT (`BioGptForCausalLM`): XGLM's block shape on the shared attention interface.

`h = x + self_attn(input_layernorm(x)); out = h + fc2(act(fc1(post_attention_layernorm(h))))`

The block runs `fc1`, the activation and `fc2` itself, with no `mlp` module, as
XGLM's does: the feed-forward contribution is the block's own `mlp_output`,
`fc2`'s output, and there is no `mlp_input`. `final_layer_norm` is the block's MLP
norm, aliased `post_attention_layernorm`; the decoder's final norm is `layer_norm`.
The head is `output_projection`, aliased `lm_head`. The attention calls the shared
interface, and the embedding scales its output by `sqrt(hidden_size)`.
"""

from transformers.models.biogpt.modeling_biogpt import BioGptAttention, BioGptDecoderLayer

from nnterp.components import Attention
from nnterp.families import xglm

RENAME = {
    "biogpt.embed_tokens": "embed_tokens",
    "biogpt.layers": "layers",
    "biogpt.layer_norm": "norm",
    "output_projection": "lm_head",
    "self_attn_layer_norm": "input_layernorm",
    "final_layer_norm": "post_attention_layernorm",
    "self_attn.out_proj": "self_attn.o_proj",
}


ENVOYS = {BioGptDecoderLayer: xglm.Layer, BioGptAttention: Attention}
