"""Fairness v2: host-blind dealing (mental poker) — pure core. See docs/fairness-v2-design.md and the modules."""
