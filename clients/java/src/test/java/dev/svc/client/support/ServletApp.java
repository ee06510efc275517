package dev.svc.client.support;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServlet;
import java.net.InetSocketAddress;
import java.util.EnumSet;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/** A real Jetty 12 (ee10 servlet) server on a free loopback port: one servlet for every path, optionally behind a filter. */
public final class ServletApp implements AutoCloseable {
    private final Server server = new Server(new InetSocketAddress("127.0.0.1", 0));

    public ServletApp(Filter filter, HttpServlet servlet) throws Exception {
        ServletContextHandler context = new ServletContextHandler();
        ServletHolder holder = new ServletHolder(servlet);
        holder.setAsyncSupported(true);
        context.addServlet(holder, "/*");
        if (filter != null) {
            FilterHolder filterHolder = new FilterHolder(filter);
            filterHolder.setAsyncSupported(true);
            context.addFilter(filterHolder, "/*", EnumSet.of(DispatcherType.REQUEST));
        }
        server.setHandler(context);
        server.start();
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + ((ServerConnector) server.getConnectors()[0]).getLocalPort();
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException("jetty did not stop", e);
        }
    }
}
