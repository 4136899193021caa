"""Reading inputs and writing outputs safely: the same rules in every command."""
