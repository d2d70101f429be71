"""Combat's parts that more than the combat step needs: its declared frame, strength, and losses.

``engine.steps.combat`` walks the stages; ``engine.abilities`` and ``engine.cards`` read and change the same
frame through the names declared in ``engine.combat.frame``.
"""
