package svc

import (
	"bufio"
	"io"
	"net"
	"net/http"
)

// capturedRequest is what the middleware keeps of a request; complete is false when its body
// could not be captured whole (over MaxBodyBytes, or read only in part by the handler). bodyUnread:
// the request came with a body the handler never read (it answered without it), so its bytes are
// unknown and only the response is checked, as in strict mode.
type capturedRequest struct {
	method     string
	url        string
	header     http.Header
	body       []byte
	complete   bool
	bodyUnread bool
}

func (r *capturedRequest) toRequest() Request {
	request := Request{Method: r.method, Path: r.url, Header: r.header}
	if len(r.body) > 0 {
		request.Body = r.body
	}
	return request
}

// capturedResponse is what the handler sent; complete is false when its body was over
// MaxBodyBytes or compressed by a handler mounted after the middleware.
type capturedResponse struct {
	status   int
	header   http.Header
	body     []byte
	complete bool
}

// bodyTap records a request body as the handler reads it, so it neither starts nor changes the
// reading.
type bodyTap struct {
	source     io.ReadCloser
	limit      int64
	expectBody bool
	// contentLength is the declared length, -1 when unknown.
	contentLength int64
	recorded      []byte
	overflow      bool
	eof           bool
	read          bool
}

func (t *bodyTap) Read(p []byte) (int, error) {
	t.read = true
	n, err := t.source.Read(p)
	if n > 0 && !t.overflow {
		if int64(len(t.recorded)+n) > t.limit {
			t.overflow, t.recorded = true, nil
		} else {
			t.recorded = append(t.recorded, p[:n]...)
		}
	}
	if err == io.EOF {
		t.eof = true
	}
	return n, err
}

func (t *bodyTap) Close() error { return t.source.Close() }

// captured is the body the handler read: complete when it read all of it (or there was none).
func (t *bodyTap) captured() ([]byte, bool) {
	if t.overflow {
		return nil, false
	}
	return t.recorded, t.eof || !t.expectBody || int64(len(t.recorded)) == t.contentLength
}

// unread is true when the request came with a body (a length above zero, or chunked) and nothing
// read any of it: the handler answered without it.
func (t *bodyTap) unread() bool {
	return t.expectBody && t.contentLength != 0 && !t.read
}

// responseRecorder passes the response through and keeps a copy of its status, headers and body.
// Flush, Hijack and http.ResponseController (through Unwrap) keep working.
type responseRecorder struct {
	http.ResponseWriter
	limit       int64
	status      int
	header      http.Header
	body        []byte
	overflow    bool
	wroteHeader bool
	hijacked    bool
}

func (w *responseRecorder) WriteHeader(status int) {
	if !w.wroteHeader && status >= 200 {
		w.wroteHeader = true
		w.status = status
		w.header = w.ResponseWriter.Header().Clone()
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *responseRecorder) Write(p []byte) (int, error) {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	if !w.overflow {
		if int64(len(w.body)+len(p)) > w.limit {
			w.overflow, w.body = true, nil
		} else {
			w.body = append(w.body, p...)
		}
	}
	return w.ResponseWriter.Write(p)
}

// Unwrap lets http.ResponseController reach the server's writer.
func (w *responseRecorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Flush implements http.Flusher for handlers that assert it directly.
func (w *responseRecorder) Flush() {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	_ = http.NewResponseController(w.ResponseWriter).Flush()
}

// Hijack implements http.Hijacker; a hijacked connection (a WebSocket) is not validated.
func (w *responseRecorder) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	conn, rw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err == nil {
		w.hijacked = true
	}
	return conn, rw, err
}

func (w *responseRecorder) captured() capturedResponse {
	header := w.header
	if !w.wroteHeader {
		header = w.ResponseWriter.Header().Clone()
	}
	complete := !w.overflow
	// A compressing handler mounted after the middleware hands over compressed bytes: nothing to check.
	if encoding := header.Get("Content-Encoding"); encoding != "" && encoding != "identity" {
		complete = false
	}
	// net/http sniffs the content type of a response that sets none; the validator sees what the
	// client saw.
	if header.Get("Content-Type") == "" && len(w.body) > 0 {
		if header == nil {
			header = http.Header{}
		}
		header.Set("Content-Type", http.DetectContentType(w.body))
	}
	return capturedResponse{status: w.status, header: header, body: w.body, complete: complete}
}

// readCloser puts a read-ahead body back: the bytes already read, then the rest of the stream.
type readCloser struct {
	io.Reader
	io.Closer
}
