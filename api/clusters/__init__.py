"""Registered Kubernetes clusters and guarded node operations: `ClustersQuery`, `ClustersMutation`."""
