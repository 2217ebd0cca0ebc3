from ..entry import GPT2_POSITIONS, INIT_STD, Entry


def stamp_gpt_sw3(config) -> None:
    """Make the saved config name "gpt-sw3".

    GPT2Config serves both types and writes its class's `model_type`, "gpt2", into
    config.json whatever the instance says, so the config becomes a same-named
    subclass whose type is "gpt-sw3" (the auto classes map config classes by name).
    """
    config.model_type = "gpt-sw3"
    config.__class__ = type(type(config).__name__, (type(config),), {"model_type": "gpt-sw3"})


ENTRIES = (
    Entry(
        "gpt_sw3",
        "gpt-sw3",
        {
            "n_embd": 64,
            "n_layer": 2,
            "n_head": 4,
            "n_inner": 96,
            "n_positions": GPT2_POSITIONS,
            "resid_pdrop": 0.0,
            "embd_pdrop": 0.0,
            "attn_pdrop": 0.0,
            "summary_first_dropout": 0.0,
            "scale_attn_by_inverse_layer_idx": True,
            "initializer_range": INIT_STD,
        },
        configure=stamp_gpt_sw3,
    ),
)
