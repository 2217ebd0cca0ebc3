from types import SimpleNamespace

from ..entry import Entry
from ..tokenizer import special_token_ids
from ..vision import WRAPPED_VOCAB, ProcessorParts, chat_template, image_token_id, with_image_tokens
from .gemma4_text import GEMMA4_SHAPE, scale_blocks

#: Gemma 4's tower shrunk to two sandwich blocks of width 32 over 4-pixel patches, pooled 2x2.
GEMMA4_TOWER = {
    "hidden_size": 32,
    "intermediate_size": 64,
    "num_hidden_layers": 2,
    "num_attention_heads": 2,
    "num_key_value_heads": 2,
    "head_dim": 16,
    "patch_size": 4,
    "pooling_kernel_size": 2,
    "position_embedding_size": 64,
}
#: The fewest soft tokens per image the image processor takes: it pads the tower's patch axis to four times as many.
MAX_SOFT_TOKENS = 70
#: The tokens the processor reads off its tokenizer: the placeholder and the tokens around each image.
NAMED_TOKENS = {"image_token": "<image_soft_token>", "boi_token": "<start_of_image>", "eoi_token": "<end_of_image>"}
#: The audio tokens the processor asks its tokenizer for even on an image, added after the shared image tokens.
AUDIO_TOKENS = {"audio_token": "<audio_soft_token>", "boa_token": "<start_of_audio>", "eoa_token": "<end_of_audio>"}
#: The processor's video token, which it adds to its tokenizer when missing; saved, so the vocabulary stays put.
VIDEO_TOKEN = "<|video|>"
VIDEO_TOKEN_ID = WRAPPED_VOCAB + len(AUDIO_TOKENS)


def _processor(tokenizer, config):
    from transformers.models.gemma4.image_processing_pil_gemma4 import Gemma4ImageProcessorPil

    vision = config.vision_config
    images = Gemma4ImageProcessorPil(
        patch_size=vision.patch_size, pooling_kernel_size=vision.pooling_kernel_size, max_soft_tokens=MAX_SOFT_TOKENS
    )
    tokenizer = with_image_tokens(tokenizer)
    tokenizer.add_tokens([*AUDIO_TOKENS.values(), VIDEO_TOKEN], special_tokens=True)
    tokenizer._set_model_specific_special_tokens(special_tokens={**NAMED_TOKENS, **AUDIO_TOKENS})
    return ProcessorParts(
        tokenizer,
        images,
        chat_template(NAMED_TOKENS["image_token"]),
        processor_class="Gemma4Processor",
        image_seq_length=MAX_SOFT_TOKENS,
    )


def scale_text_blocks(model) -> None:
    """`scale_blocks` on the wrapper's text model."""
    scale_blocks(SimpleNamespace(model=model.model.language_model))


#: Gemma 4: its own sandwich-block ViT pooled 2x2, the embedder as projector, on Gemma 4's text blocks; no audio tower.
ENTRIES = (
    Entry(
        "gemma4",
        "gemma4",
        {
            "text_config": {
                **GEMMA4_SHAPE,
                "vocab_size_per_layer_input": VIDEO_TOKEN_ID + 1,
                "hidden_size_per_layer_input": 8,
                "vocab_size": VIDEO_TOKEN_ID + 1,
                **special_token_ids(),
            },
            "vision_config": GEMMA4_TOWER,
            "audio_config": None,
            "image_token_id": image_token_id("<image_soft_token>"),
            "boi_token_id": image_token_id("<start_of_image>"),
            "eoi_token_id": image_token_id("<end_of_image>"),
            "audio_token_id": WRAPPED_VOCAB,
            "boa_token_id": WRAPPED_VOCAB + 1,
            "eoa_token_index": WRAPPED_VOCAB + 2,
            "video_token_id": VIDEO_TOKEN_ID,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
        prepare=scale_text_blocks,
    ),
)
