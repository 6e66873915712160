"""The host's signature on host-blind transcripts: SSHSIG with its SSH host key (``ssh-keygen -Y verify`` can
check one independently: namespace ``croupier-v2-transcript``, principal ``croupier-host``)."""

from __future__ import annotations

import asyncssh

from engine.fairness_v2.transcript import CHECKPOINT_NAMESPACE, HostSigner, HostVerifier
from hosting.identity import key_fingerprint

PRINCIPAL = "croupier-host"


def sshsig_signer(host_key: asyncssh.SSHKey) -> HostSigner:
    def sign(message: bytes) -> bytes:
        return asyncssh.create_sshsig(host_key, message, namespace=CHECKPOINT_NAMESPACE)
    return sign


def sshsig_verifier(public_key: str) -> HostVerifier:
    """Checks signatures against ``public_key`` (OpenSSH text); a malformed key verifies nothing."""
    allowed = f'{PRINCIPAL} namespaces="{CHECKPOINT_NAMESPACE}" {public_key.strip()}\n'.encode()

    def verify(message: bytes, signature: bytes) -> bool:
        try:
            return bool(asyncssh.validate_sshsig(message, signature, PRINCIPAL, allowed))
        except (ValueError, asyncssh.KeyImportError, TypeError):
            return False
    return verify


def public_text(host_key: asyncssh.SSHKey) -> str:
    return host_key.export_public_key().decode().strip()


def fingerprint(public_key: str) -> str:
    return key_fingerprint(public_key)
