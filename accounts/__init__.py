"""Registered players: profiles, preferred language, per-game statistics and ratings.

Sign-up, login, verification and password reset are django-allauth's; this app adds what
is Baithak's own around it (see README, "Accounts").
"""
