#!/usr/bin/python3
"""Encrypts a Web Push message (RFC 8291, aes128gcm of RFC 8188) for a subscription's keys.

An implementation independent of the project's Swift decryptor, on python3-cryptography, for
the tests: the plaintext is read from standard input, the message (base64url) is written to
standard output.

    webpush_encrypt.py P256DH AUTH [--salt B64U] [--sender-private B64U] [--record-size N]
                                   [--records-of N] [--pad N]

--salt and --sender-private fix what is random otherwise (RFC 8291's example uses both);
--records-of splits the plaintext into records of at most N bytes (RFC 8188 allows many; each
but the last is padded to fill the record size);
--pad adds N zero bytes of padding to the last record.
"""
import argparse
import base64
import os
import sys

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF


def b64u_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64u_encode(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def hkdf(salt, ikm, info, length):
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(ikm)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("p256dh")
    parser.add_argument("auth")
    parser.add_argument("--salt")
    parser.add_argument("--sender-private")
    parser.add_argument("--record-size", type=int, default=4096)
    parser.add_argument("--records-of", type=int)
    parser.add_argument("--pad", type=int, default=0)
    options = parser.parse_args()

    receiver_public = b64u_decode(options.p256dh)
    auth = b64u_decode(options.auth)
    salt = b64u_decode(options.salt) if options.salt else os.urandom(16)
    if options.sender_private:
        scalar = int.from_bytes(b64u_decode(options.sender_private), "big")
        sender = ec.derive_private_key(scalar, ec.SECP256R1())
    else:
        sender = ec.generate_private_key(ec.SECP256R1())
    sender_public = sender.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    receiver = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), receiver_public)
    shared = sender.exchange(ec.ECDH(), receiver)

    # RFC 8291 section 3.4.
    ikm = hkdf(auth, shared, b"WebPush: info\x00" + receiver_public + sender_public, 32)
    # RFC 8188 section 2.2 and 2.3.
    cek = hkdf(salt, ikm, b"Content-Encoding: aes128gcm\x00", 16)
    nonce_base = hkdf(salt, ikm, b"Content-Encoding: nonce\x00", 12)

    plaintext = sys.stdin.buffer.read()
    chunk = options.records_of or max(len(plaintext), 1)
    pieces = [plaintext[i:i + chunk] for i in range(0, len(plaintext), chunk)] or [b""]
    aead = AESGCM(cek)
    records = b""
    for index, piece in enumerate(pieces):
        last = index == len(pieces) - 1
        if last:
            padded = piece + b"\x02" + b"\x00" * options.pad
        else:
            # Every record but the last fills the record size (RFC 8188 section 2).
            room = options.record_size - 16 - len(piece) - 1
            if room < 0:
                sys.exit("--records-of does not fit in --record-size")
            padded = piece + b"\x01" + b"\x00" * room
        nonce = (int.from_bytes(nonce_base, "big") ^ index).to_bytes(12, "big")
        records += aead.encrypt(nonce, padded, None)
    header = salt + options.record_size.to_bytes(4, "big") + bytes([len(sender_public)]) + sender_public
    sys.stdout.write(b64u_encode(header + records))


if __name__ == "__main__":
    main()
