package svc_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

const (
	// serverStartTimeout bounds the wait for a server's "listening" line.
	serverStartTimeout = 60 * time.Second
	// serverStopGrace is how long a stopped server may take to exit before it is killed.
	serverStopGrace = 2 * time.Second
)

// sharedServer is the server most tests use, started once by TestMain.
var sharedServer *testServer

func TestMain(m *testing.M) {
	server, err := startServer(serverConfig{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "starting the svc server:", err)
		os.Exit(1)
	}
	sharedServer = server
	code := m.Run()
	server.stop()
	stopKeyedServers()
	os.Exit(code)
}

// keyedServers are the servers with API key authentication, one per key list, shared by the tests
// that ask for the same keys.
var (
	keyedServersMu sync.Mutex
	keyedServers   = map[string]*testServer{}
)

func serverWithAPIKeys(t testing.TB, keys []string) *testServer {
	t.Helper()
	keyedServersMu.Lock()
	defer keyedServersMu.Unlock()
	id := strings.Join(keys, ",")
	if server, ok := keyedServers[id]; ok {
		return server
	}
	server, err := startServer(serverConfig{apiKeys: keys})
	if err != nil {
		t.Fatalf("starting the svc server: %v", err)
	}
	keyedServers[id] = server
	return server
}

func stopKeyedServers() {
	keyedServersMu.Lock()
	defer keyedServersMu.Unlock()
	for _, server := range keyedServers {
		server.stop()
	}
}

// testServer is a real svc server process listening on 127.0.0.1.
type testServer struct {
	address string
	cmd     *exec.Cmd
	done    chan struct{}
}

type serverConfig struct {
	apiKeys []string
	// certFile and keyFile turn TLS on; clientCAFile asks for client certificates.
	certFile, keyFile, clientCAFile string
}

// svcBin is the server entry point: SVC_BIN, else this repository's bin/svc.js.
func svcBin() (string, error) {
	if bin := os.Getenv("SVC_BIN"); bin != "" {
		return bin, nil
	}
	return filepath.Abs(filepath.Join("..", "..", "bin", "svc.js"))
}

func startServer(config serverConfig) (*testServer, error) {
	bin, err := svcBin()
	if err != nil {
		return nil, err
	}
	args := []string{bin, "serve", "--host", "127.0.0.1", "--port", "0", "--metrics-port", "0", "--storage", "memory"}
	env := append(os.Environ(), "LOG_LEVEL=info")
	if len(config.apiKeys) > 0 {
		args = append(args, "--api-key-auth")
		env = append(env, "SVC_API_KEYS="+strings.Join(config.apiKeys, ","))
	}
	if config.certFile != "" {
		args = append(args, "--tls", "--cert", config.certFile, "--key", config.keyFile)
		if config.clientCAFile != "" {
			args = append(args, "--client-ca", config.clientCAFile)
		}
	}
	cmd := exec.Command("node", args...)
	cmd.Env = env
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("node %s: %w", bin, err)
	}
	server := &testServer{cmd: cmd, done: make(chan struct{})}
	ports := make(chan int, 1)
	go func() {
		defer close(server.done)
		scanner := bufio.NewScanner(stdout)
		scanner.Buffer(make([]byte, 64<<10), 1<<20)
		for scanner.Scan() {
			var line struct {
				Msg  string `json:"msg"`
				Port int    `json:"port"`
			}
			if json.Unmarshal(scanner.Bytes(), &line) == nil && line.Msg == "svc server listening" {
				select {
				case ports <- line.Port:
				default:
				}
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
		_ = cmd.Wait()
	}()
	select {
	case port := <-ports:
		server.address = net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
		return server, nil
	case <-server.done:
		return nil, fmt.Errorf("the server exited before listening")
	case <-time.After(serverStartTimeout):
		server.stop()
		return nil, fmt.Errorf("no 'svc server listening' line within %s", serverStartTimeout)
	}
}

// startTestServer starts a dedicated server for one test and stops it when the test ends.
func startTestServer(t *testing.T, config serverConfig) *testServer {
	t.Helper()
	server, err := startServer(config)
	if err != nil {
		t.Fatalf("starting the svc server: %v", err)
	}
	t.Cleanup(server.stop)
	return server
}

func (s *testServer) stop() {
	select {
	case <-s.done:
		return
	default:
	}
	_ = s.cmd.Process.Signal(os.Interrupt)
	select {
	case <-s.done:
	case <-time.After(serverStopGrace):
		// The server's own grace period (open HTTP/2 sessions) is longer than a test should wait;
		// its storage is in memory, so nothing is lost.
		_ = s.cmd.Process.Kill()
		<-s.done
	}
}

// closedAddress is a loopback address where nothing listens.
func closedAddress(t testing.TB) string {
	t.Helper()
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	address := listener.Addr().String()
	_ = listener.Close()
	return address
}
