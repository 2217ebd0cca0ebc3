"""Qwen4-Exp (`Qwen4ExpForConditionalGeneration`): Qwen4-Exp's hyper-connection hybrid behind a Qwen3-style ViT.

Loaded with `task="image-text-to-text"`. The text stack sits under
`model.language_model`, under the multimodal rotary embedding, and is served with
Qwen4-Exp's classes (`nnterp.families.qwen4_exp_text`), its hyper-connection streams,
its final collapse (`norm`, at `model.language_model.hyper_connection_mixer`) and its
logit lens included. The Qwen3-style ViT (`vision`, at `model.visual`) has an axial
rotary over each patch's row and column; it packs every image's patches into one row,
adds a learned position grid resampled to each image, and calls the attention once
per image (`PER_IMAGE`). It has no final norm: `tower_output` is the last block's
stream, and its merger (`projector`, at `model.visual.merger`) norms it and runs
inside the tower. The wrapper scatters in `Qwen4ExpModel`, into the single embedded
stream before the text model copies it into the hyper-connection streams, so
`layers[0].layer_input` holds the features in every stream. Under the default task
the checkpoint loads `Qwen4ExpForCausalLM`, with no tower.
"""

from transformers.models.qwen4_exp.modeling_qwen4_exp import (
    Qwen4ExpModel,
    Qwen4ExpVisionAttention,
    Qwen4ExpVisionBlock,
    Qwen4ExpVisionMLP,
    Qwen4ExpVisionModel,
)

from nnterp.components import ImageScatter, QwenVision, QwenVisionAttention, VisionLayer, VisionMlp
from nnterp.components.vision import QWEN3_TOWER_RENAME
from nnterp.families import qwen4_exp_text

RENAME = {
    **qwen4_exp_text.RENAME,
    "model.language_model.embed_tokens": "embed_tokens",
    "model.language_model.layers": "layers",
    "model.language_model.hyper_connection_mixer": "norm",
    "model.visual": "vision",
    "model.visual.merger": "projector",
    **QWEN3_TOWER_RENAME,
}

#: The text family's collapse of every hyper-connection stream into the one stream `lm_head` reads.
collapse_streams = qwen4_exp_text.collapse_streams

#: The text family's logit lens: it collapses the streams, and no final norm follows.
project_on_vocab = qwen4_exp_text.project_on_vocab

ENVOYS = {
    **qwen4_exp_text.ENVOYS,
    Qwen4ExpVisionModel: QwenVision,
    Qwen4ExpVisionBlock: VisionLayer,
    Qwen4ExpVisionAttention: QwenVisionAttention,
    Qwen4ExpVisionMLP: VisionMlp,
    Qwen4ExpModel: ImageScatter,
}
