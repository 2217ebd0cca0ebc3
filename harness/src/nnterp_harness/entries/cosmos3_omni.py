from ..entry import GROUPED_LLAMA_SHAPE, Entry
from ..tokenizer import special_token_ids
from ..vision import WRAPPED_VOCAB
from .qwen2_vl import qwen_processor
from .qwen3_5 import QWEN3_VIT, QWEN_VISION_TOKENS, SIDE


def _processor(tokenizer, config):
    # The release maps no processor to this type; the hub checkpoint's is Qwen3-VL's.
    parts = qwen_processor(SIDE)(tokenizer, config)
    parts.settings["processor_class"] = "Qwen3VLProcessor"
    return parts


#: Cosmos3 Omni: Qwen3-VL's architecture under its own wrapper classes; the Qwen3 ViT, whose blocks 0 and 1 also
#: feed deepstack mergers re-added after text blocks 0 and 1, on Qwen3-VL's text model (three blocks, so the last
#: re-adds nothing).
ENTRIES = (
    Entry(
        "cosmos3_omni",
        "cosmos3_omni",
        {
            "text_config": {
                **GROUPED_LLAMA_SHAPE,
                "num_hidden_layers": 3,
                "head_dim": 16,
                "vocab_size": WRAPPED_VOCAB,
                **special_token_ids(),
                "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0, "mrope_section": [4, 2, 2]},
            },
            "vision_config": {**QWEN3_VIT, "deepstack_visual_indexes": [0, 1]},
            **QWEN_VISION_TOKENS,
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)
