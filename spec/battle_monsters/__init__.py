"""Battle Monsters: the manual as a transition system (:mod:`spec.battle_monsters.game`), its card database and rule index."""
