package dev.svc.client.internal;

import dev.svc.client.ContractValidatorException;
import dev.svc.client.ErrorCode;
import io.grpc.Channel;
import io.grpc.Deadline;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import svc.ContractValidatorGrpc;
import svc.Svc;

/**
 * Validates many interactions over the bidirectional ValidateInteractionStream operation: requests
 * written as the stream is ready (flow control), each tagged with its index as {@code correlation_id},
 * results placed by it.
 *
 * <ul>
 *   <li>A stream that ends UNAVAILABLE after answering part of the batch is reopened for the
 *       interactions still unanswered, a bounded number of times.</li>
 *   <li>A server without the streaming operation (UNIMPLEMENTED before any result) gets unary calls
 *       instead, so suites also run against older servers.</li>
 * </ul>
 * The deadline covers the whole batch, reopened streams included.
 */
public final class ValidateManyCall {
    /** Streams reopened after an UNAVAILABLE end that followed some progress. */
    public static final int MAX_STREAM_REOPENS = 3;
    /** Grace beyond the deadline for the stream to report its end before we stop waiting. */
    private static final long END_GRACE_MS = 5_000;

    private final Channel channel;
    private final List<Svc.InteractionRequest> requests;
    private final Svc.ValidationResult[] results;
    private final Deadline deadline;

    private ValidateManyCall(Channel channel, List<Svc.InteractionRequest> requests, Deadline deadline) {
        this.channel = channel;
        this.requests = requests;
        this.results = new Svc.ValidationResult[requests.size()];
        this.deadline = deadline;
    }

    public static List<Svc.ValidationResult> run(Channel channel, List<Svc.InteractionRequest> requests, Deadline deadline) {
        return new ValidateManyCall(channel, requests, deadline).run();
    }

    private List<Svc.ValidationResult> run() {
        int reopens = 0;
        List<Integer> pending = new ArrayList<>(requests.size());
        for (int i = 0; i < requests.size(); i++) pending.add(i);
        while (!pending.isEmpty()) {
            Outcome outcome = streamOnce(pending);
            if (outcome.error() == null) break;
            boolean neverAnswered = outcome.answered() == 0 && pending.size() == requests.size();
            ErrorCode code = outcome.error().code();
            if (code == ErrorCode.UNIMPLEMENTED && neverAnswered) return unary();
            if (code != ErrorCode.UNAVAILABLE || outcome.answered() == 0 || reopens >= MAX_STREAM_REOPENS) throw outcome.error();
            reopens++;
            List<Integer> still = new ArrayList<>();
            for (int index : pending) if (results[index] == null) still.add(index);
            pending = still;
        }
        return List.of(results);
    }

    private record Outcome(int answered, ContractValidatorException error) {}

    private Outcome streamOnce(List<Integer> pending) {
        CompletableFuture<Outcome> done = new CompletableFuture<>();
        ClientResponseObserver<Svc.InteractionRequest, Svc.ValidationResult> observer = new ClientResponseObserver<>() {
            private ClientCallStreamObserver<Svc.InteractionRequest> stream;
            private int next;
            private int answered;
            private boolean halfClosed;

            @Override
            public void beforeStart(ClientCallStreamObserver<Svc.InteractionRequest> requestStream) {
                stream = requestStream;
                // Runs serialized on the call's executor, first when the call starts, then each time
                // the transport can take more.
                requestStream.setOnReadyHandler(this::writeWhileReady);
            }

            private void writeWhileReady() {
                while (!halfClosed && stream.isReady() && next < pending.size() && !done.isDone()) {
                    int index = pending.get(next++);
                    stream.onNext(requests.get(index).toBuilder().setCorrelationId(Integer.toString(index)).build());
                }
                if (!halfClosed && next == pending.size()) {
                    halfClosed = true;
                    stream.onCompleted();
                }
            }

            @Override
            public void onNext(Svc.ValidationResult result) {
                int index;
                try {
                    index = Integer.parseInt(result.getCorrelationId());
                } catch (NumberFormatException e) {
                    index = -1;
                }
                synchronized (results) {
                    if (index < 0 || index >= results.length || results[index] != null) {
                        fail(new ContractValidatorException(ErrorCode.INTERNAL,
                                "the server answered an unknown correlation_id \"" + result.getCorrelationId() + "\""));
                        return;
                    }
                    results[index] = result;
                    answered++;
                }
            }

            @Override
            public void onError(Throwable error) {
                done.complete(new Outcome(answered, ContractValidatorException.from(error)));
            }

            @Override
            public void onCompleted() {
                if (answered == pending.size()) done.complete(new Outcome(answered, null));
                else done.complete(new Outcome(answered, new ContractValidatorException(ErrorCode.UNAVAILABLE,
                        "the stream ended after " + answered + " of " + pending.size() + " results")));
            }

            private void fail(ContractValidatorException error) {
                if (done.complete(new Outcome(answered, error))) stream.cancel(error.getMessage(), null);
            }
        };
        ContractValidatorGrpc.newStub(channel).withDeadline(deadline).validateInteractionStream(observer);
        return await(done);
    }

    private List<Svc.ValidationResult> unary() {
        var stub = ContractValidatorGrpc.newBlockingStub(channel).withDeadline(deadline);
        List<Svc.ValidationResult> answers = new ArrayList<>(requests.size());
        try {
            for (Svc.InteractionRequest request : requests) answers.add(stub.validateInteraction(request));
        } catch (RuntimeException e) {
            throw ContractValidatorException.from(e);
        }
        return answers;
    }

    private Outcome await(CompletableFuture<Outcome> done) {
        try {
            return done.get(deadline.timeRemaining(TimeUnit.MILLISECONDS) + END_GRACE_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ContractValidatorException(ErrorCode.CANCELLED, "interrupted while validating", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new ContractValidatorException(ErrorCode.DEADLINE_EXCEEDED, "the validation stream did not end in time", e);
        }
    }
}
