from ..entry import GROUPED_LLAMA_SHAPE, Entry
from ..tokenizer import special_token_ids
from ..vision import IMAGE_TOKEN, SIGLIP_TOWER, WRAPPED_VOCAB, chat_template, image_token_id, with_image_tokens

#: The connector's pixel shuffle: each image's 4x4 patches become 2x2 image tokens.
SCALE_FACTOR = 2


def _processor(tokenizer, config):
    from transformers import Idefics3Processor
    from transformers.models.idefics3.image_processing_pil_idefics3 import Idefics3ImageProcessorPil

    side = config.vision_config.image_size
    images = Idefics3ImageProcessorPil(
        size={"longest_edge": side}, max_image_size={"longest_edge": side}, do_image_splitting=False
    )
    patches = (side // config.vision_config.patch_size) ** 2
    return Idefics3Processor(
        image_processor=images,
        tokenizer=with_image_tokens(tokenizer),
        image_seq_len=patches // SCALE_FACTOR**2,
        chat_template=chat_template(IMAGE_TOKEN),
    )


#: Idefics 3: a SigLIP-built tower, a pixel-shuffle connector, on a Llama text model; the scatter is a helper call.
ENTRIES = (
    Entry(
        "idefics3",
        "idefics3",
        {
            "text_config": {
                "model_type": "llama",
                **GROUPED_LLAMA_SHAPE,
                "num_hidden_layers": 2,
                # The processor adds `<fake_token_around_image>` and `<end_of_utterance>` after the shared ones.
                "vocab_size": WRAPPED_VOCAB + 2,
                "tie_word_embeddings": True,
                **special_token_ids(),
            },
            "vision_config": {k: v for k, v in SIGLIP_TOWER.items() if k != "vision_use_head"},
            "scale_factor": SCALE_FACTOR,
            "image_token_id": image_token_id(),
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)
