package svc

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// MiddlewareStats counts what the middleware did since it started.
type MiddlewareStats struct {
	// Validated is how many exchanges (or strict-mode requests) the validator answered for.
	Validated int64
	// Violations is how many of those did not follow the contract.
	Violations int64
	// Rejected is how many requests were answered with 400 in strict mode.
	Rejected int64
	// Skipped is how many exchanges were left out: path filters, sampling, bodies over the limit.
	Skipped int64
	// Dropped is how many exchanges were not validated because the queue was full (or closed).
	Dropped int64
	// ValidatorErrors is how many validator calls failed (unreachable, deadline); traffic went on.
	ValidatorErrors int64
	// Pending is how many exchanges wait for validation or are being validated now.
	Pending int64
}

type middlewareCounters struct {
	validated, violations, rejected, skipped, dropped, validatorErrors atomic.Int64
}

type validationJob struct {
	request  capturedRequest
	response capturedResponse
}

// validationQueue runs the validations after the response: a bounded channel that drops (and
// counts) when full, a goroutine that groups what waits into batches, and a few workers that
// validate a batch each in one call.
type validationQueue struct {
	m      *Middleware
	jobs   chan validationJob
	stats  middlewareCounters
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	pending int64
	idle    chan struct{} // closed whenever pending is 0
	closed  bool

	logMu        sync.Mutex
	lastErrorLog time.Time
	unreported   int
}

func newValidationQueue(m *Middleware) *validationQueue {
	ctx, cancel := context.WithCancel(context.Background())
	q := &validationQueue{m: m, jobs: make(chan validationJob, m.config.QueueSize), ctx: ctx, cancel: cancel, idle: make(chan struct{})}
	close(q.idle)
	batches := make(chan []validationJob)
	go q.gather(batches)
	for range m.config.Workers {
		q.wg.Add(1)
		go q.work(batches)
	}
	return q
}

// enqueue never blocks: an exchange that finds the queue full is dropped and counted.
func (q *validationQueue) enqueue(request capturedRequest, response capturedResponse) {
	if (!q.responseOnly(&request) && !request.complete) || !response.complete {
		q.stats.skipped.Add(1)
		return
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		q.stats.dropped.Add(1)
		return
	}
	select {
	case q.jobs <- validationJob{request: request, response: response}:
		if q.pending == 0 {
			q.idle = make(chan struct{})
		}
		q.pending++
	default:
		q.stats.dropped.Add(1)
	}
}

func (q *validationQueue) done(n int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.pending -= int64(n)
	if q.pending == 0 {
		close(q.idle)
	}
}

// gather forms batches: exchanges that arrive within the batch delay of the first share one call,
// one burst of validator work for many exchanges instead of one wake-up (and one stream) each.
// When every worker is busy it waits, the queue fills, and new exchanges are dropped.
func (q *validationQueue) gather(batches chan<- []validationJob) {
	defer close(batches)
	batchDelay := time.NewTimer(DefaultValidationBatchDelay)
	batchDelay.Stop()
	for job := range q.jobs {
		batch := make([]validationJob, 1, DefaultMaxValidationBatch)
		batch[0] = job
		batchDelay.Reset(DefaultValidationBatchDelay)
	collect:
		for len(batch) < DefaultMaxValidationBatch {
			select {
			case next, ok := <-q.jobs:
				if !ok {
					break collect
				}
				batch = append(batch, next)
			case <-batchDelay.C:
				break collect
			}
		}
		batchDelay.Stop()
		batches <- batch
	}
}

func (q *validationQueue) work(batches <-chan []validationJob) {
	defer q.wg.Done()
	for batch := range batches {
		if q.ctx.Err() != nil {
			q.stats.dropped.Add(int64(len(batch)))
		} else {
			q.validate(batch)
		}
		q.done(len(batch))
	}
}

// responseOnly: strict mode checked the request before the handler, and a body the handler never
// read cannot be checked at all; only the response is left.
func (q *validationQueue) responseOnly(request *capturedRequest) bool {
	return q.m.config.Mode == Strict || request.bodyUnread
}

// validate checks a batch: each response alone where only the response is left
// (ValidateProducerResponse), else request and response together, several over one stream.
func (q *validationQueue) validate(batch []validationJob) {
	ctx, cancel := context.WithTimeout(q.ctx, q.m.config.ValidationTimeout)
	defer cancel()
	client, schema := q.m.client, q.m.schema()
	var interactions []validationJob
	for _, job := range batch {
		if !q.responseOnly(&job.request) {
			interactions = append(interactions, job)
			continue
		}
		// The request's path parameters matter; its body was checked before the handler, or never read.
		request := job.request.toRequest()
		request.Body = nil
		result, err := client.ValidateProducerResponse(ctx, request, job.response.toResponse(), schema...)
		q.settle(job, PhaseResponse, result, err)
	}
	switch {
	case len(interactions) == 1:
		result, err := client.Validate(ctx, interactions[0].request.toRequest(), interactions[0].response.toResponse(), schema...)
		q.settle(interactions[0], PhaseInteraction, result, err)
	case len(interactions) > 1:
		many := make([]Interaction, len(interactions))
		for i, job := range interactions {
			many[i] = Interaction{Request: job.request.toRequest(), Response: job.response.toResponse()}
		}
		results, err := client.ValidateMany(ctx, many, schema...)
		for i, job := range interactions {
			var result ValidationResult
			if err == nil {
				result = results[i]
			}
			q.settle(job, PhaseInteraction, result, err)
		}
	}
}

func (q *validationQueue) settle(job validationJob, phase Phase, result ValidationResult, err error) {
	if err != nil {
		q.validatorFailed(err)
		return
	}
	q.stats.validated.Add(1)
	if !result.Valid {
		q.m.report(phase, &job.request, job.response.status, result)
	}
}

// validatorFailed counts a failed validator call. A validator that keeps failing would flood the
// log: the first failure is logged, then one line per interval with the count. Failures caused by
// Close are not logged.
func (q *validationQueue) validatorFailed(err error) {
	q.stats.validatorErrors.Add(1)
	if q.ctx.Err() != nil {
		return
	}
	q.logMu.Lock()
	defer q.logMu.Unlock()
	q.unreported++
	if time.Since(q.lastErrorLog) < ValidatorErrorLogInterval {
		return
	}
	q.m.logger.Warn("contract validator unavailable; traffic continues unvalidated",
		"code", Code(err), "error", Message(err), "failures", q.unreported, "schemaId", q.m.config.SchemaID)
	q.lastErrorLog = time.Now()
	q.unreported = 0
}

func (r *capturedResponse) toResponse() Response {
	response := Response{StatusCode: r.status, Header: r.header}
	if len(r.body) > 0 {
		response.Body = r.body
	}
	return response
}

// Stats returns the counters so far.
func (m *Middleware) Stats() MiddlewareStats {
	q := m.queue
	q.mu.Lock()
	pending := q.pending
	q.mu.Unlock()
	return MiddlewareStats{
		Validated:       q.stats.validated.Load(),
		Violations:      q.stats.violations.Load(),
		Rejected:        q.stats.rejected.Load(),
		Skipped:         q.stats.skipped.Load(),
		Dropped:         q.stats.dropped.Load(),
		ValidatorErrors: q.stats.validatorErrors.Load(),
		Pending:         pending,
	}
}

// Flush waits until every exchange queued so far has been validated (tests, graceful shutdown),
// or until ctx is done.
func (m *Middleware) Flush(ctx context.Context) error {
	q := m.queue
	q.mu.Lock()
	idle := q.idle
	q.mu.Unlock()
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close stops the background validation: validations in flight are cancelled, waiting ones are
// dropped (counted), and later exchanges pass unvalidated. It is idempotent; call Flush first to
// let the queue drain. The handler keeps serving after Close.
func (m *Middleware) Close() error {
	q := m.queue
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return nil
	}
	q.closed = true
	close(q.jobs)
	q.mu.Unlock()
	q.cancel()
	q.wg.Wait()
	return nil
}
