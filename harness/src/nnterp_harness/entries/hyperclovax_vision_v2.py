from ..entry import GROUPED_LLAMA_SHAPE, Entry
from ..tokenizer import special_token_ids
from ..vision import WRAPPED_VOCAB, image_token_id
from .hyperclovax import ENTRIES as TEXT_ENTRIES
from .qwen2_5_vl import QWEN_2_5_VIT, SIDE
from .qwen2_vl import qwen_processor


def _processor(tokenizer, config):
    parts = qwen_processor(SIDE)(tokenizer, config)
    parts.settings["processor_class"] = "HyperCLOVAXVisionV2Processor"
    return parts


#: HyperCLOVA X Vision V2: the Qwen2.5 ViT (window attention on block 0, full on block 1) whose merger projects to
#: its own `out_hidden_size`, a linear projector to the text width, on HyperCLOVA X's sandwich block with its four
#: scales (the embedded stream, image rows included, multiplied by `embedding_multiplier`).
ENTRIES = (
    Entry(
        "hyperclovax_vision_v2",
        "hyperclovax_vision_v2",
        {
            "text_config": {
                **TEXT_ENTRIES[0].overrides,
                "model_type": "hyperclovax",
                "vocab_size": WRAPPED_VOCAB,
                **special_token_ids(),
            },
            "vision_config": {**QWEN_2_5_VIT, "out_hidden_size": GROUPED_LLAMA_SHAPE["hidden_size"] // 2},
            "image_token_id": image_token_id("<|image_pad|>"),
            "video_token_id": image_token_id("<|video_pad|>"),
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)
