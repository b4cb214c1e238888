"""GraphQL and HTTP views of the background jobs (super_admin only) and Prometheus metrics."""
