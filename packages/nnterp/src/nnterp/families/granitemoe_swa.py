"""Granite-MoE SWA (`GraniteMoeSWAForCausalLM`): Granite SWA's attention in Granite-MoE-Shared's block.

`h = x + residual_multiplier * self_attn(input_layernorm(x));
out = h + residual_multiplier * (mlp(post_attention_layernorm(h)) + shared_mlp(post_attention_layernorm(h)))`.

The attention is Granite SWA's: scores scaled by `attention_multiplier`, a window of
`sliding_window` tokens on the blocks `config.layer_types` marks
`sliding_attention`, and a learned sink per head that scales each query's mix of the
values by `sigmoid(logsumexp(scores) - sink)` after the softmax, so
`attention_probabilities` sum to one and `attention_head_outputs` are read after the
scale. A block whose `layer_rope_theta` is zero applies no rotary embedding. The
mixture and the shared MLP beside it are Granite-MoE-Shared's: `mlp_output` is
`(routed_output + shared_expert_output) * residual_multiplier`, read in the block's
forward. The model multiplies the embedding output by `embedding_multiplier` and
divides the head's output by `logits_scaling`, which `project_on_vocab` does too.
"""

from transformers.models.granitemoe_swa.modeling_granitemoe_swa import (
    GraniteMoeSWAAttention,
    GraniteMoeSWADecoderLayer,
    GraniteMoeSWAMoE,
)

from nnterp.components import ScaledSiblingMoe
from nnterp.families import granite_swa, granitemoeshared

RENAME = granitemoeshared.RENAME
project_on_vocab = granitemoeshared.project_on_vocab


ENVOYS = {
    GraniteMoeSWADecoderLayer: granitemoeshared.Layer,
    GraniteMoeSWAAttention: granite_swa.Attention,
    GraniteMoeSWAMoE: ScaledSiblingMoe,
}
