from ..entry import Entry
from .inkling2_text import INKLING2_SHAPE

#: Inkling 2 with a loop, in miniature: four blocks in attention-residual groups of two, the second group looped
#: twice; one block of each class (a sliding and a full block before the loop, a sliding and a full looped block),
#: the looped full block inside its group; Inkling 2's heads and narrow experts keep the four blocks small.
INKLING2_LOOP_SHAPE = {
    **INKLING2_SHAPE,
    "num_hidden_layers": 4,
    "layer_types": ["hybrid_sliding", "hybrid", "hybrid_sliding", "hybrid"],
    "loop_layer_index_start": 2,
    "loop_layer_index_end": 4,
    "loop_num_passes": 2,
    "loop_gate_rank": 8,
}

ENTRIES = (Entry("inkling2_loop_text", "inkling2_loop_text", INKLING2_LOOP_SHAPE),)
