"""Export an RL environment: the tasks, the world and the reward as an installable verifiers
package (:func:`~whileai_env.export.package.export_environment`)."""
