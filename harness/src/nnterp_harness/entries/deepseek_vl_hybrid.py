from ..entry import Entry
from ..vision import IMAGE_TOKEN, chat_template, image_token_id, with_image_tokens
from .llava import LLAMA_TEXT, SIGLIP_PATCHES, SIGLIP_VISION

#: The side of the high-resolution image the SAM tower takes: a 4x4 grid of 16-pixel patches.
HIGH_RES_SIDE = 64

#: SAM's ViT shrunk to two blocks, the first windowed and the second global, with a narrow neck.
SAM_VISION = {
    "model_type": "sam_vision_model",
    "hidden_size": 32,
    "output_channels": 16,
    "num_hidden_layers": 2,
    "num_attention_heads": 2,
    "mlp_dim": 64,
    "image_size": HIGH_RES_SIDE,
    "patch_size": 16,
    "window_size": 2,
    "global_attn_indexes": [1],
    "num_pos_feats": 16,
    # Its default (1e-10) leaves the tower's weights all but zero.
    "initializer_range": 0.02,
}


def _processor(tokenizer, config):
    from transformers import DeepseekVLHybridProcessor
    from transformers.models.deepseek_vl_hybrid.image_processing_pil_deepseek_vl_hybrid import (
        DeepseekVLHybridImageProcessorPil,
    )

    side = config.vision_config.image_size
    images = DeepseekVLHybridImageProcessorPil(
        size={"height": side, "width": side}, high_res_size={"height": HIGH_RES_SIDE, "width": HIGH_RES_SIDE}
    )
    return DeepseekVLHybridProcessor(
        image_processor=images,
        tokenizer=with_image_tokens(tokenizer, image_token=IMAGE_TOKEN),
        chat_template=chat_template(IMAGE_TOKEN),
        num_image_tokens=SIGLIP_PATCHES,
    )


#: DeepSeek-VL hybrid: DeepSeek-VL's SigLIP tower beside a SAM tower on a larger copy of the image, the
#: aligner joining both per patch, on a Llama text model; the scatter is in the model.
ENTRIES = (
    Entry(
        "deepseek_vl_hybrid",
        "deepseek_vl_hybrid",
        {
            "text_config": LLAMA_TEXT,
            "vision_config": SIGLIP_VISION,
            "high_res_vision_config": SAM_VISION,
            "image_token_id": image_token_id(),
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)
