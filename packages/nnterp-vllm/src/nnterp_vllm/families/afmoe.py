"""AFMoE on vLLM (``vllm.model_executor.models.afmoe``).

h = x + post_attention_layernorm(self_attn(input_layernorm(x)));
out = h + post_feedforward_layernorm(mlp(pre_feedforward_layernorm(h))), the MLP's norms spelled
``pre_mlp_layernorm`` and ``post_mlp_layernorm`` and renamed (a key that climbs to the block with ``..`` names
``post_mlp_layernorm`` itself, as aliases are not resolved in it). Gemma 2's sandwich block: the stream is carried as
``(hidden_states, residual)``, fused into ``input_layernorm`` and ``pre_mlp_layernorm``, so the contributions are
the post-norms' outputs and the stream between the sublayers enters the MLP's pre-norm. The attention norms its
queries and keys per head, turns them on the sliding-window blocks only, and multiplies vLLM's attention output by
a sigmoid of ``gate_proj`` before ``o_proj``, so ``attention_premix`` is the gated product. The first
``num_dense_layers`` blocks carry a gated MLP, the others a mixture: ``FusedMoE`` takes the sigmoid of ``gate``'s
logits (``score_func``), adds ``expert_bias`` for the choice of the top ``num_experts_per_tok`` within the best
``topk_group`` of ``n_group`` groups, renormalizes where ``route_norm`` says, weighs them by ``route_scale``, runs
those experts and, in the same call, the shared experts, returning the sum. vLLM reads the routing settings from
the config's ``score_func``, ``route_norm``, ``n_group`` and ``topk_group``, and never ties the head to the
embedding.
"""

from vllm.model_executor.models.afmoe import AfmoeAttention, AfmoeDecoderLayer, AfmoeMLP, AfmoeMoE

from nnterp.components import Residual
from nnterp_vllm import components as base
from nnterp_vllm.families import gemma2

RENAME = {
    **gemma2.RENAME,
    "pre_mlp_layernorm": "pre_feedforward_layernorm",
    "post_mlp_layernorm": "post_feedforward_layernorm",
}


def _contribution(envoy) -> str:
    # A dense block's MLP adds its post-norm's output; the shared experts' output is theirs.
    return "../post_mlp_layernorm.output" if isinstance(envoy.parent._module, AfmoeDecoderLayer) else "output"


class Layer(gemma2.Layer):
    """AFMoE's sandwich block: the stream between the sublayers enters the MLP's pre-norm."""


class Attention(gemma2.Attention):
    """AFMoE's gated attention; what the block adds is its post-norm's output."""


class Moe(base.Moe):
    """AFMoE's mixture: the router's logits at ``gate``, the shared experts inside ``FusedMoE``'s call."""

    ROUTED_KEY = None
    SHARED = "shared_experts"

    @base.Flat("../post_mlp_layernorm.output", description="What the MLP adds to the residual stream")
    def mlp_output(self, rows) -> Residual:
        return rows


class Mlp(base.Mlp):
    """A gated MLP: a dense block's, whose post-norm's output the block adds, or the shared experts."""

    @base.Flat(_contribution, description="What the MLP adds to the residual stream")
    def mlp_output(self, rows) -> Residual:
        return rows


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {AfmoeDecoderLayer: Layer, AfmoeAttention: Attention, AfmoeMoE: Moe, AfmoeMLP: Mlp}
