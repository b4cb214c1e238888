"""Periodic scheduling adapters: the PostgreSQL claim/run record and the scheduler loop."""
