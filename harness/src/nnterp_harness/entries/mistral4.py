from ..entry import LATENT_ATTENTION_SHAPE, MAX_POSITIONS, Entry
from .deepseek_v3 import GROUPED_SIGMOID_MOE

#: Mistral 4's YaRN rotary, shrunk to the tiny position limit; past `original_max_position_embeddings` the
#: queries are scaled up by Llama 4's position factor (`llama_4_scaling_beta`).
MISTRAL4_ROPE = {
    "rope_type": "yarn",
    "rope_theta": 10000.0,
    "factor": 4.0,
    "original_max_position_embeddings": MAX_POSITIONS // 4,
    "beta_fast": 32.0,
    "beta_slow": 1.0,
    "mscale": 1.0,
    "mscale_all_dim": 1.0,
    "llama_4_scaling_beta": 0.1,
}

#: Mistral 4: DeepSeek-V3's latent attention (interleaved rotary weights) and a softmax router over 8 experts in
#: 4 groups after one dense block, with a shared expert. No causal-LM class of the auto mapping names the type:
#: its image-text-to-text class is `Mistral4ForCausalLM`, which builds it.
ENTRIES = (
    Entry(
        "mistral4",
        "mistral4",
        {**GROUPED_SIGMOID_MOE, **LATENT_ATTENTION_SHAPE, "rope_parameters": MISTRAL4_ROPE},
        auto_class="AutoModelForImageTextToText",
    ),
)
