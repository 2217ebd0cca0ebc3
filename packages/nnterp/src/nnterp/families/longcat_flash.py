"""LongCat-Flash (`LongcatFlashForCausalLM`): two attention-and-MLP halves per block, and a mixture fed through a shortcut.

`h = x + self_attn(input_layernorm(x)); n = post_attention_layernorm(h); g = h + dense_mlp(n);
k = g + self_attn_2(input_layernorm_2(g)); out = k + dense_mlp_2(post_attention_layernorm_2(k)) + mlp(n)`.

Each native block holds two pre-norm halves, each an attention and a dense gated MLP
with their RMSNorms, and one mixture of experts that reads the first half's normed
stream and whose output is added at the end of the block, after the second half (the
"shortcut"). `layers[i]` is the native block, as transformers' `model.layers[i]`
and its `hidden_states` count them (`config.num_layers`; `config.num_hidden_layers`
is twice that, one cache slot per attention), so `layer_input` and `layer_output` are
the block's own input and output. Its modules are named for what they do: the first
half's `input_layernorm`, `self_attn`, `post_attention_layernorm` and dense MLP
(`dense_mlp`), the mixture (`mlp`, its native name), and the second half's
`input_layernorm_2`, `self_attn_2`, `post_attention_layernorm_2` and `dense_mlp_2`.
The native block keeps them in lists (`self_attn[0]`, `mlps[1]`, ...) and its forward
still reaches them there, so every number is the model's own; only the registration
moves (`model.layers.0.self_attn_2.q_a_proj.weight`), so a model saved from an nnterp
load no longer loads in transformers.

The block adds five terms to the stream, each read where it is added and writable:
`layer_input + self_attn.attention_output + mlp.mlp_output + dense_mlp.mlp_output +
self_attn_2.attention_output + dense_mlp_2.mlp_output == layer_output`. So
`attention_output` is the first attention's contribution and `mlp_output` the
mixture's, and the other three carry their own values; `layer_mid` is the stream
after the first attention add and `mlp_norm_output` the normed stream the mixture
and the first dense MLP both read. No grouping of these terms into two holds with
tensors the forward has: the mixture branches off after the first attention and
joins after the second MLP, so the second half of a block would add `dense_mlp_2` and
the mixture as one term that no tensor holds, and a block-wide sum of both attentions
(or of the three MLP paths) could be read but not written.

Both attentions are DeepSeek-V3's multi-head latent attention with a query latent
(see `nnterp.components.latent`), the queries and the key latent scaled by
`(hidden_size / rank) ** 0.5` before the shared attention interface. The mixture's
router (`router`) takes a softmax of its logits (`classifier`) over every expert,
adds a correction bias for the choice only, keeps the top `moe_topk` and multiplies
their scores by `routed_scaling_factor`; there is no shared expert. Its experts are
`n_routed_experts` gated MLPs followed by `zero_expert_num` zero-computation experts,
which return the token itself: `num_experts` counts both kinds (the router's logits
are that wide), and a slot whose index is `n_routed_experts` or more adds
`weight * x`. The experts loop over the chosen experts themselves and add each
expert's weighted rows into the sum, so no tensor holds the slots side by side:
`expert_outputs` is computed at read time from the experts' input, indices and
weights as the experts receive them and the experts' own parameters, each slot
`weight * expert(x)` and a zero-computation slot `weight * x`. It is read-only,
follows written weights and indices, and sums to `routed_output` to rounding.
"""

from __future__ import annotations

from typing import Any

import torch
from transformers.models.longcat_flash.modeling_longcat_flash import (
    LongcatFlashDecoderLayer,
    LongcatFlashMLA,
    LongcatFlashMLP,
    LongcatFlashMoE,
)

from nnterp.components import (
    DerivedEProperty,
    ExpertOutputs,
    LatentAttention,
    Layer,
    Mlp,
    Moe,
    latent_head_dim,
    latent_qk_head_dim,
    mixture_reason,
)
from nnterp.components.regrouped import Regrouping
from nnterp.components.tokens import token_rows

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}

#: The block's native module lists, and the names their first and second entries are registered under.
_HALVES = (
    ("input_layernorm", "input_layernorm", "input_layernorm_2"),
    ("self_attn", "self_attn", "self_attn_2"),
    ("post_attention_layernorm", "post_attention_layernorm", "post_attention_layernorm_2"),
    ("mlps", "dense_mlp", "dense_mlp_2"),
)
#: The registered names in the order the forward calls the modules.
_FORWARD_ORDER = (
    "input_layernorm",
    "self_attn",
    "post_attention_layernorm",
    "mlp",
    "dense_mlp",
    "input_layernorm_2",
    "self_attn_2",
    "post_attention_layernorm_2",
    "dense_mlp_2",
)


def _name_halves(block: torch.nn.Module) -> None:
    """Register each native list's two modules under their own names; the block keeps the lists as attributes."""
    if "self_attn_2" in block._modules:
        return
    named = {"mlp": block._modules.pop("mlp")}
    for native, first, second in _HALVES:
        modules = block._modules.pop(native)
        # The forward indexes the lists by attribute; the instance dict answers before torch's registry.
        object.__setattr__(block, native, modules)
        named[first], named[second] = modules[0], modules[1]
    for name in _FORWARD_ORDER:
        block._modules[name] = named[name]


class Layer(Regrouping, Layer):
    """LongCat-Flash's block, its two halves' modules named apart before the envoy mirrors them, on every load."""

    regroup = staticmethod(_name_halves)


def _slot_outputs(envoy: Any) -> ExpertOutputs:
    """Each slot's expert run on the token times the slot's weight, `[batch, seq, top_k, hidden_size]`.

    A zero-computation expert returns the token itself; the others are the experts
    module's gated MLPs, run on the rows the experts receive with the indices and
    weights they receive.
    """
    experts = getattr(envoy, envoy.EXPERTS)
    module = experts._module
    tokens = token_rows(envoy, experts.inputs[0][0])
    indices, weights = envoy.expert_indices, envoy.expert_weights
    slots = tokens.unsqueeze(2).expand(*indices.shape, tokens.shape[-1])
    out = slots.clone()
    for expert in indices.unique().tolist():
        if expert >= module.num_routed_experts:
            continue
        chosen = indices == expert
        gate, up = torch.nn.functional.linear(slots[chosen], module.gate_up_proj[expert]).chunk(2, dim=-1)
        out[chosen] = torch.nn.functional.linear(module.act_fn(gate) * up, module.down_proj[expert])
    return out * weights.unsqueeze(-1).to(out.dtype)


class Moe(Moe):
    """LongCat-Flash's shortcut mixture: a softmax router with a correction bias, routed and zero-computation experts."""

    SCORING = "softmax"

    @property
    def num_experts(self) -> int:
        """Every expert a slot can name: the routed experts, then the zero-computation ones."""
        return self.experts._module.total_experts

    expert_outputs = DerivedEProperty(
        _slot_outputs,
        description="Each slot's expert output times its weight, the token itself for a zero-computation expert; "
        "computed from the experts' parameters, read-only; the slots sum to routed_output",
        unavailable=mixture_reason,
    )


#: The root's `head_dim` is the values' width and `qk_head_dim` the queries' and keys' (`config.head_dim` is the rotary width).
head_dim = latent_head_dim
qk_head_dim = latent_qk_head_dim


ENVOYS = {
    LongcatFlashDecoderLayer: Layer,
    LongcatFlashMLA: LatentAttention,
    LongcatFlashMLP: Mlp,
    LongcatFlashMoE: Moe,
}
