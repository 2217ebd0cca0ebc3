"""Qwen3-Omni's thinker text model (`Qwen3OmniMoeThinkerTextModel`): Qwen3-VL-MoE's text model, DeepStack taps included.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

Qwen3-VL-MoE's text model (`qwen3_vl_moe_text`): per-head query and key norms under
the interleaved multimodal rotary embedding, and an `mlp` that is Qwen3-MoE's mixture
(a softmax over every expert, the top `top_k` kept and always renormalized, grouped
experts, no shared expert); blocks in `mlp_only_layers`, or off the
`decoder_sparse_step` schedule, carry a dense MLP. DeepStack as Qwen3-VL's: the text
model adds the k-th visual embedding it is handed to the image rows after text block
k, so block k+1 receives `layers[k].deepstack_output`, read at block k's occurrence of
`_deepstack_process` and only in a run with an image. The text model's own names
(`embed_tokens`, `layers`, `norm`) are the standard ones.

The Qwen3-Omni thinker wrapper (`qwen3_omni_moe_thinker`) is served by `nnterp.families.qwen3_omni_moe_thinker`.
"""

from transformers.models.qwen3_omni_moe.modeling_qwen3_omni_moe import (
    Qwen3OmniMoeThinkerTextAttention,
    Qwen3OmniMoeThinkerTextDecoderLayer,
    Qwen3OmniMoeThinkerTextMLP,
    Qwen3OmniMoeThinkerTextModel,
    Qwen3OmniMoeThinkerTextSparseMoeBlock,
)

from nnterp.components import Attention, Mlp
from nnterp.components.deepstack import DeepstackLayer, DeepstackTextModel
from nnterp.families import qwen3_moe

#: Empty: the text model's names are the standard ones, and only a wrapper nests it under a path of its own.
RENAME = {}

ENVOYS = {
    Qwen3OmniMoeThinkerTextModel: DeepstackTextModel,
    Qwen3OmniMoeThinkerTextDecoderLayer: DeepstackLayer,
    Qwen3OmniMoeThinkerTextAttention: Attention,
    Qwen3OmniMoeThinkerTextMLP: Mlp,
    Qwen3OmniMoeThinkerTextSparseMoeBlock: qwen3_moe.Moe,
}
