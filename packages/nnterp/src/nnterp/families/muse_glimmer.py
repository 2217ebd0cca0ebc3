"""Muse Glimmer (`MuseGlimmerForConditionalGeneration`): a sandwich text model behind a packed MoonViT-style tower.

The text model sits under `model.language_model` and is served with
`nnterp.families.muse_glimmer_text`'s classes; transformers has no causal-LM class for
it, so the wrapper is what serves it, loaded with `task="image-text-to-text"`. The tower
(`vision`, at `model.vision_tower`, `MuseVision`) embeds each patch with a linear layer
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

from transformers.models.muse_glimmer.modeling_muse_glimmer import (
    MuseGlimmerModel,
    MuseGlimmerVisionAttention,
    MuseGlimmerVisionEncoderLayer,
    MuseGlimmerVisionMLP,
    MuseGlimmerVisionModel,
)

from nnterp.components import ImageScatter, VisionLayer, VisionMlp
from nnterp.components.muse_vision import MUSE_WRAPPER_RENAME, MuseVision
from nnterp.components.vision import MoonVisionAttention
from nnterp.families import muse_glimmer_text

RENAME = {**muse_glimmer_text.RENAME, **MUSE_WRAPPER_RENAME}

#: The wrapper's head, times `output_multiplier` and softcapped, as the text family reads it.
project_on_vocab = muse_glimmer_text.project_on_vocab

ENVOYS = {
    **muse_glimmer_text.ENVOYS,
    MuseGlimmerVisionModel: MuseVision,
    MuseGlimmerVisionEncoderLayer: VisionLayer,
    MuseGlimmerVisionAttention: MoonVisionAttention,
    MuseGlimmerVisionMLP: VisionMlp,
    MuseGlimmerModel: ImageScatter,
}
