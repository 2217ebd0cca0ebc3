from ..entry import Entry
from ..tokenizer import special_token_ids
from ..vision import WRAPPED_VOCAB
from .qwen2_vl import qwen_processor
from .qwen3_5 import MROPE, QWEN3_VIT, QWEN_VISION_TOKENS, SIDE
from .qwen3_5_moe_text import QWEN3_5_MOE_SHAPE

#: Qwen3.5-MoE: the Qwen3 ViT, its merger as projector, on the gated-DeltaNet hybrid whose blocks are mixtures.
ENTRIES = (
    Entry(
        "qwen3_5_moe",
        "qwen3_5_moe",
        {
            "text_config": {
                **QWEN3_5_MOE_SHAPE,
                "vocab_size": WRAPPED_VOCAB,
                **special_token_ids(),
                "rope_parameters": MROPE,
            },
            "vision_config": QWEN3_VIT,
            **QWEN_VISION_TOKENS,
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=qwen_processor(SIDE),
    ),
)
