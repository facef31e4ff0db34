"""The typed IR: what check makes of the rules and compile reads, and nothing else between them.

nodes.py: the node classes and the walk over them; types.py: the types of the rule language;
hidden.py: what an expression reads that some seat may not see; dump.py: the IR as text to read
(`rulecraft show GAME --ir`). It imports no other layer of rulecraft (tests/test_layers.py).
"""
