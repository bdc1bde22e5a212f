"""Tools for story authors: the story map, automated play, play-tests and a starter story."""
