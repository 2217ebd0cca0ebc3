from typing import Any

from ..entry import GROUPED_LLAMA_SHAPE, Entry
from ..tokenizer import special_token_ids
from ..vision import IMAGE_TOKEN, SIGLIP_TOWER, WRAPPED_VOCAB, chat_template, image_token_id, with_image_tokens

#: The tiny text model of the llava line: Qwen2's block, two layers, the wrapped vocabulary.
QWEN2_TEXT: dict[str, Any] = {
    "model_type": "qwen2",
    **GROUPED_LLAMA_SHAPE,
    "num_hidden_layers": 2,
    "vocab_size": WRAPPED_VOCAB,
    "tie_word_embeddings": True,
    **special_token_ids(),
}
#: The SigLIP tower of the llava line, with no pooling head.
SIGLIP_VISION: dict[str, Any] = {"model_type": "siglip_vision_model", **SIGLIP_TOWER}
#: Llava 1.5's CLIP tower, shrunk as SigLIP's is: a CLS token before the patches, `post_layernorm` on it alone.
CLIP_VISION: dict[str, Any] = {
    "model_type": "clip_vision_model",
    **{key: value for key, value in SIGLIP_TOWER.items() if key != "vision_use_head"},
}
#: The text model of the Vicuna-based wrappers: Llama's block, two layers, the wrapped vocabulary.
LLAMA_TEXT: dict[str, Any] = {**QWEN2_TEXT, "model_type": "llama"}
#: The text model of the Qwen3-based wrappers: Qwen3's block (per-head query/key norms), two layers.
QWEN3_TEXT: dict[str, Any] = {**QWEN2_TEXT, "model_type": "qwen3", "head_dim": 16}
#: The Pixtral tower shrunk as SigLIP's is: two blocks of width 32, 8-pixel patches, images up to 32 pixels.
PIXTRAL_VISION: dict[str, Any] = {
    "model_type": "pixtral",
    **{key: value for key, value in SIGLIP_TOWER.items() if key != "vision_use_head"},
    "head_dim": SIGLIP_TOWER["hidden_size"] // SIGLIP_TOWER["num_attention_heads"],
}
#: The image tokens of one SigLIP image: one per patch.
SIGLIP_PATCHES = (SIGLIP_TOWER["image_size"] // SIGLIP_TOWER["patch_size"]) ** 2


def llava_config(text: dict[str, Any] = QWEN2_TEXT, vision: dict[str, Any] = SIGLIP_VISION, **own: Any) -> dict:
    """The overrides of a wrapper of the llava line: `text` and `vision` as sub-configs, `<image>` as image token.

    The projector reads the last block in full (no CLS token to drop) unless `own`
    names its feature layers itself.
    """
    feature = {"vision_feature_layer": -1, "vision_feature_select_strategy": "full"}
    if "vision_feature_layers" in own:
        feature = {}
    return {
        "text_config": text,
        "vision_config": vision,
        "image_token_id": image_token_id(),
        "tie_word_embeddings": True,
        **feature,
        **own,
    }


def llava_processor(processor_class: str, image_processor: Any, **own: Any) -> Any:
    """The builder of a processor of the llava line: `image_processor(config)` beside the shared tokenizer.

    `own` is passed to the processor as is; `<image>` is the placeholder its chat template writes.
    """

    def build(tokenizer, config):
        import transformers

        return getattr(transformers, processor_class)(
            image_processor=image_processor(config),
            tokenizer=with_image_tokens(tokenizer),
            chat_template=chat_template(IMAGE_TOKEN),
            **own,
        )

    return build


def _siglip_images(config):
    from transformers.models.siglip.image_processing_pil_siglip import SiglipImageProcessorPil

    side = config.vision_config.image_size
    return SiglipImageProcessorPil(size={"height": side, "width": side})


#: llava-interleave's layout: a SigLIP tower on a Qwen2 text model, the projector fed the last block.
ENTRIES = (
    Entry(
        "llava",
        "llava",
        llava_config(image_seq_length=SIGLIP_PATCHES),
        auto_class="AutoModelForImageTextToText",
        processor=llava_processor(
            "LlavaProcessor",
            _siglip_images,
            patch_size=SIGLIP_TOWER["patch_size"],
            vision_feature_select_strategy="full",
            image_token=IMAGE_TOKEN,
        ),
    ),
)
