package svc_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	svc "github.com/svc-contracts/svc/clients/go"
)

// Benchmarks (not part of test.sh):
//
//	go test -run '^$' -bench . -benchtime 3000x ./
//
// Each one measures svc and its baseline in the same run and reports the ratio.

// benchRounds alternates the configurations, so that a drift of the machine hits all of them alike.
const benchRounds = 5

// BenchmarkMiddlewareLatency: the latency a client sees from the same handler served without the
// middleware, and behind it in shadow and in warn mode (keep-alive requests, one at a time);
// reports each p50 and p99 and the ratio of the p50s to the bare handler's.
func BenchmarkMiddlewareLatency(b *testing.B) {
	client, schemaID := newBoundClient(b)
	quiet := svc.MiddlewareConfig{SchemaID: schemaID, Logger: discardLogger()}
	configurations := []struct {
		name string
		mode svc.Mode
	}{{"bare", ""}, {"shadow", svc.Shadow}, {"warn", svc.Warn}}

	servers := make([]*httptest.Server, len(configurations))
	middlewares := make([]*svc.Middleware, len(configurations))
	for i, configuration := range configurations {
		var handler http.Handler = &usersApp{}
		if configuration.mode != "" {
			config := quiet
			config.Mode = configuration.mode
			middleware, err := svc.NewMiddleware(client, config)
			if err != nil {
				b.Fatal(err)
			}
			defer middleware.Close()
			middlewares[i] = middleware
			handler = middleware.Handler(handler)
		}
		servers[i] = httptest.NewServer(handler)
		defer servers[i].Close()
	}

	latencies := make([][]time.Duration, len(configurations))
	perRound := max(1, b.N/benchRounds)
	b.ResetTimer()
	for range benchRounds {
		for i, server := range servers {
			for range perRound {
				start := time.Now()
				getOnce(b, server, "/users/42")
				latencies[i] = append(latencies[i], time.Since(start))
			}
			if middlewares[i] != nil {
				// The queue drains before the next configuration runs, so each is measured alone.
				if err := middlewares[i].Flush(context.Background()); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	b.StopTimer()

	bareP50 := percentile(latencies[0], 50)
	for i, configuration := range configurations {
		p50, p99 := percentile(latencies[i], 50), percentile(latencies[i], 99)
		b.ReportMetric(float64(p50.Microseconds()), configuration.name+"-p50-µs")
		b.ReportMetric(float64(p99.Microseconds()), configuration.name+"-p99-µs")
		if i > 0 {
			b.ReportMetric(float64(p50)/float64(bareP50), configuration.name+"/bare-p50")
			stats := middlewares[i].Stats()
			if stats.Validated == 0 || stats.ValidatorErrors > 0 {
				b.Fatalf("%s: the middleware did not validate: %+v", configuration.name, stats)
			}
		}
	}
}

// BenchmarkValidateMany: a batch of interactions validated over one stream against the same
// interactions validated with one unary call each; reports both rates and the speed-up.
func BenchmarkValidateMany(b *testing.B) {
	client, _ := newBoundClient(b)
	const batch = 200
	interactions := make([]svc.Interaction, batch)
	for i := range interactions {
		interactions[i] = svc.Interaction{Request: svc.Request{Method: "GET", Path: fmt.Sprintf("/users/%d", i)}, Response: validUser}
	}
	ctx := context.Background()
	var streamed, oneByOne time.Duration
	b.ResetTimer()
	for range max(1, b.N/batch) {
		start := time.Now()
		if _, err := client.ValidateMany(ctx, interactions); err != nil {
			b.Fatal(err)
		}
		streamed += time.Since(start)

		start = time.Now()
		for _, interaction := range interactions {
			if _, err := client.Validate(ctx, interaction.Request, interaction.Response); err != nil {
				b.Fatal(err)
			}
		}
		oneByOne += time.Since(start)
	}
	b.StopTimer()
	validated := float64(max(1, b.N/batch) * batch)
	b.ReportMetric(validated/streamed.Seconds(), "many-interactions/s")
	b.ReportMetric(validated/oneByOne.Seconds(), "one-by-one-interactions/s")
	b.ReportMetric(oneByOne.Seconds()/streamed.Seconds(), "speed-up")
}

func getOnce(b *testing.B, server *httptest.Server, path string) {
	response, err := server.Client().Get(server.URL + path)
	if err != nil {
		b.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, response.Body)
	response.Body.Close()
	if response.StatusCode != http.StatusOK {
		b.Fatalf("status %d", response.StatusCode)
	}
}

func percentile(samples []time.Duration, p int) time.Duration {
	sorted := slices.Clone(samples)
	slices.Sort(sorted)
	return sorted[min(len(sorted)-1, len(sorted)*p/100)]
}

func discardLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
