"""A bot for the launcher's stamping tests: it connects to --host/--port and obeys one
command per line, printing on stderr what each asks, then answering "done" on the socket
(so the test knows everything it printed was written before the answer).

Commands: `move K` (prints "move K"), `burn K` (also uses 0.3 s of CPU time), `alloc K`
(also touches 64 MiB, then frees it), `flood K` (also prints 20,000 lines of 99 x's),
`long K` (also prints one line of 5,000 y's), `secret K` (also prints its reservation),
`say TEXT` (prints TEXT), `quiet K` (prints nothing), `bye` (prints "last words" without a
newline, then exits).
"""

import os
import socket
import sys
import time


def main() -> None:
    host = sys.argv[sys.argv.index("--host") + 1]
    port = int(sys.argv[sys.argv.index("--port") + 1])
    print("hello from the start", file=sys.stderr, flush=True)
    with socket.create_connection((host, port)) as conn:
        lines = conn.makefile("r", encoding="utf-8")
        for line in lines:
            command, _, arg = line.strip().partition(" ")
            if command == "bye":
                sys.stderr.write("last words")
                sys.stderr.flush()
                return
            if command == "say":
                print(arg, file=sys.stderr, flush=True)
            elif command != "quiet":
                print(f"move {arg}", file=sys.stderr, flush=True)
            if command == "burn":
                start = time.process_time()
                while time.process_time() - start < 0.3:
                    sum(range(10_000))
            elif command == "alloc":
                block = b"\x01" * (64 << 20)  # written to, page by page: resident
                del block
            elif command == "flood":
                sys.stderr.write(("x" * 99 + "\n") * 20_000)
                sys.stderr.flush()
            elif command == "long":
                print("y" * 5000, file=sys.stderr, flush=True)
            elif command == "secret":
                print(f"my code is {os.environ.get('GAUNTLET_RESERVATION')}",
                      file=sys.stderr, flush=True)
            conn.sendall(b"done\n")


if __name__ == "__main__":
    main()
