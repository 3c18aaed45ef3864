"""Clients bundled with fairtable. They speak the documented client API only, as any third
party would, and import nothing of the node but the API client."""
