package svc

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"
	"time"

	"google.golang.org/grpc"
)

// Defaults of the client. Limits are named here, with their units.
const (
	// DefaultAddress is the server address when New is given "".
	DefaultAddress = "localhost:9550"
	// DefaultDeadline bounds each call that has no earlier deadline in its context
	// (the spec's connection time-out default of the tools).
	DefaultDeadline = 30 * time.Second
	// MaxMessageBytes is the largest gRPC message sent or received: above the server's 32 MiB
	// schema limit, so the largest registrable document fits.
	MaxMessageBytes = 64 << 20
	// MaxSchemaBytes is the largest document RegisterSchema reads; the server refuses larger ones.
	MaxSchemaBytes = 32 << 20
	// APIKeyMetadataKey is the gRPC metadata entry that carries the API key.
	APIKeyMetadataKey = "x-api-key"
)

// Option configures a [Client]; see [New].
type Option func(*clientOptions) error

type clientOptions struct {
	deadline      time.Duration
	apiKey        string
	tls           *tls.Config
	schemaID      string
	schemaVersion string
	dialOptions   []grpc.DialOption
}

// WithTLS connects over TLS and trusts the server certificates signed by the CA certificate in the
// PEM file caFile; an empty caFile trusts the system roots.
func WithTLS(caFile string) Option {
	return func(o *clientOptions) error {
		config := o.tlsConfig()
		if caFile == "" {
			return nil
		}
		pem, err := os.ReadFile(caFile)
		if err != nil {
			return fmt.Errorf("svc: WithTLS: reading the CA certificate: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return fmt.Errorf("svc: WithTLS: %s holds no PEM certificate", caFile)
		}
		config.RootCAs = pool
		return nil
	}
}

// WithMutualTLS presents the client certificate and key (PEM files) to the server; it implies TLS.
// Combine it with [WithTLS] to trust a private CA.
func WithMutualTLS(certFile, keyFile string) Option {
	return func(o *clientOptions) error {
		certificate, err := tls.LoadX509KeyPair(certFile, keyFile)
		if err != nil {
			return fmt.Errorf("svc: WithMutualTLS: %w", err)
		}
		config := o.tlsConfig()
		config.Certificates = append(config.Certificates, certificate)
		return nil
	}
}

// WithTLSConfig connects over TLS with the given configuration (cloned), for what the file-based
// options do not cover (server name override, certificates held in memory).
func WithTLSConfig(config *tls.Config) Option {
	return func(o *clientOptions) error {
		if config == nil {
			return fmt.Errorf("svc: WithTLSConfig: nil configuration")
		}
		o.tls = config.Clone()
		return nil
	}
}

// WithAPIKey sends key with every call (metadata entry x-api-key).
func WithAPIKey(key string) Option {
	return func(o *clientOptions) error {
		if key == "" {
			return fmt.Errorf("svc: WithAPIKey: empty key")
		}
		o.apiKey = key
		return nil
	}
}

// WithDeadline sets the deadline of each call whose context has no earlier one
// (default [DefaultDeadline]). For the streaming ValidateMany it covers the whole batch.
func WithDeadline(d time.Duration) Option {
	return func(o *clientOptions) error {
		if d <= 0 {
			return fmt.Errorf("svc: WithDeadline: the deadline must be positive (got %s)", d)
		}
		o.deadline = d
		return nil
	}
}

// WithSchema binds the client to an already registered schema; an empty version means the latest.
// RegisterSchema binds the client too.
func WithSchema(schemaID, version string) Option {
	return func(o *clientOptions) error {
		if schemaID == "" {
			return fmt.Errorf("svc: WithSchema: empty schema id")
		}
		o.schemaID, o.schemaVersion = schemaID, version
		return nil
	}
}

// WithDialOptions adds gRPC dial options (interceptors, keepalive, a custom dialer).
func WithDialOptions(options ...grpc.DialOption) Option {
	return func(o *clientOptions) error {
		o.dialOptions = append(o.dialOptions, options...)
		return nil
	}
}

func (o *clientOptions) tlsConfig() *tls.Config {
	if o.tls == nil {
		o.tls = &tls.Config{MinVersion: tls.VersionTLS12}
	}
	return o.tls
}
