"""Qwen3-Omni's thinker text model (`Qwen3OmniMoeThinkerTextModel`), on `Qwen3OmniMoeThinkerForConditionalGeneration`.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

Qwen3-VL-MoE's text model (`qwen3_vl_moe_text`) inside Qwen2.5-Omni's thinker
layout (`qwen2_5_omni_text`): per-head query and key norms under the interleaved
multimodal rotary embedding, and an `mlp` that is Qwen3-MoE's mixture (a softmax
over every expert, the top `top_k` kept and always renormalized, grouped experts,
no shared expert); blocks in `mlp_only_layers`, or off the `decoder_sparse_step`
schedule, carry a dense MLP. The thinker holds the text model under
`model.language_model`, the Qwen3 ViT (`vision`) under `model.visual` (packed
patches, a learned position grid, per-image attention, `PER_IMAGE`, no final norm)
with its merger (`projector`) running inside it, and an audio tower under
`model.audio_tower`. DeepStack as Qwen3-VL's: the text model adds the k-th tapped
tower block's merger output to the image rows after text block k, so block k+1
receives `layers[k].deepstack_output`, read at block k's occurrence of
`_deepstack_process` and only in a run with an image. `Qwen3OmniMoeThinkerModel`
scatters the audio features first, then the image's, then the video's;
`image_features` is read at the image's scatter. That model is keyed by its path
(`model`), since a release that has the type but not the class imports this module
too. Audio values are not served: the audio tower has no standard names or values,
and a run without audio leaves it idle.
"""

from transformers.models.qwen3_omni_moe.modeling_qwen3_omni_moe import (
    Qwen3OmniMoeThinkerTextAttention,
    Qwen3OmniMoeThinkerTextDecoderLayer,
    Qwen3OmniMoeThinkerTextMLP,
    Qwen3OmniMoeThinkerTextModel,
    Qwen3OmniMoeThinkerTextSparseMoeBlock,
    Qwen3OmniMoeVisionAttention,
    Qwen3OmniMoeVisionBlock,
    Qwen3OmniMoeVisionEncoder,
    Qwen3OmniMoeVisionMLP,
)

from nnterp.components import Attention, Mlp, QwenVision, QwenVisionAttention, VisionLayer, VisionMlp
from nnterp.components.deepstack import DeepstackLayer, DeepstackTextModel
from nnterp.families import qwen2_5_omni_text, qwen3_moe, qwen3_vl_text

RENAME = {**qwen3_vl_text.RENAME}


ENVOYS = {
    Qwen3OmniMoeThinkerTextModel: DeepstackTextModel,
    Qwen3OmniMoeThinkerTextDecoderLayer: DeepstackLayer,
    Qwen3OmniMoeThinkerTextAttention: Attention,
    Qwen3OmniMoeThinkerTextMLP: Mlp,
    Qwen3OmniMoeThinkerTextSparseMoeBlock: qwen3_moe.Moe,
    Qwen3OmniMoeVisionEncoder: QwenVision,
    Qwen3OmniMoeVisionBlock: VisionLayer,
    Qwen3OmniMoeVisionAttention: QwenVisionAttention,
    Qwen3OmniMoeVisionMLP: VisionMlp,
    # Keyed by path: a release before `Qwen3OmniMoeThinkerModel` lacks the class, and this module imports there too.
    "model.model": qwen2_5_omni_text.ThinkerScatter,
}
