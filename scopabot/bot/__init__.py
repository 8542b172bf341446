"""The Discord layer (discord.py): client, cogs, views, DM delivery. Nothing imports it."""
