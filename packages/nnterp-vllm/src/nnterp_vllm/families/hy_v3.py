"""Hunyuan 3 on vLLM (``vllm.model_executor.models.hy_v3``).

h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h)), each add fused into the norm
that follows, so the block takes and returns the stream as ``(hidden_states, residual)``. The attention norms its
queries and keys per head before the rotary embedding where the config's ``qk_norm`` says. The first
``first_k_dense_replace`` blocks carry a gated MLP, the others a mixture: ``gate`` gives the router's logits, and
``FusedMoE`` takes their sigmoid, adds ``expert_bias`` for the choice of the top ``num_experts_per_tok``,
renormalizes where ``route_norm`` says, weighs them by ``router_scaling_factor``, runs those experts (each
``expert_hidden_dim`` wide) and, in the same call, the shared experts, returning the sum. So the shared experts'
contribution is served at their module and the routed sum alone is not. vLLM reads the block kinds, the expert
width and the norms' switches from ``first_k_dense_replace``, ``expert_hidden_dim``, ``qk_norm`` and ``route_norm``,
entries the original checkpoints' configs carry and transformers' does not.
"""

from vllm.model_executor.models.hy_v3 import HYV3Attention, HYV3DecoderLayer, HYV3FeedForward, HYV3MoEFused

from nnterp_vllm import components as base

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(base.FusedLayer):
    """Hunyuan 3's block: ``forward(positions, hidden_states, residual) -> (hidden_states, residual)``."""


class Attention(base.Attention):
    """Hunyuan 3's attention; its output is what the block adds, so the base holds."""


class Moe(base.Moe):
    """Hunyuan 3's mixture: the router's logits at ``gate``, the shared experts inside ``FusedMoE``'s call."""

    ROUTED_KEY = None
    SHARED = "shared_mlp"


class Mlp(base.Mlp):
    """A gated MLP (a dense block's, or the shared experts); its output is what the block adds."""


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {HYV3DecoderLayer: Layer, HYV3Attention: Attention, HYV3MoEFused: Moe, HYV3FeedForward: Mlp}
