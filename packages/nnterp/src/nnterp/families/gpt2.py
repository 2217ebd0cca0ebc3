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

UPCAST = "this checkpoint sets reorder_and_upcast_attn, which takes GPT-2's own upcast attention path"


class Layer(Layer):
    """GPT-2's block; it returns the bare tensor, so the base holds."""


class Attention(Attention):
    """GPT-2's attention; the shared eager interface unless the config reorders and upcasts."""

    def off_interface(self) -> str | None:
        if getattr(self._module.config, "reorder_and_upcast_attn", False):
            return UPCAST
        return super().off_interface()


class Mlp(Mlp):
    """GPT-2's plain MLP; `c_proj` is the down projection, `act` the activation, so the base holds."""


def intermediate_size(model) -> int:
    """The MLP width is `n_inner`, `None` meaning four times the hidden size."""
    return model.config.n_inner or 4 * model.hidden_size


ENVOYS = {GPT2Block: Layer, GPT2Attention: Attention, GPT2MLP: Mlp}
