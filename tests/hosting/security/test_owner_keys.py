"""The room's owner is a host with one of his own keys. A key his ``authorized_keys`` lets in only to run one
command (a backup job, a git server's users) or a certificate authority is not his own: it makes nobody a host."""

from __future__ import annotations

from pathlib import Path

from hosting.admin import owner_keys


def test_keys_held_to_a_forced_command_or_a_ca_are_not_the_owners(tmp_path: Path) -> None:
    folder = tmp_path / ".ssh"
    folder.mkdir()
    (folder / "authorized_keys").write_text(
        'command="/usr/bin/rsync --server",no-pty ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB backup@nas\n'
        'restrict ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIC ci@runner\n'
        'cert-authority ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAID company-ca\n'
        'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA owner@laptop\n')
    assert owner_keys(tmp_path) == {"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA"}
