"""Qwen3.5-MoE (`Qwen3_5MoeForCausalLM`): Qwen3.5's hybrid of gated DeltaNet and gated-query attention, with mixtures.

`config.layer_types` gives each block either `linear_attn`, a gated DeltaNet mixer
(`LinearAttention`), or `self_attn`, softmax attention whose query projection is
twice as wide and carries a sigmoid gate applied to the heads before `o_proj`.
Llama's order follows:
`h = x + mixer(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`,
with `mixer` the block's `self_attn` or `linear_attn`. Every block's `mlp` is a
mixture: a softmax top-k router with renormalized weights, grouped experts and a
sigmoid-gated shared expert, as Qwen2-MoE's. The norms scale by `1 + weight`.
The mixer's state per token needs `nnterp.route_kernels(model.family, "torch")`
before the first trace.

The family also serves the `Qwen3_5MoeForConditionalGeneration` wrapper, loaded
with `task="image-text-to-text"`, as `qwen3_5_text` serves Qwen3.5's: the text
model under `model.language_model` under the multimodal rotary embedding, and the
Qwen3 ViT (`vision`, at `model.visual`), packed, with per-image attention
(`PER_IMAGE`), no final norm, and its merger (`projector`) running inside it. The
wrapper under the default task loads `Qwen3_5MoeForCausalLM`, with no tower.
"""

from transformers.models.qwen3_5_moe.modeling_qwen3_5_moe import (
    Qwen3_5MoeAttention,
    Qwen3_5MoeDecoderLayer,
    Qwen3_5MoeGatedDeltaNet,
    Qwen3_5MoeMLP,
    Qwen3_5MoeModel,
    Qwen3_5MoeSparseMoeBlock,
    Qwen3_5MoeVisionAttention,
    Qwen3_5MoeVisionBlock,
    Qwen3_5MoeVisionMLP,
    Qwen3_5MoeVisionModel,
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
from nnterp.families import qwen2_moe

RENAME = {
    **qwen2_moe.RENAME,
    **WRAPPED_TEXT_RENAME,
    "model.visual": "vision",
    "model.visual.merger": "projector",
    **QWEN3_TOWER_RENAME,
}


ENVOYS = {
    Qwen3_5MoeDecoderLayer: HybridLayer,
    Qwen3_5MoeAttention: Attention,
    Qwen3_5MoeGatedDeltaNet: LinearAttention,
    Qwen3_5MoeMLP: Mlp,
    Qwen3_5MoeSparseMoeBlock: qwen2_moe.Moe,
    Qwen3_5MoeVisionModel: QwenVision,
    Qwen3_5MoeVisionBlock: VisionLayer,
    Qwen3_5MoeVisionAttention: QwenVisionAttention,
    Qwen3_5MoeVisionMLP: VisionMlp,
    Qwen3_5MoeModel: ImageScatter,
}
