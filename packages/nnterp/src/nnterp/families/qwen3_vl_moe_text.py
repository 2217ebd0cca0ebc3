"""Qwen3-VL-MoE's text model (`Qwen3VLMoeTextModel`), served on the `Qwen3VLMoeForConditionalGeneration` wrapper.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

Qwen3-VL's block and wrapper (`qwen3_vl_text`) with Qwen3-MoE's mixture (`qwen3_moe`):
per-head query and key norms under the interleaved multimodal rotary embedding, and an
`mlp` that is a mixture: a softmax over every expert, the top `top_k` kept and always
renormalized, grouped experts and no shared expert. Blocks in `mlp_only_layers`, or
off the `decoder_sparse_step` schedule, carry a dense MLP. The wrapper holds the text
model under `model.language_model` and the Qwen3 ViT under `model.visual`: packed
patches, a learned position grid, per-image attention (`PER_IMAGE`), no final norm,
and its merger (`projector`) running inside it. DeepStack as Qwen3-VL's: the text
model adds the k-th tapped tower block's merger output to the image rows after text
block k, so block k+1 receives `layers[k].deepstack_output`, read at block k's
occurrence of `_deepstack_process` and only in a run with an image. The wrapper has
no causal-LM class: the default task loads it with no processor.
"""

from transformers.models.qwen3_vl_moe.modeling_qwen3_vl_moe import (
    Qwen3VLMoeModel,
    Qwen3VLMoeTextAttention,
    Qwen3VLMoeTextDecoderLayer,
    Qwen3VLMoeTextMLP,
    Qwen3VLMoeTextModel,
    Qwen3VLMoeTextSparseMoeBlock,
    Qwen3VLMoeVisionAttention,
    Qwen3VLMoeVisionBlock,
    Qwen3VLMoeVisionMLP,
    Qwen3VLMoeVisionModel,
)

from nnterp.components import (
    Attention,
    ImageScatter,
    Mlp,
    QwenVision,
    QwenVisionAttention,
    VisionLayer,
    VisionMlp,
)
from nnterp.components.deepstack import DeepstackLayer, DeepstackTextModel
from nnterp.families import qwen3_moe, qwen3_vl_text

RENAME = {**qwen3_vl_text.RENAME}


ENVOYS = {
    Qwen3VLMoeTextModel: DeepstackTextModel,
    Qwen3VLMoeTextDecoderLayer: DeepstackLayer,
    Qwen3VLMoeTextAttention: Attention,
    Qwen3VLMoeTextMLP: Mlp,
    Qwen3VLMoeTextSparseMoeBlock: qwen3_moe.Moe,
    Qwen3VLMoeVisionModel: QwenVision,
    Qwen3VLMoeVisionBlock: VisionLayer,
    Qwen3VLMoeVisionAttention: QwenVisionAttention,
    Qwen3VLMoeVisionMLP: VisionMlp,
    Qwen3VLMoeModel: ImageScatter,
}
