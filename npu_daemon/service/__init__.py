"""The daemon service: sockets, workers, cache and ledger. It never imports a backend by name."""
