import os
import stat

import pytest

from fairtable.node.keystore import KeyFileError, load_or_create_secret_key, load_public_key, load_secret_key, write_public_key, write_secret_key
from fairtable.protocol.identity import SecretKey


def test_secret_key_file_is_private_and_round_trips(tmp_path):
    path = tmp_path / "id.pem"
    key = SecretKey.generate()
    write_secret_key(path, key)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert load_secret_key(path).public == key.public


@pytest.mark.parametrize("mode", [0o640, 0o604, 0o660, 0o644])
def test_readable_secret_key_is_refused(tmp_path, mode):
    path = tmp_path / "id.pem"
    write_secret_key(path, SecretKey.generate())
    os.chmod(path, mode)
    with pytest.raises(KeyFileError, match="group or others") as error:
        load_secret_key(path)
    assert "chmod 600" in str(error.value)


def test_existing_key_is_not_overwritten(tmp_path):
    path = tmp_path / "id.pem"
    key = SecretKey.generate()
    write_secret_key(path, key)
    with pytest.raises(KeyFileError, match="already exists"):
        write_secret_key(path, SecretKey.generate())
    assert load_secret_key(path).public == key.public


def test_load_or_create_is_stable(tmp_path):
    path = tmp_path / "data" / "id.pem"
    first = load_or_create_secret_key(path)
    assert load_or_create_secret_key(path).public == first.public


def test_missing_and_garbage_files_are_clear_errors(tmp_path):
    with pytest.raises(KeyFileError, match="cannot read"):
        load_secret_key(tmp_path / "absent.pem")
    garbage = tmp_path / "garbage.pem"
    garbage.write_bytes(b"not a key")
    os.chmod(garbage, 0o600)
    with pytest.raises(KeyFileError, match="PEM"):
        load_secret_key(garbage)
    with pytest.raises(KeyFileError, match="PEM"):
        load_public_key(garbage)


def test_public_key_file_round_trips(tmp_path):
    key = SecretKey.generate().public
    write_public_key(tmp_path / "pub.pem", key)
    assert load_public_key(tmp_path / "pub.pem") == key
