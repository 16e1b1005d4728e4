package io.sluice.dispatch.cluster;

import io.sluice.transport.ClusterSecret;
import io.sluice.transport.Endpoint;

/**
 * A cluster without a secret cannot tell its members from any process that reaches its ports, so it
 * stays on this host: a coordinator, CN or client without one may only listen on, bind to and reach
 * loopback addresses.
 */
final class LoopbackRule {
    private LoopbackRule() {
    }

    /**
     * Checks that {@code endpoints} are loopback addresses unless the context has a secret.
     *
     * @param what what the process was asked to do, for the message ("listen on 10.0.0.1:7400")
     * @throws IllegalArgumentException naming the address and both ways out
     */
    static void check(final ClusterContext context, final String what, final Endpoint... endpoints) {
        if (context.secret() != null) {
            return;
        }
        for (final Endpoint e : endpoints) {
            if (!e.address().isLoopbackAddress()) {
                throw new IllegalArgumentException("cannot " + what + " without a cluster secret: " + e.host()
                        + " is not a loopback address, and without a secret any host that reaches it could join the"
                        + " cluster or run queries. Give every process the same --secret-file FILE (or "
                        + ClusterSecret.FILE_ENV + "; make one with " + ClusterSecret.HOW_TO_MAKE + "), or use"
                        + " 127.0.0.1");
            }
        }
    }
}
