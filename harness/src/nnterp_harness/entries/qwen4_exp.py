from ..entry import Entry
from ..tokenizer import special_token_ids
from ..vision import WRAPPED_VOCAB
from .qwen2_vl import qwen_processor
from .qwen3_5 import MROPE, QWEN3_VIT, QWEN_VISION_TOKENS, SIDE
from .qwen4_exp_text import QWEN4_EXP_SHAPE, indexed_attention_unsupported

#: Qwen4-Exp's ViT: the Qwen3 ViT's shape under an axial rotary over each patch's row and column.
QWEN4_EXP_VIT = {**QWEN3_VIT, "rope_parameters": {"rope_type": "axial", "rope_theta": 10000.0}}

#: Qwen4-Exp: the Qwen3-style ViT with its merger as projector, on the hyper-connection hybrid of an indexed
#: attention block and a gated DeltaNet block with the n-gram embedding, both mixtures.
ENTRIES = (
    Entry(
        "qwen4_exp",
        "qwen4_exp",
        {
            "text_config": {
                **QWEN4_EXP_SHAPE,
                "vocab_size": WRAPPED_VOCAB,
                **special_token_ids(),
                "rope_parameters": MROPE,
            },
            "vision_config": QWEN4_EXP_VIT,
            **QWEN_VISION_TOKENS,
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=qwen_processor(SIDE),
        cannot_run=indexed_attention_unsupported,
    ),
)
