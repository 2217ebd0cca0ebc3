"""GPT-OSS on vLLM (``vllm.model_executor.models.gpt_oss``).

h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h)), each add fused into the norm
that follows, so the block takes and returns the stream as ``(hidden_states, residual)``; vLLM's block takes the
stream first, ``forward(hidden_states, positions, residual)``, and names its attention ``attn`` (renamed
``self_attn``). Each head has a learned sink logit (``sinks``) that vLLM's attention kernel joins to the scores as
one more column of the softmax, so `attention_probabilities` are recomputed with that column and without it in
the result: their rows sum to less than one, as on transformers. ``layer_types`` makes some blocks sliding-window
ones. The mixture's ``router`` (a linear layer with a bias) gives the router's logits, and ``FusedMoE`` keeps the
top ``num_experts_per_tok`` of their softmax, renormalized, and runs and sums those experts (with biases) in one
kernel, whose gated activation vLLM fixes at gpt-oss's own clamp (``swiglu_limit`` 7.0, alpha 1.702) whatever the
config says. vLLM never ties the head to the embedding.
"""

import torch
from vllm.model_executor.models.gpt_oss import MLPBlock, OAIAttention, TransformerBlock

from nnterp.components import DerivedEProperty, Pattern
from nnterp_vllm import components as base
from nnterp_vllm.components import on_decode_step

RENAME = {
    "model.embedding": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
    # Keyed on the class: the block's attention and vLLM's attention layer inside it are both named ``attn``.
    OAIAttention: "self_attn",
}


class Layer(base.FusedLayer):
    """GPT-OSS's block: ``forward(hidden_states, positions, residual) -> (hidden_states, residual)``."""

    STREAM = 0
    HIDDEN = (0, "hidden_states")
    RESIDUAL = (2, "residual")


class Attention(base.Attention):
    """GPT-OSS's attention: the pattern is the softmax over the scores and each head's sink, the sink dropped."""

    def _probabilities(self) -> Pattern:
        scores = self.attention_scores.float()
        sinks = self._module.sinks.float().reshape(1, -1, 1, 1).expand(*scores.shape[:-1], 1)
        joined = torch.cat([scores, sinks], dim=-1).softmax(-1)
        return joined[..., :-1].to(self.attention_queries.dtype)

    attention_probabilities = DerivedEProperty(
        _probabilities,
        description="The attention pattern the values are mixed with, each head's sink taking its share",
        unavailable=on_decode_step,
    )


class Moe(base.Moe):
    """GPT-OSS's mixture: the router's logits at ``router``, the experts in ``FusedMoE``, no shared expert."""

    GATE = "router"


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {TransformerBlock: Layer, OAIAttention: Attention, MLPBlock: Moe}
