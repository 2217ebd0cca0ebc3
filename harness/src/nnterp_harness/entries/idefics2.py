from ..entry import GROUPED_LLAMA_SHAPE, Entry
from ..tokenizer import special_token_ids
from ..vision import IMAGE_TOKEN, SIGLIP_TOWER, WRAPPED_VOCAB, chat_template, image_token_id, with_image_tokens

#: The perceiver's latents: every image becomes this many image tokens.
LATENTS = 4


def _processor(tokenizer, config):
    from transformers import Idefics2Processor
    from transformers.models.idefics2.image_processing_pil_idefics2 import Idefics2ImageProcessorPil

    side = config.vision_config.image_size
    images = Idefics2ImageProcessorPil(size={"shortest_edge": side, "longest_edge": side}, do_image_splitting=False)
    return Idefics2Processor(
        image_processor=images,
        tokenizer=with_image_tokens(tokenizer),
        image_seq_len=LATENTS,
        chat_template=chat_template(IMAGE_TOKEN),
    )


#: Idefics 2: a SigLIP-built tower, a perceiver-resampler connector, on a Mistral text model; the scatter is a
#: helper call.
ENTRIES = (
    Entry(
        "idefics2",
        "idefics2",
        {
            "text_config": {
                "model_type": "mistral",
                **GROUPED_LLAMA_SHAPE,
                "num_hidden_layers": 2,
                "head_dim": 16,
                "sliding_window": 8,
                # The processor adds `<fake_token_around_image>` and `<end_of_utterance>` after the shared ones.
                "vocab_size": WRAPPED_VOCAB + 2,
                "tie_word_embeddings": True,
                **special_token_ids(),
            },
            "vision_config": {k: v for k, v in SIGLIP_TOWER.items() if k != "vision_use_head"},
            "perceiver_config": {
                "resampler_n_latents": LATENTS,
                "resampler_depth": 1,
                "resampler_n_heads": 2,
                "resampler_head_dim": 16,
                "num_key_value_heads": 1,
                "attention_dropout": 0.0,
                # The text model's width and norm epsilon, which the config copies in with a warning otherwise.
                "hidden_size": GROUPED_LLAMA_SHAPE["hidden_size"],
                "rms_norm_eps": 1e-6,
            },
            "image_token_id": image_token_id(),
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)
