"""The searching agent's parts: positions built from a view, candidate answers, rollouts and their scoring."""
