"""Cohere 2 MoE (`Cohere2MoeForCausalLM`): Cohere 2's parallel block with a mixture after the dense prefix.

`out = x + self_attn(input_layernorm(x)) + mlp(input_layernorm(x))`

As Cohere 2: one norm feeds both sublayers (a bias-free LayerNorm, or an RMSNorm
when `rms_norm_eps` is set), `layer_mid` is unavailable, the block adds
`(x + attn) + mlp`, and the model multiplies the head's output by `logit_scale`
(Cohere's `project_on_vocab`). `mlp_layer_types` gives the first blocks a dense
MLP (`prefix_dense_intermediate_size` wide) and the others a mixture, so the
mixture values are reported per block. The router (`gate`) keeps the top `top_k`
logits and scores them with a softmax over the kept ones, or with a sigmoid
(renormalized when `norm_topk_prob` is set) when `expert_selection_fn` is
`"sigmoid"`. With `num_shared_experts` the shared experts run on the flattened
input after the routed ones; under `shared_expert_combination_strategy="sum"` the
module returns `routed_output + shared_expert_output`, under `"average"` half that
sum.
"""

from transformers.models.cohere2_moe.modeling_cohere2_moe import (
    Cohere2MoeAttention,
    Cohere2MoeDecoderLayer,
    Cohere2MoeMLP,
    Cohere2MoeSparseMoeBlock,
)

from nnterp.components import Attention, Mlp, Moe, ParallelLayer
from nnterp.families.cohere import RENAME, project_on_vocab

__all__ = ["ENVOYS", "RENAME", "Attention", "Mlp", "Moe", "project_on_vocab"]

#: How `expert_selection_fn` names the router's scoring, in the `SCORING` vocabulary.
_SELECTION = {"softmax": "topk_softmax", "sigmoid": "sigmoid"}


class Moe(Moe):
    """Cohere 2 MoE's mixture: a top-k router (`gate`), grouped experts, optional shared experts."""

    ROUTER = "gate"

    @property
    def SCORING(self) -> str:  # noqa: N802 - the class attribute every mixture names
        """The router's scoring, from `expert_selection_fn`."""
        return _SELECTION[self._module.gate.expert_selection_fn]

    @property
    def SHARED(self) -> str | None:  # noqa: N802
        """The shared experts' output where the mixture has them."""
        return "shared_experts.output" if self._module.num_shared_experts > 0 else None


ENVOYS = {
    Cohere2MoeDecoderLayer: ParallelLayer,
    Cohere2MoeAttention: Attention,
    Cohere2MoeMLP: Mlp,
    Cohere2MoeSparseMoeBlock: Moe,
}
