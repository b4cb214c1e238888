"""Inventory: clusters, nodes, cards, MIG instances, time-slices, and what is allocated on them."""
