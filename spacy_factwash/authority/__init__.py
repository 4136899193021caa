"""The authority-change confirmer: does a quote actually name the relation a proposer claims?"""
