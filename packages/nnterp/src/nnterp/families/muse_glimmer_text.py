"""Muse Glimmer's text model (`MuseGlimmerTextModel`), served on the `MuseGlimmerForConditionalGeneration` wrapper.

`h = x + post_attention_layernorm(self_attn(input_layernorm(x)));
out = h + post_feedforward_layernorm(mlp(pre_feedforward_layernorm(h)))`.

Gemma 2's sandwich block, its norms centered RMS norms, under AFMoE's gated attention:
the attention norms the queries and keys per head with one weightless norm (the queries
then times `qk_scale_factor`), rotates them except on the NoPE blocks
(`layer_rope_theta` 0, full attention; the others slide), calls the shared eager
interface, and multiplies the merged heads by a sigmoid of `gate_proj` before `o_proj`,
so `attention_premix` is the gated product, not `attention_head_outputs`. The embedding
module norms its lookup with a weightless norm (`embed_tokens.embed_norm`). The wrapper
multiplies the head's output by `output_multiplier` and then softcaps it
(`final_logit_softcapping`), which `project_on_vocab` does too. transformers has no
causal-LM class for `muse_glimmer_text`, so the wrapper serves it, its text model under
`model.language_model`. Loaded with `task="image-text-to-text"`.

The tower (`vision`, at `model.vision_tower`) embeds each patch with a linear layer
(`patch_embed`, native `patch_embedder`, which adds a learned position grid resampled to
each image), norms the row (`ln_pre`), reorders the patches into windows, and runs the
MoonViT's pre-norm blocks with a 2-D rotary over every image's patches packed in one
row, `[1, patches, width]`, calling the attention once per image or window, so its
pattern and scores are unavailable (`PER_IMAGE`). It restores the patch order, norms
(`vision.norm`, native `ln_post`, the end of `tower_output`) and folds each 2x2 group of
patches into one row by a pixel shuffle. The projector (`projector`, at
`model.vision_adapter`) is a two-layer MLP; `model.vision_projection` then projects to
the text width and `model.perception_emb_norm` norms the result without weights, and
`MuseGlimmerModel`'s forward scatters it into the token embeddings (`image_features`).
"""

from typing import Any

from transformers.models.muse_glimmer.modeling_muse_glimmer import (
    MuseGlimmerModel,
    MuseGlimmerTextAttention,
    MuseGlimmerTextDecoderLayer,
    MuseGlimmerTextMLP,
    MuseGlimmerVisionAttention,
    MuseGlimmerVisionEncoderLayer,
    MuseGlimmerVisionMLP,
    MuseGlimmerVisionModel,
)

from nnterp.components import (
    EProperty,
    ImageScatter,
    QwenVision,
    SandwichAttention,
    SandwichLayer,
    SandwichMlp,
    VisionLayer,
    VisionMlp,
)
from nnterp.components.logit_lens import LogitLens
from nnterp.components.vision import (
    QWEN_TOWER_RENAME,
    WRAPPED_TEXT_RENAME,
    MoonVisionAttention,
    Patches,
    as_native,
    as_patches,
    no_tower_run,
)

__all__ = ["ENVOYS", "RENAME", "Attention", "Layer", "Mlp", "MuseVision", "MuseVisionAttention", "project_on_vocab"]

RENAME = {
    **WRAPPED_TEXT_RENAME,
    "model.vision_tower": "vision",
    "model.vision_adapter": "projector",
    # The tower's inner names, keyed relative to the tower: its blocks sit at `layers` already.
    **QWEN_TOWER_RENAME,
    "patch_embedder": "patch_embed",
    "ln_post": "norm",
}


project_on_vocab = LogitLens(multiply="output_multiplier", softcap="final_logit_softcapping")


class Layer(SandwichLayer):
    """Muse Glimmer's sandwich block; Gemma 2's norm names, so the sandwich base holds."""


class Attention(SandwichAttention):
    """Muse Glimmer's gated attention; the shared eager interface, the contribution post-normed."""


class Mlp(SandwichMlp):
    """Muse Glimmer's gated MLP (Gemma 2's); the contribution post-normed."""


class MuseVision(QwenVision):
    """The Muse Glimmer ViT: packed patches of every image in one row, a final norm before the pixel shuffle.

    `tower_output` is the final norm's output, in the patches' own order, before the pixel
    shuffle folds each 2x2 group into one row of `out_hidden_size`.
    """

    @EProperty(
        "norm.output",
        description="The last block's stream after the tower's final norm, before any pooling or projection",
        unavailable=no_tower_run,
    )
    def tower_output(self, value) -> Patches:
        return as_patches(value)

    @tower_output.postprocess
    def tower_output(self, value: Any) -> Any:
        return as_native(self, value)


class MuseVisionAttention(MoonVisionAttention):
    """The tower's attention: the MoonViT's, one interface call per image or window."""


ENVOYS = {
    MuseGlimmerTextDecoderLayer: Layer,
    MuseGlimmerTextAttention: Attention,
    MuseGlimmerTextMLP: Mlp,
    MuseGlimmerVisionModel: MuseVision,
    MuseGlimmerVisionEncoderLayer: VisionLayer,
    MuseGlimmerVisionAttention: MuseVisionAttention,
    MuseGlimmerVisionMLP: VisionMlp,
    MuseGlimmerModel: ImageScatter,
}
