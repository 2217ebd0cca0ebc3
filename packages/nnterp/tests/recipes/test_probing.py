"""Probing: is a property linearly decodable from the residual stream at each depth?

`get_token_activations` collects `layer_output` at the last position of every prompt,
`[layers, prompts, hidden_size]` on the CPU; a ridge probe per layer is fitted on some
landmarks and scored on held-out ones. The property is whether the landmark's city is
in Italy, which the demo model has to know to answer.
"""

import torch

from nnterp.nnsight_utils import get_token_activations
from nnterp_harness.facts import LANDMARKS


def fit_probe(x, y, ridge=1e-1):
    """Ridge regression of a {-1, +1} label on `[n, hidden_size]`; returns predict(x) -> bool."""
    mean, std = x.mean(0), x.std(0) + 1e-6
    design = lambda z: torch.cat([(z - mean) / std, torch.ones(len(z), 1)], dim=1)  # noqa: E731
    z = design(x)
    penalty = torch.eye(z.shape[1])
    penalty[-1, -1] = 0
    w = torch.linalg.solve(z.T @ z + ridge * len(z) * penalty, z.T @ (2 * y - 1))
    return lambda q: design(q) @ w > 0


def test_a_probe_per_layer(demo):
    templates = ["{} is in the city of", "{} is located in the city of"]
    items = [
        (t.format(m.subject), float(m.country in ("Italy", "France", "Spain"))) for m in LANDMARKS for t in templates
    ]
    texts = [text for text, _ in items]
    labels = torch.tensor([label for _, label in items])
    acts = get_token_activations(demo, texts, idx=-1)
    assert acts.shape == (demo.num_layers, len(texts), demo.hidden_size) and acts.device.type == "cpu"

    held_out = torch.arange(len(texts)) % 4 == 3
    train, test = (~held_out).nonzero().squeeze(1), held_out.nonzero().squeeze(1)
    accuracy = []
    for layer in range(demo.num_layers):
        predict = fit_probe(acts[layer, train], labels[train])
        accuracy.append(float((predict(acts[layer, test]) == labels[test].bool()).float().mean()))
    chance = max(float(labels[test].mean()), 1 - float(labels[test].mean()))
    assert max(accuracy) > chance, (accuracy, chance)
