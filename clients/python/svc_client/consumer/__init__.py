"""Captured interactions → consumer registrations (path templates and used fields)."""
