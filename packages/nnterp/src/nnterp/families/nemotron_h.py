"""Nemotron-H (`NemotronHForCausalLM`): every block a norm and one sublayer, a Mamba-2 mixer, an attention, an MLP or a mixture.

`config.layers_block_type` gives each block its kind, and the block holds that
sublayer under one native name, `mixer`, whatever it is. The block's envoy names
it by kind (`block_aliases`): `linear_attn` (a `StateSpace`) on a Mamba-2 block,
`self_attn` on an attention block, `mlp` on an MLP or a mixture block; the block's
norm (native `norm`) is `input_layernorm` before a mixer or an attention and
`post_attention_layernorm` before an MLP. A block adds its one sublayer to the stream:
`out = x + linear_attn(input_layernorm(x))`, `out = x + self_attn(input_layernorm(x))`
or `out = x + mlp(post_attention_layernorm(x))`, so `layer_input` plus the block's
one contribution is `layer_output`. The MLP is ungated (`up_proj`, a squared ReLU,
`down_proj`). The mixture's router (`gate`) scores with a sigmoid, adds a correction
bias for the choice only, keeps the best `topk_group` of `n_group` expert groups,
then the top `top_k` experts, renormalized when `norm_topk_prob` is set and
multiplied by `routed_scaling_factor`; its ungated `shared_experts` run on the
mixture's input and the module returns the sum. The Mamba-2 scan clamps its step
size to `time_step_limit` first.

The vision-language wrapper over a Nemotron-H text model, Nemotron-H Omni, is a module of
its own that composes this one's `RENAME` and `ENVOYS`.
"""

from transformers.models.nemotron_h.modeling_nemotron_h import (
    NemotronHAttention,
    NemotronHBlock,
    NemotronHMamba2Mixer,
    NemotronHMLP,
    NemotronHMoE,
)

from nnterp.components import Attention, HybridLayer, Mlp, Moe, StateSpace

RENAME = {
    "model.embeddings": "embed_tokens",
    "model.layers": "layers",
    "model.norm_f": "norm",
}

#: Block kind (`config.layers_block_type`) -> the standard names of its sublayer and of the norm before it.
_KINDS = {
    "linear_attention": ("linear_attn", "input_layernorm"),
    "full_attention": ("self_attn", "input_layernorm"),
    "mlp": ("mlp", "post_attention_layernorm"),
    "moe": ("mlp", "post_attention_layernorm"),
}


class Layer(HybridLayer):
    """Nemotron-H's block: one normed sublayer added to the stream, named by the block's kind."""

    def block_aliases(self) -> dict[str, str]:
        sublayer, norm = _KINDS[self._module.block_type]
        return {sublayer: "mixer", norm: "norm"}


class Moe(Moe):
    """Nemotron-H's mixture: a grouped sigmoid router with a correction bias (`gate`), ungated experts, shared experts."""

    SCORING = "sigmoid"
    ROUTER = "gate"
    SHARED = "shared_experts.output"


ENVOYS = {
    NemotronHBlock: Layer,
    NemotronHAttention: Attention,
    NemotronHMamba2Mixer: StateSpace,
    NemotronHMLP: Mlp,
    NemotronHMoE: Moe,
}
