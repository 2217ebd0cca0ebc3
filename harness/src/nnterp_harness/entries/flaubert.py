from ..entry import INIT_STD, TEXT_DEFAULTS, Entry


def prepare(model) -> None:
    """Save no generation config: FlauBERT's masked-LM class can generate, but the checkpoint is an encoder's.

    transformers saves a generation config beside the weights of every model that
    answers `can_generate()`; an encoder's checkpoint holds none, as BERT's does, so
    this instance answers no.
    """
    model.can_generate = lambda: False


ENTRIES = (
    Entry(
        "flaubert",
        "flaubert",
        {
            **{key: TEXT_DEFAULTS[key] for key in ("tie_word_embeddings",)},
            "emb_dim": 64,
            "n_layers": 2,
            "n_heads": 4,
            "causal": False,
            "pre_norm": False,
            "gelu_activation": True,
            "n_langs": 1,
            "max_position_embeddings": 128,
            "pad_token_id": 0,
            "pad_index": 0,
            "unk_index": 0,
            "mask_token_id": 3,
            "mask_index": 3,
            "dropout": 0.0,
            "attention_dropout": 0.0,
            "layerdrop": 0.0,
            "summary_first_dropout": 0.0,
            "init_std": INIT_STD,
            "embed_init_std": INIT_STD,
        },
        tokenizer="encoder",
        auto_class="AutoModelForMaskedLM",
        prepare=prepare,
    ),
)
