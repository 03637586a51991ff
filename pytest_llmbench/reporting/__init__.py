"""Turning item results into the leaderboard and the files of the report dir."""
