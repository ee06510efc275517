package dev.svc.client.servlet;

import dev.svc.client.ContractValidator;
import dev.svc.client.Interaction;
import dev.svc.client.RequestOptions;
import dev.svc.client.ValidationRequest;
import dev.svc.client.ValidationResponse;
import dev.svc.client.ValidationResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * The validations made after the response, off the request path: a bounded queue (an exchange that
 * finds it full is dropped, and counted) drained by worker threads in batches, gathered for a short
 * delay after the first exchange arrives. A batch of whole
 * interactions goes over one stream ({@code validateMany}); response-only checks (strict mode) go one
 * call each. A failing validator costs the batch, never the application.
 */
final class BackgroundValidation {
    /** One exchange to validate; {@code responseOnly} in strict mode, where the request was checked before. */
    record Job(ValidationRequest request, ValidationResponse response, boolean responseOnly) implements Interaction {}

    private final ContractValidator validator;
    private final RequestOptions callOptions;
    private final int capacity;
    private final int maxBatch;
    private final long batchDelayMillis;
    private final BlockingQueue<Job> queue;
    private final BiConsumer<Job, ValidationResult> onResult;
    private final Consumer<RuntimeException> onFailure;
    private final List<Thread> workers = new ArrayList<>();
    /** Jobs queued or in flight: counted from offer() until their validation is done, so pending() never dips to 0 early. */
    private final AtomicInteger outstanding = new AtomicInteger();
    private volatile boolean stopped;

    BackgroundValidation(ContractValidator validator, RequestOptions callOptions, int capacity, int maxBatch, Duration batchDelay,
                         int threads, BiConsumer<Job, ValidationResult> onResult, Consumer<RuntimeException> onFailure) {
        this.validator = validator;
        this.callOptions = callOptions;
        this.capacity = capacity;
        this.maxBatch = maxBatch;
        this.batchDelayMillis = batchDelay.toMillis();
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.onResult = onResult;
        this.onFailure = onFailure;
        for (int i = 0; i < threads; i++) {
            Thread worker = new Thread(this::drain, "svc-contract-validation-" + i);
            worker.setDaemon(true);
            workers.add(worker);
            worker.start();
        }
    }

    /** Queues a job without waiting; false when {@code capacity} jobs are queued or in flight, or when stopped. */
    boolean offer(Job job) {
        if (stopped) return false;
        if (outstanding.incrementAndGet() > capacity || !queue.offer(job)) {
            outstanding.decrementAndGet();
            return false;
        }
        return true;
    }

    int pending() {
        return outstanding.get();
    }

    /** Waits until every job queued so far is done, at most {@code timeout}; true when all are. */
    boolean awaitIdle(Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (pending() > 0) {
            if (System.nanoTime() > end) return false;
            Thread.sleep(2);
        }
        return true;
    }

    /**
     * Stops taking jobs; the workers finish the batch they hold, bounded by {@code timeout}. Returns
     * how many queued jobs were left unvalidated.
     */
    int stop(Duration timeout) {
        stopped = true;
        List<Job> dropped = new ArrayList<>();
        queue.drainTo(dropped);
        outstanding.addAndGet(-dropped.size());
        for (Thread worker : workers) worker.interrupt();
        for (Thread worker : workers) {
            try {
                worker.join(timeout.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return dropped.size();
    }

    private void drain() {
        List<Job> batch = new ArrayList<>(maxBatch);
        while (!stopped) {
            try {
                Job first = queue.poll(1, TimeUnit.SECONDS);
                if (first == null) continue;
                batch.add(first);
                // Gather what arrives within the batch delay: one stream (and one wake-up) for many
                // exchanges instead of one each, unless a full batch is waiting already.
                if (batchDelayMillis > 0 && queue.size() < maxBatch - 1) Thread.sleep(batchDelayMillis);
                queue.drainTo(batch, maxBatch - 1);
                validate(batch);
            } catch (InterruptedException e) {
                if (stopped) return;
            } finally {
                outstanding.addAndGet(-batch.size());
                batch.clear();
            }
        }
    }

    private void validate(List<Job> batch) {
        List<Job> interactions = new ArrayList<>(batch.size());
        for (Job job : batch) {
            if (!job.responseOnly()) {
                interactions.add(job);
                continue;
            }
            try {
                onResult.accept(job, validator.validateProducerResponse(job.request(), job.response(), callOptions));
            } catch (RuntimeException e) {
                if (!stopped) onFailure.accept(e);
            }
        }
        if (interactions.isEmpty()) return;
        try {
            List<ValidationResult> results = validator.validateMany(interactions, callOptions);
            for (int i = 0; i < results.size(); i++) onResult.accept(interactions.get(i), results.get(i));
        } catch (RuntimeException e) {
            // Work cut short by stop() is not a validator failure.
            if (!stopped) for (int i = 0; i < interactions.size(); i++) onFailure.accept(e);
        }
    }
}
