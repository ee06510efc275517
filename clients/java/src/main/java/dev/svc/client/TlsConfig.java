package dev.svc.client;

import java.nio.file.Path;

/**
 * TLS settings of a client: the CA that signed the server's certificate (default: the system roots),
 * a client certificate and key for mutual TLS, and the host name to check the server certificate
 * against when it differs from the address.
 *
 * @param rootCertificate PEM file of the CA; null for the system roots
 * @param certificateChain PEM file of the client certificate (mutual TLS); needs {@code privateKey}
 * @param privateKey PEM file (PKCS#8) of the client key (mutual TLS); needs {@code certificateChain}
 * @param serverNameOverride host name the server certificate is checked against; null for the address's
 */
public record TlsConfig(Path rootCertificate, Path certificateChain, Path privateKey, String serverNameOverride) {

    public TlsConfig {
        if ((certificateChain == null) != (privateKey == null)) {
            throw new IllegalArgumentException("tls: certificateChain and privateKey must be given together (mutual TLS)");
        }
    }

    /** TLS checked against the system roots. */
    public static TlsConfig systemRoots() {
        return new TlsConfig(null, null, null, null);
    }

    /** TLS checked against the CA in {@code rootCertificate}. */
    public static TlsConfig trusting(Path rootCertificate) {
        return new TlsConfig(rootCertificate, null, null, null);
    }

    /** The same settings, with a client certificate and key for mutual TLS. */
    public TlsConfig withClientCertificate(Path certificateChain, Path privateKey) {
        return new TlsConfig(rootCertificate, certificateChain, privateKey, serverNameOverride);
    }

    public TlsConfig withServerNameOverride(String hostName) {
        return new TlsConfig(rootCertificate, certificateChain, privateKey, hostName);
    }
}
