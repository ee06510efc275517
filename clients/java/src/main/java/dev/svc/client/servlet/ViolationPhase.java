package dev.svc.client.servlet;

/** What was checked: the request before the servlet (strict), the response after it (strict), or both after it. */
public enum ViolationPhase {
    REQUEST,
    RESPONSE,
    INTERACTION
}
