"""DeepSeek-OCR 2 (`DeepseekOcr2ForConditionalGeneration`): its mixture text model behind SAM and a query encoder.

The text stack sits under `model.language_model` and is served with DeepSeek-OCR 2's
text classes (`nnterp.families.deepseek_ocr2_text`). The tower,
`DeepseekOcr2VisionModel` (`vision`, at `model.vision_tower`), runs in two stages
(`nnterp.components.deepseek_ocr`). SAM's windowed ViT (`sam_encoder`, no alias of its
own; its blocks run on a `[images, rows, columns, width]` grid) turns the image into a
grid that its neck and two stride-2 convolutions shrink 4x by side and bring to the
encoder's width; that grid's rows are `patch_embeddings`. The encoder
(`vision_encoder`), Qwen2's blocks (`vision.layers`) and final norm (`vision.norm`),
runs on those patch rows followed by a fixed set of learned queries
(`query_768_resolution`, 144 rows, for a grid of up to 144 patches, else
`query_1024_resolution`, 256 rows), under a mask that lets the patches attend to each
other both ways and the queries to the patches and causally to each other;
`tower_output` is the final norm's output over both. The tower returns the queries'
rows alone, and the projector (`projector`, `model.multi_modal_projector`, one linear)
maps them to the text width. The wrapper then writes, per image, the projected queries
of its local tiles (the processor's crops of a large image, one more tower run on all
tiles), then of its global view, then its learned `view_separator`, and scatters them
in `DeepseekOcr2Model`, so `image_features` has one row per image more than
`projector.output`.
"""

from transformers.models.deepseek_ocr2.modeling_deepseek_ocr2 import (
    DeepseekOcr2Model,
    DeepseekOcr2VisionAttention,
    DeepseekOcr2VisionEncoderLayer,
    DeepseekOcr2VisionMLP,
    DeepseekOcr2VisionModel,
)

from nnterp.components import ImageScatter, VisionAttention, VisionLayer, VisionMlp
from nnterp.components.deepseek_ocr import DeepseekOcrVision
from nnterp.components.vision import LLAVA_LAYOUT_RENAME
from nnterp.families import deepseek_ocr2_text

RENAME = {
    **deepseek_ocr2_text.RENAME,
    **LLAVA_LAYOUT_RENAME,
    # The encoder's names, keyed relative to the tower.
    "vision_encoder.layers": "layers",
    "vision_encoder.norm": "norm",
}


ENVOYS = {
    **deepseek_ocr2_text.ENVOYS,
    DeepseekOcr2VisionModel: DeepseekOcrVision,
    DeepseekOcr2VisionEncoderLayer: VisionLayer,
    DeepseekOcr2VisionAttention: VisionAttention,
    DeepseekOcr2VisionMLP: VisionMlp,
    DeepseekOcr2Model: ImageScatter,
}
