"""Sans-I/O wire codecs: bytes in, messages out; messages in, bytes out."""
