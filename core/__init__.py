"""The shared kernel: no domain. API plumbing, errors, idempotency, background jobs, health."""
