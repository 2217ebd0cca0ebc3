"""Inkling 2 Loop (`Inkling2LoopForConditionalGeneration`): Inkling 2 Loop's text model behind Inkling 2's ViT and merger.

The text stack sits under `model.language_model` and is served with Inkling 2 Loop's
classes (`nnterp.families.inkling2_loop_text`). The tower (`vision`, at
`model.vision_tower`, built from an `inkling2_vision` config) is Inkling 2's ViT
(`nnterp.components.inkling2_vision`): every image's CLS row and patches packed in one
row, each block scaling its sublayers' outputs per channel, the attention called once
per image, so its pattern and scores are unavailable (`PER_IMAGE`). The tower has no
final norm: `tower_output` is the last block's stream, CLS rows included. Its 2x2
merger (`projector`, at `model.vision_tower.merger`) drops the CLS rows and projects
each group of neighbouring patches to the text width, and `Inkling2LoopModel` scatters
the merged patches into the token embeddings before the first pass.
"""

from transformers.models.inkling2.modeling_inkling2 import (
    Inkling2VisionAttention,
    Inkling2VisionEncoderLayer,
    Inkling2VisionMLP,
    Inkling2VisionModel,
)
from transformers.models.inkling2_loop.modeling_inkling2_loop import Inkling2LoopModel

from nnterp.components import ImageScatter, VisionLayer
from nnterp.components.inkling2_vision import (
    INKLING2_WRAPPER_RENAME,
    Inkling2LayerScaledAttention,
    Inkling2LayerScaledMlp,
    Inkling2Vision,
)
from nnterp.families import inkling2_loop_text

RENAME = {**inkling2_loop_text.RENAME, **INKLING2_WRAPPER_RENAME}

#: Inkling 2's lens: the final norm, `lm_head` and the softcap, in float32.
project_on_vocab = inkling2_loop_text.project_on_vocab
#: The logits' width, the head's `unpadded_vocab_size`, as on the text model.
vocab_size = inkling2_loop_text.vocab_size

ENVOYS = {
    **inkling2_loop_text.ENVOYS,
    Inkling2VisionModel: Inkling2Vision,
    Inkling2VisionEncoderLayer: VisionLayer,
    Inkling2VisionAttention: Inkling2LayerScaledAttention,
    Inkling2VisionMLP: Inkling2LayerScaledMlp,
    Inkling2LoopModel: ImageScatter,
}
