"""Cluster adapters implementing `domain.inventory.ports.ClusterPort`."""
