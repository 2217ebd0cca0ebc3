"""Qwen3.5 (`Qwen3_5ForCausalLM`): a hybrid of gated DeltaNet blocks and gated-query attention blocks.

`config.layer_types` gives each block either `linear_attn`, a gated DeltaNet mixer
(`LinearAttention`), or `self_attn`, softmax attention whose query projection is
twice as wide and carries a sigmoid gate applied to the heads before `o_proj`.
Every block has the same dense MLP and Llama's order:
`h = x + mixer(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`,
with `mixer` the block's `self_attn` or `linear_attn`. The norms scale by
`1 + weight`. The mixer's state per token needs
`nnterp.route_kernels(model.family, "torch")` before the first trace.

The family also serves the `Qwen3_5ForConditionalGeneration` wrapper, loaded with
`task="image-text-to-text"`: the text model under `model.language_model`, rotated
by the multimodal rotary embedding (temporal, height and width rows interleaved
over the rotary channels), and the Qwen3 ViT (`vision`, at `model.visual`). The ViT
packs every image's patches into one row, adds a learned position grid resampled to
each image after `patch_embeddings`, and calls the attention once per image, so its
pattern and scores are unavailable (`PER_IMAGE`). It has no final norm:
`tower_output` is the last block's stream, and the merger (`projector`), which runs
inside the tower, norms it before projecting 2x2 patch groups to the text width.
The wrapper under the default task loads `Qwen3_5ForCausalLM`, with no tower.
"""

from transformers.models.qwen3_5.modeling_qwen3_5 import (
    Qwen3_5Attention,
    Qwen3_5DecoderLayer,
    Qwen3_5GatedDeltaNet,
    Qwen3_5MLP,
    Qwen3_5Model,
    Qwen3_5VisionAttention,
    Qwen3_5VisionBlock,
    Qwen3_5VisionMLP,
    Qwen3_5VisionModel,
)

from nnterp.components import (
    Attention,
    HybridLayer,
    ImageScatter,
    LinearAttention,
    Mlp,
    QwenVision,
    QwenVisionAttention,
    VisionLayer,
    VisionMlp,
)
from nnterp.components.vision import QWEN3_TOWER_RENAME, WRAPPED_TEXT_RENAME

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
    **WRAPPED_TEXT_RENAME,
    "model.visual": "vision",
    "model.visual.merger": "projector",
    **QWEN3_TOWER_RENAME,
}


class Layer(HybridLayer):
    """Qwen3.5's block: one mixer, then the MLP, each added to the stream as it is; the base holds."""


ENVOYS = {
    Qwen3_5DecoderLayer: Layer,
    Qwen3_5Attention: Attention,
    Qwen3_5GatedDeltaNet: LinearAttention,
    Qwen3_5MLP: Mlp,
    Qwen3_5VisionModel: QwenVision,
    Qwen3_5VisionBlock: VisionLayer,
    Qwen3_5VisionAttention: QwenVisionAttention,
    Qwen3_5VisionMLP: VisionMlp,
    Qwen3_5Model: ImageScatter,
}
