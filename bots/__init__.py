"""Bundled bots that speak the real protocols over TCP."""
