"""How the tables reach people and programs: the table and lobby sockets, the JSON API,
the channel layers and each process's clock."""
