"""Inkling 2 (`Inkling2ForConditionalGeneration`): Inkling 2's text model behind a packed, layer-scaled ViT and a 2x2 merger.

The text stack sits under `model.language_model` and is served with Inkling 2's classes
(`nnterp.families.inkling2_text`). The tower (`vision`, at `model.vision_tower`) is the
Inkling 2 ViT (`nnterp.components.inkling2_vision`): every image's CLS row and patches
packed in one row, each block scaling its sublayers' outputs per channel
(`lambda_1`, `lambda_2`), the attention called once per image, so its pattern and
scores are unavailable (`PER_IMAGE`). The tower has no final norm: `tower_output` is
the last block's stream, CLS rows included. Its `merger` (`projector`, at
`model.vision_tower.merger`) drops the CLS rows, concatenates each 2x2 group of
neighbouring patches and projects it to the text width through a two-layer MLP, one
image token per group, and `Inkling2Model` scatters the result into the token
embeddings.
"""

from transformers.models.inkling2.modeling_inkling2 import (
    Inkling2Model,
    Inkling2VisionAttention,
    Inkling2VisionEncoderLayer,
    Inkling2VisionMLP,
    Inkling2VisionModel,
)

from nnterp.components import ImageScatter, VisionLayer
from nnterp.components.inkling2_vision import (
    INKLING2_WRAPPER_RENAME,
    Inkling2LayerScaledAttention,
    Inkling2LayerScaledMlp,
    Inkling2Vision,
)
from nnterp.families import inkling2_text

RENAME = {**inkling2_text.RENAME, **INKLING2_WRAPPER_RENAME}

#: The model applies its head to `final_input`'s mix of the group states and the last block's output, so the
#: lens equals the logits there.
project_on_vocab = inkling2_text.project_on_vocab
#: The logits' width, the head's `unpadded_vocab_size`, as on the text model.
vocab_size = inkling2_text.vocab_size

ENVOYS = {
    **inkling2_text.ENVOYS,
    Inkling2VisionModel: Inkling2Vision,
    Inkling2VisionEncoderLayer: VisionLayer,
    Inkling2VisionAttention: Inkling2LayerScaledAttention,
    Inkling2VisionMLP: Inkling2LayerScaledMlp,
    Inkling2Model: ImageScatter,
}
