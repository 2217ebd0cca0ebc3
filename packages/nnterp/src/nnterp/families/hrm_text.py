"""HRM-Text (`HrmTextForCausalLM`, model type `hrm_text`): two weight-shared stacks of Llama blocks run in nested cycles.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`

Every norm is a weightless RMS norm. The depth is hierarchical: the model holds a
low stack (`model.L_module`) and a high stack (`model.H_module`), each a list of
`num_layers_per_stack` blocks followed by its own `final_norm`. The forward keeps two
states, the high one starting at the scaled embeddings (`embedding_scale`) and the low
one at the fixed vector `z_L_init`, and runs `H_cycles` high cycles; each runs the
low stack `L_cycles` times on `low + high` (its output, normed, is the new low state),
then the high stack once on `high + low` (its output, normed, is the new high state).
The head reads the last high state. So every block runs more than once, a stack's
first block does not read the previous block's output, and the stacks' norms sit
between the blocks, not inside them.

`layers` is a module list the family builds at load over the existing blocks: the low
stack's blocks, then the high stack's, `2 * num_layers_per_stack` entries, which is
`num_layers`. The stacks keep reaching their blocks as plain attributes, so the
forward calls the same modules in the same order and every number is the model's
own; only the registration moves (`model.layers.0.self_attn.q_proj.weight`), so a
model saved from an nnterp load no longer loads in transformers.
`config.num_hidden_layers` counts the cache slots, one per block run in a forward
(`num_layers_per_stack * H_cycles * (L_cycles + 1)`), not the blocks.

Each value of `layers[i]` is the block's first run by default, in a trace and for
`steer` and `skip_layers`, which act on the first run only. Run `k` (from 0) is
nnsight's occurrence `k` of the block's locations: read it inside
`for step in tracer.iter[k:k + 1]`. A low block runs `H_cycles * L_cycles` times, run
`k` in high cycle `k // L_cycles`; a high block runs `H_cycles` times, run `k` in high
cycle `k`. Under `generate` the occurrences count the runs of every step in turn.
Within a stack, block `j + 1` reads block `j`'s output of the same run; the first
block of a stack reads the sum of both states, and the block after a stack's last one
is the other stack's first, on the next sum.

`norm` is the high stack's `final_norm`: its output is the new high state, and its
last call is what the head reads, so `norm.output` is its first call (the high state
after the first high cycle) and `final_norm_output` is read where the head takes it.
The low stack's `final_norm` keeps its native path. The attention is Llama's plus a
sigmoid gate (`gate_proj` of the block's normed input) on the heads' output before
`o_proj`, so `attention_premix` is the gated heads and not `attention_head_outputs`.
The head is `lm_head` on the last high state, so `project_on_vocab` is `norm` and
`lm_head`.
"""

from __future__ import annotations

import torch
from transformers.models.hrm_text.modeling_hrm_text import (
    HrmTextAttention,
    HrmTextDecoderLayer,
    HrmTextMLP,
    HrmTextModel,
)

from nnterp.components import Attention, EProperty, Layer, Mlp
from nnterp.components.regrouped import Regrouping
from nnterp.components.standard import Plain

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.H_module.final_norm": "norm",
}

#: The stacks, in the order `layers` lists their blocks.
_STACKS = ("L_module", "H_module")

#: What the head reads: the high stack's norm at its last call (its module output names the first call).
final_norm_output = EProperty("lm_head.input")


def _gather_blocks(body: torch.nn.Module) -> None:
    """Register both stacks' blocks under `body.layers`, low then high; each stack keeps its list as an attribute."""
    if "layers" in body._modules:
        return
    blocks = []
    for name in _STACKS:
        stack = body._modules[name]
        own = stack._modules.pop("layers")
        # The stack's forward reaches its list by attribute; the instance dict answers before torch's registry.
        object.__setattr__(stack, "layers", own)
        blocks.extend(own)
    body.layers = torch.nn.ModuleList(blocks)


class Body(Regrouping, Plain):
    """`HrmTextModel`'s envoy: it gathers both stacks' blocks under `layers` before its children are mirrored."""

    regroup = staticmethod(_gather_blocks)


ENVOYS = {HrmTextModel: Body, HrmTextDecoderLayer: Layer, HrmTextAttention: Attention, HrmTextMLP: Mlp}
