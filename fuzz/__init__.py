"""Coverage-guided fuzz targets for the wire codecs (issue #14); ``make fuzz`` runs them.

Each target module exposes ``SEEDS`` (valid inputs the fuzzer starts from) and
``one_input(data)``: feed ``data`` to one codec and check that only documented outcomes
happen (messages, ``NEED_DATA``, the end events, ``Refused``, ``ProtocolError``
subclasses, ``None`` where a mapping finds nothing). Anything else raises, which the
fuzzer reports as a crash. The targets import nothing from atheris: the tests in
``tests/hardening/`` run them on their seeds, and ``fuzz.__main__`` falls back to a
hypothesis search when atheris is not installed.

Targets: ``sc_server``, ``kettle_server``, ``kettle_decoder``, ``blokus_move``,
``hearth_options``.
"""

TARGETS = ("sc_server", "kettle_server", "kettle_decoder", "blokus_move", "hearth_options")
