from ..entry import GROUPED_LLAMA_SHAPE, Entry
from ..tokenizer import special_token_ids
from ..vision import WRAPPED_VOCAB, with_image_tokens

#: The tokens Mllama's processor reads off its tokenizer, after the shared image tokens; the image placeholder last.
MLLAMA_TOKENS = ("<|python_tag|>", "<|image|>")
#: The image side, in pixels: one tile.
SIDE = 32


def _processor(tokenizer, config):
    from transformers import MllamaProcessor
    from transformers.models.mllama.image_processing_pil_mllama import MllamaImageProcessorPil

    tokenizer = with_image_tokens(tokenizer)
    tokenizer.add_tokens(list(MLLAMA_TOKENS), special_tokens=True)
    images = MllamaImageProcessorPil(size={"height": SIDE, "width": SIDE}, max_image_tiles=1)
    return MllamaProcessor(image_processor=images, tokenizer=tokenizer)


#: Mllama: a two-stage tiled ViT read by a cross-attention block between Llama's self-attention blocks.
ENTRIES = (
    Entry(
        "mllama",
        "mllama",
        {
            "text_config": {
                **GROUPED_LLAMA_SHAPE,
                "num_hidden_layers": 3,
                "cross_attention_layers": [1],
                "vocab_size": WRAPPED_VOCAB + len(MLLAMA_TOKENS),
                **special_token_ids(),
            },
            "vision_config": {
                "hidden_size": 16,
                "intermediate_size": 32,
                "num_hidden_layers": 2,
                "num_global_layers": 1,
                "attention_heads": 2,
                "image_size": SIDE,
                "patch_size": 8,
                "max_num_tiles": 1,
                "intermediate_layers_indices": [0],
                "vision_output_dim": 32,
                "supported_aspect_ratios": [[1, 1]],
            },
            "image_token_index": WRAPPED_VOCAB + 1,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)
