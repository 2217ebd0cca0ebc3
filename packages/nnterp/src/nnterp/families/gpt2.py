"""GPT-2 (`GPT2LMHeadModel`): a sequential pre-norm block under its own spellings.

`transformer.h` is `layers`, `ln_1`/`ln_2` the two pre-norms, and both sublayers
name their output projection `c_proj`, which the dotted aliases tell apart:
`o_proj` on the attention, `down_proj` on the MLP. The MLP is plain, so
`mlp_neurons` (the down projection's input) is `mlp_activation` itself. The queries
are a view out of `c_attn(...).split(...)`, which torch refuses to edit in place:
assign them instead.
"""

from transformers.models.gpt2.modeling_gpt2 import GPT2MLP, GPT2Attention, GPT2Block

from nnterp.components import Attention, Layer, Mlp
from nnterp.components.mlp import n_inner_intermediate_size

RENAME = {
    "transformer.wte": "embed_tokens",
    "transformer.h": "layers",
    "transformer.ln_f": "norm",
    "ln_1": "input_layernorm",
    "attn": "self_attn",
    "ln_2": "post_attention_layernorm",
    "attn.c_proj": "attn.o_proj",
    "mlp.c_proj": "mlp.down_proj",
    "act": "act_fn",
}

_UPCAST = "this checkpoint sets reorder_and_upcast_attn, which takes GPT-2's own upcast attention path"


class Attention(Attention):
    """GPT-2's attention; the shared eager interface unless the config reorders and upcasts."""

    def off_interface(self) -> str | None:
        if getattr(self._module.config, "reorder_and_upcast_attn", False):
            return _UPCAST
        return super().off_interface()


#: The MLP width is `n_inner`, `None` meaning four times the hidden size.
intermediate_size = n_inner_intermediate_size


ENVOYS = {GPT2Block: Layer, GPT2Attention: Attention, GPT2MLP: Mlp}
