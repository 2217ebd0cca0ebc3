"""Muse Spark (`MuseSparkForConditionalGeneration`): a gated-add sandwich text model behind Muse Glimmer's tower.

The text model sits under `model.language_model` and is served with
`nnterp.families.muse_spark_text`'s classes; transformers has no causal-LM class for
it, so the wrapper is what serves it, loaded with `task="image-text-to-text"`. The
tower (`vision`, at `model.vision_tower`) and the projector (`projector`, at
`model.vision_adapter`) are Muse Glimmer's, under the same keys (see
`nnterp.families.muse_glimmer`): packed MoonViT-style blocks whose attention runs once
per image or window (`PER_IMAGE`), a final norm (`vision.norm`, native `ln_post`, the
end of `tower_output`) before a 2x2 pixel shuffle, and a two-layer MLP as projector;
`MuseSparkModel`'s forward scatters the projected, normed image into the token
embeddings (`image_features`). The wrapper also holds a waveform audio tower
(`model.audio_tower`), which nnterp does not serve.
"""

from transformers.models.muse_spark.modeling_muse_spark import (
    MuseSparkModel,
    MuseSparkVisionAttention,
    MuseSparkVisionEncoderLayer,
    MuseSparkVisionMLP,
    MuseSparkVisionModel,
)

from nnterp.components import ImageScatter, VisionLayer, VisionMlp
from nnterp.components.muse_vision import MUSE_WRAPPER_RENAME, MuseVision
from nnterp.components.vision import MoonVisionAttention
from nnterp.families import muse_spark_text

RENAME = {**muse_spark_text.RENAME, **MUSE_WRAPPER_RENAME}

#: The wrapper's head, times `output_multiplier` and softcapped, as the text family reads it.
project_on_vocab = muse_spark_text.project_on_vocab

ENVOYS = {
    **muse_spark_text.ENVOYS,
    MuseSparkVisionModel: MuseVision,
    MuseSparkVisionEncoderLayer: VisionLayer,
    MuseSparkVisionAttention: MoonVisionAttention,
    MuseSparkVisionMLP: VisionMlp,
    MuseSparkModel: ImageScatter,
}
