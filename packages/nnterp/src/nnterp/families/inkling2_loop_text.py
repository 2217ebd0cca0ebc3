"""Inkling 2 Loop (`Inkling2LoopForCausalLM`): Inkling 2's blocks and block attention residuals, with a middle
range of blocks run several times, each later pass told what the pass before it found.

The blocks are Inkling 2's (see `nnterp.families.inkling2_text`): attention and
mixture sublayers that end in a short convolution, attention-residual mixes of the
group states before each sublayer, a stream restarted where a group opens. The
blocks from `loop_layer_index_start` to `loop_layer_index_end` (whole groups) run
`loop_num_passes` times. The first pass runs them as plain blocks. Every later pass
starts again from the stream and the group states the blocks before the loop left,
and each looped block receives four messages (native `message_input` mixes them out
of the previous pass's group states and final stream with one learned query per
looped block and message): before the attention, a message gate per mix moves the
queries', keys' and values' streams towards their message
(`(1 - f) * stream + g * message`, with tanh gates of both); before the MLP's norm,
a fourth gate does the same to the MLP's mix. The blocks after the loop, and the
final mix of the group states, read the last pass.

`layers[i]` is the module, so `len(layers)` is `num_hidden_layers` and a looped
block is one entry (`runs()` says how often it runs). Each of its values is its
first pass by default, in a trace and for `steer` and `skip_layers`, which act on the
first pass only; pass `k` (from 0) is nnsight's occurrence `k` of its locations, read
inside `for step in tracer.iter[k:k + 1]` (under `generate` the occurrences count the
passes of every step). The first pass takes no message, so its values are the block
as Inkling 2 runs it; `attention_norm_output` is the queries' normed stream on every
pass, the message gates sitting before the norms. The later passes keep their keys,
values and convolution windows in their own cache layers, appended after the model's.

The Inkling 2 Loop wrapper (`inkling2_loop`) is served by `nnterp.families.inkling2_loop`.
"""

from transformers.models.inkling2_loop.modeling_inkling2_loop import (
    Inkling2LoopFullAttention,
    Inkling2LoopFullDecoderLayer,
    Inkling2LoopFullLoopDecoderLayer,
    Inkling2LoopSlidingAttention,
    Inkling2LoopSlidingDecoderLayer,
    Inkling2LoopSlidingLoopDecoderLayer,
    Inkling2LoopSparseMoeBlock,
)

from nnterp.families import inkling2_text

RENAME = dict(inkling2_text.RENAME)

_LOOPED = (Inkling2LoopSlidingLoopDecoderLayer, Inkling2LoopFullLoopDecoderLayer)


class Layer(inkling2_text.Layer):
    """Inkling 2 Loop's block; Inkling 2's values, each the block's first pass."""

    def runs(self) -> int:
        """How many times the block runs in one forward: `loop_num_passes` in the loop, once elsewhere."""
        if isinstance(self._module, _LOOPED):
            return self._module.self_attn.config.loop_num_passes
        return 1


project_on_vocab = inkling2_text.project_on_vocab
#: The logits' width, the head's `unpadded_vocab_size`, as on the text model.
vocab_size = inkling2_text.vocab_size

ENVOYS = {
    Inkling2LoopSlidingDecoderLayer: Layer,
    Inkling2LoopFullDecoderLayer: Layer,
    Inkling2LoopSlidingLoopDecoderLayer: Layer,
    Inkling2LoopFullLoopDecoderLayer: Layer,
    Inkling2LoopSlidingAttention: inkling2_text.Attention,
    Inkling2LoopFullAttention: inkling2_text.Attention,
    Inkling2LoopSparseMoeBlock: inkling2_text.Moe,
}
