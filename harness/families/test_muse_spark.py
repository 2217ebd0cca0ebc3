"""Muse Spark, end to end: Muse Glimmer's tower and projector, on a text model whose adds gate the stream and the
contribution per channel, with a scaled sigmoid mixture whose experts run at a pooled width.

The vision checks are Muse Glimmer's (`test_muse_glimmer`), run on this checkpoint. The waveform audio tower is not
served; the processor is built with `MuseImages` in the image slot, no video processor, and a feature extractor.
"""

from nnterp_harness.release import family, skip_unless_known

skip_unless_known("muse_spark")
FAMILY = family("muse_spark")

import test_muse_glimmer as glimmer  # noqa: E402  - Muse Glimmer's vision checks, collected here on this wrapper

from nnterp_harness.entries.muse_spark import muse_spark_processor  # noqa: E402 - after the skip

PROCESSOR = muse_spark_processor()


class TestMuseSparkVision(glimmer.TestMuseGlimmerVision):
    CHECKPOINT = "muse_spark"
    FAMILY = FAMILY
    LOAD_KWARGS = {"processor": PROCESSOR}
