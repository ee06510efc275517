package dev.svc.client.servlet;

/**
 * How the filter acts on violations. The recommended rollout goes {@code SHADOW → WARN → STRICT}.
 *
 * <table>
 *   <caption>Behaviour of each mode</caption>
 *   <tr><th>Mode</th><th>Request violation</th><th>Response violation</th></tr>
 *   <tr><td>STRICT</td><td>rejected with 400 before the servlet runs</td><td>logged as an error</td></tr>
 *   <tr><td>WARN</td><td>logged, the request continues</td><td>logged, the response continues</td></tr>
 *   <tr><td>SHADOW</td><td>silent (counted, callback)</td><td>silent (counted, callback)</td></tr>
 * </table>
 */
public enum ValidationMode {
    STRICT,
    WARN,
    SHADOW
}
