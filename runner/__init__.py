"""Katari (語り): tabletop scenarios as interactive fiction, by text or by voice."""

__version__ = "0.1.0"
