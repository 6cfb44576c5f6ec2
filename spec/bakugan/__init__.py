"""The rules of this game: its card database for now; its transition system is yet to come."""
