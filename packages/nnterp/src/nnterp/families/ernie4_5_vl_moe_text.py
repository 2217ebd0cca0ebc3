"""ERNIE 4.5 VL's text model (`Ernie4_5_VLMoeTextModel`): an ERNIE 4.5 MoE block whose mixture is split by modality.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

An ERNIE 4.5 MoE block (Llama's order, grouped-query attention) under a multimodal
rotary embedding. The blocks `mlp_layer_types` marks `"sparse"` carry a mixture split
by modality (`Ernie4_5_VLMoeMoeBlock`): the shared experts run on every token first,
then, where the input's `moe_mm_token_type_ids` marks a vision token (an image token
or its start and end token), the text tokens' rows go through the text mixture
(`text_moe`: its own softmax router with a choice bias, `gate`, and its experts) and
the vision tokens' rows through the vision mixture (`vision_moe`, narrower experts);
each result is written into a zero tensor at its tokens' positions, and the module
returns that plus the shared experts' output, with the two routers' logits scattered
the same way. A text-only input runs the text mixture on every token.

Of the mixture values the module serves `mlp_output` and `shared_expert_output`, both
over every token. The routing values are unavailable (`MODALITY_SPLIT`): the text
router and experts run on the text tokens' rows, `[text tokens, ...]`, and only then
the vision router and experts on the vision tokens' rows, so the text tokens are routed
before any vision token's logits exist and no tensor the routing reads holds every
token. The logits the module returns, scattered back to every token, are a copy the
routing never reads, and the routed sum is a zero tensor each half writes into in place
before the shared experts are added. The native `text_moe` and `vision_moe` (each a
router `gate` and `experts`) stay reachable under `layers[i].mlp`.

The ERNIE 4.5 VL wrapper (`ernie4_5_vl_moe`) is served by `nnterp.families.ernie4_5_vl_moe`.
"""

from transformers.models.ernie4_5_vl_moe.modeling_ernie4_5_vl_moe import (
    Ernie4_5_VLMoeDecoderLayer,
    Ernie4_5_VLMoeMLP,
    Ernie4_5_VLMoeMoeBlock,
    Ernie4_5_VLMoeTextAttention,
)

from nnterp.components import unavailable
from nnterp.families import ernie4_5_moe

#: Empty: the text model's names are the standard ones, and only a wrapper nests it under a path of its own.
RENAME = {}

#: Why the routing values have no tensor over every token.
_MODALITY_SPLIT = (
    "the mixture is split by modality: the text router and experts run on the text tokens' rows, then the vision "
    "router and experts on the vision tokens' rows, so no tensor the routing reads holds every token's routing "
    "(the native text_moe and vision_moe hold each half)"
)


class Moe(ernie4_5_moe.Moe):
    """ERNIE 4.5 VL's mixture split by modality: text and vision mixtures on their own tokens, shared experts first.

    `num_experts`, `top_k` and `intermediate_size` are the text mixture's; the vision
    mixture has as many experts and slots, and its experts' width is
    `vision_intermediate_size`.
    """

    ROUTER = "text_moe"
    EXPERTS = "text_moe"

    @property
    def intermediate_size(self) -> int:
        """One text expert's width."""
        return self.text_moe.experts._module.intermediate_dim

    @property
    def vision_intermediate_size(self) -> int:
        """One vision expert's width."""
        return self.vision_moe.experts._module.intermediate_dim

    router_logits = unavailable(_MODALITY_SPLIT)
    expert_weights = unavailable(_MODALITY_SPLIT)
    expert_indices = unavailable(_MODALITY_SPLIT)
    expert_outputs = unavailable(_MODALITY_SPLIT)
    routed_output = unavailable(
        f"{_MODALITY_SPLIT}; each half is written into a zero tensor in place and the shared experts are added "
        "by an operator, so no call's output holds the routed sum"
    )


ENVOYS = {
    Ernie4_5_VLMoeDecoderLayer: ernie4_5_moe.Layer,
    Ernie4_5_VLMoeTextAttention: ernie4_5_moe.Attention,
    Ernie4_5_VLMoeMLP: ernie4_5_moe.Mlp,
    Ernie4_5_VLMoeMoeBlock: Moe,
}
