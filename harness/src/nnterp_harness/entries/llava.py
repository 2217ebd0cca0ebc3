from ..entry import GROUPED_LLAMA_SHAPE, Entry
from ..tokenizer import special_token_ids
from ..vision import IMAGE_TOKEN, SIGLIP_TOWER, WRAPPED_VOCAB, chat_template, image_token_id, with_image_tokens


def _processor(tokenizer, config):
    from transformers import LlavaProcessor
    from transformers.models.siglip.image_processing_pil_siglip import SiglipImageProcessorPil

    side = config.vision_config.image_size
    return LlavaProcessor(
        image_processor=SiglipImageProcessorPil(size={"height": side, "width": side}),
        tokenizer=with_image_tokens(tokenizer),
        patch_size=config.vision_config.patch_size,
        vision_feature_select_strategy="full",
        chat_template=chat_template(IMAGE_TOKEN),
        image_token=IMAGE_TOKEN,
    )


#: llava-interleave's layout: a SigLIP tower on a Qwen2 text model, the projector fed the last block.
ENTRIES = (
    Entry(
        "llava",
        "llava",
        {
            "text_config": {
                "model_type": "qwen2",
                **GROUPED_LLAMA_SHAPE,
                "num_hidden_layers": 2,
                "vocab_size": WRAPPED_VOCAB,
                "tie_word_embeddings": True,
                **special_token_ids(),
            },
            "vision_config": {"model_type": "siglip_vision_model", **SIGLIP_TOWER},
            "image_token_id": image_token_id(),
            "tie_word_embeddings": True,
            "vision_feature_layer": -1,
            "vision_feature_select_strategy": "full",
            "image_seq_length": (SIGLIP_TOWER["image_size"] // SIGLIP_TOWER["patch_size"]) ** 2,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)
