"""An OpenAI-compatible chat-completions endpoint answered by a reference agent or a model
(``whileai-env serve``): evals and trainers wired to an endpoint run with no model service."""
