"""TLS with a CA, mutual TLS, and API keys, against servers started with those options.
Certificates are made in the test with the ``cryptography`` package."""

from __future__ import annotations

import datetime
import ipaddress
from collections.abc import Iterator
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from svc_client import ContractValidator, ContractValidatorError, TlsConfig

from .svc_server import SvcServer, start_server

VALIDITY = datetime.timedelta(days=1)


def _write_key(key: ec.EllipticCurvePrivateKey, path: Path) -> None:
    path.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )


def _issue(
    common_name: str, issuer: tuple[x509.Certificate, ec.EllipticCurvePrivateKey] | None, usage: x509.ObjectIdentifier | None
) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])
    now = datetime.datetime.now(datetime.timezone.utc)
    builder = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(issuer[0].subject if issuer else name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=1))
        .not_valid_after(now + VALIDITY)
        .add_extension(x509.BasicConstraints(ca=issuer is None, path_length=None), critical=True)
    )
    if usage is not None:
        builder = builder.add_extension(x509.ExtendedKeyUsage([usage]), critical=False)
    if usage == ExtendedKeyUsageOID.SERVER_AUTH:
        builder = builder.add_extension(
            x509.SubjectAlternativeName([x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
    certificate = builder.sign(issuer[1] if issuer else key, hashes.SHA256())
    return certificate, key


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("certs")
    authority = _issue("svc test CA", None, None)
    files: dict[str, Path] = {}
    for role, usage in (("server", ExtendedKeyUsageOID.SERVER_AUTH), ("client", ExtendedKeyUsageOID.CLIENT_AUTH)):
        certificate, key = _issue(f"svc {role}", authority, usage)
        files[f"{role}_cert"] = folder / f"{role}.pem"
        files[f"{role}_cert"].write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
        files[f"{role}_key"] = folder / f"{role}-key.pem"
        _write_key(key, files[f"{role}_key"])
    files["ca"] = folder / "ca.pem"
    files["ca"].write_bytes(authority[0].public_bytes(serialization.Encoding.PEM))
    return files


@pytest.fixture(scope="module")
def mutual_tls_server(certificates: dict[str, Path]) -> Iterator[SvcServer]:
    server = start_server(
        ["--tls", "--cert", str(certificates["server_cert"]), "--key", str(certificates["server_key"]),
         "--client-ca", str(certificates["ca"])]
    )
    yield server
    server.stop()


@pytest.fixture(scope="module")
def api_key_server() -> Iterator[SvcServer]:
    server = start_server(["--api-key-auth"], {"SVC_API_KEYS": "key-one,key-two"})
    yield server
    server.stop()


def test_tls_with_a_ca_and_tls_only_server(certificates: dict[str, Path]) -> None:
    server = start_server(["--tls", "--cert", str(certificates["server_cert"]), "--key", str(certificates["server_key"])])
    try:
        with ContractValidator(server.address, tls=TlsConfig(root_cert_path=certificates["ca"]), timeout=10) as client:
            assert client.list_schemas().total_count >= 0
        with ContractValidator(server.address, timeout=5) as plain:
            with pytest.raises(ContractValidatorError) as refused:
                plain.list_schemas()
            assert refused.value.code == "UNAVAILABLE"
    finally:
        server.stop()


def test_mutual_tls(mutual_tls_server: SvcServer, certificates: dict[str, Path]) -> None:
    mutual = TlsConfig(
        root_cert_path=certificates["ca"], cert_path=certificates["client_cert"], key_path=certificates["client_key"]
    )
    with ContractValidator(mutual_tls_server.address, tls=mutual, timeout=10) as client:
        assert client.list_schemas().total_count >= 0
    with ContractValidator(mutual_tls_server.address, tls=TlsConfig(root_cert_path=certificates["ca"]), timeout=5) as anonymous:
        with pytest.raises(ContractValidatorError) as refused:
            anonymous.list_schemas()
        assert refused.value.code == "UNAVAILABLE"


def test_mutual_tls_needs_both_certificate_and_key(certificates: dict[str, Path]) -> None:
    with pytest.raises(ContractValidatorError) as misuse:
        ContractValidator("127.0.0.1:1", tls=TlsConfig(cert_path=certificates["client_cert"]))
    assert misuse.value.code == "INVALID_ARGUMENT"


@pytest.mark.parametrize(("api_key", "code"), [("key-two", None), (None, "UNAUTHENTICATED"), ("wrong", "UNAUTHENTICATED")])
def test_api_key(api_key_server: SvcServer, api_key: str | None, code: str | None) -> None:
    with ContractValidator(api_key_server.address, api_key=api_key) as client:
        if code is None:
            assert client.list_schemas().total_count >= 0
            return
        with pytest.raises(ContractValidatorError) as refused:
            client.list_schemas()
        assert refused.value.code == code
