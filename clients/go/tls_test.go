package svc_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	svc "github.com/svc-contracts/svc/clients/go"
)

// testPKI is a CA with a server certificate for 127.0.0.1/localhost and a client certificate, as
// PEM files in a temporary folder.
type testPKI struct {
	caFile, serverCert, serverKey, clientCert, clientKey string
}

func newTestPKI(t *testing.T) testPKI {
	t.Helper()
	dir := t.TempDir()
	caKey := newKey(t)
	caTemplate := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "svc test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTemplate, caTemplate, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, err := x509.ParseCertificate(caDER)
	if err != nil {
		t.Fatal(err)
	}
	issue := func(serial int64, name string, usage x509.ExtKeyUsage) (string, string) {
		key := newKey(t)
		template := &x509.Certificate{
			SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: name},
			NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
			KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{usage},
			DNSNames: []string{"localhost"}, IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		}
		der, err := x509.CreateCertificate(rand.Reader, template, ca, &key.PublicKey, caKey)
		if err != nil {
			t.Fatal(err)
		}
		keyDER, err := x509.MarshalPKCS8PrivateKey(key)
		if err != nil {
			t.Fatal(err)
		}
		return writePEM(t, dir, name+".crt", "CERTIFICATE", der), writePEM(t, dir, name+".key", "PRIVATE KEY", keyDER)
	}
	pki := testPKI{caFile: writePEM(t, dir, "ca.crt", "CERTIFICATE", caDER)}
	pki.serverCert, pki.serverKey = issue(2, "server", x509.ExtKeyUsageServerAuth)
	pki.clientCert, pki.clientKey = issue(3, "client", x509.ExtKeyUsageClientAuth)
	return pki
}

func newKey(t *testing.T) *ecdsa.PrivateKey {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

func writePEM(t *testing.T, dir, name, blockType string, der []byte) string {
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: blockType, Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func registerOver(t *testing.T, address string, options ...svc.Option) error {
	t.Helper()
	client, err := svc.New(address, append(options, svc.WithDeadline(10*time.Second))...)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	_, err = client.RegisterSchema(t.Context(), uniqueSchemaID(t), usersV1, nil)
	return err
}

func TestTLS(t *testing.T) {
	pki := newTestPKI(t)
	t.Run("server certificate", func(t *testing.T) {
		server := startTestServer(t, serverConfig{certFile: pki.serverCert, keyFile: pki.serverKey})
		if err := registerOver(t, server.address, svc.WithTLS(pki.caFile)); err != nil {
			t.Fatalf("over TLS: %v", err)
		}
		if err := registerOver(t, server.address); status.Code(err) != codes.Unavailable {
			t.Fatalf("a plaintext client gave %v", err)
		}
	})
	t.Run("mutual TLS", func(t *testing.T) {
		server := startTestServer(t, serverConfig{certFile: pki.serverCert, keyFile: pki.serverKey, clientCAFile: pki.caFile})
		if err := registerOver(t, server.address, svc.WithTLS(pki.caFile), svc.WithMutualTLS(pki.clientCert, pki.clientKey)); err != nil {
			t.Fatalf("with a client certificate: %v", err)
		}
		if err := registerOver(t, server.address, svc.WithTLS(pki.caFile)); status.Code(err) != codes.Unavailable {
			t.Fatalf("without a client certificate: %v", err)
		}
	})
	t.Run("option errors", func(t *testing.T) {
		if _, err := svc.New("127.0.0.1:1", svc.WithTLS(filepath.Join(t.TempDir(), "missing.pem"))); err == nil {
			t.Fatal("a missing CA file was accepted")
		}
		if _, err := svc.New("127.0.0.1:1", svc.WithMutualTLS(pki.clientCert, pki.serverKey)); err == nil {
			t.Fatal("a key that does not match the certificate was accepted")
		}
	})
}

func TestAPIKey(t *testing.T) {
	server := serverWithAPIKeys(t, []string{"go-key-1", "go-key-2"})
	if err := registerOver(t, server.address, svc.WithAPIKey("go-key-2")); err != nil {
		t.Fatalf("with a valid key: %v", err)
	}
	if err := registerOver(t, server.address); status.Code(err) != codes.Unauthenticated {
		t.Fatalf("without a key: %v", err)
	}
	if err := registerOver(t, server.address, svc.WithAPIKey("nope")); status.Code(err) != codes.Unauthenticated || svc.Code(err) != "UNAUTHENTICATED" {
		t.Fatalf("with a wrong key: %v", err)
	}
	// The stream carries the key too.
	client, err := svc.New(server.address, svc.WithAPIKey("go-key-1"), svc.WithSchema("go-api-key-missing", ""))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	results, err := client.ValidateMany(t.Context(), []svc.Interaction{{Request: getUser42, Response: validUser}})
	if err != nil || len(results) != 1 || results[0].Valid {
		t.Fatalf("%+v %v", results, err)
	}
}
