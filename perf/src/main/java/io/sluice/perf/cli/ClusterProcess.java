package io.sluice.perf.cli;

import io.sluice.dispatch.cluster.Session;
import io.sluice.transport.TransportContext;
import java.io.PrintWriter;
import java.util.function.Consumer;

/** What the cluster's processes (coordinator, CN, client) share: their transport settings and their log. */
final class ClusterProcess {
    private ClusterProcess() {
    }

    /** The transport of a cluster process: the defaults, with the cluster's term length unless one is set. */
    static TransportContext transport() {
        return Session.defaultTransport();
    }

    /** Log lines on {@code out}, flushed at once (another process may be waiting for one). */
    static Consumer<String> log(final PrintWriter out) {
        return line -> {
            synchronized (out) {
                out.println(line);
                out.flush();
            }
        };
    }
}
