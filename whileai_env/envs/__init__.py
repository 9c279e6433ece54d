"""Faces on the episode engine: Gymnasium (``envs.gym``) and verifiers (``envs.verifiers``)."""
