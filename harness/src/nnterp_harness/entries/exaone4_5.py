from ..entry import Entry
from ..tokenizer import special_token_ids
from ..vision import WRAPPED_VOCAB, image_token_id
from .exaone4 import ENTRIES as TEXT_ENTRIES
from .qwen2_5_vl import QWEN_2_5_VIT, SIDE
from .qwen2_vl import qwen_processor

#: EXAONE 4.5: the Qwen2.5 ViT with grouped key/value heads (window attention on block 0, full on block 1), its
#: merger as projector, on EXAONE 4's post-norm text model (a sliding-window and a global block).
ENTRIES = (
    Entry(
        "exaone4_5",
        "exaone4_5",
        {
            "text_config": {
                **TEXT_ENTRIES[0].overrides,
                "model_type": "exaone4",
                "vocab_size": WRAPPED_VOCAB,
                "tie_word_embeddings": True,
                **special_token_ids(),
            },
            "vision_config": {**QWEN_2_5_VIT, "num_key_value_heads": 1},
            "image_token_id": image_token_id("<|image_pad|>"),
            "video_token_id": image_token_id("<|video_pad|>"),
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=qwen_processor(SIDE),
    ),
)
