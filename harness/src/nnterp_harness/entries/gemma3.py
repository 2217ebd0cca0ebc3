from ..entry import Entry
from ..tokenizer import special_token_ids
from ..vision import SIGLIP_TOWER, WRAPPED_VOCAB, chat_template, image_token_id, with_image_tokens
from .gemma2 import GEMMA_SHAPE

#: The image tokens each image becomes: the tower's 4x4 patches pooled 2x2.
TOKENS_PER_IMAGE = 4


def _processor(tokenizer, config):
    from transformers import Gemma3Processor
    from transformers.models.gemma3.image_processing_pil_gemma3 import Gemma3ImageProcessorPil

    side = config.vision_config.image_size
    named = {"boi_token": "<start_of_image>", "image_token": "<image_soft_token>", "eoi_token": "<end_of_image>"}
    return Gemma3Processor(
        image_processor=Gemma3ImageProcessorPil(size={"height": side, "width": side}),
        tokenizer=with_image_tokens(tokenizer, **named),
        chat_template=chat_template(named["boi_token"]),
        image_seq_length=TOKENS_PER_IMAGE,
    )


#: Gemma 3: a SigLIP tower pooled by the projector, on Gemma 3's sandwich text blocks.
ENTRIES = (
    Entry(
        "gemma3",
        "gemma3",
        {
            "text_config": {
                **GEMMA_SHAPE,
                "num_hidden_layers": 2,
                "layer_types": ["sliding_attention", "full_attention"],
                "query_pre_attn_scalar": 24,
                "final_logit_softcapping": 3.0,
                "attn_logit_softcapping": 5.0,
                "vocab_size": WRAPPED_VOCAB,
                **special_token_ids(),
            },
            "vision_config": {"model_type": "siglip_vision_model", **SIGLIP_TOWER},
            "mm_tokens_per_image": TOKENS_PER_IMAGE,
            "image_token_id": image_token_id("<image_soft_token>"),
            "boi_token_id": image_token_id("<start_of_image>"),
            "eoi_token_id": image_token_id("<end_of_image>"),
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)
