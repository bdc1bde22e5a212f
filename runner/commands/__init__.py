"""One module per `katari` subcommand; each exposes ``register(subparsers)``."""
