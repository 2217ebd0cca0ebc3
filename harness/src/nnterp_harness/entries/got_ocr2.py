from ..entry import Entry
from ..vision import WRAPPED_VOCAB, with_image_tokens
from .llava import QWEN2_TEXT

#: GOT-OCR2's SAM tower shrunk to two blocks of width 32 (one windowed, one global) over a 32-pixel image of 4-pixel patches.
GOT_OCR2_TOWER = {
    "hidden_size": 32,
    "output_channels": 16,
    "num_hidden_layers": 2,
    "num_attention_heads": 2,
    "mlp_dim": 64,
    "image_size": 32,
    "patch_size": 4,
    "window_size": 4,
    "global_attn_indexes": [1],
    "initializer_range": 0.02,
}
#: The image tokens per image: the tower's 8x8 grid, downsampled twice by the projector's strided convolutions.
TOKENS_PER_IMAGE = 4
#: The tokens GOT-OCR2's processor writes around each image and the placeholder it expands.
GOT_TOKENS = ("<img>", "</img>", "<imgpad>", "<|im_start|>", "<|im_end|>")


def _processor(tokenizer, config):
    from transformers import GotOcr2Processor
    from transformers.models.got_ocr2.image_processing_pil_got_ocr2 import GotOcr2ImageProcessorPil

    side = config.vision_config.image_size
    tokenizer = with_image_tokens(tokenizer)
    tokenizer.add_tokens(list(GOT_TOKENS), special_tokens=True)
    images = GotOcr2ImageProcessorPil(size={"height": side, "width": side})
    return GotOcr2Processor(image_processor=images, tokenizer=tokenizer)


#: GOT-OCR2: a SAM tower with a convolutional neck, two strided convolutions as projector, on a Qwen2 text model.
ENTRIES = (
    Entry(
        "got_ocr2",
        "got_ocr2",
        {
            "text_config": {**QWEN2_TEXT, "vocab_size": QWEN2_TEXT["vocab_size"] + len(GOT_TOKENS)},
            "vision_config": GOT_OCR2_TOWER,
            "image_token_index": WRAPPED_VOCAB + GOT_TOKENS.index("<imgpad>"),
            "image_seq_length": TOKENS_PER_IMAGE,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)
