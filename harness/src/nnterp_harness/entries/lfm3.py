from ..entry import Entry
from .lfm2 import LFM2_SHAPE

#: LFM3 in miniature: LFM2's sizes over one block of each kind (a short convolution, a sliding-window and a full
#: attention), every sublayer sandwiched and every attention gated; the window covers the test prompts.
LFM3_SHAPE = {
    **{key: value for key, value in LFM2_SHAPE.items() if key not in ("full_attn_idxs", "block_auto_adjust_ff_dim")},
    "num_hidden_layers": 3,
    "layer_types": ["conv", "sliding_attention", "full_attention"],
    "head_dim": 16,
    "sliding_window": 8,
    "use_sandwich_norm": True,
    "use_attention_gate": True,
}

ENTRIES = (Entry("lfm3", "lfm3", LFM3_SHAPE),)
