from typing import Any

from ..entry import INIT_STD, MAX_POSITIONS, Entry

#: Keys later releases write into DBRX's sub-configs and transformers 5.17's `DbrxFFNConfig` refuses.
UNREAD_BY_5_17 = ("_name_or_path", "output_attentions")


def portable_sub_configs(config: Any) -> None:
    """Write the attention and FFN sub-configs without the keys transformers 5.17 refuses.

    DBRX's published checkpoints carry only the sub-configs' own fields; a release
    from 5.18 on writes every base key beside them, and 5.17's FFN config raises on
    `_name_or_path` and `output_attentions`. The sub-configs here serialize without those.
    """
    for sub in (config.attn_config, config.ffn_config):
        own = type(sub)

        def to_dict(self: Any, own: type = own) -> dict[str, Any]:
            written = own.to_dict(self)
            for key in UNREAD_BY_5_17:
                written.pop(key, None)
            return written

        sub.__class__ = type(own.__name__, (own,), {"to_dict": to_dict, "__module__": own.__module__})


ENTRIES = (
    Entry(
        "dbrx",
        "dbrx",
        {
            "d_model": 64,
            "n_heads": 4,
            "n_layers": 2,
            "max_seq_len": MAX_POSITIONS,
            "resid_pdrop": 0.0,
            "emb_pdrop": 0.0,
            # DBRX's attention reads `rope_theta` off its own sub-config, and clamps with
            # `clip_qkv` unconditionally: a clip at None is refused by torch.
            "attn_config": {"attn_pdrop": 0.0, "clip_qkv": 4.0, "kv_n_heads": 2, "rope_theta": 10000.0},
            "ffn_config": {
                "ffn_hidden_size": 32,
                "moe_num_experts": 4,
                "moe_top_k": 2,
                "moe_jitter_eps": 0.0,
                "moe_normalize_expert_weights": 1.0,
            },
            "initializer_range": INIT_STD,
            "tie_word_embeddings": False,
        },
        configure=portable_sub_configs,
    ),
)
