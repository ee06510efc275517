package svc

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
)

// readSchemaSource reads an OpenAPI document (JSON or YAML text) from a file path, a file: URL or
// an http(s) URL. The text is sent as it is: the server parses it, and the registered hash is the
// hash of these bytes.
func readSchemaSource(ctx context.Context, source string) (string, error) {
	if source == "" {
		return "", invalidUse("the schema source must be a file path or an http(s) URL")
	}
	lower := strings.ToLower(source)
	if strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://") {
		return fetchSchema(ctx, source)
	}
	path := source
	if strings.HasPrefix(lower, "file:") {
		parsed, err := url.Parse(source)
		if err != nil {
			return "", invalidUse("cannot read the schema URL %q: %v", source, err)
		}
		path = parsed.Path
	}
	file, err := os.Open(path)
	if err != nil {
		return "", invalidUse("cannot read the schema file: %v", err)
	}
	defer file.Close()
	return readBounded(source, file)
}

func fetchSchema(ctx context.Context, address string) (string, error) {
	request, err := http.NewRequestWithContext(ctx, http.MethodGet, address, nil)
	if err != nil {
		return "", invalidUse("cannot fetch the schema from %s: %v", address, err)
	}
	request.Header.Set("Accept", "application/json, application/yaml, text/yaml, */*")
	response, err := http.DefaultClient.Do(request)
	if err != nil {
		return "", invalidUse("cannot fetch the schema from %s: %v", address, err)
	}
	defer response.Body.Close()
	if response.StatusCode/100 != 2 {
		return "", invalidUse("cannot fetch the schema from %s: HTTP %d", address, response.StatusCode)
	}
	return readBounded(address, response.Body)
}

// readBounded stops at MaxSchemaBytes: the server refuses larger content anyway, and failing here
// saves the upload (and an endless download).
func readBounded(source string, r io.Reader) (string, error) {
	content, err := io.ReadAll(io.LimitReader(r, MaxSchemaBytes+1))
	if err != nil {
		return "", invalidUse("cannot read the schema from %s: %v", source, err)
	}
	if len(content) > MaxSchemaBytes {
		return "", invalidUse("the schema %s is over the %s limit (MaxSchemaBytes)", source, formatBytes(MaxSchemaBytes))
	}
	return string(content), nil
}

func formatBytes(n int) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
