"""CURVE keys (zmq.auth): `ascend-gym daemon keygen DIR` writes

    DIR/server.key, DIR/server.key_secret   the daemon's pair (the secret stays on the daemon host)
    DIR/client.key, DIR/client.key_secret   a client pair (copy both, plus server.key, to clients)
    DIR/authorized/client.key               public keys the daemon accepts; add more clients here

A daemon started with `--keys DIR` speaks CURVE and admits only the clients in DIR/authorized.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import zmq
import zmq.auth
from pydantic import BaseModel


class ServerKeys(BaseModel):
    public: bytes
    secret: bytes
    authorized: Path


def keygen(directory: Path) -> list[Path]:
    """Create a server and a client key pair; authorise the client. Returns the files written."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "authorized").mkdir(exist_ok=True)
    written = []
    for name in ("server", "client"):
        public, secret = zmq.auth.create_certificates(str(directory), name)
        Path(secret).chmod(0o600)
        written += [Path(public), Path(secret)]
    written.append(
        Path(shutil.copy(directory / "client.key", directory / "authorized" / "client.key"))
    )
    return written


def load_server_keys(directory: Path) -> ServerKeys:
    public, secret = zmq.auth.load_certificate(str(directory / "server.key_secret"))
    if not secret:
        raise ValueError(f"{directory / 'server.key_secret'} holds no secret key")
    authorized = directory / "authorized"
    if not authorized.is_dir():
        raise ValueError(
            f"{authorized} is missing: it holds the public keys of the clients to admit"
        )
    return ServerKeys(public=public, secret=secret, authorized=authorized)
