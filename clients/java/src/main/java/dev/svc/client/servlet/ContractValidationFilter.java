package dev.svc.client.servlet;

import dev.svc.client.ContractValidator;
import dev.svc.client.ContractValidatorException;
import dev.svc.client.RequestOptions;
import dev.svc.client.ValidationRequest;
import dev.svc.client.ValidationResponse;
import dev.svc.client.ValidationResult;
import dev.svc.client.internal.Json;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Producer validation as a Jakarta Servlet {@link Filter} (Spring Boot, Jetty, Tomcat): checks the
 * exchanges a service answers against its registered contract.
 *
 * <ul>
 *   <li>{@code STRICT}: the request is checked before the servlet runs and a violation is answered with
 *       400 and a JSON body {@code {"error": "Bad Request", "message": ..., "errors": [...]}}; the response
 *       is checked afterwards and a violation is logged as an error.</li>
 *   <li>{@code WARN}: request and response are checked after the response, violations logged.</li>
 *   <li>{@code SHADOW}: as WARN, silent: violations are only counted and passed to the callback.</li>
 * </ul>
 *
 * <p>Two promises hold in every mode: the checks after the response never delay it (a bounded
 * background queue that drops, and counts, when full), and a validator that is down or slow never
 * breaks the application: a failed strict-mode request check lets the request through (fail open), and
 * every failure is counted and logged at most once per {@link Builder#validatorErrorLogInterval interval}.
 *
 * <pre>{@code
 * ContractValidationFilter filter = ContractValidationFilter.builder(validator, "users")
 *         .mode(ValidationMode.WARN)
 *         .includePaths("/api/**")
 *         .excludePaths("/api/health")
 *         .onViolation(violation -> metrics.count(violation))
 *         .build();
 * }</pre>
 */
public final class ContractValidationFilter implements Filter {
    public static final ValidationMode DEFAULT_MODE = ValidationMode.WARN;
    public static final int DEFAULT_MAX_BODY_BYTES = 1024 * 1024; // 1 MiB
    public static final int DEFAULT_MAX_PENDING_VALIDATIONS = 1_000;
    public static final int DEFAULT_MAX_BATCH = 64;
    public static final Duration DEFAULT_BATCH_DELAY = Duration.ofMillis(20);
    public static final int DEFAULT_WORKER_THREADS = 1;
    public static final Duration DEFAULT_REQUEST_CHECK_DEADLINE = Duration.ofSeconds(2);
    public static final Duration DEFAULT_VALIDATION_DEADLINE = Duration.ofSeconds(10);
    public static final Duration DEFAULT_VALIDATOR_ERROR_LOG_INTERVAL = Duration.ofSeconds(60);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);

    private static final System.Logger LOG = System.getLogger(ContractValidationFilter.class.getName());

    private final ContractValidator validator;
    private final String schemaId;
    private final ValidationMode mode;
    private final Predicate<String> included;
    private final Predicate<String> excluded;
    private final double sampleRate;
    private final Consumer<ContractViolation> onViolation;
    private final int maxBodyBytes;
    private final RequestOptions requestCheckOptions;
    private final long validatorErrorLogIntervalNanos;
    private final BackgroundValidation background;

    private final AtomicLong validated = new AtomicLong();
    private final AtomicLong violations = new AtomicLong();
    private final AtomicLong rejected = new AtomicLong();
    private final AtomicLong skipped = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong validatorErrors = new AtomicLong();
    private final AtomicLong unreportedValidatorErrors = new AtomicLong();
    private volatile long lastValidatorErrorLogNanos;
    private volatile boolean anyValidatorErrorLogged;

    private ContractValidationFilter(Builder builder) {
        this.validator = builder.validator;
        this.schemaId = builder.schemaId;
        this.mode = builder.mode;
        this.included = builder.includePaths == null ? null : PathPatterns.compile("includePaths", builder.includePaths);
        this.excluded = builder.excludePaths == null ? null : PathPatterns.compile("excludePaths", builder.excludePaths);
        this.sampleRate = builder.sampleRate;
        this.onViolation = builder.onViolation;
        this.maxBodyBytes = builder.maxBodyBytes;
        this.requestCheckOptions = new RequestOptions(schemaId, builder.schemaVersion, builder.requestCheckDeadline);
        this.validatorErrorLogIntervalNanos = builder.validatorErrorLogInterval.toNanos();
        this.background = new BackgroundValidation(validator,
                new RequestOptions(schemaId, builder.schemaVersion, builder.validationDeadline),
                builder.maxPendingValidations, builder.maxBatch, builder.batchDelay, builder.workerThreads,
                this::afterValidation, this::validatorFailed);
    }

    /** A filter for the schema {@code schemaId}, checked through {@code validator} (which the filter does not close). */
    public static Builder builder(ContractValidator validator, String schemaId) {
        return new Builder(validator, schemaId);
    }

    public ValidationMode mode() {
        return mode;
    }

    public FilterStats stats() {
        return new FilterStats(validated.get(), violations.get(), rejected.get(), skipped.get(), dropped.get(),
                validatorErrors.get(), background.pending());
    }

    /** Waits until every validation scheduled so far has finished, at most {@code timeout} (tests, graceful shutdown). */
    public boolean flush(Duration timeout) throws InterruptedException {
        return background.awaitIdle(timeout);
    }

    @Override
    public void doFilter(ServletRequest servletRequest, ServletResponse servletResponse, FilterChain chain) throws IOException, ServletException {
        if (!(servletRequest instanceof HttpServletRequest request) || !(servletResponse instanceof HttpServletResponse response)
                || !selects(request)) {
            chain.doFilter(servletRequest, servletResponse);
            return;
        }
        CapturingRequest capturedRequest = CapturingRequest.capture(request, maxBodyBytes);
        ValidationRequest validationRequest = new ValidationRequest(request.getMethod(), pathWithQuery(request),
                requestHeaders(request), capturedRequest.bodyCaptured() ? capturedRequest.bodyText() : "");
        if (mode == ValidationMode.STRICT && rejectsRequest(capturedRequest, validationRequest, response)) return;

        CapturingResponse capturedResponse = new CapturingResponse(response, maxBodyBytes);
        capturedRequest.pairWith(capturedResponse);
        chain.doFilter(capturedRequest, capturedResponse);
        if (request.isAsyncStarted()) {
            request.getAsyncContext().addListener(new AsyncListener() {
                @Override
                public void onComplete(AsyncEvent event) {
                    schedule(capturedRequest, validationRequest, capturedResponse);
                }

                @Override
                public void onTimeout(AsyncEvent event) {}

                @Override
                public void onError(AsyncEvent event) {}

                @Override
                public void onStartAsync(AsyncEvent event) {}
            });
        } else {
            schedule(capturedRequest, validationRequest, capturedResponse);
        }
    }

    @Override
    public void destroy() {
        // Exchanges still queued are left unvalidated: counted as dropped, as the Go middleware counts them.
        dropped.addAndGet(background.stop(STOP_TIMEOUT));
    }

    /** Path filters first, then sampling; exchanges left out are counted. */
    private boolean selects(HttpServletRequest request) {
        String path = request.getRequestURI();
        boolean selected = (included == null || included.test(path)) && (excluded == null || !excluded.test(path))
                && (sampleRate >= 1 || ThreadLocalRandom.current().nextDouble() < sampleRate);
        if (!selected) skipped.incrementAndGet();
        return selected;
    }

    /** Strict mode, before the servlet: answers 400 and returns true on a request violation. A validator failure lets the request through. */
    private boolean rejectsRequest(CapturingRequest captured, ValidationRequest request, HttpServletResponse response) throws IOException {
        if (!captured.bodyCaptured()) {
            skipped.incrementAndGet();
            return false;
        }
        ValidationResult result;
        try {
            result = validator.validateRequest(request, requestCheckOptions);
            validated.incrementAndGet();
        } catch (ContractValidatorException e) {
            validatorFailed(e);
            return false;
        }
        if (result.valid()) return false;
        rejected.incrementAndGet();
        report(ViolationPhase.REQUEST, request, null, result);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error", "Bad Request");
        body.put("message", "The request does not match the API contract");
        body.put("errors", result.errors());
        byte[] bytes = Json.encode(body).getBytes(StandardCharsets.UTF_8);
        response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
        response.setContentType("application/json");
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
        return true;
    }

    /** After the response: queue its validation without waiting (the response alone in strict mode). */
    private void schedule(CapturingRequest capturedRequest, ValidationRequest request, CapturingResponse response) {
        boolean responseOnly = mode == ValidationMode.STRICT;
        if ((!responseOnly && !capturedRequest.bodyCaptured()) || !response.bodyCaptured()) {
            skipped.incrementAndGet();
            return;
        }
        ValidationResponse validationResponse = new ValidationResponse(response.getStatus(), response.headers(), response.bodyText());
        if (!background.offer(new BackgroundValidation.Job(request, validationResponse, responseOnly))) dropped.incrementAndGet();
    }

    private void afterValidation(BackgroundValidation.Job job, ValidationResult result) {
        validated.incrementAndGet();
        if (!result.valid()) {
            report(job.responseOnly() ? ViolationPhase.RESPONSE : ViolationPhase.INTERACTION, job.request(), job.response().statusCode(), result);
        }
    }

    private void report(ViolationPhase phase, ValidationRequest request, Integer statusCode, ValidationResult result) {
        violations.incrementAndGet();
        ContractViolation violation = new ContractViolation(mode, phase, schemaId, request.method(), request.path(),
                statusCode, result.errors(), result.validatedAgainstVersion());
        switch (mode) {
            case WARN -> LOG.log(Level.WARNING, () -> "contract violation: " + describe(violation));
            case STRICT -> LOG.log(phase == ViolationPhase.REQUEST ? Level.WARNING : Level.ERROR,
                    () -> (phase == ViolationPhase.REQUEST ? "request rejected: contract violation: " : "response violates the contract: ")
                            + describe(violation));
            case SHADOW -> { }
        }
        if (onViolation != null) {
            try {
                onViolation.accept(violation);
            } catch (RuntimeException e) {
                LOG.log(Level.ERROR, "onViolation callback threw", e);
            }
        }
    }

    /** A validator that keeps failing would flood the log: the first failure, then one line per interval. */
    private void validatorFailed(RuntimeException error) {
        validatorErrors.incrementAndGet();
        long failures = unreportedValidatorErrors.incrementAndGet();
        long now = System.nanoTime();
        synchronized (this) {
            if (anyValidatorErrorLogged && now - lastValidatorErrorLogNanos < validatorErrorLogIntervalNanos) return;
            anyValidatorErrorLogged = true;
            lastValidatorErrorLogNanos = now;
            unreportedValidatorErrors.addAndGet(-failures);
        }
        LOG.log(Level.WARNING, () -> "contract validator unavailable; traffic continues unvalidated (schema " + schemaId
                + ", " + failures + " failure(s)): " + error.getMessage());
    }

    private static String describe(ContractViolation violation) {
        return violation.method() + " " + violation.path()
                + (violation.statusCode() == null ? "" : " -> " + violation.statusCode())
                + " " + violation.errors();
    }

    private static String pathWithQuery(HttpServletRequest request) {
        String query = request.getQueryString();
        return query == null ? request.getRequestURI() : request.getRequestURI() + "?" + query;
    }

    private static Map<String, String> requestHeaders(HttpServletRequest request) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (String name : Collections.list(request.getHeaderNames())) {
            headers.put(name.toLowerCase(Locale.ROOT), String.join(", ", Collections.list(request.getHeaders(name))));
        }
        return headers;
    }

    /** Configuration of a {@link ContractValidationFilter}; errors name the option. */
    public static final class Builder {
        private final ContractValidator validator;
        private final String schemaId;
        private String schemaVersion;
        private ValidationMode mode = DEFAULT_MODE;
        private List<String> includePaths;
        private List<String> excludePaths;
        private double sampleRate = 1.0;
        private Consumer<ContractViolation> onViolation;
        private int maxBodyBytes = DEFAULT_MAX_BODY_BYTES;
        private int maxPendingValidations = DEFAULT_MAX_PENDING_VALIDATIONS;
        private int maxBatch = DEFAULT_MAX_BATCH;
        private Duration batchDelay = DEFAULT_BATCH_DELAY;
        private int workerThreads = DEFAULT_WORKER_THREADS;
        private Duration requestCheckDeadline = DEFAULT_REQUEST_CHECK_DEADLINE;
        private Duration validationDeadline = DEFAULT_VALIDATION_DEADLINE;
        private Duration validatorErrorLogInterval = DEFAULT_VALIDATOR_ERROR_LOG_INTERVAL;

        private Builder(ContractValidator validator, String schemaId) {
            this.validator = Objects.requireNonNull(validator, "validator");
            if (schemaId == null || schemaId.isEmpty()) throw new IllegalArgumentException("schemaId must be non-empty");
            this.schemaId = schemaId;
        }

        /** Validate against this version; default the latest. */
        public Builder schemaVersion(String value) {
            this.schemaVersion = value;
            return this;
        }

        public Builder mode(ValidationMode value) {
            this.mode = Objects.requireNonNull(value, "mode");
            return this;
        }

        /** Only paths matching one of these are validated ({@code *} one segment, {@code **} any depth). */
        public Builder includePaths(String... patterns) {
            PathPatterns.compile("includePaths", List.of(patterns));
            this.includePaths = List.of(patterns);
            return this;
        }

        /** Paths never validated; wins over includePaths. */
        public Builder excludePaths(String... patterns) {
            PathPatterns.compile("excludePaths", List.of(patterns));
            this.excludePaths = List.of(patterns);
            return this;
        }

        /** Share of the selected exchanges that are validated, from 0 to 1; default 1. */
        public Builder sampleRate(double value) {
            if (!(value >= 0 && value <= 1)) throw new IllegalArgumentException("sampleRate must be from 0 to 1 (got " + value + ")");
            this.sampleRate = value;
            return this;
        }

        /** Called for every violation, in every mode, on the thread that found it; exceptions are logged and swallowed. */
        public Builder onViolation(Consumer<ContractViolation> value) {
            this.onViolation = value;
            return this;
        }

        /** Bodies larger than this are not captured; the exchange is skipped. Default 1 MiB. */
        public Builder maxBodyBytes(int value) {
            this.maxBodyBytes = positive("maxBodyBytes", value);
            return this;
        }

        /** Validations queued or in flight at once; beyond it exchanges are dropped (counted). Default 1,000. */
        public Builder maxPendingValidations(int value) {
            this.maxPendingValidations = positive("maxPendingValidations", value);
            return this;
        }

        /** Exchanges validated together over one stream. Default 64. */
        public Builder maxBatch(int value) {
            this.maxBatch = positive("maxBatch", value);
            return this;
        }

        /** How long the validations after a response wait to be gathered into one batch; zero for none. Default 20 ms. */
        public Builder batchDelay(Duration value) {
            if (value == null || value.isNegative()) throw new IllegalArgumentException("batchDelay must be zero or positive (got " + value + ")");
            this.batchDelay = value;
            return this;
        }

        /** Background threads that validate. Default 1. */
        public Builder workerThreads(int value) {
            this.workerThreads = positive("workerThreads", value);
            return this;
        }

        /** Deadline of the strict-mode request check; past it the request goes on unchecked. Default 2 s. */
        public Builder requestCheckDeadline(Duration value) {
            this.requestCheckDeadline = positive("requestCheckDeadline", value);
            return this;
        }

        /** Deadline of the validations made after the response. Default 10 s. */
        public Builder validationDeadline(Duration value) {
            this.validationDeadline = positive("validationDeadline", value);
            return this;
        }

        /** A validator that keeps failing is logged at most once per interval. Default 60 s. */
        public Builder validatorErrorLogInterval(Duration value) {
            this.validatorErrorLogInterval = positive("validatorErrorLogInterval", value);
            return this;
        }

        public ContractValidationFilter build() {
            return new ContractValidationFilter(this);
        }

        private static int positive(String option, int value) {
            if (value <= 0) throw new IllegalArgumentException(option + " must be a positive integer (got " + value + ")");
            return value;
        }

        private static Duration positive(String option, Duration value) {
            if (value == null || value.isNegative() || value.isZero()) throw new IllegalArgumentException(option + " must be a positive duration (got " + value + ")");
            return value;
        }
    }
}
