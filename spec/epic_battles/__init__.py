"""Epic Battles: its rules as a transition system (:mod:`spec.epic_battles.game`), its
rule index (``rules.tsv``) and its card database (``cards/``)."""
