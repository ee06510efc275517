package dev.svc.client.servlet;

/**
 * Counters of a {@link ContractValidationFilter}.
 *
 * @param validated exchanges (or strict-mode requests) the validator answered for
 * @param violations of those, the ones with violations
 * @param rejected requests answered with 400 in strict mode
 * @param skipped exchanges left out: path filters, sampling, bodies over the size limit
 * @param dropped exchanges not validated because the background queue was full
 * @param validatorErrors validations that failed (unreachable, deadline, refused); the traffic went on
 * @param pending validations queued or in flight now
 */
public record FilterStats(long validated, long violations, long rejected, long skipped, long dropped, long validatorErrors, long pending) {}
