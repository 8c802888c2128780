"""Print-and-play kits: components as data, imposed on A4 and Letter sheets."""
