"""Network I/O: the TCP listener, first-bytes protocol sniffing, protocol sessions."""
