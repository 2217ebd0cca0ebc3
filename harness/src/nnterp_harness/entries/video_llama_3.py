from ..entry import GROUPED_LLAMA_SHAPE, Entry
from ..tokenizer import special_token_ids
from ..vision import SIGLIP_TOWER, WRAPPED_VOCAB, ProcessorParts, chat_template, image_token_id, with_image_tokens

#: The image side, in pixels: four 8-pixel patches on each side, each its own image token.
SIDE = 32


def _processor(tokenizer, config):
    from transformers.models.video_llama_3.image_processing_pil_video_llama_3 import (
        VideoLlama3ImageProcessorPil,
    )

    images = VideoLlama3ImageProcessorPil(
        min_pixels=SIDE * SIDE, max_pixels=SIDE * SIDE, patch_size=config.vision_config.patch_size, merge_size=1
    )
    return ProcessorParts(
        with_image_tokens(tokenizer, image_token="<|image_pad|>", video_token="<|video_pad|>"),
        images,
        chat_template("<|vision_start|><|image_pad|><|vision_end|>"),
        processor_class="VideoLlama3Processor",
    )


#: VideoLLaMA 3: a packed SigLIP-named NaViT with per-image attention, its patches read out by an MLP, on Qwen2.
ENTRIES = (
    Entry(
        "video_llama_3",
        "video_llama_3",
        {
            "text_config": {
                "model_type": "qwen2",
                **GROUPED_LLAMA_SHAPE,
                "num_hidden_layers": 2,
                "vocab_size": WRAPPED_VOCAB,
                "tie_word_embeddings": True,
                **special_token_ids(),
            },
            "vision_config": {
                key: value for key, value in SIGLIP_TOWER.items() if key not in ("vision_use_head", "image_size")
            },
            "image_token_id": image_token_id("<|image_pad|>"),
            "video_token_id": image_token_id("<|video_pad|>"),
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)
