"""GOT-OCR2 (`GotOcr2ForConditionalGeneration`): Qwen2's text model behind a SAM tower and a convolutional projector.

The text stack sits under `model.language_model` and is served with Qwen2's classes
(`nnterp.families.qwen2`). The SAM tower (`vision`, at `model.vision_tower`) runs its
windowed blocks on an `[images, rows, columns, width]` grid before a convolutional
neck, and two strided convolutions (at `model.multi_modal_projector`) are `projector`;
the wrapper scatters in `GotOcr2Model`. No class here keys that tower or the scatter,
so `vision` is a plain envoy and serves no value.
"""

from nnterp.components.vision import SIGLIP_WRAPPER_RENAME
from nnterp.families import qwen2

RENAME = {**qwen2.RENAME, **SIGLIP_WRAPPER_RENAME}

ENVOYS = dict(qwen2.ENVOYS)
