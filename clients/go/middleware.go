package svc

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"
)

// Mode is how the producer middleware acts on violations. The recommended rollout goes
// shadow → warn → strict.
type Mode string

const (
	// Strict rejects a request that violates the contract with 400 before the handler runs and
	// logs a response violation as an error.
	Strict Mode = "strict"
	// Warn logs violations; traffic continues.
	Warn Mode = "warn"
	// Shadow logs nothing: violations are only counted and passed to OnViolation.
	Shadow Mode = "shadow"
)

// Phase says what a violation was found in.
type Phase string

const (
	// PhaseRequest: the request, checked before the handler (strict mode).
	PhaseRequest Phase = "request"
	// PhaseResponse: the response alone, after the handler (strict mode, or a request body the
	// handler never read).
	PhaseResponse Phase = "response"
	// PhaseInteraction: request and response together, after the handler (warn and shadow).
	PhaseInteraction Phase = "interaction"
)

// Defaults of the middleware, used where MiddlewareConfig leaves a field zero.
const (
	DefaultMiddlewareMode = Warn
	// DefaultMaxBodyBytes: exchanges with a larger request or response body are not validated.
	DefaultMaxBodyBytes = 1 << 20 // 1 MiB
	// DefaultQueueSize is how many exchanges may wait for validation besides the batches being
	// formed and validated; beyond it they are dropped (and counted), never waited for.
	DefaultQueueSize = 1000
	// DefaultValidationWorkers is how many validations run at once in the background.
	DefaultValidationWorkers = 4
	// DefaultMaxValidationBatch is how many waiting exchanges one worker validates in one
	// streaming call.
	DefaultMaxValidationBatch = 64
	// DefaultValidationBatchDelay is how long a worker that took an exchange waits for more to
	// validate with it; it bounds how late a violation is reported.
	DefaultValidationBatchDelay = 20 * time.Millisecond
	// DefaultRequestCheckTimeout bounds the strict-mode request check; past it the request goes
	// on unchecked.
	DefaultRequestCheckTimeout = 2 * time.Second
	// DefaultValidationTimeout bounds each background validation.
	DefaultValidationTimeout = 10 * time.Second
	// ValidatorErrorLogInterval: a validator that keeps failing is logged at most once per interval.
	ValidatorErrorLogInterval = time.Minute
)

// MiddlewareConfig configures [NewMiddleware]. Zero fields take the defaults above.
type MiddlewareConfig struct {
	// SchemaID is the schema the traffic is validated against (required).
	SchemaID string
	// SchemaVersion defaults to the latest.
	SchemaVersion string
	// Mode defaults to Warn.
	Mode Mode
	// IncludePaths: only paths matching one of these are validated ("*" one segment, "**" any
	// depth); nil means all.
	IncludePaths []string
	// ExcludePaths are never validated; they win over IncludePaths.
	ExcludePaths []string
	// SampleRate is the share of the selected exchanges that are validated, in (0, 1]; zero means 1.
	SampleRate float64
	// OnViolation is called for every violation, in every mode, from a background goroutine (the
	// request's goroutine for a strict-mode request violation). A panic in it is logged and
	// recovered.
	OnViolation func(Violation)
	// Logger defaults to slog.Default().
	Logger *slog.Logger
	// MaxBodyBytes defaults to DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// QueueSize defaults to DefaultQueueSize.
	QueueSize int
	// Workers defaults to DefaultValidationWorkers.
	Workers int
	// RequestCheckTimeout defaults to DefaultRequestCheckTimeout.
	RequestCheckTimeout time.Duration
	// ValidationTimeout defaults to DefaultValidationTimeout.
	ValidationTimeout time.Duration
}

// Violation is one exchange that does not follow the contract.
type Violation struct {
	Mode     Mode
	Phase    Phase
	SchemaID string
	Method   string
	// Path is the real path with its query string.
	Path string
	// StatusCode is the response status; 0 for a request rejected before the handler.
	StatusCode              int
	Errors                  []string
	ValidatedAgainstVersion string
}

// RejectionBody is the JSON body of a request rejected with 400 in strict mode.
type RejectionBody struct {
	Error   string   `json:"error"`
	Message string   `json:"message"`
	Errors  []string `json:"errors"`
}

// Middleware validates a producer's live traffic against its contract. Mount Handler in front of
// the application (chi: r.Use(m.Handler)). Validation after the response runs in a bounded
// background queue, so warn and shadow never delay a response, and a validator that fails or is
// unreachable never fails the application: the failure is counted and logged, traffic goes on
// (strict mode lets a request through when its check fails). Close it at shutdown.
type Middleware struct {
	client   *Client
	config   MiddlewareConfig
	included pathPatterns
	excluded pathPatterns
	logger   *slog.Logger
	queue    *validationQueue
}

// NewMiddleware checks config and starts the background validation workers.
func NewMiddleware(client *Client, config MiddlewareConfig) (*Middleware, error) {
	if client == nil {
		return nil, fmt.Errorf("svc: NewMiddleware needs a client")
	}
	if err := resolveMiddlewareConfig(&config); err != nil {
		return nil, err
	}
	included, err := compilePathPatterns("IncludePaths", config.IncludePaths)
	if err != nil {
		return nil, err
	}
	excluded, err := compilePathPatterns("ExcludePaths", config.ExcludePaths)
	if err != nil {
		return nil, err
	}
	m := &Middleware{client: client, config: config, included: included, excluded: excluded, logger: config.Logger}
	m.queue = newValidationQueue(m)
	return m, nil
}

func resolveMiddlewareConfig(config *MiddlewareConfig) error {
	if config.SchemaID == "" {
		return fmt.Errorf("svc: MiddlewareConfig.SchemaID must not be empty")
	}
	switch config.Mode {
	case "":
		config.Mode = DefaultMiddlewareMode
	case Strict, Warn, Shadow:
	default:
		return fmt.Errorf("svc: MiddlewareConfig.Mode must be strict, warn or shadow (got %q)", config.Mode)
	}
	if config.SampleRate == 0 {
		config.SampleRate = 1
	}
	if !(config.SampleRate > 0 && config.SampleRate <= 1) {
		return fmt.Errorf("svc: MiddlewareConfig.SampleRate must be in (0, 1] (got %v)", config.SampleRate)
	}
	if config.Logger == nil {
		config.Logger = slog.Default()
	}
	for name, value := range map[string]int64{
		"MaxBodyBytes": config.MaxBodyBytes, "QueueSize": int64(config.QueueSize), "Workers": int64(config.Workers),
		"RequestCheckTimeout": int64(config.RequestCheckTimeout), "ValidationTimeout": int64(config.ValidationTimeout),
	} {
		if value < 0 {
			return fmt.Errorf("svc: MiddlewareConfig.%s must not be negative (got %d)", name, value)
		}
	}
	config.MaxBodyBytes = orDefault(config.MaxBodyBytes, DefaultMaxBodyBytes)
	config.QueueSize = orDefault(config.QueueSize, DefaultQueueSize)
	config.Workers = orDefault(config.Workers, DefaultValidationWorkers)
	config.RequestCheckTimeout = orDefault(config.RequestCheckTimeout, DefaultRequestCheckTimeout)
	config.ValidationTimeout = orDefault(config.ValidationTimeout, DefaultValidationTimeout)
	return nil
}

// orDefault is value, or fallback when value is the zero value.
func orDefault[T comparable](value, fallback T) T {
	var zero T
	if value == zero {
		return fallback
	}
	return value
}

// Mode is the mode the middleware runs in.
func (m *Middleware) Mode() Mode { return m.config.Mode }

// Handler wraps next with producer validation; it has the shape of net/http middleware
// (func(http.Handler) http.Handler), so it mounts in chi, gorilla/mux and the net/http adapters of
// echo and gin.
func (m *Middleware) Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !m.selects(r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		// No copy of the request header: nothing writes it once the handler has returned.
		request := capturedRequest{method: r.Method, url: r.URL.RequestURI(), header: r.Header}
		var tap *bodyTap
		if m.config.Mode == Strict {
			if !m.checkRequest(w, r, &request) {
				return
			}
		} else {
			tap = &bodyTap{source: r.Body, limit: m.config.MaxBodyBytes, expectBody: r.Body != nil && r.Body != http.NoBody, contentLength: r.ContentLength}
			r.Body = tap
		}
		recorder := &responseRecorder{ResponseWriter: w, limit: m.config.MaxBodyBytes, status: http.StatusOK}
		next.ServeHTTP(recorder, r)
		if recorder.hijacked {
			return
		}
		if tap != nil {
			request.body, request.complete = tap.captured()
			request.bodyUnread = tap.unread()
		}
		m.queue.enqueue(request, recorder.captured())
	})
}

// selects applies the path filters, then sampling; exchanges left out are counted.
func (m *Middleware) selects(pathname string) bool {
	selected := (m.included == nil || m.included.matches(pathname)) && !m.excluded.matches(pathname) &&
		(m.config.SampleRate == 1 || rand.Float64() < m.config.SampleRate)
	if !selected {
		m.queue.stats.skipped.Add(1)
	}
	return selected
}

// checkRequest is strict mode's check before the handler: the body is read ahead (and put back
// for the handler). It answers 400 and reports false for a request that violates the contract; a
// validator failure lets the request through.
func (m *Middleware) checkRequest(w http.ResponseWriter, r *http.Request, request *capturedRequest) bool {
	request.complete = true
	if r.Body != nil && r.Body != http.NoBody {
		ahead, err := io.ReadAll(io.LimitReader(r.Body, m.config.MaxBodyBytes+1))
		r.Body = readCloser{Reader: io.MultiReader(bytes.NewReader(ahead), r.Body), Closer: r.Body}
		if err != nil || int64(len(ahead)) > m.config.MaxBodyBytes {
			// Unreadable (the client went away: the handler sees it too) or over the limit.
			m.queue.stats.skipped.Add(1)
			request.complete = false
			return true
		}
		request.body = ahead
	}
	ctx, cancel := context.WithTimeout(r.Context(), m.config.RequestCheckTimeout)
	defer cancel()
	result, err := m.client.ValidateRequest(ctx, request.toRequest(), m.schema()...)
	if err != nil {
		m.queue.validatorFailed(err)
		return true
	}
	m.queue.stats.validated.Add(1)
	if result.Valid {
		return true
	}
	m.queue.stats.rejected.Add(1)
	m.report(PhaseRequest, request, 0, result)
	body, _ := json.Marshal(RejectionBody{Error: "Bad Request", Message: "The request does not match the API contract", Errors: result.Errors})
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusBadRequest)
	_, _ = w.Write(body)
	return false
}

func (m *Middleware) schema() []CallOption {
	return []CallOption{ForSchema(m.config.SchemaID, m.config.SchemaVersion)}
}

// report logs a violation as the mode says and hands it to OnViolation.
func (m *Middleware) report(phase Phase, request *capturedRequest, statusCode int, result ValidationResult) {
	m.queue.stats.violations.Add(1)
	violation := Violation{
		Mode:                    m.config.Mode,
		Phase:                   phase,
		SchemaID:                m.config.SchemaID,
		Method:                  request.method,
		Path:                    request.url,
		StatusCode:              statusCode,
		Errors:                  result.Errors,
		ValidatedAgainstVersion: result.ValidatedAgainstVersion,
	}
	attrs := slog.Group("violation",
		"phase", string(phase), "schemaId", violation.SchemaID, "method", violation.Method, "path", violation.Path,
		"statusCode", violation.StatusCode, "errors", violation.Errors, "validatedAgainstVersion", violation.ValidatedAgainstVersion)
	switch {
	case m.config.Mode == Warn:
		m.logger.Warn("contract violation", attrs)
	case m.config.Mode == Strict && phase == PhaseRequest:
		m.logger.Warn("request rejected: contract violation", attrs)
	case m.config.Mode == Strict:
		m.logger.Error("response violates the contract", attrs)
	}
	if m.config.OnViolation != nil {
		m.callOnViolation(violation)
	}
}

func (m *Middleware) callOnViolation(violation Violation) {
	defer func() {
		if recovered := recover(); recovered != nil {
			m.logger.Error("OnViolation panicked", "panic", fmt.Sprint(recovered))
		}
	}()
	m.config.OnViolation(violation)
}
