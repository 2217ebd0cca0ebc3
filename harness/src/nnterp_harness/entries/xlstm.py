import torch

from ..entry import Entry


def forgetful_gates(model) -> None:
    """Draw the gate biases around zero: the init keeps every forget gate near 1, so the memory barely decays."""
    generator = torch.Generator().manual_seed(0)
    for block in model.backbone.blocks:
        layer = block.mlstm_layer
        for gate in (layer.fgate_preact, layer.igate_preact):
            gate.bias.copy_(torch.randn(gate.bias.shape, generator=generator))


#: xLSTM-7B's block in miniature: two mLSTM blocks of two heads, 32-wide queries, keys and values. The query and
#: value widths are the full 64, which the cache's rounding up to a multiple of 64 leaves as the layer has them;
#: 4-token chunks send a prompt through the chunkwise kernel and its remainder through the sequence kernel.
XLSTM_SHAPE = {
    "hidden_size": 64,
    "num_hidden_layers": 2,
    "num_heads": 2,
    "qk_dim_factor": 1.0,
    "v_dim_factor": 1.0,
    "ffn_proj_factor": 1.0,
    "chunk_size": 4,
    "autocast_kernel_dtype": "float32",
    "tie_word_embeddings": False,
}

ENTRIES = (Entry("xlstm", "xlstm", XLSTM_SHAPE, prepare=forgetful_gates),)
