"""An omni thinker's model (Qwen2.5-Omni's, Qwen3-Omni's): the wrapper model that scatters audio before the image.

The thinker's model holds the text model, the vision tower and an audio tower, and its
forward writes the audio features into the token embeddings first, then the image's,
then the video's. `ThinkerScatter` keys `image_features` on the image's scatter.
"""

from __future__ import annotations

from .vision import ImageScatter


class ThinkerScatter(ImageScatter):
    """The thinker's model: its forward scatters the audio features, then the image's, then the video's."""

    #: The second scatter of the forward's source: the first writes the audio features.
    scatter = "inputs_embeds_masked_scatter_1"
