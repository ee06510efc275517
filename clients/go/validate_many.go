package svc

import (
	"context"
	"errors"
	"io"
	"strconv"
	"sync"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/svc-contracts/svc/clients/go/svcpb"
)

// Limits of ValidateMany.
const (
	// MaxStreamReopens is how many times ValidateMany reopens a stream that ended UNAVAILABLE after
	// answering part of the batch (a server worker or the server went away).
	MaxStreamReopens = 3
	// UnaryFallbackConcurrency is the number of unary calls in flight when the server has no
	// streaming operation.
	UnaryFallbackConcurrency = 16
)

// ValidateMany validates many interactions over one ValidateInteractionStream call; the results
// come back in the order of interactions. The client's deadline covers the whole batch. A server
// without the streaming operation gets unary calls instead.
func (c *Client) ValidateMany(ctx context.Context, interactions []Interaction, opts ...CallOption) ([]ValidationResult, error) {
	messages := make([]*svcpb.InteractionRequest, len(interactions))
	for i := range interactions {
		message, err := c.interactionRequest(interactions[i].Request, &interactions[i].Response, opts)
		if err != nil {
			return nil, describeInteraction(i, err)
		}
		message.CorrelationId = strconv.Itoa(i)
		messages[i] = message
	}
	if len(messages) == 0 {
		return []ValidationResult{}, nil
	}
	ctx, cancel, err := c.callContext(ctx)
	if err != nil {
		return nil, err
	}
	defer cancel()

	answers := make([]*svcpb.ValidationResult, len(messages))
	pending := make([]int, len(messages))
	for i := range pending {
		pending[i] = i
	}
	for reopens := 0; len(pending) > 0; reopens++ {
		answered, err := c.streamOnce(ctx, messages, pending, answers)
		if err == nil {
			break
		}
		code := status.Code(err)
		if code == codes.Unimplemented && answered == 0 && len(pending) == len(messages) {
			if err := c.validateUnary(ctx, messages, answers); err != nil {
				return nil, err
			}
			break
		}
		if code != codes.Unavailable || answered == 0 || reopens >= MaxStreamReopens {
			return nil, opError("ValidateInteractionStream", err)
		}
		unanswered := pending[:0]
		for _, index := range pending {
			if answers[index] == nil {
				unanswered = append(unanswered, index)
			}
		}
		pending = unanswered
	}
	results := make([]ValidationResult, len(answers))
	for i, answer := range answers {
		results[i] = toValidationResult(answer)
	}
	return results, nil
}

// streamOnce sends the pending interactions over one stream and places each answer by its
// correlation id; it returns how many were answered and how the stream ended.
func (c *Client) streamOnce(ctx context.Context, messages []*svcpb.InteractionRequest, pending []int, answers []*svcpb.ValidationResult) (int, error) {
	ctx, cancel := context.WithCancel(ctx)
	stream, err := c.rpc.ValidateInteractionStream(ctx)
	if err != nil {
		cancel()
		return 0, err
	}
	var sender sync.WaitGroup
	sender.Add(1)
	go func() {
		defer sender.Done()
		for _, index := range pending {
			// A failed Send means the stream is over; Recv reports why.
			if stream.Send(messages[index]) != nil {
				return
			}
		}
		_ = stream.CloseSend()
	}()
	// The sender may be blocked on flow control: cancel before waiting for it.
	defer sender.Wait()
	defer cancel()

	answered := 0
	for {
		result, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			if answered == len(pending) {
				return answered, nil
			}
			return answered, status.Errorf(codes.Unavailable, "the stream ended after %d of %d results", answered, len(pending))
		}
		if err != nil {
			return answered, err
		}
		index, convErr := strconv.Atoi(result.GetCorrelationId())
		if convErr != nil || index < 0 || index >= len(answers) || answers[index] != nil {
			return answered, status.Errorf(codes.Internal, "the server answered an unknown correlation_id %q", result.GetCorrelationId())
		}
		answers[index] = result
		answered++
	}
}

// validateUnary validates every interaction with unary calls, a bounded number in flight; the first
// failure stops the others from starting new calls.
func (c *Client) validateUnary(ctx context.Context, messages []*svcpb.InteractionRequest, answers []*svcpb.ValidationResult) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	indices := make(chan int)
	var workers sync.WaitGroup
	for range min(UnaryFallbackConcurrency, len(messages)) {
		workers.Add(1)
		go func() {
			defer workers.Done()
			for index := range indices {
				result, err := c.rpc.ValidateInteraction(ctx, messages[index])
				if err != nil {
					cancel(opError("ValidateInteraction", err))
					continue
				}
				answers[index] = result
			}
		}()
	}
feed:
	for index := range messages {
		select {
		case indices <- index:
		case <-ctx.Done():
			break feed
		}
	}
	close(indices)
	workers.Wait()
	for _, answer := range answers {
		if answer != nil {
			continue
		}
		cause := context.Cause(ctx)
		var failed *statusError
		if errors.As(cause, &failed) {
			return cause
		}
		return opError("ValidateInteraction", status.FromContextError(cause).Err())
	}
	return nil
}
