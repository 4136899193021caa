"""What a model is asked: the witness, the support judge, the fixer."""
