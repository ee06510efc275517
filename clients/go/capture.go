package svc

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
)

// Defaults of Capture.
const (
	// DefaultMaxInteractions: beyond it the oldest captured interactions are forgotten.
	DefaultMaxInteractions = 10_000
	// DefaultCaptureMaxBodyBytes: larger bodies are passed through without being recorded.
	DefaultCaptureMaxBodyBytes = 1 << 20 // 1 MiB
)

// Capture is an http.RoundTripper that records every exchange of a consumer's HTTP client and,
// with AutoValidate, validates each one before handing the response back, so a consumer test sees
// a contract failure at the call that caused it. Use it as an http.Client's Transport (or take
// [Capture.Client]); pass [Capture.Interactions] to [Client.RegisterConsumerFromInteractions] to
// register what the consumer used.
//
// The fields are read on each call; set them before the first request. A Capture must not be
// copied after first use.
type Capture struct {
	// Base sends the requests; nil means http.DefaultTransport.
	Base http.RoundTripper
	// Validator is needed for AutoValidate.
	Validator *Client
	// AutoValidate validates each interaction as it completes. A validator failure (UNAVAILABLE,
	// say) is returned as the request's error: a contract test must not pass because nothing was
	// checked.
	AutoValidate bool
	// OnValidationFailure is called for each auto-validated interaction that is not valid.
	OnValidationFailure func(ValidationResult, Interaction)
	// SchemaID and SchemaVersion select the schema instead of the validator's bound one.
	SchemaID      string
	SchemaVersion string
	// MaxInteractions defaults to DefaultMaxInteractions.
	MaxInteractions int
	// MaxBodyBytes defaults to DefaultCaptureMaxBodyBytes.
	MaxBodyBytes int64

	mu           sync.Mutex
	interactions []Interaction
}

// Client is an http.Client whose requests go through the capture.
func (c *Capture) Client() *http.Client { return &http.Client{Transport: c} }

// RoundTrip sends the request through Base and records the exchange; the caller reads the
// response body as usual.
func (c *Capture) RoundTrip(req *http.Request) (*http.Response, error) {
	if c.AutoValidate && c.Validator == nil {
		closeRequestBody(req)
		return nil, fmt.Errorf("svc: Capture.AutoValidate needs Capture.Validator")
	}
	maxBodyBytes := orDefault(c.MaxBodyBytes, DefaultCaptureMaxBodyBytes)
	sent, requestBody, err := readRequestBody(req, maxBodyBytes)
	if err != nil {
		return nil, err
	}
	base := c.Base
	if base == nil {
		base = http.DefaultTransport
	}
	resp, err := base.RoundTrip(sent)
	if err != nil {
		return nil, err
	}
	responseBody, err := readResponseBody(resp, maxBodyBytes)
	if err != nil {
		resp.Body.Close()
		return nil, err
	}
	interaction := Interaction{
		Request: Request{
			Method: req.Method,
			Path:   req.URL.RequestURI(),
			Header: req.Header.Clone(),
			Body:   recordedBody(decodeContent(requestBody, req.Header, maxBodyBytes), req.Header.Get("Content-Type")),
		},
		Response: Response{
			StatusCode: resp.StatusCode,
			Header:     resp.Header.Clone(),
			Body:       recordedBody(decodeContent(responseBody, resp.Header, maxBodyBytes), resp.Header.Get("Content-Type")),
		},
	}
	if c.AutoValidate {
		var opts []CallOption
		if c.SchemaID != "" {
			opts = append(opts, ForSchema(c.SchemaID, c.SchemaVersion))
		}
		result, err := c.Validator.Validate(req.Context(), interaction.Request, interaction.Response, opts...)
		if err != nil {
			c.record(interaction)
			resp.Body.Close()
			return nil, fmt.Errorf("svc: validating %s %s: %w", req.Method, interaction.Request.Path, err)
		}
		interaction.Validation = &result
		if !result.Valid && c.OnValidationFailure != nil {
			c.OnValidationFailure(result, interaction)
		}
	}
	c.record(interaction)
	return resp, nil
}

func (c *Capture) record(interaction Interaction) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.interactions = append(c.interactions, interaction)
	if excess := len(c.interactions) - orDefault(c.MaxInteractions, DefaultMaxInteractions); excess > 0 {
		c.interactions = append([]Interaction(nil), c.interactions[excess:]...)
	}
}

// Interactions is a copy of the interactions captured so far, oldest first.
func (c *Capture) Interactions() []Interaction {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Interaction(nil), c.interactions...)
}

// Clear forgets the captured interactions.
func (c *Capture) Clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.interactions = nil
}

// readRequestBody returns the request to send and the body to record (nil when there is none or it
// is too large). A RoundTripper must not change the request it is given: a body that cannot be
// had again through GetBody is read and sent from a clone.
func readRequestBody(req *http.Request, limit int64) (*http.Request, []byte, error) {
	if req.Body == nil || req.Body == http.NoBody {
		return req, nil, nil
	}
	if req.GetBody != nil {
		copyBody, err := req.GetBody()
		if err != nil {
			closeRequestBody(req)
			return nil, nil, err
		}
		defer copyBody.Close()
		body, err := io.ReadAll(io.LimitReader(copyBody, limit+1))
		if err != nil || int64(len(body)) > limit {
			return req, nil, nil
		}
		return req, body, nil
	}
	body, err := io.ReadAll(io.LimitReader(req.Body, limit+1))
	if err != nil {
		req.Body.Close()
		return nil, nil, err
	}
	sent := req.Clone(req.Context())
	sent.Body = readCloser{Reader: io.MultiReader(bytes.NewReader(body), req.Body), Closer: req.Body}
	if int64(len(body)) > limit {
		return sent, nil, nil
	}
	return sent, body, nil
}

// closeRequestBody keeps the RoundTripper contract: the request body is closed, errors included.
func closeRequestBody(req *http.Request) {
	if req.Body != nil {
		_ = req.Body.Close()
	}
}

// readResponseBody reads the response body (up to limit) and puts it back for the caller; it
// returns nil for a body too large or of a content type that is not recorded.
func readResponseBody(resp *http.Response, limit int64) ([]byte, error) {
	if resp.Body == nil || resp.Body == http.NoBody || !isCapturableContentType(resp.Header.Get("Content-Type")) {
		return nil, nil
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, err
	}
	resp.Body = readCloser{Reader: io.MultiReader(bytes.NewReader(body), resp.Body), Closer: resp.Body}
	if int64(len(body)) > limit {
		return nil, nil
	}
	return body, nil
}

// decodeContent undoes the Content-Encoding of a recorded body, as the caller reads it: Go's
// transport decompresses a response only when it asked for gzip itself, so a caller that sets
// Accept-Encoding gets the encoded bytes, and the JSON to validate is what they decode to (Python's
// capture records decoded bodies too). A coding it cannot undo (br, zstd), a corrupt body, or one
// that decodes to more than limit is not recorded: compressed bytes are no JSON text.
func decodeContent(body []byte, header http.Header, limit int64) []byte {
	codings := strings.Split(strings.Join(header.Values("Content-Encoding"), ","), ",")
	// Codings are listed in the order they were applied; undo the last first.
	for i := len(codings) - 1; i >= 0 && len(body) > 0; i-- {
		var decoder io.ReadCloser
		var err error
		switch strings.ToLower(strings.TrimSpace(codings[i])) {
		case "", "identity":
			continue
		case "gzip", "x-gzip":
			decoder, err = gzip.NewReader(bytes.NewReader(body))
		case "deflate":
			// zlib-wrapped as RFC 9110 says; some servers send raw deflate.
			if decoder, err = zlib.NewReader(bytes.NewReader(body)); err != nil {
				decoder, err = flate.NewReader(bytes.NewReader(body)), nil
			}
		default:
			return nil
		}
		if err != nil {
			return nil
		}
		decoded, err := io.ReadAll(io.LimitReader(decoder, limit+1))
		decoder.Close()
		if err != nil || int64(len(decoded)) > limit {
			return nil
		}
		body = decoded
	}
	return body
}

var (
	capturableContentType = regexp.MustCompile(`(?i)json|xml|x-www-form-urlencoded|^text/`)
	eventStream           = regexp.MustCompile(`(?i)^text/event-stream`)
	jsonContentTypeRE     = regexp.MustCompile(`(?i)json`)
)

// isCapturableContentType: JSON and text (not event streams), XML, forms; no content type too.
func isCapturableContentType(contentType string) bool {
	return contentType == "" || (capturableContentType.MatchString(contentType) && !eventStream.MatchString(contentType))
}

// recordedBody is JSON text kept as json.RawMessage (sent as it is, read for used fields) when it
// holds an object, array, number or boolean; other text stays a string; no body is nil.
func recordedBody(body []byte, contentType string) any {
	if len(body) == 0 || !isCapturableContentType(contentType) {
		return nil
	}
	if contentType == "" || jsonContentTypeRE.MatchString(contentType) {
		trimmed := bytes.TrimSpace(body)
		// A top-level JSON string stays text: handed back as a string it must keep its quotes.
		if json.Valid(trimmed) && len(trimmed) > 0 && trimmed[0] != '"' && !bytes.Equal(trimmed, []byte("null")) {
			return json.RawMessage(body)
		}
	}
	return string(body)
}
