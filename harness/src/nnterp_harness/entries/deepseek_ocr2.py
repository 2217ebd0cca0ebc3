from typing import Any

from ..entry import INIT_STD, Entry
from ..tokenizer import special_token_ids
from ..vision import IMAGE_TOKEN, WRAPPED_VOCAB, chat_template, image_token_id, with_image_tokens

#: The side of the global view, in pixels: SAM's 2-pixel patches make a 48x48 grid, and the two stride-2
#: convolutions after its neck bring it to 12x12, the 144 rows the smaller of the encoder's fixed query sets
#: (`query_768_resolution`) matches.
SIDE = 96
#: SAM's patch side, and the downsampling of its grid before the encoder, as the processor counts them.
SAM_PATCH = 2
DOWNSAMPLE = 4
#: SAM's ViT shrunk to two windowed blocks of width 16 (a global block over the 2304 patches would cost more than
#: the rest of the run), with no learned position grid (its 48x48 rows would outweigh the rest of the
#: checkpoint); the neck and the two convolutions end at the encoder's width.
SAM_VISION: dict[str, Any] = {
    "hidden_size": 16,
    "output_channels": 16,
    "downsample_channels": [16, 16],
    "num_hidden_layers": 2,
    "num_attention_heads": 2,
    "mlp_dim": 32,
    "image_size": SIDE,
    "patch_size": SAM_PATCH,
    "window_size": 12,
    "global_attn_indexes": [],
    "use_abs_pos": False,
    # Its default (1e-10) leaves the tower's weights all but zero.
    "initializer_range": 0.02,
}
#: The encoder (Qwen2's block) shrunk to two blocks of width 16 with grouped keys and values: its 400 learned
#: queries (144 and 256, fixed by the modeling code) make its width the checkpoint's cost.
ENCODER: dict[str, Any] = {
    "hidden_size": 16,
    "intermediate_size": 32,
    "num_hidden_layers": 2,
    "num_attention_heads": 2,
    "num_key_value_heads": 1,
    "vocab_size": 1,
    "initializer_range": INIT_STD,
}
#: The text model: Llama's attention (as many key/value heads as query heads) over DeepSeek-V2's blocks, a dense
#: first block, then a greedy softmax mixture of 8 experts, 2 per token, with a shared expert.
DEEPSEEK_OCR2_TEXT: dict[str, Any] = {
    "hidden_size": 64,
    "intermediate_size": 64,
    "num_hidden_layers": 2,
    "num_attention_heads": 4,
    "num_key_value_heads": 4,
    "mlp_layer_types": ["dense", "sparse"],
    "moe_intermediate_size": 8,
    "n_routed_experts": 8,
    "n_shared_experts": 1,
    "num_experts_per_tok": 2,
    "topk_method": "greedy",
    "routed_scaling_factor": 2.5,
    "max_position_embeddings": 1024,
    "vocab_size": WRAPPED_VOCAB,
    "initializer_range": INIT_STD,
    "attention_dropout": 0.0,
    **special_token_ids(),
}


def _processor(tokenizer, config):
    from transformers import DeepseekOcr2Processor
    from transformers.models.deepseek_ocr2.image_processing_pil_deepseek_ocr2 import DeepseekOcr2ImageProcessorPil

    # Tiles are the global view's size, so an image no larger than it is one view and one tower call.
    images = DeepseekOcr2ImageProcessorPil(size={"height": SIDE, "width": SIDE}, tile_size=SIDE)
    return DeepseekOcr2Processor(
        image_processor=images,
        tokenizer=with_image_tokens(tokenizer, image_token=IMAGE_TOKEN),
        chat_template=chat_template(IMAGE_TOKEN),
        patch_size=SAM_PATCH,
        downsample_ratio=DOWNSAMPLE,
    )


#: DeepSeek-OCR 2: a SAM tower whose downsampled grid feeds a Qwen2-block encoder with learned queries, a linear
#: projector on the queries' rows, a learned separator after each image, on a DeepSeek-V2-mixture text model.
ENTRIES = (
    Entry(
        "deepseek_ocr2",
        "deepseek_ocr2",
        {
            "text_config": DEEPSEEK_OCR2_TEXT,
            "vision_config": {"sam_config": SAM_VISION, "encoder_config": ENCODER},
            "image_token_id": image_token_id(),
            "tie_word_embeddings": True,
            "initializer_range": INIT_STD,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)
