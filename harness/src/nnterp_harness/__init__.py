"""nnterp's shared test harness: `FamilySuite`, the tiny-checkpoint builder and its pins, the pytest plugin."""
