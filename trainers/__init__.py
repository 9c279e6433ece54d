"""TRL adapters for whileai-env: environment_factory classes, reward functions and callbacks.

Everything here needs the ``train`` extra (torch, transformers, trl, peft); modules import it
where they use it, so ``import trainers`` alone stays light.
"""
