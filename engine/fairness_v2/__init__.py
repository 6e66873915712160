"""Fairness v2: host-blind dealing (mental poker) — pure core. See DESIGN-fairness-v2.md and the modules."""
