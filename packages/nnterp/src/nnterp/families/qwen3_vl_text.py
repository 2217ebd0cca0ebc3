"""Qwen3-VL's text model (`Qwen3VLTextModel`), served on the `Qwen3VLForConditionalGeneration` wrapper.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

Qwen3's block (per-head query and key norms) under the multimodal rotary embedding,
its temporal, height and width rows interleaved over the rotary channels. The
wrapper holds the text model under `model.language_model` and the Qwen3 ViT under
`model.visual`: packed patches, a learned position grid resampled to each image after
`patch_embeddings`, per-image attention (`PER_IMAGE`), no final norm, and its merger
(`projector`) running inside it. DeepStack: the tower blocks listed in
`vision_config.deepstack_visual_indexes` each feed a merger of their own, and the
text model adds the k-th one's output to the image rows of the stream right after
text block k (`_deepstack_process`), so block k+1 receives
`layers[k].deepstack_output`, not `layers[k].layer_output`, and `image_features`
is not the whole image. `deepstack_output` is read at block k's occurrence of that
one call in the text model's forward, which is instrumented at build (`TextModel`).
Only a run with an image reaches it, so `model.order()`, which probes a text prompt,
gives it no rank. The wrapper has no causal-LM class: the default task loads it with
no processor.

And of Cosmos3 Omni (`Cosmos3OmniForConditionalGeneration`), Qwen3-VL's architecture
under its own wrapper classes: the same text model, Qwen3 ViT (`vision`, at
`model.visual`) and merger (`projector`), the deepstack taps as above, and the scatter
in `Cosmos3OmniModel`. Its reasoner serves images (and videos, through the same tower);
the unified checkpoint's generator, sound and action towers are dropped at load, so
the loaded model has no other path.
"""

from typing import Any

from transformers.models.cosmos3_omni.modeling_cosmos3_omni import Cosmos3OmniModel
from transformers.models.qwen3_vl.modeling_qwen3_vl import (
    Qwen3VLModel,
    Qwen3VLTextAttention,
    Qwen3VLTextDecoderLayer,
    Qwen3VLTextMLP,
    Qwen3VLTextModel,
    Qwen3VLVisionAttention,
    Qwen3VLVisionBlock,
    Qwen3VLVisionMLP,
    Qwen3VLVisionModel,
)

from nnterp.components import (
    Attention,
    EProperty,
    ImageScatter,
    Layer,
    Mlp,
    QwenVision,
    QwenVisionAttention,
    Standard,
    VisionLayer,
    VisionMlp,
)
from nnterp.components.layer import Residual
from nnterp.components.recurrent import pinned
from nnterp.components.vision import QWEN3_TOWER_RENAME, WRAPPED_TEXT_RENAME

RENAME = {
    **WRAPPED_TEXT_RENAME,
    "model.visual": "vision",
    "model.visual.merger": "projector",
    **QWEN3_TOWER_RENAME,
}

#: The text model's one call that adds a tower tap to the stream, once per tapped block.
DEEPSTACK_CALL = "self__deepstack_process_0"


def block_index(layer: Any) -> int:
    """The index of the text block `layer` among `model.layers`."""
    return int(layer.path.rsplit(".", 1)[-1])


def no_deepstack(layer: Any) -> str | None:
    """Why no tower tap is added after this block: no image reaches the model, or the block is past the taps."""
    vision = layer.root.__dict__.get("vision")
    reason = vision.no_images() if vision is not None else "this load has no vision tower"
    if reason:
        return reason
    taps = len(vision.tower_config.deepstack_visual_indexes)
    if block_index(layer) >= taps:
        return (
            f"no deepstack tap follows this block: the tower's {taps} taps are added after text blocks 0 to {taps - 1}"
        )
    return None


class DeepstackEProperty(EProperty):
    """A value of the text model's `_deepstack_process` call, pinned to the host block's occurrence of it.

    The call runs once per tapped block inside the text model's loop, so occurrence k
    is the one after block k; reads and writes pin the worker to it.
    """

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        if obj is None:
            return self
        self._check(obj)
        with pinned(block_index(obj) or None):
            return super().__get__(obj, owner)

    def __set__(self, obj: Any, value: Any) -> None:
        self._check(obj)
        with pinned(block_index(obj) or None):
            super().__set__(obj, value)


class TextModel(Standard):
    """The text model; its forward is instrumented at build, since `deepstack_output` is read inside it."""

    sourced = True


class Layer(Layer):
    """Qwen3-VL's decoder block; Llama's order and a bare tensor out, plus the stream after its deepstack tap."""

    @DeepstackEProperty(
        f"../../source.{DEEPSTACK_CALL}.output",
        description="The stream after this block with its tower tap added at the image rows, as the next block "
        "receives it",
        unavailable=no_deepstack,
    )
    def deepstack_output(self, value) -> Residual:
        return value


class Attention(Attention):
    """Qwen3-VL's attention; the shared eager interface after the per-head query/key norms, so the base holds."""


class Mlp(Mlp):
    """Qwen3-VL's gated MLP; the base holds."""


ENVOYS = {
    Qwen3VLTextModel: TextModel,
    Qwen3VLTextDecoderLayer: Layer,
    Qwen3VLTextAttention: Attention,
    Qwen3VLTextMLP: Mlp,
    Qwen3VLVisionModel: QwenVision,
    Qwen3VLVisionBlock: VisionLayer,
    Qwen3VLVisionAttention: QwenVisionAttention,
    Qwen3VLVisionMLP: VisionMlp,
    Qwen3VLModel: ImageScatter,
    Cosmos3OmniModel: ImageScatter,
}
