from ..entry import Entry
from ..vision import IMAGE_TOKEN, chat_template, image_token_id, with_image_tokens
from .llava import LLAMA_TEXT, SIGLIP_PATCHES, SIGLIP_VISION


def _processor(tokenizer, config):
    from transformers import DeepseekVLProcessor
    from transformers.models.deepseek_vl.image_processing_pil_deepseek_vl import DeepseekVLImageProcessorPil

    side = config.vision_config.image_size
    return DeepseekVLProcessor(
        image_processor=DeepseekVLImageProcessorPil(size={"height": side, "width": side}),
        tokenizer=with_image_tokens(tokenizer, image_token=IMAGE_TOKEN),
        chat_template=chat_template(IMAGE_TOKEN),
        num_image_tokens=SIGLIP_PATCHES,
    )


#: DeepSeek-VL: a SigLIP tower, a two-layer GELU aligner, on a Llama text model; the scatter is in the model.
ENTRIES = (
    Entry(
        "deepseek_vl",
        "deepseek_vl",
        {
            "text_config": LLAMA_TEXT,
            "vision_config": SIGLIP_VISION,
            "image_token_id": image_token_id(),
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)
