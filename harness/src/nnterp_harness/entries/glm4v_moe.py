from ..entry import Entry
from ..tokenizer import special_token_ids
from ..vision import WRAPPED_VOCAB
from .deepseek_v3 import GROUPED_SIGMOID_MOE
from .glm4v import GLM4V_TEXT, GLM_VISION_TOKENS, GLM_VIT, SIDE, glm_processor

#: GLM-4.5V: GLM-4V's ViT on GLM-4-MoE's text model, a dense block then a grouped sigmoid mixture with a shared
#: expert, under GLM-4V's multimodal rotary.
ENTRIES = (
    Entry(
        "glm4v_moe",
        "glm4v_moe",
        {
            "text_config": {
                **GROUPED_SIGMOID_MOE,
                "num_attention_heads": 4,
                "num_key_value_heads": 2,
                "head_dim": 16,
                "attention_dropout": 0.0,
                "initializer_range": GLM4V_TEXT["initializer_range"],
                "max_position_embeddings": GLM4V_TEXT["max_position_embeddings"],
                "vocab_size": WRAPPED_VOCAB,
                **special_token_ids(),
                "rope_parameters": GLM4V_TEXT["rope_parameters"],
            },
            "vision_config": GLM_VIT,
            **GLM_VISION_TOKENS,
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=glm_processor(SIDE),
    ),
)
