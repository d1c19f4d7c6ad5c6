"""Thin adapters from the reward service to trainers' interfaces; each imports its trainer (if at
all) only inside itself, never the core: trl (reward_funcs, environment_factory), verl
(compute_score, interaction), http (OpenRLHF's remote reward), openenv (reset/step server)."""
