"""One screen per job; each reads the app's latest table updates and asks through its bridge."""
