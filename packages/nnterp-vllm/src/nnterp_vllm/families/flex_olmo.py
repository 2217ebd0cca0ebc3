"""FlexOlmo on vLLM's transformers backend (``TransformersMoEForCausalLM``, transformers' own modules).

h = x + post_attention_layernorm(self_attn(x)); out = h + post_feedforward_layernorm(mlp(h)). OLMo 2's post-norm
block with a mixture in place of the MLP. vLLM has no FlexOlmo of its own, so the block, attention and mixture are
transformers' classes with vLLM's linear layers, norms and attention layer (``self_attn.attn``) inside, and the
block's values carry the batch axis. No norm feeds a sublayer, so the contributions are the post-norms' outputs;
the attention norms its queries and keys over all heads at once before the rotary embedding. vLLM rewrites the
mixture's forward to call its fused runner (``experts``), which calls ``gate`` for the router's logits, keeps the
top ``num_experts_per_tok`` of their softmax (renormalized where ``norm_topk_prob`` says) and runs and sums those
experts in one kernel; there is no shared expert, so the runner's output is the routed sum.
"""

from transformers.models.flex_olmo.modeling_flex_olmo import (
    FlexOlmoAttention,
    FlexOlmoDecoderLayer,
    FlexOlmoSparseMoeBlock,
)

from nnterp.components import Residual
from nnterp_vllm.components import post_norm, transformers_moe
from nnterp_vllm.components.transformers_backend import Batched

#: The engine runs transformers' modules: values arrive as ``[1, tokens, ...]``.
BACKEND = True

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


class Layer(post_norm.BackendPostNormLayer):
    """FlexOlmo's post-norm block: the mixture reads the stream after the attention add."""


class Attention(post_norm.BackendPostNormAttention):
    """FlexOlmo's attention; what the block adds is its post-norm's output."""


class Moe(transformers_moe.BackendFusedMoe):
    """FlexOlmo's mixture: the router's logits at ``gate``, the experts in the runner; the block adds its post-norm's output."""

    @Batched("../post_feedforward_layernorm.output", description="What the MLP adds to the residual stream")
    def mlp_output(self, rows) -> Residual:
        return rows


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {FlexOlmoDecoderLayer: Layer, FlexOlmoAttention: Attention, FlexOlmoSparseMoeBlock: Moe}
