"""Qwen3-VL's text model (`Qwen3VLTextModel`), served on the `Qwen3VLForConditionalGeneration` wrapper.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

Qwen3's block (per-head query and key norms) under the multimodal rotary embedding,
its temporal, height and width rows interleaved over the rotary channels. The
wrapper holds the text model under `model.language_model` and the Qwen3 ViT under
`model.visual`: packed patches, a learned position grid resampled to each image after
`patch_embeddings`, per-image attention (`PER_IMAGE`), no final norm, and its merger
(`projector`) running inside it. DeepStack: the tower blocks listed in
`vision_config.deepstack_visual_indexes` each feed a merger of their own, and the
text model adds the k-th one's output to the image rows of the stream right after
text block k (`_deepstack_process`), so block k+1 receives
`layers[k].deepstack_output`, not `layers[k].layer_output`, and `image_features`
is not the whole image. `deepstack_output` is read at block k's occurrence of that
one call in the text model's forward, which is instrumented at build (`nnterp.components.deepstack`).
Only a run with an image reaches it, so `model.order()`, which probes a text prompt,
gives it no rank. The wrapper has no causal-LM class: the default task loads it with
no processor.

Cosmos3 Omni, Qwen3-VL's architecture under its own wrapper classes, is a module of its
own that composes this one's `RENAME` and `ENVOYS`.
"""

from transformers.models.qwen3_vl.modeling_qwen3_vl import (
    Qwen3VLModel,
    Qwen3VLTextAttention,
    Qwen3VLTextDecoderLayer,
    Qwen3VLTextMLP,
    Qwen3VLTextModel,
    Qwen3VLVisionAttention,
    Qwen3VLVisionBlock,
    Qwen3VLVisionMLP,
    Qwen3VLVisionModel,
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
from nnterp.components.vision import QWEN3_TOWER_RENAME, WRAPPED_TEXT_RENAME

RENAME = {
    **WRAPPED_TEXT_RENAME,
    "model.visual": "vision",
    "model.visual.merger": "projector",
    **QWEN3_TOWER_RENAME,
}

ENVOYS = {
    Qwen3VLTextModel: DeepstackTextModel,
    Qwen3VLTextDecoderLayer: DeepstackLayer,
    Qwen3VLTextAttention: Attention,
    Qwen3VLTextMLP: Mlp,
    Qwen3VLVisionModel: QwenVision,
    Qwen3VLVisionBlock: VisionLayer,
    Qwen3VLVisionAttention: QwenVisionAttention,
    Qwen3VLVisionMLP: VisionMlp,
    Qwen3VLModel: ImageScatter,
}
