"""What several components read: sentences, clauses, scope, cue sense, the text as a reader sees it, the shipped parse pipeline."""
