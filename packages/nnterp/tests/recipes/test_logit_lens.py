"""Logit lens: where in depth the answer emerges.

`model.project_on_vocab(layer.layer_output)` decodes the stream leaving each block
through the model's own final norm and head, so one loop over `model.layers` is the
lens on every family. At the last block it is the model's own computation, which is
the wiring check: it must equal `model.logits`.
"""

import torch

CLEAN = "The Eiffel Tower is in the city of"


def test_p_paris_rises_through_the_blocks(demo, token):
    paris = token(" Paris")
    lens = []  # bound outside the trace
    with demo.trace(CLEAN):
        for layer in demo.layers:
            lens.append(demo.project_on_vocab(layer.layer_output)[0, -1].save())
        logits = demo.logits[0, -1].save()

    assert torch.equal(lens[-1], logits)  # the wiring check
    p = [float(row.softmax(-1)[paris]) for row in lens]
    assert p[-1] > p[0], p  # the answer grows with depth
    assert p[-1] == max(p), p
    assert int(lens[-1].argmax()) == paris  # and the model says Paris
