"""Where a table's rows and its game state come from: the few SQL statements of a move
(:mod:`.rows`), the state as a replay of the log (:mod:`.replay`), and the threads that
serve the sockets' and the clock's database calls (:mod:`.db`)."""
