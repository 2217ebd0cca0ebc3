"""EXAONE-MoE on vLLM (``vllm.model_executor.models.exaone_moe``).

h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h)), each add fused into the norm
that follows, so the block takes and returns the stream as ``(hidden_states, residual)``. The attention norms each
head's queries and keys before the rotary embedding, which only the blocks ``layer_types`` marks
``sliding_attention`` apply (over a window). ``mlp_layer_types`` makes a block's MLP a gated MLP or a mixture. In a
mixture ``FusedMoE`` calls ``gate`` for the router's logits, takes their sigmoid, adds the score correction bias for
the choice of the top ``num_experts_per_tok`` within the best ``topk_group`` of ``n_group`` groups, weighs them by
``routed_scaling_factor``, runs those experts and, in the same call, the shared experts, returning the sum. So the
shared experts' contribution is served at their module and the routed sum alone is not.
"""

from vllm.model_executor.models.exaone_moe import (
    ExaoneMoe,
    ExaoneMoeAttention,
    ExaoneMoeDecoderLayer,
    ExaoneMoeGatedMLP,
)

from nnterp_vllm import components as base

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(base.FusedLayer):
    """EXAONE-MoE's block: ``forward(positions, hidden_states, residual) -> (hidden_states, residual)``."""


class Attention(base.Attention):
    """EXAONE-MoE's attention; its output is what the block adds, so the base holds."""


class Moe(base.Moe):
    """EXAONE-MoE's mixture: the router's logits at ``gate``, the shared experts inside ``FusedMoE``'s call."""

    ROUTED_KEY = None
    SHARED = "shared_experts"


class Mlp(base.Mlp):
    """A gated MLP (a dense block's, or the shared experts); its output is what the block adds."""


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {ExaoneMoeDecoderLayer: Layer, ExaoneMoeAttention: Attention, ExaoneMoe: Moe, ExaoneMoeGatedMLP: Mlp}
