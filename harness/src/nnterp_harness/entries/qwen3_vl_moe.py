from ..entry import GROUPED_LLAMA_SHAPE, Entry
from ..tokenizer import special_token_ids
from ..vision import WRAPPED_VOCAB
from .qwen2_vl import qwen_processor
from .qwen3_5 import QWEN3_VIT, QWEN_VISION_TOKENS, SIDE

#: Qwen3-VL-MoE: Qwen3-VL's ViT with deepstack taps from blocks 0 and 1, on three text blocks whose first two are
#: mixtures of four experts (two per token) and whose last is dense (`mlp_only_layers`).
ENTRIES = (
    Entry(
        "qwen3_vl_moe",
        "qwen3_vl_moe",
        {
            "text_config": {
                **GROUPED_LLAMA_SHAPE,
                "num_hidden_layers": 3,
                "head_dim": 16,
                "moe_intermediate_size": 32,
                "num_experts": 4,
                "num_experts_per_tok": 2,
                "mlp_only_layers": [2],
                "vocab_size": WRAPPED_VOCAB,
                **special_token_ids(),
                "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0, "mrope_section": [4, 2, 2]},
            },
            "vision_config": {**QWEN3_VIT, "deepstack_visual_indexes": [0, 1]},
            **QWEN_VISION_TOKENS,
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=qwen_processor(SIDE),
    ),
)
