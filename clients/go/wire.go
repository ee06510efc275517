package svc

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/svc-contracts/svc/clients/go/svcpb"
)

const jsonContentType = "application/json"

// validText is s as a proto3 string field may hold it: protobuf refuses to marshal invalid UTF-8,
// and the whole call would fail (in a batch, with every exchange sent along). Each byte that starts
// no valid sequence becomes U+FFFD, as the Python and Java clients decode a binary or mis-declared
// body, so the exchange is still validated with the others.
func validText(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s { // range reads each invalid byte as utf8.RuneError (U+FFFD)
		b.WriteRune(r)
	}
	return b.String()
}

// encodeBody returns the body as text, and whether it was JSON-encoded here (then a JSON content
// type is implied). Text and bytes are taken as already encoded, as UTF-8.
func encodeBody(body any) (text string, jsonEncoded bool, err error) {
	switch b := body.(type) {
	case nil:
		return "", false, nil
	case string:
		return validText(b), false, nil
	case []byte:
		return validText(string(b)), false, nil
	case json.RawMessage:
		return validText(string(b)), false, nil
	default:
		encoded, err := json.Marshal(b)
		if err != nil {
			return "", false, invalidUse("the body cannot be JSON-encoded: %v", err)
		}
		return string(encoded), true, nil
	}
}

// flattenHeader lower-cases names and joins repeated values with ", " (RFC 9110); bytes that are
// not UTF-8 (obs-text) become U+FFFD. Set-Cookie is joined too: the map holds one string a name.
//
// Names that differ only in case are one header: net/http canonicalises the names it parses and
// those given to Set and Add, but a header map written directly (w.Header()["x-trace"]) may hold
// "X-Trace" and "x-trace" at once, and net/http then sends both lines. Their values are joined in
// the order net/http writes them (names sorted), so none is dropped and the result does not depend
// on the map's iteration order.
func flattenHeader(header http.Header) map[string]string {
	flat := make(map[string]string, len(header))
	for name, values := range header {
		// strings.ToLower already writes invalid bytes as U+FFFD.
		key := strings.ToLower(name)
		if _, taken := flat[key]; taken {
			return flattenHeaderSorted(header)
		}
		flat[key] = validText(strings.Join(values, ", "))
	}
	return flat
}

// flattenHeaderSorted is flattenHeader for a header map with names that differ only in case.
func flattenHeaderSorted(header http.Header) map[string]string {
	values := make(map[string][]string, len(header))
	for _, name := range slices.Sorted(maps.Keys(header)) {
		key := strings.ToLower(name)
		values[key] = append(values[key], header[name]...)
	}
	flat := make(map[string]string, len(values))
	for key, joined := range values {
		flat[key] = validText(strings.Join(joined, ", "))
	}
	return flat
}

func encodeMessage(header http.Header, body any) (map[string]string, string, error) {
	flat := flattenHeader(header)
	text, jsonEncoded, err := encodeBody(body)
	if err != nil {
		return nil, "", err
	}
	if _, set := flat["content-type"]; jsonEncoded && !set {
		flat["content-type"] = jsonContentType
	}
	return flat, text, nil
}

func toRequestData(request Request) (*svcpb.RequestData, error) {
	if request.Method == "" {
		return nil, invalidUse("request.Method must not be empty")
	}
	if request.Path == "" {
		return nil, invalidUse("request.Path must not be empty")
	}
	headers, body, err := encodeMessage(request.Header, request.Body)
	if err != nil {
		return nil, err
	}
	return &svcpb.RequestData{Method: strings.ToUpper(request.Method), Path: validText(request.Path), Headers: headers, Body: body}, nil
}

func toResponseData(response Response) (*svcpb.ResponseData, error) {
	if response.StatusCode < 100 || response.StatusCode > 999 {
		return nil, invalidUse("response.StatusCode must be an HTTP status (got %d)", response.StatusCode)
	}
	headers, body, err := encodeMessage(response.Header, response.Body)
	if err != nil {
		return nil, err
	}
	return &svcpb.ResponseData{StatusCode: int32(response.StatusCode), Headers: headers, Body: body}, nil
}

// parseBodyText turns JSON text into its value; text that is not JSON stays text; "" is nil.
func parseBodyText(text string) any {
	if text == "" {
		return nil
	}
	var value any
	if err := json.Unmarshal([]byte(text), &value); err != nil {
		return text
	}
	return value
}

func describeInteraction(index int, err error) error {
	return fmt.Errorf("interaction %d: %w", index, err)
}
