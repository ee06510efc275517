package svc

import (
	"context"
	"errors"
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
	if isHTTPURL(source) {
		return fetchSchema(ctx, source)
	}
	path := source
	if strings.HasPrefix(strings.ToLower(source), "file:") {
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

// shownSchemaLocation is a schema's location as messages name it: a URL without its user name,
// password and query values, which often carry tokens (https://ci:token@…, ?token=…) that logs and
// CI output would keep. Paths are named as given.
func shownSchemaLocation(source string) string {
	if !isHTTPURL(source) {
		return source
	}
	address, err := url.Parse(source)
	if err != nil {
		return "an http(s) URL that is not valid"
	}
	shown := *address
	shown.User = nil
	if shown.RawQuery != "" {
		// By hand: url.Values.Encode would write *** as %2A%2A%2A.
		var pairs []string
		for _, pair := range strings.Split(shown.RawQuery, "&") {
			if pair != "" {
				key, _, _ := strings.Cut(pair, "=")
				pairs = append(pairs, key+"=***")
			}
		}
		shown.RawQuery = strings.Join(pairs, "&")
	}
	text := shown.String()
	if address.User != nil {
		text = strings.Replace(text, "//", "//***@", 1)
	}
	return text
}

func isHTTPURL(source string) bool {
	lower := strings.ToLower(source)
	return strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://")
}

func fetchSchema(ctx context.Context, source string) (string, error) {
	shown := shownSchemaLocation(source)
	request, err := http.NewRequestWithContext(ctx, http.MethodGet, source, nil)
	if err != nil {
		// Not quoted: a parse error's text repeats the whole source.
		return "", invalidUse("cannot fetch the schema from %s", shown)
	}
	request.Header.Set("Accept", "application/json, application/yaml, text/yaml, */*")
	response, err := http.DefaultClient.Do(request)
	if err != nil {
		return "", invalidUse("cannot fetch the schema from %s: %v", shown, withShownURL(err, shown))
	}
	defer response.Body.Close()
	if response.StatusCode/100 != 2 {
		return "", invalidUse("cannot fetch the schema from %s: HTTP %d", shown, response.StatusCode)
	}
	return readBounded(shown, response.Body)
}

// withShownURL names the shown URL in a *url.Error, whose text repeats the URL it was given (net/http
// hides the password only).
func withShownURL(err error, shown string) error {
	var urlError *url.Error
	if !errors.As(err, &urlError) {
		return err
	}
	hidden := *urlError
	hidden.URL = shown
	return &hidden
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
