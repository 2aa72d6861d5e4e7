"""Python ports of public EAAI Gin Rummy Challenge players, playable on rummylab's gin engine.

``simple.SimpleGinRummyPlayer`` (tneller/gin-rummy-eaai) and ``marjj.MarjjV5Player``
(aqib-a99/MARJJ, the EAAI 2021 winner); ``ginrummyutil`` ports the framework's melding, ``seat``
rebuilds what a Java player would have been told from a rummylab state. See README.md.
"""
