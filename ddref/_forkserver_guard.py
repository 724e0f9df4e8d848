"""Imported only in the replay workers' forkserver, which ``ddref.serving.ReplayPool`` preloads it into.

The forkserver then gets SIGKILL when the server ends, however it ends (even by SIGKILL itself), and
each worker gets SIGKILL when the forkserver ends: no replay outlives its server. (Without this the
forkserver waits for its workers, and a runaway replay would run on after its server was killed.)
Importing it anywhere else would tie that process's life to its parent's.
"""

from .serving import die_with_parent

die_with_parent()
