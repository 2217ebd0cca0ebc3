"""EXAONE 4 (`Exaone4ForCausalLM`): a post-norm block, global blocks without rotary embedding.

`h = x + post_attention_layernorm(self_attn(x)); out = h + post_feedforward_layernorm(mlp(h))`.

No norm feeds either sublayer, so `attention_norm_output` and `mlp_norm_output` are
unavailable and `layer_mid` is what the MLP reads; the contributions are the
post-norms' outputs. The attention norms each head's queries and keys (`q_norm`,
`k_norm`); where the config sets a sliding window, only the sliding-window blocks
rotate them, and the global blocks (`layer_types`) attend without positions.

The `Exaone4_5_ForConditionalGeneration` wrapper holds this text model under
`model.language_model` and a Qwen2.5 ViT under `model.visual` (`vision`): RMS norms,
gated MLPs, grouped key/value heads, and window attention on every block outside
`fullatt_block_indexes`. The patches are reordered into window order before the
blocks, and its block values and `tower_output` stay in that order; the merger
(`projector`) reverses it after projecting, so `image_features` is in raster order.
The attention runs once per window or image, so its pattern and scores are
unavailable (`PER_IMAGE`).
"""

from transformers.models.exaone4.modeling_exaone4 import Exaone4Attention, Exaone4DecoderLayer, Exaone4MLP
from transformers.models.exaone4_5.modeling_exaone4_5 import (
    Exaone4_5_MLP,
    Exaone4_5_Model,
    Exaone4_5_VisionAttention,
    Exaone4_5_VisionBlock,
    Exaone4_5_VisionModel,
)

from nnterp.components import (
    ImageScatter,
    PostNormLayer,
    QwenVision,
    QwenVisionAttention,
    SandwichAttention,
    SandwichMlp,
    VisionLayer,
    VisionMlp,
)
from nnterp.components.vision import QWEN_TOWER_RENAME, WRAPPED_TEXT_RENAME

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
    # The EXAONE 4.5 wrapper: the text model, the Qwen2.5 ViT, and its merger as projector.
    **WRAPPED_TEXT_RENAME,
    "model.visual": "vision",
    "model.visual.merger": "projector",
    **QWEN_TOWER_RENAME,
}


class Layer(PostNormLayer):
    """EXAONE 4's post-norm block; the post-norm base holds."""


class Attention(SandwichAttention):
    """EXAONE 4's attention; the shared eager interface after the per-head norms, the contribution post-normed."""


class Mlp(SandwichMlp):
    """EXAONE 4's gated MLP; the contribution post-normed."""


ENVOYS = {
    Exaone4DecoderLayer: Layer,
    Exaone4Attention: Attention,
    Exaone4MLP: Mlp,
    Exaone4_5_VisionModel: QwenVision,
    Exaone4_5_VisionBlock: VisionLayer,
    Exaone4_5_VisionAttention: QwenVisionAttention,
    Exaone4_5_MLP: VisionMlp,
    Exaone4_5_Model: ImageScatter,
}
