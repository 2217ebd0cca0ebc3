"""PP-Chart2Table (`GotOcr2ForConditionalGeneration`): GOT-OCR2's class over Qwen2's text model.

The checkpoint builds GOT-OCR2's wrapper class: the text stack under
`model.language_model`, served with Qwen2's classes (`nnterp.families.qwen2`), a SAM
tower (`vision`, at `model.vision_tower`) whose windowed blocks run on an
`[images, rows, columns, width]` grid before a convolutional neck, and two strided
convolutions (at `model.multi_modal_projector`) as `projector`; the wrapper scatters in
`GotOcr2Model`. No class here keys that tower or the scatter, so `vision` is a plain
envoy and serves no value.
"""

from nnterp.components.vision import SIGLIP_WRAPPER_RENAME
from nnterp.families import qwen2

RENAME = {**qwen2.RENAME, **SIGLIP_WRAPPER_RENAME}

ENVOYS = dict(qwen2.ENVOYS)
