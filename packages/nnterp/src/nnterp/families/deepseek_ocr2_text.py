"""DeepSeek-OCR 2's text model (`DeepseekOcr2TextModel`), which transformers builds only inside its wrapper.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

DeepSeek-V2's block with Llama's attention in place of the latent one: plain
multi-head attention, `head_dim = hidden_size // num_attention_heads`, under a
cos/sin rotary embedding. `config.mlp_layer_types` says which blocks carry a dense
gated MLP and which DeepSeek-V2's mixture, so the mixture values are reported per
block: the router (`gate`) scores its logits with a softmax over every expert
(with `topk_method="group_limited_greedy"` it keeps the experts of the best
`topk_group` of `n_group` groups only); `expert_weights` are the chosen softmax
scores, not renormalized, times `routed_scaling_factor`; the shared experts run on
the mixture's input after the routed experts, and the module returns the sum.

The type has no causal-LM class: the default task builds the wrapper with no
processor. The DeepSeek-OCR 2 wrapper (`deepseek_ocr2`) is served by
`nnterp.families.deepseek_ocr2`.
"""

from transformers.models.deepseek_ocr2.modeling_deepseek_ocr2 import (
    DeepseekOcr2TextAttention,
    DeepseekOcr2TextDecoderLayer,
    DeepseekOcr2TextMLP,
    DeepseekOcr2TextMoe,
)

from nnterp.components import Attention, Layer, Mlp, Moe

#: The blocks carry the standard names; the wrapper's module names where the text model sits.
RENAME: dict[str | type, str] = {}


class Moe(Moe):
    """DeepSeek-V2's mixture: a softmax router scaled by `routed_scaling_factor` (`gate`), shared experts."""

    SCORING = "softmax"
    ROUTER = "gate"
    SHARED = "shared_experts.output"


ENVOYS = {
    DeepseekOcr2TextDecoderLayer: Layer,
    DeepseekOcr2TextAttention: Attention,
    DeepseekOcr2TextMLP: Mlp,
    DeepseekOcr2TextMoe: Moe,
}
